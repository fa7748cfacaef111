"""Markers that cite a line of another file the same run rewrote (`(pkg/server.py:14)`), renumbered for that
file as written (session 15's sweep A, r04: a helper's marker sent its reader into the middle of the RootPath
block that the server's rewrite added above the cited line).

The rewrite phase works file by file, so when a marker is written the file it cites may not be rewritten
yet. The engine notes the lines each rewrite moved (`_marker_lines.moves`, made where the file was rewritten),
holds back the results from the first file whose markers cite another one, and at the end renumbers those
citations: in the file as written (rewritten again, atomically, over the bytes the run wrote) and in its
diff. The results keep their order; findings keep the numbers as read (what they are reported against).
"""

from __future__ import annotations

from pathlib import Path

from migrate_roots import sourcefile, writer
from migrate_roots.engine_types import Moves, Options
from migrate_roots.model import FileResult, Status


class Recite:
    def __init__(self, options: Options) -> None:
        self.options = options
        self.moved: dict[str, Moves] = {}  # path (as reported) -> the lines its rewrite moved

    def note(self, result: FileResult, moved: Moves) -> None:
        if moved and result.status is Status.CHANGED and (result.written or not self.options.write):
            self.moved[result.path] = moved

    def cites(self, result: FileResult) -> bool:
        """Whether the file's new text (written, or shown as a diff) may cite another file's lines."""
        from migrate_roots.codemods._marker_lines import cites_elsewhere

        shown = result.written or result.diff is not None
        return shown and any(cites_elsewhere(f.message, result.path) for f in result.findings)

    def finish(self, held: list[FileResult]) -> list[FileResult]:
        """`held`, each citing file renumbered on disk and in its diff."""
        from migrate_roots.codemods._marker_lines import recite

        for result in held:
            if not self.cites(result):
                continue
            if result.diff is not None:
                result.diff = recite(result.diff, result.path, self.moved, prefix="+")
            if result.written:
                path = Path(result.path)
                try:
                    data = path.read_bytes()
                    source = sourcefile.decode(data)
                    text = recite(source.text, result.path, self.moved)
                    if text != source.text:
                        writer.write_atomic(path, source.encode(text), data)
                except (OSError, sourcefile.DecodeError, writer.ChangedOnDisk):
                    pass  # the file as written stands: its citations give the numbers as read
        return held
