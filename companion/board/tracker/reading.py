"""Reading a move off the board: matching what was lifted and placed against the forms, the
settle time, fast play, wrong placements, and handing the action to the session.

* The board shows a form when ``(L, X) == (removed, added)`` and, for a capture whose victim's
  square ends filled, that square is in ``T`` (its piece was lifted during this move). A hand
  form whose ``optional`` squares are partly emptied too counts as well (an explosion's victims
  taken off at once).
* The match becomes a :class:`Candidate`; it commits when the board has shown it unchanged for
  the settle time of its form (longer where the hand may still be on its way: a slide, the
  first half of castling). Several actions for one board open a question (prompts.py).
* Fast play: a move shown on its own before, and now also the start of a legal reply, commits
  at once (:func:`early_commit`).
* A piece put where no lifted piece may go is illegal at once (:func:`illegality`).
"""

from __future__ import annotations

from ...core.moves import Answer, Move
from .forms import PhysicalMove
from .outputs import Action, AnswerDetected, MoveDetected, Output, PromptWithdrawn
from .prompts import open_prompt, withdraw_prompt
from .state import PLAY, WAITING, Candidate, Done, TrackerState


def shows_partly(st: TrackerState, pm: PhysicalMove) -> bool:
    """Does the board show ``pm``'s hand form with some of its ``optional`` squares already
    emptied (a player taking off the pieces an explosion destroys right away)?"""
    L, X = st.L, st.X
    if frozenset(X) != pm.added or not pm.removed <= L or not L <= pm.removed | pm.optional:
        return False
    return pm.touch <= st.T


def explains(st: TrackerState, pm: PhysicalMove, exact: bool) -> bool:
    """Does the board show ``pm`` done (exactly, or with other pieces lifted besides)?"""
    L, X = st.L, st.X
    if exact:
        if (pm.removed, pm.added) != (frozenset(L), frozenset(X)):
            return False
    elif not (pm.removed <= L and pm.added <= X):
        return False
    return pm.touch <= st.T and pm.touch <= st.S


def consistent(st: TrackerState, pm: PhysicalMove) -> bool:
    """Could the board be on its way to ``pm`` (or show it)?"""
    L, X = st.L, st.X
    if not L and not X:
        return False
    if not X <= pm.added:
        return False
    allowed = pm.removed | pm.victims | pm.optional
    if not L <= allowed:
        return False
    return not X or bool(pm.movers & L)


def infer(st: TrackerState, t: int) -> list[Output]:
    """The board changed during play: what does it show now?"""
    out: list[Output] = []
    if st.prompt_pms and not any(consistent(st, pm) or explains(st, pm, exact=False) for pm in st.prompt_pms):
        out += withdraw_prompt(st)  # the pieces moved on: the question (or answer) lapses
    key = (frozenset(st.L), frozenset(st.X))
    requested = st.request is not None
    shown = [pm for pm in st.pool() if pm.key == key] if requested else st.forms.index.get(key, ())
    if not st.L and not st.X:
        # the board shows the game again: nothing, or a move that changes no occupancy (a swap,
        # a gesture) made by exactly the pieces lifted meanwhile; a move asked for counts once
        # each of its pieces has been lifted since it was asked, one after the other too
        T = st.T
        if requested:
            st.request_touched |= T
            T = st.request_touched
        matches = [pm for pm in shown
                   if pm.in_place and pm.touch <= T and (requested or T <= pm.touch | pm.optional)]
        st.T = set()
        st.seen.clear()
        st.illegal_since = None
        st.candidate = Candidate(matches, key, t, st.settles["normal"]) if matches else None
        return out
    matches = [pm for pm in shown if pm.touch <= st.T]
    if not matches:
        partial = [pm for pm in st.pool() if pm.optional] if requested else st.forms.partial
        matches = [pm for pm in partial if shows_partly(st, pm)]
    if matches:
        for pm in matches:
            st.seen[pm.key] = t
        settle = st.settles["normal"] if requested else max(st.settles[pm.settle] for pm in matches)
        st.candidate = Candidate(matches, key, t, settle)
        st.illegal_since = None
        return out
    st.candidate = None
    out += early_commit(st, t)
    if st.mode == PLAY:
        note_illegal(st, t)
    return out


def advance(st: TrackerState, t: int) -> list[Output]:
    """Time passed: a candidate that has settled commits, or asks which action was meant."""
    st.now = t
    c = st.candidate
    if st.mode != PLAY or c is None or t - c.since < c.settle_ms:
        return []
    moves = c.moves
    if st.choice in moves:
        pm = next(pm for pm in c.pms if st.choice in pm.moves)
        return commit(st, pm, st.choice)
    if len(moves) == 1:
        return commit(st, c.pms[0], moves[0])
    if st.prompt_pms == c.pms:
        return []  # already asked (and maybe answered for another promotion piece)
    return withdraw_prompt(st) + open_prompt(st, c.pms)


