"""Decode and re-encode Python source without losing a byte of what we do not change."""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass


class DecodeError(Exception):
    def __init__(self, message: str, line: int = 1) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Source:
    text: str
    encoding: str  # as tokenize names it; "utf-8-sig" keeps a BOM on the way back

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding)


def decode(data: bytes) -> Source:
    """PEP 263 and BOM aware decoding; a NUL byte or undecodable bytes raise DecodeError."""
    if b"\x00" in data:
        return _fail("file contains NUL bytes", data, data.index(b"\x00"))
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        raise DecodeError(f"bad encoding declaration: {exc.msg}", exc.lineno or 1) from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        return _fail(f"not valid {encoding} (no coding cookie says otherwise)", data, exc.start)
    except LookupError:
        raise DecodeError(f"unknown encoding {encoding!r}") from None
    return Source(text, encoding)


def _fail(message: str, data: bytes, offset: int) -> Source:
    raise DecodeError(message, data.count(b"\n", 0, offset) + 1)
