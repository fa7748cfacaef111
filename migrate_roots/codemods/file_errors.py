"""Codes the engine gives to files it could not process. No tokens, no nodes: listed so they can be
selected, ignored and documented like any rule."""

from __future__ import annotations

from migrate_roots.codemods.base import Rule
from migrate_roots.model import Severity


class _FileError(Rule):
    severity = Severity.ERROR
    tokens = ()
    limits = "The file is left byte-for-byte as it was; the run goes on with the other files (exit 3)."


class UnreadableFile(_FileError):
    code = "MR901"
    name = "unreadable-file"
    summary = "The file could not be read or written (permissions, a FIFO, a vanished file)."


class UndecodableFile(_FileError):
    code = "MR902"
    name = "undecodable-file"
    summary = (
        "The file is not valid in its declared encoding (PEP 263 cookie, BOM, or UTF-8), or holds NUL bytes."
    )


class UnparsableFile(_FileError):
    code = "MR903"
    name = "unparsable-file"
    summary = "The file is not valid Python 3.8-3.14 syntax, or is nested too deeply to parse."


class InternalError(_FileError):
    code = "MR904"
    name = "internal-error"
    summary = "migrate-roots failed on this file (a bug: please report it with the file); run with --verbose."


class ChangedDuringRun(_FileError):
    code = "MR905"
    name = "changed-during-run"
    summary = "The file changed on disk between read and write; it was not overwritten. Run again."


class ShimDiffers(_FileError):
    code = "MR906"
    name = "shim-differs"
    summary = "The compatibility module already exists with other content; it was left as it is."
    severity = Severity.INFO
    limits = "Your edited copy is kept; diff it against `migrate-roots shim` output to pick up fixes."


class TooLargeFile(_FileError):
    code = "MR907"
    name = "file-too-large"
    summary = (
        "The file holds a trigger token but is larger than 2 MB: skipped (libcst would need minutes and "
        "gigabytes for it)."
    )


class LinkedFile(_FileError):
    code = "MR908"
    name = "linked-file"
    summary = (
        "A symbolic link, or the file one points to: one file under two module names, whose callers "
        "migrate-roots cannot tell apart; left alone, and a link is never written over."
    )
