"""Where in a TOML text each key sits, so data errors can name a line.

``tomllib`` gives back plain dicts with no positions, yet a person fixing a map or a board
profile needs "line 12", not only "map.grid". This module scans the raw text once and records,
for every key it can see, the line of the key and the line where a multi-line string value's
first row starts. It is a best-effort reader of the common layouts (``[table]`` headers,
``key = value`` lines, dotted and quoted keys, multi-line strings); for anything it does not
follow (say a key inside an inline table) ``line_of`` falls back to the nearest enclosing key
it did see, and to ``None`` at worst: the caller then names the key without a line.

It also wraps ``tomllib`` so that a syntax error becomes the caller's own error class with the
file name in front, one line long.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from .bounds import MAX_DEPTH, MAX_DIGITS, check_toml
from .i18n import _

_BARE_KEY = r"[A-Za-z0-9_-]+"
_QUOTED_KEY = r'"(?:[^"\\]|\\.)*"' + r"|'[^']*'"
_KEY_PART = rf"(?:{_BARE_KEY}|{_QUOTED_KEY})"
_DOTTED_KEY = rf"{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*"
_HEADER = re.compile(rf"^\s*\[\[?\s*({_DOTTED_KEY})\s*\]\]?\s*(?:#.*)?$")
_KEY_LINE = re.compile(rf"^\s*({_DOTTED_KEY})\s*=\s*(.*)$")
_PART = re.compile(_KEY_PART)
_AT_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")
_DECLARED_TWICE = re.compile(r"Cannot declare \((.*)\) twice")


def _split_key(dotted: str) -> tuple[str, ...]:
    parts = []
    for match in _PART.finditer(dotted):
        part = match.group(0)
        if part[0] in "\"'":
            part = part[1:-1]
        parts.append(part)
    return tuple(parts)


@dataclass
class TomlLocations:
    """Line numbers (1-based) of the keys and table headers of one TOML text."""

    key_lines: dict[tuple[str, ...], int] = field(default_factory=dict)
    value_first_lines: dict[tuple[str, ...], int] = field(default_factory=dict)
    header_lines: dict[tuple[str, ...], list[int]] = field(default_factory=dict)

    @classmethod
    def scan(cls, text: str) -> "TomlLocations":
        found = cls()
        table: tuple[str, ...] = ()
        closing: str | None = None  # the delimiter that ends the multi-line string we are in
        for number, line in enumerate(text.splitlines(), start=1):
            if closing is not None:
                if closing in line:
                    closing = None
                continue
            header = _HEADER.match(line)
            if header:
                table = _split_key(header.group(1))
                found.header_lines.setdefault(table, []).append(number)
                found.key_lines.setdefault(table, number)
                continue
            key = _KEY_LINE.match(line)
            if not key:
                continue
            path = table + _split_key(key.group(1))
            found.key_lines.setdefault(path, number)
            value = key.group(2)
            for delimiter in ('"""', "'''"):
                if value.startswith(delimiter):
                    rest = value[len(delimiter):]
                    if delimiter in rest:
                        found.value_first_lines.setdefault(path, number)
                    else:
                        closing = delimiter
                        # TOML drops a newline right after the opening delimiter.
                        starts_next = rest.strip() == ""
                        found.value_first_lines.setdefault(path, number + 1 if starts_next else number)
                    break
        return found

    def line_of(self, *path: str) -> int | None:
        """The line of ``path``, or of its nearest enclosing key that was seen."""
        keys = tuple(path)
        while keys:
            if keys in self.key_lines:
                return self.key_lines[keys]
            keys = keys[:-1]
        return None

    def value_line(self, *path: str, row: int = 0) -> int | None:
        """The line of row ``row`` (0-based, counting the string's own lines) of a multi-line
        string value, when the value was written as one."""
        first = self.value_first_lines.get(tuple(path))
        return None if first is None else first + row


def parse_toml(text: str, source: str, error: type[Exception]) -> dict[str, Any]:
    """``tomllib.loads`` whose syntax errors become ``error`` with the file and line named, and
    whose values are held to companion.bounds (nesting depth, digits of a whole number)."""
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise error(_("{source}: values nested more than {max_depth} levels deep").format(
                        source=source, max_depth=MAX_DEPTH)) from None
    except tomllib.TOMLDecodeError as exc:
        raise _syntax_error(exc, text, source, error) from None
    except ValueError:  # int() past Python's 4,300-digit limit: tomllib lets it through
        long = _LONG_NUMBER.search(text)
        line = _(", line {line}").format(line=text.count(chr(10), 0, long.start()) + 1) if long else ""
        raise error(_("{source}{line}: a number of thousands of digits; numbers here have at most {max_digits} "
                      "digits").format(source=source, line=line, max_digits=MAX_DIGITS)) from None
    return check_toml(data, source, error, lambda *key: TomlLocations.scan(text).line_of(*key))


_LONG_NUMBER = re.compile(r"[0-9A-Fa-f_]{%d,}" % (MAX_DIGITS + 1))


def _syntax_error(exc: tomllib.TOMLDecodeError, text: str, source: str, error: type[Exception]) -> Exception:
    message = str(exc)
    at = _AT_LINE.search(message)
    where = _("{where}, line {line}").format(where=source, line=at.group(1)) if at else source
    twice = _DECLARED_TWICE.search(message)
    if twice:
        dotted = ".".join(re.findall(r"'((?:[^'\\]|\\.)*)'", twice.group(1)))
        earlier = TomlLocations.scan(text).header_lines.get(tuple(dotted.split(".")), [])
        first = _(" (first declared on line {earlier})").format(earlier=earlier[0]) if earlier else ""
        return error(_("{where}: the table [{dotted}] is declared twice{first}; expected each table once, merge "
                       "the two").format(where=where, dotted=dotted, first=first))
    bare = _AT_LINE.sub("", message).strip()
    return error(_("{where}: TOML syntax error: {bare}").format(where=where, bare=bare))
