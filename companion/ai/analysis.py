"""Review with analysis, the pure core: every move of a finished game scored against the best.

``review_game(rules, actions, analyser=..., now=..., budget=...)`` replays a game's actions
(moves, answers, dice outcomes: as ``companion ai-match --log`` and the journal keep them) and,
for each action a player chose (a move, or an answer to a choice: a promotion, a duel's "pass or
duel", a king-turn), asks the analyser for the best action and its score before the move and
for the played action's score at the same depth. Each reviewed move gets its class
(companion.ai.coach.classify: blunder, mistake, inaccuracy, by the loss of winning chances), the
best alternative, and the evaluation after it for the graph. Dice outcomes are played, not
judged (a good fight lost to the dice is no mistake: the move is judged by its expectation), and
so are joint decisions (Chess 2's secret bids: a mixed strategy has no single best part).

Analysers: :class:`SearchAnalyser` (our search, every game) and, for FIDE chess,
companion.ai.stockfish.StockfishAnalyser (Stockfish at full strength); :func:`analyser_for`
picks one. Nothing here reads the clock or starts a thread: ``now``, ``stop`` and
``on_progress`` are the caller's (companion.ai.worker.ReviewWorker runs it in the background
and posts progress to the UI).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from ..core.moves import Answer, Move
from .actions import action_of
from .coach import classify
from .search import Search

#: seconds per reviewed move by default (a 40-move game: under three minutes on this machine)
REVIEW_SECONDS = 1.0


class Analyser(Protocol):
    name: str

    def best(self, pos, *, now: Callable[[], float], budget: float | None, max_nodes: int | None,
             stop: Callable[[], bool] | None) -> tuple[object, float, int]:
        """(best action, its score from the actor's side, depth)."""

    def score_of(self, pos, action, depth: int, *, now: Callable[[], float], budget: float | None,
                 stop: Callable[[], bool] | None) -> float:
        """``action``'s score from the actor's side, searched to ``depth`` (or the budget)."""


class SearchAnalyser:
    """Our search as the analyser (every game; Combat Chess's fights by their expectation)."""

    def __init__(self, rules, search: Search | None = None):
        self.search = search or Search(rules)
        self.name = "our search"

    def best(self, pos, *, now, budget, max_nodes, stop):
        info = self.search.run(pos, now=now, budget=budget, max_nodes=max_nodes, stop=stop)
        self.search.trim()
        return info.best, info.score, info.depth

    def score_of(self, pos, action, depth, *, now, budget, stop):
        info = self.search.run(pos, now=now, max_depth=max(1, depth), only=(action,), stop=stop)
        return info.score


@dataclass(frozen=True)
class MoveReview:
    index: int                # position of the action in the game's list of actions
    player: int               # who chose it
    action: Move | Answer
    text: str                 # as the game writes it (e2e4, =duel)
    best: Move | Answer | None
    best_text: str
    best_score: float         # the best score before the move (centipawns, from the mover's side)
    played_score: float       # the played action's score at the same depth (mover's side)
    depth: int
    kind: str | None          # "blunder", "mistake", "inaccuracy" or None

    @property
    def drop(self) -> float:
        return max(0.0, self.best_score - self.played_score)


@dataclass(frozen=True)
class GameReview:
    moves: tuple[MoveReview, ...]
    nplayers: int
    analyser: str
    complete: bool            # False: stopped before the last move

    def count(self, player: int, kind: str) -> int:
        return sum(1 for m in self.moves if m.player == player and m.kind == kind)

    def graph(self, player: int = 0, clip: float = 1000.0) -> list[tuple[int, float]]:
        """The evaluation after each reviewed move from ``player``'s side, clipped to
        +-``clip`` centipawns (a mate counts ``clip``), as (action index, value): with two
        players every move (the opponent's scores turned round), with more only ``player``'s."""
        out = []
        for m in self.moves:
            if m.player == player:
                v = m.played_score
            elif self.nplayers == 2:
                v = -m.played_score
            else:
                continue
            out.append((m.index, max(-clip, min(clip, v))))
        return out


def reviewable(pos) -> bool:
    """Whether the action to come in ``pos`` is a player's choice the review judges."""
    pend = pos.pending
    return pend is None or not (pend.chance or pend.get("players"))


def parse_actions(rules, texts, position=None) -> list:
    """Actions as :func:`companion.ai.match.action_text` writes them (a log), as objects."""
    pos = position.copy() if position is not None else rules.start_position()
    out = []
    for text in texts:
        out.append(action_of(rules, pos, text))
        rules.play(pos, out[-1])
    return out


def review_game(rules, actions, *, analyser: Analyser, now: Callable[[], float], position=None,
                budget: float | None = REVIEW_SECONDS, max_nodes: int | None = None,
                stop: Callable[[], bool] | None = None,
                on_progress: Callable[[int, int, MoveReview], None] | None = None) -> GameReview:
    """Review ``actions`` (objects, or texts as ai-match logs them) played from ``position``
    (default: the start). ``budget`` seconds (or ``max_nodes``) per reviewed move for the best
    action; the played one is searched to the same depth. ``on_progress(done, total, review)``
    after each reviewed move; ``stop()`` ends the review early (``complete`` is then False)."""
    if actions and isinstance(actions[0], str):
        actions = parse_actions(rules, actions, position)
    pos = position.copy() if position is not None else rules.start_position()
    total = _count_reviewable(rules, pos, actions)
    reviews: list[MoveReview] = []
    complete = True
    for i, action in enumerate(actions):
        if reviewable(pos):
            if stop is not None and stop():
                complete = False
                break
            review = _review_one(rules, pos, i, action, analyser, now, budget, max_nodes, stop)
            reviews.append(review)
            if on_progress is not None:
                on_progress(len(reviews), total, review)
        rules.play(pos, action)
    return GameReview(tuple(reviews), pos.nplayers, analyser.name, complete)


def _count_reviewable(rules, pos, actions) -> int:
    work = pos.copy()
    n = 0
    for a in actions:
        n += reviewable(work)
        rules.apply(work, a)
    return n


def _review_one(rules, pos, index, action, analyser, now, budget, max_nodes, stop) -> MoveReview:
    pend = pos.pending
    player = pend.player if pend is not None and pend.player >= 0 else pos.turn
    best, best_score, depth = analyser.best(pos, now=now, budget=budget, max_nodes=max_nodes, stop=stop)
    if best is None or best == action:
        played = best_score
    else:
        played = analyser.score_of(pos, action, depth, now=now, budget=budget, stop=stop)
    kind = classify(best_score, played) if best is not None and best != action else None
    return MoveReview(index, player, action, _text(rules, pos, action), best,
                      _text(rules, pos, best) if best is not None else "", best_score, played, depth, kind)


def _text(rules, pos, action) -> str:
    if isinstance(action, Answer):
        return "=" + rules.answer_text(action)
    return rules.move_text(pos, action)


def actions_between(rules, positions, lasts, limit: int = 6) -> tuple[list, list[int]] | None:
    """The actions that lead from each position of ``positions`` to the next (a saved game's
    frames: the position after each move, and the (frm, to) of the move that led there), found
    by trying the moves from ``frm`` to ``to`` and then every answer and chance outcome until the
    next position's hash (at most ``limit`` actions a move: a fight, a duel's parts). Returns the
    actions in order and, for each, the frame it starts from; None if some move cannot be
    found (the review then has no analysis)."""
    actions: list = []
    frame_of: list[int] = []
    for k in range(len(positions) - 1):
        work = positions[k].copy()
        target = positions[k + 1].hash
        last = lasts[k + 1]
        found = _path(rules, work, target, last, limit)
        if found is None:
            return None
        actions += found
        frame_of += [k] * len(found)
    return actions, frame_of


def _path(rules, pos, target: int, last, limit: int):
    if pos.pending is None:
        if limit == 0:
            return None
        options = [m for m in rules.legal_moves(pos) if last is None or (m.frm, m.to) == tuple(last)]
    elif pos.pending.chance:
        options = [o.answer for o in rules.chance_outcomes(pos)]
    else:
        options = list(rules.answers(pos))
    for a in options:
        rules.apply(pos, a)
        try:
            if pos.pending is None and pos.hash == target:
                return [a]
            if pos.pending is not None and limit > 1:
                rest = _path(rules, pos, target, None, limit - 1)
                if rest is not None:
                    return [a, *rest]
        finally:
            rules.undo(pos)
    return None


def analyser_for(rules, *, stockfish_path: str | None = None) -> Analyser:
    """Stockfish for FIDE chess when it is installed, our search otherwise (every other game,
    Combat Chess included)."""
    if rules.name == "chess":
        from .stockfish import StockfishAnalyser, find_stockfish

        found = find_stockfish(stockfish_path)
        if found is not None:
            return StockfishAnalyser(rules, found)
    return SearchAnalyser(rules)
