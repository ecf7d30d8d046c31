"""Strict reading of the journal's JSON: every field named, typed and bounded, each mistake one
:class:`~companion.errors.RecordError` line that names where it is (the tournament table's
entries read through the same reader, companion.tournament.table.setup.TableEntry)."""

from __future__ import annotations

import json
from typing import Any, Sequence

from ..errors import RecordError
from ..i18n import _


class JsonFields:
    """The fields of one JSON object: only ``keys`` (``optional`` ones may be missing), each read
    with the type it must have."""

    def __init__(self, value: Any, where: str, keys: Sequence[str], optional: Sequence[str] = ()) -> None:
        if not isinstance(value, dict):
            raise RecordError(_("{where}: expected a JSON object, got {text}").format(where=where, text=json.dumps(value)[:40]))
        unknown = sorted(set(value) - set(keys))
        if unknown:
            raise RecordError(_("{where}: unknown field {field!r} (expected {items})").format(where=where, field=unknown[0], items=', '.join(keys)))
        missing = [k for k in keys if k not in value and k not in optional]
        if missing:
            raise RecordError(_("{where}: field {field!r} is missing").format(where=where, field=missing[0]))
        self.value, self.where = value, where

    def text(self, key: str) -> str:
        v = self.value[key]
        if not isinstance(v, str):
            raise RecordError(_("{where}: field {key!r} must be text, got {value!r}").format(where=self.where, key=key, value=v))
        return v

    def optional_text(self, key: str) -> str | None:
        return None if self.value[key] is None else self.text(key)

    def flag(self, key: str) -> bool:
        v = self.value[key]
        if not isinstance(v, bool):
            raise RecordError(_("{where}: field {key!r} must be true or false, got {value!r}").format(where=self.where, key=key, value=v))
        return v

    def integer(self, key: str, least: int | None = None) -> int:
        v = self.value[key]
        if isinstance(v, bool) or not isinstance(v, int) or (least is not None and v < least):
            wrong = (_("{where}: field {key!r} must be a whole number of at least {least}, got {v!r}") if least is not None
                     else _("{where}: field {key!r} must be a whole number, got {v!r}"))
            raise RecordError(wrong.format(where=self.where, key=key, least=least, v=v))
        return v

    def faces(self, v: Any, name: str) -> tuple[int, ...]:
        if not isinstance(v, list) or not v or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            raise RecordError(_("{where}: field {name!r} must be a non-empty list of whole numbers, got {value!r}").format(where=self.where, name=name, value=v))
        return tuple(v)
