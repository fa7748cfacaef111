"""A wrapper that keeps the tool's signature (`functools.wraps`), one for coroutines and one for plain
functions (the shape of stealth-chrome-devtools-mcp's `with_correlation_id`)."""

import functools
import inspect

CALLS = []


def stamped(func):
    name = getattr(func, "__name__", repr(func))
    if inspect.iscoroutinefunction(func):

        @functools.wraps(func)
        async def async_wrapper(*args, **kwargs):
            CALLS.append(name)
            return await func(*args, **kwargs)

        return async_wrapper

    @functools.wraps(func)
    def sync_wrapper(*args, **kwargs):
        CALLS.append(name)
        return func(*args, **kwargs)

    return sync_wrapper
