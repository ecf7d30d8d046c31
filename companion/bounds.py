"""Bounds on everything read from outside: files, the command line, a position text.

Python reads a number of any length and nests values as deep as its stack allows, so a
damaged or hostile file could end a reader with an error nobody expected: ``int()`` refuses
more than 4,300 digits with a bare ValueError, ``json.loads`` and ``tomllib`` end a deeply
nested value with RecursionError. Every reader of outside input goes through this module
instead, so such input is one clear :class:`~companion.errors.CompanionError` naming the file
and the place, like any other mistake:

* :func:`load_json` - one JSON text (a journal line, a dice record line, a sensor log line,
  a position variable): at most :data:`MAX_DEPTH` levels of arrays and objects, numbers of at
  most :data:`MAX_DIGITS` digits, finite, no ``NaN``/``Infinity``.
* :func:`check_toml` - the same bounds on a parsed TOML document (maps, rosters, armies,
  evaluation tables, board profiles), naming the key (companion.toml_locations calls it).
* :data:`MAX_JOURNAL_BYTES` / :data:`MAX_LINE_BYTES` - how much of a journal is read, and how
  long one of its lines may be (companion.journal).
* :func:`read_small_file` - a small file of the app's own (the arbiter's PIN record, the clock
  checkpoint): its bytes, None when there is none, and an error naming what stands in its place
  otherwise (a folder, a link to nothing, a named pipe that would block the reader, a file that
  cannot be read or is too large).
* :func:`whole_number` - a number written in a text format (FEN counters, empty-square
  counts, fatigue, piece state), at most :data:`MAX_DIGITS` digits and within its range.
* :func:`int_arg` / :func:`number_arg` - argparse types with a range: a bad value is one
  line from the parser, never an accepted ``--max-plies -4``.
* :func:`read_text_file` - a whole file read as text, never past its bound (``MAX_*_BYTES``):
  a longer file, or one that never ends (``/dev/zero``, a pipe fed forever), is one line.

No number any companion format needs comes near these bounds (the largest are millisecond
times in sensor logs, 13 digits for a year of play), and no format nests deeper than 5 levels.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import stat
from typing import Any, Callable

from .errors import CompanionError, RecordError
from .i18n import _

#: Digits a number read from outside may have (10**18 - 1 is the largest such whole number).
MAX_DIGITS = 18
#: Levels of nested arrays and objects a JSON or TOML value may have.
MAX_DEPTH = 16
#: Bytes of a journal that are read (a game of 10,000 entries is about 3 MB): what lies past
#: them is reported lost, as after a damaged line, so a hostile file cannot fill the memory.
MAX_JOURNAL_BYTES = 64 * 1024 * 1024
#: Bytes one journal line may have (an entry is a few hundred bytes; a game's start entry with
#: a whole map a few kilobytes): a longer line is damage, and is never written.
MAX_LINE_BYTES = 1024 * 1024

#: Bytes of the files read whole: maps, rosters, armies, evaluation tables and board profiles
#: (TOML of about 10 KB), a match's score, the names remembered.
MAX_DATA_FILE_BYTES = 1024 * 1024
#: Bytes of a Combat Chess dice record (a long game's is about 0.2 MB).
MAX_DICE_RECORD_BYTES = 16 * 1024 * 1024
#: Bytes of a sensor log (``companion replay``; a line a sensor change, about 60 bytes: half a
#: million changes).
MAX_SENSOR_LOG_BYTES = 32 * 1024 * 1024
#: Bytes of a pairing file (TRF-16 or CSV; a 1,000-player tournament's is about 0.2 MB) and of
#: a PGN file of the games folder.
MAX_PAIRING_BYTES = 4 * 1024 * 1024
MAX_PGN_FILE_BYTES = 16 * 1024 * 1024

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def read_small_file(path: str | os.PathLike, limit: int, where: str, *, whole: bool = True) -> bytes | None:
    """The bytes of a small file (at most ``limit``; a longer file is refused when ``whole``,
    else its first ``limit`` bytes are read): None when nothing is at ``path``; RecordError
    ``"<where>: <why>"`` when something else is there. It never opens what is not a regular
    file (a named pipe would block the reader)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.lexists(path):
            raise RecordError(_("{where}: it is a link to a file that is not there").format(where=where)) from None
        return None
    except OSError as e:
        raise RecordError(_("{where}: it cannot be read ({strerror})").format(
            where=where, strerror=e.strerror or e)) from None
    if stat.S_ISDIR(st.st_mode):
        raise RecordError(_("{where}: a folder is where the file should be").format(where=where))
    if not stat.S_ISREG(st.st_mode):
        raise RecordError(_("{where}: it is not a file").format(where=where))
    if whole and st.st_size > limit:
        raise RecordError(_("{where}: it is {st_size} bytes long; at most {limit} are expected").format(
                              where=where, st_size=st.st_size, limit=limit))
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1 if whole else limit)
    except OSError as e:
        raise RecordError(_("{where}: it cannot be read ({strerror})").format(
            where=where, strerror=e.strerror or e)) from None
    if len(data) > limit:
        raise RecordError(_("{where}: it is longer than {limit} bytes").format(where=where, limit=limit))
    return data


def _too_long(digits: str) -> bool:
    return len(digits) > MAX_DIGITS


