"""Newline-delimited JSON, read from bytes as they come (sans-I/O).

Lichess streams its events as ndjson: one JSON object a line, and an empty line every few
seconds to keep the connection alive. :class:`NdjsonReader` is fed whatever the socket gave
(any split: half a line, three lines and a half, one byte) and returns what became complete:
a dict for each object line, :data:`KEEP_ALIVE` for each empty line. What is left of a line
cut by a closed stream is never parsed: :meth:`NdjsonReader.close` says how many bytes were
lost, and the stream is opened again (the game stream starts over with the whole game).

Every line is read within :mod:`companion.bounds` (numbers, nesting) and :data:`MAX_LINE_BYTES`
(a finished game of 600 moves is about 3 KB): a line past it, or one that is not a JSON
object, is an :class:`~companion.errors.OnlineError` naming the stream and the line's start.
"""

from __future__ import annotations

from typing import Any

from ..bounds import load_json
from ..errors import OnlineError
from ..i18n import _

#: The longest line a stream may send; a longer one ends the stream (it is not lichess).
MAX_LINE_BYTES = 256 * 1024


class KeepAlive:
    """An empty line: the server is still there."""

    def __repr__(self) -> str:
        return "KEEP_ALIVE"


KEEP_ALIVE = KeepAlive()


class NdjsonReader:
    """Bytes in, complete lines out. ``where`` names the stream in errors."""

    def __init__(self, where: str, max_line: int = MAX_LINE_BYTES) -> None:
        self.where = where
        self.max_line = max_line
        self._buffer = bytearray()
        self.lines = 0

    @property
    def pending(self) -> int:
        """Bytes of a line begun and not yet ended."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[dict[str, Any] | KeepAlive]:
        out: list[dict[str, Any] | KeepAlive] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            self._buffer += data[start:end]
            start = end + 1
            line, self._buffer = bytes(self._buffer), bytearray()
            out.append(self._line(line))
        self._buffer += data[start:]
        if len(self._buffer) > self.max_line:
            size, self._buffer = len(self._buffer), bytearray()
            raise OnlineError(_("{where}: a line of more than {size:,} bytes; lines here have at most {most:,}").format(
                where=self.where, size=size, most=self.max_line))
        return out

    def close(self) -> int:
        """The stream ended: the bytes of a cut line, which are dropped (0: it ended cleanly)."""
        lost, self._buffer = len(self._buffer), bytearray()
        return lost

    def _line(self, raw: bytes) -> dict[str, Any] | KeepAlive:
        self.lines += 1
        if len(raw) > self.max_line:
            raise OnlineError(_("{where}: a line of {n:,} bytes; lines here have at most {most:,}").format(
                where=self.where, n=len(raw), most=self.max_line))
        text = raw.decode("utf-8", errors="replace").strip()
        if not text:
            return KEEP_ALIVE
        value = load_json(text, _("{path}, line {number}").format(path=self.where, number=self.lines), OnlineError)
        if not isinstance(value, dict):
            raise OnlineError(_("{where}, line {line}: not a JSON object ({text!r})").format(
                where=self.where, line=self.lines, text=text[:40]))
        return value
