"""The pairing code: eight digits shown on one board and typed on the other's number pad.

The first two digits are the **nameplate**: they say where the two boards meet (the broker
topic, the board announced on the network) and are no secret. All eight digits are the password
of the key exchange (companion.link.pairing), so a stranger who knows the nameplate still has one
guess in a million per pairing, and a wrong guess shows: the pairing fails on both boards.
Digits only, so the number pad is all a player needs. Pure: the number comes from the edge.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LinkError
from ..i18n import _, ngettext

DIGITS = 8
NAMEPLATE_DIGITS = 2


@dataclass(frozen=True)
class PairingCode:
    digits: str

    def __post_init__(self) -> None:
        if not isinstance(self.digits, str) or len(self.digits) != DIGITS or not self.digits.isdigit() \
                or not self.digits.isascii():
            raise LinkError(_("a pairing code is {digits} digits, as the other board shows it").format(digits=DIGITS))

    @classmethod
    def from_number(cls, number: int) -> PairingCode:
        """The code for a number drawn at the edge (0 .. 10^8 - 1)."""
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < 10 ** DIGITS:
            raise LinkError(_("a pairing code is made from a number 0 to {most}").format(most=10 ** DIGITS - 1))
        return cls(f"{number:0{DIGITS}d}")

    @classmethod
    def parse(cls, text: str) -> PairingCode:
        """What a player typed (spaces and dashes allowed); one line if it is not a code."""
        if not isinstance(text, str):
            raise LinkError(_("a pairing code is {digits} digits, as the other board shows it").format(digits=DIGITS))
        clean = "".join(c for c in text if c not in " -·")
        if clean and (not clean.isdigit() or not clean.isascii()):
            raise LinkError(_("a pairing code has digits only ({digits} of them), got {text!r}").format(
                digits=DIGITS, text=text[:20]))
        if len(clean) != DIGITS:
            raise LinkError(ngettext("a pairing code is {digits} digits; {n} was typed", "a pairing code is {digits} digits; {n} were typed",
                                     len(clean)).format(digits=DIGITS, n=len(clean)))
        return cls(clean)

    @property
    def nameplate(self) -> str:
        """Where the boards meet; not secret."""
        return self.digits[:NAMEPLATE_DIGITS]

    @property
    def password(self) -> bytes:
        return b"companion link v1 code " + self.digits.encode("ascii")

    def shown(self) -> str:
        """As the screen shows it, in groups: ``12 345 678``."""
        d = self.digits
        return f"{d[:2]} {d[2:5]} {d[5:]}"

    def __repr__(self) -> str:  # never the whole code in a log
        return f"PairingCode(nameplate={self.nameplate!r})"
