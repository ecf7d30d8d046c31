"""Human Combat Chess (``combat``): FIDE chess where every capture is a dice fight.

The seed: ../shared/seeds/003 ("Human Combat Chess - Tabletop Edition"); every decision is in
docs/rules/combat.md. Human Combat Chess is FIDE chess (companion/games/chess.py) with the dice
fight layer (companion/games/fights.py) in front of it: the same class that
``make_rules("chess", fights="dice")`` gives. What the layer adds to FIDE chess:

* A move onto an enemy piece does not capture: it stops the turn on a chance Decision
  ("fight"). The answer is either the dice faces of one round (a tie re-rolls: the decision
  stays pending with the next round number; the third tie bounces) or, for the AI and perft,
  a resolved outcome name ("attacker", "defender", "bounce") weighted by the exact odds.
* Fatigue is piece state (``fatigue``): -1 per earlier fight; the survivor gains one token;
  after a bounce both do. It stays with the piece, also through promotion.
* Compulsory moves: whoever threatens the enemy King at the start of their turn must attack it.
* A King that loses a fight loses the game.
* King's Prerogative: a checkmated King may attack an adjacent checking piece whose square is
  defended, fighting it and its supporters at once (one King die against the sum of theirs).
* "Only d6's" mode (option ``d6_only``).

The dice arithmetic is companion.dice.odds; the dice per piece maps/variants/fights.toml.
"""

from __future__ import annotations

from ..errors import PositionError
from .chess import ChessRules
from .fight_dice import MAX_TIES, piece_label, roll_pending_round
from .fights import PLAIN, RESULTS, FightLayer, register_fight_class
from ..i18n import _

__all__ = ["CombatRules", "MAX_TIES", "RESULTS", "make", "piece_label", "roll_pending_round"]


class CombatRules(FightLayer, ChessRules):
    """FIDE chess with dice fights."""

    name = "combat"
    title = "Human Combat Chess"
    unhashed_vars = ChessRules.unhashed_vars | {"fights", PLAIN}
    #: its own table (companion/ai/tables/combat.toml) already weighs fatigue
    evaluation_tables = ()

    def __init__(self, geometry=None, d6_only: bool = False):
        ChessRules.__init__(self, geometry)
        self.init_fights(d6_only)


register_fight_class(ChessRules, CombatRules)


def make(board_map=None, d6_only: bool = False, **options) -> CombatRules:
    if options:
        raise PositionError(_("combat takes the option d6_only only, got {options}").format(
                                options=', '.join(options)))
    if board_map not in (None, "standard"):
        from ..maps import load_map

        return CombatRules(load_map(board_map).geometry, d6_only=d6_only)
    return CombatRules(d6_only=d6_only)
