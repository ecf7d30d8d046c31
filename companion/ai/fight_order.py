"""Captures ordered and skipped by their dice fight (table keys ``fight_order``, ``fight_see``,
``fight_see_depth``; docs/ai.md, "Chance nodes" and "Combat Chess, round 6"). With dice fights a
capture is a gamble: what it is worth on average is P(attacker wins) x the victim - P(defender
wins) x the attacker, from the exact odds of the two fighters (their dice, fatigue and weapon
choice; a bounce wins nothing). ``fight_order``: the search (companion.ai.search) orders captures
by it, a bad gamble after the quiet moves in the tree; ``fight_see``: the capture search skips a
capture worth less than nothing (a queen's 82% shot at a pawn: about -82), and with
``fight_see_depth`` the main search too, that many plies from the leaves.

A mixin of :class:`companion.ai.search.Search`: it needs ``rules``, ``pos`` and ``ev``.
"""

from __future__ import annotations

from ..core.moves import Move


class FightOrder:
    """``_fight_worth(move)``: a capture's fight by its odds, for move ordering and pruning."""

    def _init_fight_order(self, table) -> None:
        """Set ``fight_order``, ``fight_see`` and ``fight_see_depth`` from the table: on only in a
        game of two players with dice fights."""
        rules = self.rules
        sides = getattr(rules, "fight_sides", None)
        known = sides is not None and rules.nplayers == 2
        self.fight_order = bool(table.fight_order) and known
        self.fight_see = bool(table.fight_see) and known
        #: main-search plies left at which a bad gamble is skipped too (with fight_see; 0: never)
        self.fight_see_depth = int(table.fight_see_depth) if self.fight_see else 0
        if not (self.fight_order or self.fight_see):
            return
        self._fight_odds: dict = {}

    def _fight_worth(self, m: Move) -> float | None:
        """P(attacker) x victim - P(defender) x attacker for the capture ``m`` (order values),
        or None where one fighter does not settle it (King's Prerogative, two defenders)."""
        board = self.pos.board
        att, vic = board[m.frm], board[m.capture]
        if att is None or vic is None or m.special or (m.to != m.capture and board[m.to] is not None):
            return None
        tired = self.rules.fatigue_of
        afat = tired(self.pos, att) if att.state else 0
        dfat = tired(self.pos, vic) if vic.state else 0
        key = (att.kid, afat, vic.kid, dfat)
        odds = self._fight_odds.get(key)
        if odds is None:  # the rules' own exact odds (cached there, shared by every search)
            o = self.rules.attack_odds(att.kid, afat, vic.kid, dfat)
            odds = self._fight_odds[key] = (float(o.attacker), float(o.defender))
        ov = self.ev.order_values
        return odds[0] * ov[vic.kid] - odds[1] * ov[att.kid]
