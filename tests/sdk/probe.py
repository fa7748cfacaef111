"""Run with an SDK env's python: which dotted names import there. argv[1]: JSON list; prints a JSON object."""

import contextlib
import importlib
import io
import json
import sys
import warnings


def exists(name: str) -> bool:
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # stdout is this probe's answer
                obj = importlib.import_module(".".join(parts[:split]))
        except (Exception, SystemExit):  # mcp.cli without typer prints and exits
            continue
        try:
            for attr in parts[split:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


warnings.simplefilter("ignore")
print(json.dumps({name: exists(name) for name in json.loads(sys.argv[1])}))
