"""The search's help for games won by reaching a zone (Chess 2's Midline Invasion), switched on
by a table key (docs/ai.md, "Chess 2's Midline race"); a mixin of :class:`companion.ai.search.Search`.

* ``goal_race``: the squares next to each player's goal zone (:func:`doorsteps`): the capture
  search asks whether the side to move, with a royal piece there, has a move that wins at once
  (:meth:`GoalRace._wins_next`) before it stands pat; and the search prunes nothing where an
  opponent of the side to move has one there (:meth:`GoalRace._threatened`).

The capture search's moves are the game's own (``rules.noisy_moves``, for Chess 2
companion/games/chess2_search.py), as in every game.
"""

from __future__ import annotations

from ..core.position import Position


def doorsteps(rules, neighbours) -> tuple[frozenset, ...]:
    """Per player, the squares outside its goal zone (``rules.goal_zone``) next to a square in it."""
    out = []
    for p in range(rules.nplayers):
        zone = rules.goal_zone(p)
        out.append(frozenset(s for s in range(len(neighbours)) if s not in zone
                             and any(z in zone for z in neighbours[s])))
    return tuple(out)


class GoalRace:
    """Needs from its search ``rules``, ``wins_at_once`` and ``is_over``."""

    def _wins_next(self, pos: Position, moves) -> bool:
        """Whether one of the side to move's legal ``moves`` wins at once."""
        wins = self.wins_at_once
        return any(wins(pos, m) for m in moves)

    def _threatened(self, pos: Position) -> bool:
        """Whether an opponent of the side to move has a royal piece next to its goal zone: the
        static evaluation (the goal term) cannot tell then whether the side to move can stop it
        crossing, so the search prunes nothing there (a blocking move is quiet, and a side far
        ahead in material may still lose next move)."""
        steps, mover = self._doorstep, pos.turn
        return any(k in steps[q] for q, squares in enumerate(pos.royals) if q != mover for k in squares)