def early_commit(st: TrackerState, t: int) -> list[Output]:
    """The board showed a finished move and now also the start of the next player's move:
    commit it at once rather than after the settle time (fast play).

    Guarded against slides, brushes and changes of mind: the move must have been shown on
    its own before, and its piece must still stand where it went; what else changed, seen
    from the board after the move, must be the start of a legal reply (a piece of the next
    player lifted, a victim lifted, a piece put where a lifted one may go, also on the
    square the move just left); and an
    enemy piece the mover could capture, lifted while nothing was put down, may mean the
    player is changing their move into that capture: no commit until more happens."""
    found = []
    S = st.S
    for pm in st.pool():
        if pm.key not in st.seen or pm.has_effects or not isinstance(pm.moves[0], Move):
            continue  # a move with effects is guided afterwards: never rushed
        if len(pm.moves) != 1 and st.choice not in pm.moves:
            continue
        # the moved piece(s) still stand where they went (else the mover may be changing
        # their mind); a square the move emptied may be filled again by the reply
        if not pm.added <= S:
            continue
        if not (pm.touch <= st.T and pm.touch <= S):
            continue
        after = (st.E - pm.removed) | pm.added
        rest_l = frozenset(after - S)
        rest_x = frozenset(S - after)
        if not rest_l:
            continue
        if not rest_x and rest_l & st.forms.capture_targets.get(pm.frm, set()):
            continue
        move = pm.moves[0] if len(pm.moves) == 1 else st.choice
        if not is_reply_start(st, move, rest_l, rest_x):
            continue
        found.append((pm, move))
    if len(found) != 1:
        return []
    return commit(st, *found[0])


def is_reply_start(st: TrackerState, move: Move, lifted: frozenset[int], placed: frozenset[int]) -> bool:
    """After ``move``, is (lifted, placed) the start of some legal reply?"""
    for removed, added, victims in st.forms.reply_shapes(move):
        if lifted <= removed | victims and placed <= added and (not placed or lifted & (removed - victims)):
            return True
    return False


# ----- wrong placements ---------------------------------------------------------------------------
def illegality(st: TrackerState) -> tuple[set[int], str]:
    """Squares holding a piece where no lifted piece may go ("placed"), or, when every placed
    piece could be a legal move on its own but no single move explains them all, every placed
    square ("joint": two moves at once). Empty while the board may still become a legal move."""
    L, X = st.L, st.X
    if not X:
        return set(), ""
    pool = st.pool()
    requested = st.request is not None
    candidates = pool if requested else st.forms.candidates_for(L, X)
    if any(consistent(st, pm) for pm in candidates):
        return set(), ""
    bad = set()
    for x in X:
        options = pool if requested else st.forms.by_added.get(x, ())
        if not any(x in pm.added and (pm.movers & L or _arrives(pm, x)) for pm in options):
            bad.add(x)
    if bad:
        return bad, "placed"
    if any(X <= pm.added and (pm.movers & L or all(_arrives(pm, x) for x in X)) for pm in pool):
        return set(), ""
    return set(X), "joint"


def _arrives(pm: PhysicalMove, square: int) -> bool:
    """Does ``pm`` put a piece on ``square`` that comes out of another (a King leaving his
    Tower), so that no lifted piece is needed to fill it?"""
    return any(s == square for s, _ in pm.looks)


def note_illegal(st: TrackerState, t: int) -> None:
    """Remember since when the board has shown a wrong placement (for ``illegal_ms``)."""
    if illegality(st)[0]:
        if st.illegal_since is None:
            st.illegal_since = t
    else:
        st.illegal_since = None


# ----- handing the action over ---------------------------------------------------------------------
def commit(st: TrackerState, pm: PhysicalMove, move: Action) -> list[Output]:
    """The board shows ``pm`` made as ``move``: update the belief of what stands where and
    report it."""
    # when the board last showed the move by itself (a fast reply may have touched its
    # squares since); else when its last square changed
    landed = st.seen.get(pm.key)
    if landed is None:
        landed = max((st.changed_at[s] for s in pm.footprint | (pm.optional & st.L)
                      if s in st.changed_at), default=st.now)
    board = dict(st.belief)
    moving = [(a, b, board.get(a)) for a, b in pm.relocations]
    for s in pm.removed | pm.victims | (pm.optional & st.L):
        board.pop(s, None)
    for _, b, look in moving:
        board[b] = look
    for b, look in pm.looks:
        board[b] = look
    if isinstance(move, Move) and move.promotion and board.get(move.to) is not None:
        board[move.to] = (board[move.to][0], move.promotion)
    st.belief = board
    st.landed = landed
    return done(st, move, landed, pm.relocations[0] if isinstance(move, Answer) and pm.relocations else None)


def done(st: TrackerState, action: Action, t_ms: int, squares: tuple[int, int] | None = None) -> list[Output]:
    """Hand ``action`` to the session and wait for the game (the contract: the session
    applies it and calls position_changed). ``squares``: what to light as the last move
    (default: a move's from and to)."""
    if squares is None and isinstance(action, Move) and action.frm >= 0 and action.to >= 0:
        squares = (action.frm, action.to)
    st.committed = Done(action, st.pos.depth, squares)
    st.mode = WAITING
    st.candidate = None
    st.choice = None
    # a question still open was not answered (an answered one is closed already): the
    # board answered it (the Salamander stepped) or made it moot
    out: list[Output] = [PromptWithdrawn(st.prompt.kind)] if st.prompt is not None else []
    st.prompt = None
    st.prompt_pms = []
    st.request = None
    st.request_forms = []
    st.request_touched = set()
    st.illegal_since = None
    return out + [MoveDetected(action, t_ms) if isinstance(action, Move) else AnswerDetected(action, t_ms)]
