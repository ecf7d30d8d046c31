"""The account's token on the disk: readable by the app's user only, never shown.

A :class:`Token` holds the text and shows itself as ``Token(...)`` in every ``repr``, ``str``
and f-string, so a log line or an error that formats one never carries it; only the adapter
asks :meth:`Token.reveal` for the ``Authorization`` header. The file is written with mode 0600
from its first byte (companion.tournament.files.write_private) and refused when others may
read it; "Disconnect" deletes it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import OnlineError
from ..i18n import _
from ..tournament.files import write_private
from .connect import check_token_text

MAX_TOKEN_FILE = 4096
FILE_NAME = "lichess.token"


class Token:
    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        self._text = check_token_text(text)

    def reveal(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return "Token(...)"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Token) and other._text == self._text

    def __hash__(self) -> int:
        return hash(self._text)

    def __reduce__(self):
        raise TypeError("a token is not pickled")


def read_token(path: str | os.PathLike) -> Token:
    """The token in ``path``; OnlineError says in one line what is wrong (no file, not
    readable, readable by others, not a token)."""
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise OnlineError(_("{path}: no such token file (create a token on lichess and save it there, or connect the "
                            "board from its screen)").format(path=p)) from None
    except OSError as e:
        raise OnlineError(_("{path}: cannot read the token file ({reason})").format(path=p, reason=e.strerror or e)) from None
    if not stat.S_ISREG(st.st_mode):
        raise OnlineError(_("{path}: not a file").format(path=p))
    if st.st_mode & 0o077:
        raise OnlineError(_("{path}: other users can read this token file (mode {mode:o}); make it yours only: chmod "
                            "600 {path}").format(path=p, mode=stat.S_IMODE(st.st_mode)))
    try:
        with open(p, "rb") as f:
            raw = f.read(MAX_TOKEN_FILE + 1)
    except OSError as e:
        raise OnlineError(_("{path}: cannot read the token file ({reason})").format(path=p, reason=e.strerror or e)) from None
    if len(raw) > MAX_TOKEN_FILE:
        raise OnlineError(_("{path}: more than {most} bytes; a token file holds one token").format(path=p, most=MAX_TOKEN_FILE))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise OnlineError(_("{path}: not a text file; a token file holds one token").format(path=p)) from None
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if len(lines) != 1:
        raise OnlineError((_("{path}: empty; a token file holds one token") if not lines else
                           _("{path}: more than one line; a token file holds one token")).format(path=p))
    return Token(check_token_text(lines[0], f"{path}"))


def save_token(path: str | os.PathLike, token: Token) -> Path:
    """Write ``token`` to ``path``, readable by this user only."""
    try:
        return write_private(path, token.reveal() + "\n")
    except OSError as e:
        raise OnlineError(_("{path}: cannot save the token ({reason})").format(path=path, reason=e.strerror or e)) from None


def remove_token(path: str | os.PathLike) -> bool:
    """Disconnect: delete the token file (True if there was one)."""
    try:
        os.unlink(path)
        return True
    except FileNotFoundError:
        return False
    except OSError as e:
        raise OnlineError(_("{path}: cannot remove the token ({reason})").format(path=path, reason=e.strerror or e)) from None
