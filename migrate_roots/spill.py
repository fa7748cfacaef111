"""Pickled objects kept in an anonymous temporary file until the run needs them again.

The main process of a run holds, for every file it indexed, what the package plan and the final output need:
summaries, results, speculative rewrites. Kept in memory they grew by about 13 KB a file (benchmark 4); here
they cost a file offset. The file lives in the system's temporary folder, never in the user's tree, and has
no name on POSIX systems (it disappears with the process, even a killed one).
"""

from __future__ import annotations

import pickle
import tempfile
from typing import Any

Ref = tuple[int, int]  # (offset, length)


class Spill:
    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="migrate-roots-")  # noqa: SIM115 (closed by the run)
        self._end = 0

    def put_bytes(self, blob: bytes) -> Ref:
        self._file.seek(self._end)
        self._file.write(blob)
        ref = (self._end, len(blob))
        self._end += len(blob)
        return ref

    def put(self, obj: Any) -> Ref:
        return self.put_bytes(pickle.dumps(obj, pickle.HIGHEST_PROTOCOL))

    def get(self, ref: Ref) -> Any:
        offset, length = ref
        self._file.seek(offset)
        return pickle.loads(self._file.read(length))

    def close(self) -> None:
        self._file.close()