def nested_too_deep(text: str) -> bool:
    """Whether arrays and objects nest more than :data:`MAX_DEPTH` levels in JSON ``text``
    (brackets inside strings do not count). Linear in the text; it never builds the value."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        else:
            depth = max(0, depth - 1)
    return False


def load_json(text: str, where: str, error: type[CompanionError] = RecordError) -> Any:
    """``json.loads`` within the bounds; anything else (not JSON, too deep, a number too long,
    ``NaN``) is ``error`` with ``where`` in front and the column where it can be named."""

    def integer(s: str) -> int:
        if _too_long(s.lstrip("-")):
            raise error(_("{where}: a number of {n} digits; numbers here have at most {max_digits} digits").format(
                            where=where, n=len(s.lstrip('-')), max_digits=MAX_DIGITS))
        return int(s)

    def number(s: str) -> float:
        mantissa = re.split(r"[eE]", s.lstrip("-"))[0].replace(".", "")
        value = float(s)
        if _too_long(mantissa.lstrip("0") or "0") or not math.isfinite(value):
            raise error(_("{where}: the number {number} is out of range; numbers here have at most {max_digits} "
                          "digits").format(where=where, number=s[:24] + ("..." if len(s) > 24 else ""),
                                           max_digits=MAX_DIGITS))
        return value

    def constant(s: str) -> Any:
        raise error(_("{where}: {s} is not a JSON number").format(where=where, s=s))

    if nested_too_deep(text):
        raise error(_("{where}: values nested more than {max_depth} levels deep").format(
                        where=where, max_depth=MAX_DEPTH))
    try:
        return json.loads(text, parse_int=integer, parse_float=number, parse_constant=constant)
    except json.JSONDecodeError as e:
        raise error(_("{where}: not valid JSON ({msg} at column {colno})").format(
                        where=where, msg=e.msg, colno=e.colno)) from None
    except RecursionError:  # the depth check above keeps this from happening; kept as a last guard
        raise error(_("{where}: values nested too deeply").format(where=where)) from None


def check_toml(data: dict, where: str, error: type[CompanionError],
               line_of: Callable[..., int | None] | None = None) -> dict:
    """``data`` (a parsed TOML document) if no value nests deeper than :data:`MAX_DEPTH` and no
    whole number has more than :data:`MAX_DIGITS` digits; otherwise ``error`` naming the key
    (and its line, when ``line_of(*key)`` knows it). Floats are left to the reader's own
    range checks (``inf`` and ``nan`` fail any of them)."""
    stack: list[tuple[Any, tuple[str, ...], int]] = [(data, (), 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise error(_toml_place(where, path, line_of) + _("values nested more than {max_depth} levels deep").format(
                                                                max_depth=MAX_DEPTH))
        if isinstance(value, dict):
            stack.extend((v, path + (str(k),), depth + 1) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, path, depth + 1) for v in value)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
            raise error(_toml_place(where, path, line_of) + _("a number of {n} digits; numbers here have at most "
                                                              "{max_digits} digits").format(
                                                                n=len(str(abs(value))), max_digits=MAX_DIGITS))
    return data


def _toml_place(where: str, path: tuple[str, ...], line_of) -> str:
    line = line_of(*path) if line_of is not None and path else None
    at = _("{where}, line {line}").format(where=where, line=line) if line else where
    return f"{at}: {'.'.join(path)}: " if path else f"{at}: "


def whole_number(text: str, what: str, error: type[CompanionError], low: int = 0, high: int | None = None) -> int:
    """The whole number written as ``text`` (digits only, at most :data:`MAX_DIGITS`), within
    ``low..high``; otherwise ``error`` saying ``what`` was expected."""
    span = (_("from {low} to {high}").format(low=low, high=high) if high is not None else
            _("of at least {low}").format(low=low))
    if not text.isascii() or not text.isdigit() or _too_long(text.lstrip("0") or "0"):
        shown = text if len(text) <= 24 else text[:24] + "..."
        raise error(_("{what}: expected a whole number {span}, got {shown!r}").format(
                        what=what, span=span, shown=shown))
    value = int(text)
    if value < low or (high is not None and value > high):
        raise error(_("{what}: expected a whole number {span}, got {value}").format(what=what, span=span, value=value))
    return value


def int_arg(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type=``: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        t = text.strip()
        digits = t[1:] if t[:1] in "+-" else t
        if not digits.isascii() or not digits.isdigit() or _too_long(digits.lstrip("0") or "0"):
            raise argparse.ArgumentTypeError(_("expected a whole number from {low:,} to {high:,}, got "
                                               "{short!r}").format(
                                                 low=low, high=high, short=_short(text)))
        value = int(t)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(_("expected a whole number from {low:,} to {high:,}, got {value}").format(
                                                 low=low, high=high, value=value))
        return value

    parse.__name__ = "whole number"
    return parse


def number_arg(low: float, high: float, *, above: bool = False) -> Callable[[str], float]:
    """An argparse ``type=``: a finite number from ``low`` to ``high`` (more than ``low`` when
    ``above``)."""
    span = (_("more than {low:g} and at most {high:g}") if above else _("from {low:g} to {high:g}")).format(
        low=low, high=high)

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < low or (above and value == low) or value > high:
            raise argparse.ArgumentTypeError(_("expected a number {span}, got {short!r}").format(
                                                 span=span, short=_short(text)))
        return value

    parse.__name__ = "number"
    return parse


def _short(text: str) -> str:
    return text if len(text) <= 24 else text[:24] + "..."


def _megabytes(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n:,} bytes"


def read_text_file(path, limit: int, what: str, error: type[CompanionError] = RecordError,
                   encoding: str = "utf-8") -> str:
    """The UTF-8 text of the file at ``path``, reading no more than ``limit`` bytes: a longer
    file, or one that never ends (``/dev/zero``), is ``error``: "<path>: longer than 16 MB; a
    dice record is at most 16 MB". OSError and UnicodeDecodeError as reading raises them (the
    caller names them in its own words)."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise error(_("{path}: longer than {megabytes}; {what} is at most {megabytes} (is it the right file?)").format(
                        path=path, megabytes=_megabytes(limit), what=what))
    return data.decode(encoding)
