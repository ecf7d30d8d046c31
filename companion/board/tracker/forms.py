"""The physical forms of moves: what each action the game allows now does to the occupancy.

The board senses only occupancy, so the tracker knows a move by the squares it empties and
fills. :class:`Forms` works that out once per position, for every legal move and every answer
to a choice the engine waits for, and indexes the result for reading the board quickly.

Two ways to find a move's form:

* **Plain games** (chess, Combat Chess): ``rules.occupancy_after`` says the occupancy right after
  the move is made by hand (castling moves the rook too). Cheap: no move is played.
* **Games that record effects** (they define ``rules.describe_effects``: Dungeon Chess): every
  legal move is played and taken back, and the pieces are followed by their stable ``uid``.
  A move gets its *hand* form (the mover goes from ``frm`` to ``to``, its victim is taken off:
  what a hand does first) and, where the engine does more, either ``optional`` squares in the
  hand form (pieces that only disappear: an explosion, a rampage's further victims) or a
  second, *full* form (the board as the engine leaves it: a Troll pushed back while the
  attacker stays, a Tiger back on its square, two pieces swapped). A move that changes
  nothing on the board (a hex, a pass) is a *screen* move.

**Touched squares.** Occupancy alone cannot show a square whose piece is lifted and the same
square filled again, so every form names the squares that must have been lifted during the
move and stand filled at its end (``touch``): a capture's victim square when the mover lands
there; a square whose piece the engine replaces (a swap); and, for a form that only takes
pieces off, the acting piece's own square (the Tiger that returns, a King's whirlwind, a
piece entering its Tower) so that an enemy merely lifted is never read as a capture. A form
that changes no occupancy at all (a swap, a piece leaving its Tower by capturing) is shown by
the board returning to the game with exactly its ``touch`` squares lifted meanwhile.

**Gestures** (``rules.gestures``): an action the game lets players make by lifting pieces and
putting each back (an optional extra turn skipped by lifting a king) is a form of its own.

Pure: the position is read (and, for effect forms, played and taken back), never changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, NamedTuple

from ...core.moves import Answer, Move
from ...errors import VariantError
from ...i18n import _
from . import effects as fx
from .outputs import Action, Look


@dataclass(frozen=True)
class PhysicalMove:
    """What a move does to the occupancy; moves differing only in promotion share one.

    ``moves`` may hold an :class:`Answer` instead (a pending choice answered on the board).
    ``form`` is "hand" (what a hand does: the mover moves, its victim goes), "full" (every
    effect done too, e.g. a Troll pushed back while the attacker stays) or "gesture" (pieces
    lifted and put back, ``rules.gestures``). ``optional``: squares the players may already have
    emptied with the hand form (pieces an explosion destroys)."""

    moves: tuple[Action, ...]
    removed: frozenset[int]  # squares that end empty
    added: frozenset[int]  # empty squares that end filled
    touch: frozenset[int]  # squares that must be lifted during the move and end filled
    movers: frozenset[int]  # squares whose pieces move (the mover; castling's rook too)
    relocations: tuple[tuple[int, int], ...]  # (from, to) of each moving piece
    victims: frozenset[int]  # squares of captured pieces
    settle: str = "normal"  # "normal" | "slow" (could be extended) | "castle" (half of castling)
    form: str = "hand"  # "hand" | "full" | "gesture"
    optional: frozenset[int] = frozenset()
    effects: tuple = ()  # the engine's effects of the move (see effects.py)
    more: bool = False  # a hand form after which the engine's board differs (a full form exists)
    looks: tuple[tuple[int, Look], ...] = ()  # which piece stands on a square afterwards, where the
    # relocations do not say it: a piece come out of another, a Tower that stays when entered

    @property
    def frm(self) -> int:
        m = self.moves[0]
        if isinstance(m, Move):
            return m.frm
        return self.relocations[0][0] if self.relocations else -1

    @property
    def to(self) -> int:
        m = self.moves[0]
        if isinstance(m, Move):
            return m.to
        return self.relocations[0][1] if self.relocations else -1

    @property
    def has_effects(self) -> bool:
        """Does the game change more squares than this form shows (guided afterwards)?"""
        return (self.form != "hand" or self.more or bool(self.optional)
                or fx.has_board_effects(self.effects))

    @property
    def in_place(self) -> bool:
        """Is the form shown by pieces lifted and put back, with no change of occupancy?
        (A hand form whose extra squares are optional is shown by taking some of them off.)"""
        return not self.removed and not self.added and (self.form == "gesture" or not self.optional)

    @property
    def key(self) -> tuple[frozenset[int], frozenset[int]]:
        return self.removed, self.added

    @property
    def footprint(self) -> frozenset[int]:
        return self.removed | self.added | self.victims | self.touch


_EMPTY: frozenset[int] = frozenset()


def look_of(piece) -> Look:
    """What a person sees on the square: the owner and the piece (a kind ``shown_as`` another
    is that other piece on the board: KoL's Tower with its King is the Tower)."""
    return (piece.owner, piece.kind.shown_as or piece.kind.code)


class Forms:
    """Every action possible in one position, in its physical forms, indexed for reading.

    ``expected``/``target``: the occupancy the game expects now and which piece should stand
    on each of its squares (None while the engine's board differs from what should stand, e.g.
    during a fight). ``pms``: the forms of the legal moves and of the answers made on the board
    (``answer_pms``: answers that move a piece, gestures that answer). ``screen_actions`` and
    ``standing_actions``: option text -> the moves that move no piece (a hex) and the answers of
    the standing question (a pending choice, a forced pass). ``action_text(action)`` names an
    action as the screen's options do."""

    def __init__(self, rules, pos, action_text: Callable[[Action], str], effectful: bool):
        self.rules = rules
        self.pos = pos
        self._action_text = action_text
        self.expected = E = frozenset(rules.expected_occupancy(pos))
        settled = E == pos.occupied()
        board = pos.board
        self.target: dict[int, Look | None] = {
            s: (look_of(board[s]) if settled and board[s] is not None else None) for s in E}
        self.depth = pos.depth
        # a game that is over (checkmate, a draw by rule, a fallen King) accepts no move
        over = rules.outcome(pos) is not None
        self.legal: list[Move] = rules.legal_moves(pos) if not over else []
        # a choice the engine waits for (not dice): its answers, made on the board or the screen
        self.answers: list[Answer] = (rules.answers(pos) if pos.pending is not None and not pos.pending.chance
                                      and not over else [])
        self._replies: dict[Move, list] = {}
        self.screen_actions: dict[str, Action] = {}  # option -> a move that moves no piece
        self.standing_actions: dict[str, Action] = {}  # option -> answer of the standing prompt
        pms = self._effect_forms(self.legal) if effectful else self._physical_moves(self.legal)
        self.answer_pms = self._answer_forms(self.answers) if self.answers else []
        gestures = getattr(rules, "gestures", None)
        gestures = gestures(pos) if gestures is not None and (self.legal or self.answers) else ()
        if gestures:
            for pm in self._gesture_forms(gestures):
                (self.answer_pms if isinstance(pm.moves[0], Answer) else pms).append(pm)
        self.pms: list[PhysicalMove] = pms + self.answer_pms
        self.partial = [pm for pm in self.pms if pm.optional]
        if not self.answers and len(self.legal) == 1 and self.legal[0].frm < 0 and self.legal[0].special == "pass":
            # the only legal move: asked as a question rather than offered as a screen move
            move = self.legal[0]
            self.screen_actions.pop(action_text(move), None)
            self.standing_actions[action_text(move)] = move
        self.index: dict[tuple, list[PhysicalMove]] = {}
        self.by_mover: dict[int, list[PhysicalMove]] = {}
        self.by_added: dict[int, list[PhysicalMove]] = {}
        self.by_square: dict[int, list[PhysicalMove]] = {}
        self.capture_targets: dict[int, set[int]] = {}
        for pm in self.pms:
            self.index.setdefault((pm.removed, pm.added), []).append(pm)
            for s in pm.movers:
                self.by_mover.setdefault(s, []).append(pm)
            for s in pm.added:
                self.by_added.setdefault(s, []).append(pm)
            for s in pm.removed | pm.victims:
                self.by_square.setdefault(s, []).append(pm)
            for v in pm.victims:
                self.capture_targets.setdefault(pm.frm, set()).add(v)
        self.check_squares: tuple[int, ...] = ()
        if pos.pending is None and pos.royals[pos.turn] and rules.in_check(pos):
            self.check_squares = tuple(sorted(pos.royals[pos.turn]))

    @property
    def pass_only(self) -> bool:
        """Is the standing question a forced pass (rather than a pending choice)?"""
        return not self.answers and bool(self.standing_actions)

    def candidates_for(self, L: set[int], X: set[int]) -> list[PhysicalMove]:
        """Forms that could involve the first placed square (or, with nothing placed, the
        first lifted one): a quick shortlist for the illegality check."""
        if X:
            return list(self.by_added.get(next(iter(X)), ()))
        if L:
            return list(self.by_square.get(next(iter(L)), ()))
        return []

    # ----- plain games ------------------------------------------------------------------------
    def _physical_moves(self, moves: list[Move]) -> list[PhysicalMove]:
        groups: dict[tuple, list[Move]] = {}
        for m in dict.fromkeys(moves):  # a move the vocabulary finds twice (leap and ride) counts once
            groups.setdefault((m.frm, m.to, m.capture, m.special), []).append(m)
        base = self.expected
        out = []
        for (frm, to, capture, special), ms in groups.items():
            after = frozenset(self.rules.occupancy_after(self.pos, ms[0]))
            removed = frozenset(base - after)
            added = frozenset(after - base)
            touch = frozenset({capture}) if capture is not None and capture in after else frozenset()
            victims = frozenset({capture}) if capture is not None else frozenset()
            relocations = [(frm, to)]
            others_from = sorted(removed - {frm} - victims)
            others_to = sorted(added - {to})
            relocations += list(zip(others_from, others_to))
            movers = frozenset(a for a, _ in relocations)
            out.append(PhysicalMove(tuple(ms), removed, added, touch, movers, tuple(relocations), victims))
        by_frm: dict[int, list[PhysicalMove]] = {}
        for pm in out:
            by_frm.setdefault(pm.frm, []).append(pm)
        multi = [pm for pm in out if len(pm.relocations) > 1]
        return [self._with_settle(pm, by_frm[pm.frm], multi) for pm in out]

    # ----- games that record effects -------------------------------------------------------------
    def _effect_forms(self, moves: list[Move]) -> list[PhysicalMove]:
        """Hand forms (with ``optional`` squares) and full forms; see the module docstring."""
        rules, pos = self.rules, self.pos
        base = self.expected
        uids = self._uids()
        groups: dict[tuple, list[Move]] = {}
        for m in dict.fromkeys(moves):  # a move the vocabulary finds twice (leap and ride) counts once
            groups.setdefault((m.frm, m.to, m.capture, m.special), []).append(m)
        made = []  # (the group, the hand's occupancy after, the engine's, effects, traced, looks)
        for key, ms in groups.items():
            frm, to, capture, _special = key
            hand_after = (base - {frm} - ({capture} if capture is not None else set())) | {to}
            # the engine's board after the move; pieces followed by uid only where needed: the
            # board differs from the hand's, nothing changed occupancy, or the mover landed on
            # an occupied square that is not its capture (a piece that stays, a second victim)
            rules.apply(pos, ms[0])
            try:
                after = frozenset(rules.expected_occupancy(pos))
                effects = tuple(pos.var("effects", ()) or ())
                follow = after != hand_after or after == base or (to != capture and to in base)
                # the engine may stop the move for a decision (Chess 2's duel) with the board
                # showing the move as made while its own pieces have not moved yet: then only
                # the occupancy says anything (the pieces emptied are gone, nothing moved)
                # dice to roll (a fight): the board shows the move as made while the engine's has
                # not moved yet, even where the two occupancies agree (a King stepping out of his
                # Tower to capture): the pieces the move attacks are its victims
                waiting = pos.pending is not None and pos.pending.chance
                settled = after == frozenset(pos.occupied()) and not waiting
                if follow and not settled:
                    gone = set(base - after - {frm})
                    if waiting:
                        mover = pos.board[frm].owner if pos.board[frm] is not None else -1
                        gone |= {s for s in (capture, to) if s is not None and s in base
                                 and pos.board[s] is not None and pos.board[s].owner != mover}
                    traced = _Traced((), frozenset(gone), frozenset(), ())
                else:
                    traced = _trace(uids, pos.board, base, after) if follow else None
                # who stands where the mover landed is then the engine's word (a Tower entered)
                looks = ((to, look_of(pos.board[to])),) if follow and settled and to in after else ()
            finally:
                rules.undo(pos)
            if after == base and not traced.relocations and not traced.gone:
                self.screen_actions[self._action_text(ms[0])] = ms[0]
                continue
            made.append((key, ms, hand_after, after, effects, traced, looks))
        destinations: dict[int, list[int]] = {}
        for (frm, to, _, _), *_ in made:
            destinations.setdefault(frm, []).append(to)
        hands: list[PhysicalMove] = []
        fulls: list[PhysicalMove] = []
        between = self._strictly_between
        for (frm, to, capture, _special), ms, hand_after, after, effects, traced, looks in made:
            victims = _EMPTY if capture is None else frozenset((capture,))
            if capture is not None and to != capture and to in base and to in traced.gone:
                victims = victims | {to}  # the mover took a second piece where it landed (Boris)
            removed, added = frozenset(base - hand_after), frozenset(hand_after - base)
            optional, more = _EMPTY, False
            if after != hand_after:
                full_removed, full_added = frozenset(base - after), frozenset(after - base)
                if full_added == added and removed <= full_removed:
                    optional = full_removed - removed
                else:
                    # the board as the engine leaves it, e.g. the Troll pushed back while the
                    # attacker stays (nothing to touch: it moved a piece), the Tiger back on
                    # its square (it must be lifted: only a piece disappears), a swap
                    touch = traced.replaced
                    if not traced.relocations and not full_added:
                        touch |= {frm, to} & base & after
                    fulls.append(PhysicalMove(tuple(ms), full_removed, full_added, frozenset(touch),
                                              frozenset(a for a, _ in traced.relocations), traced.relocations,
                                              traced.gone, form="full", effects=effects, looks=traced.arrivals))
                    more = True
            if frm == to and optional and removed:
                # the piece acts where it stands (a Whirlwind): whichever of its victims the hand
                # takes off first shows it, as long as the piece itself was touched; each victim
                # is one to take off (optional), none is the move's own capture square
                optional, removed, victims = optional | removed, _EMPTY, _EMPTY
            # a slide the hand may still be extending waits longer (as in _with_settle)
            settle = "normal"
            if frm != to:
                for other in destinations[frm]:
                    if other != to and between(frm, to, other):
                        settle = "slow"
                        break
            hands.append(PhysicalMove(tuple(ms), removed, added, frozenset((to,)) if to in base else _EMPTY,
                                      frozenset((frm,)), ((frm, to),) if frm != to else (), victims, settle,
                                      optional=optional, effects=effects, more=more,
                                      looks=looks if after == hand_after else ()))
        return hands + fulls

    def _answer_forms(self, answers: list[Answer]) -> list[PhysicalMove]:
        """Forms of the answers to a pending choice that move a piece (the Salamander's step);
        the others ("stay") are options of the standing prompt only (or gestures)."""
        rules, pos = self.rules, self.pos
        base = self.expected
        uids = self._uids()
        out = []
        for a in answers:
            rules.apply(pos, a)
            try:
                after = frozenset(rules.expected_occupancy(pos))
                effects = tuple(pos.var("effects", ()) or ())
                traced = _trace(uids, pos.board, base, after) if after != base else None
            finally:
                rules.undo(pos)
            self.standing_actions[self._action_text(a)] = a
            if traced is None or not traced.relocations:
                continue
            out.append(PhysicalMove((a,), frozenset(base - after), frozenset(after - base), traced.replaced,
                                    frozenset(x for x, _ in traced.relocations), traced.relocations, traced.gone,
                                    effects=effects, looks=traced.arrivals))
        return out

    def _gesture_forms(self, gestures) -> list[PhysicalMove]:
        """Forms of the game's gestures (``rules.gestures``): the squares lifted and put back;
        what the action takes off the board may be taken off at once (``optional``)."""
        rules, pos = self.rules, self.pos
        base = self.expected
        legal = set(self.legal) | set(self.answers)
        out = []
        for action, squares in gestures:
            squares = frozenset(squares)
            if action not in legal:
                raise VariantError(_("{name}: a gesture for {action!r}, which cannot be made now").format(
                    name=rules.name, action=action))
            if not squares or not squares <= base:
                raise VariantError(_("{name}: the gesture for {action!r} lifts {squares}; it must name squares that "
                                     "hold a piece").format(
                    name=rules.name, action=action, squares=sorted(squares)))
            rules.apply(pos, action)
            try:
                after = frozenset(rules.expected_occupancy(pos))
                effects = tuple(pos.var("effects", ()) or ())
            finally:
                rules.undo(pos)
            out.append(PhysicalMove((action,), frozenset(), frozenset(), squares, frozenset(), (), frozenset(),
                                    form="gesture", optional=frozenset(base - after - squares), effects=effects))
        return out

    def _uids(self) -> dict[int, int]:
        """uid -> square of every piece the board should show now."""
        board = self.pos.board
        return {board[s].uid: s for s in self.expected if board[s] is not None}

    # ----- settle times -------------------------------------------------------------------------
    def _with_settle(self, pm: PhysicalMove, same_piece: list[PhysicalMove],
                     multi: list[PhysicalMove]) -> PhysicalMove:
        """How long the board must show ``pm`` before it counts: longer if the same hand could
        still be on its way to another legal move (PicoChess's rule: only moves that can still
        be extended wait). ``same_piece``: the moves from the same square; ``multi``: moves of
        more than one piece (castling)."""
        settle = "normal"
        frm, to = pm.frm, pm.to
        for other in multi:
            if other is not pm and pm.removed <= other.removed and pm.added <= other.added:
                # a part of castling: the rook moved first waits long (the hand goes on to the
                # king); the king's first step waits like a slide
                if pm.relocations[0] in other.relocations[1:]:
                    settle = "castle"
                    break
                settle = "slow"
        if settle == "normal":
            for other in same_piece:
                if other is not pm and self._strictly_between(frm, to, other.to):
                    settle = "slow"
                    break
        if settle == "normal":
            return pm
        # a plain game's form carries nothing more than these
        return PhysicalMove(pm.moves, pm.removed, pm.added, pm.touch, pm.movers, pm.relocations, pm.victims, settle)

    def _strictly_between(self, a: int, b: int, c: int) -> bool:
        """Is ``b`` on the straight line from ``a`` to ``c``, before ``c``?"""
        w = self.rules.geometry.width
        dx1, dy1 = b % w - a % w, b // w - a // w
        dx2, dy2 = c % w - a % w, c // w - a // w
        if not (dx2 == 0 or dy2 == 0 or abs(dx2) == abs(dy2)):
            return False
        if dx1 * dy2 != dy1 * dx2 or dx1 * dx2 < 0 or dy1 * dy2 < 0:
            return False
        return max(abs(dx1), abs(dy1)) < max(abs(dx2), abs(dy2))

    # ----- replies (fast play) ----------------------------------------------------------------------
    def reply_shapes(self, move: Move) -> list[tuple[frozenset[int], frozenset[int], frozenset[int]]]:
        """The physical shape (emptied, filled, victims) of every legal reply to ``move``,
        worked out on a scratch copy; cached for this position. Only reached when a finished
        move and something more show at once."""
        cached = self._replies.get(move)
        if cached is not None:
            return cached
        rules = self.rules
        scratch = self.pos.copy()
        rules.apply(scratch, move)
        shapes = []
        if scratch.pending is None and rules.outcome(scratch) is None:
            before = frozenset(rules.expected_occupancy(scratch))
            for m2 in rules.legal_moves(scratch):
                if m2.special == "castle":
                    rules.apply(scratch, m2)
                    after = frozenset(rules.expected_occupancy(scratch))
                    rules.undo(scratch)
                else:
                    after = frozenset(rules.occupancy_after(scratch, m2))
                victims = frozenset({m2.capture}) if m2.capture is not None else frozenset()
                shapes.append((before - after, after - before, victims))
        self._replies[move] = shapes
        return shapes


class _Traced(NamedTuple):
    relocations: tuple[tuple[int, int], ...]  # pieces that moved: (from, to), by uid
    gone: frozenset[int]  # squares whose piece left the board
    replaced: frozenset[int]  # squares filled before and after, by another piece
    arrivals: tuple[tuple[int, Look], ...]  # pieces that came onto the board (out of another)


def _trace(uids_before: Mapping[int, int], board_after, base: frozenset[int], after: frozenset[int]) -> _Traced:
    """Follow the pieces by their stable uid from a board given as uid -> square to
    ``board_after``: which moved, which left the board, which squares changed their piece."""
    where_after = {board_after[s].uid: s for s in after if board_after[s] is not None}
    relocations = tuple(sorted((uids_before[u], s) for u, s in where_after.items()
                               if u in uids_before and uids_before[u] != s))
    gone = frozenset(s for u, s in uids_before.items() if u not in where_after)
    arrivals = tuple(sorted((s, look_of(board_after[s])) for u, s in where_after.items() if u not in uids_before))
    before_at = {s: u for u, s in uids_before.items()}
    replaced = frozenset(s for s in base & after if board_after[s] is not None
                         and s in before_at and before_at[s] != board_after[s].uid)
    return _Traced(relocations, gone, replaced, arrivals)
