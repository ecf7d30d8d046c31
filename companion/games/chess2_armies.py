"""Chess 2's armies and the names its turn structure uses: shared by the rules
(companion/games/chess2.py) and the position text (companion/games/chess2_text.py)."""

from __future__ import annotations

from ..errors import VariantError
from ..i18n import _

WHITE, BLACK = 0, 1
#: the armies in the rulebook's order, with the letter that prefixes their piece codes
ARMIES = {"classic": "C", "nemesis": "N", "empowered": "E", "reaper": "R", "two-kings": "K", "animals": "A"}
START_STONES = 3
MAX_STONES = 6
MAX_BID = 2
#: duelling ranks: "pawn -> knight/bishop -> rook -> queen" (Kings never duel)
RANKS = {"pawn": 1, "knight": 2, "bishop": 2, "rook": 3, "queen": 4, "king": 0}
DUEL_KINDS = ("duel", "bids", "bluff")
KING_TURN = "king-turn"
SKIP = "skip"


def army_name(text: str) -> str:
    """``"Two Kings"``, ``"two_kings"``, ``"twokings"`` -> ``"two-kings"``; VariantError if unknown."""
    t = str(text).strip().lower().replace("_", "-").replace(" ", "-")
    if t == "twokings":
        t = "two-kings"
    if t not in ARMIES:
        raise VariantError(_("unknown Chess 2 army {text!r}; armies: {armies}").format(
                               text=text, armies=', '.join(ARMIES)))
    return t


def armies_in_text(text: str | None) -> dict:
    """The game option a position text names (``armies=classic,animals``): what its rules must
    be made with to read it back; nothing for a text without (other games)."""
    armies = next((f[len("armies="):] for f in (text or "").split() if f.startswith("armies=")), None)
    return {} if armies is None else {"armies": armies}


def parse_armies(text) -> tuple[str, str]:
    """``"classic,animals"`` (or a pair) -> ("classic", "animals")."""
    parts = [p for p in (text.split(",") if isinstance(text, str) else list(text))]
    if len(parts) != 2 or not all(str(p).strip() for p in parts):
        raise VariantError(_("armies {text!r}: expected two armies, white's then black's, e.g. classic,animals "
                             "(armies: {armies})").format(text=text, armies=', '.join(ARMIES)))
    return army_name(parts[0]), army_name(parts[1])
