"""The JSON Schema of `migrate-roots report --format json`, generated through pydantic from the dataclasses.

`python -m migrate_roots.report.schema` rewrites migrate_roots/schemas/report-v1.json; a test checks the
committed file equals what this generates, so the schema cannot drift from the code.
"""

from __future__ import annotations

import json
from pathlib import Path

from migrate_roots.model import MigrationReport

VERSION = "1"
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schemas" / f"report-v{VERSION}.json"
SCHEMA_ID = f"urn:migrate-roots:report:v{VERSION}"


def generate() -> dict[str, object]:
    from pydantic import TypeAdapter

    schema = TypeAdapter(MigrationReport).json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"migrate-roots report, version {VERSION}",
        **{k: v for k, v in schema.items() if k != "title"},
    }


def dumps() -> str:
    return json.dumps(generate(), indent=2, sort_keys=True) + "\n"


def main() -> None:
    SCHEMA_PATH.write_text(dumps(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")


if __name__ == "__main__":
    main()
