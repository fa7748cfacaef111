"""Run with an SDK env's python: which dotted names import there. argv[1]: JSON list; prints a JSON object."""

import importlib
import json
import sys
import warnings


def exists(name: str) -> bool:
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:split]))
        except Exception:
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
