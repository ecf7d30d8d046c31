"""Guiding the board back to the game after a change it does not show yet.

After every change of the game (a move played, a fight lost, an explosion, a takeback, a new
game) the tracker compares its *belief* of which piece stands where with the game:

* same occupancy and the same pieces: play goes on;
* otherwise **correction**: squares to empty (``REMOVE``), squares to fill (``PLACE``), and
  squares whose occupancy is right but whose piece is wrong (``swaps``: a Combat fight the
  attacker lost leaves the white knight where the black pawn belongs), which must be emptied
  and filled again. No move is accepted until the board matches. The instructions pair pieces
  with squares (pairing.py) and give each change its reason from the game's effects.

While the engine's board does not say which piece will stand on a square (a fight's dice are
pending), only occupancy is compared there (``target`` holds None).
"""

from __future__ import annotations

from ..palette import Meaning
from .outputs import GuidanceChanged
from .pairing import say_pairs
from .reading import note_illegal
from .state import CORRECT, PLAY, TrackerState, View


def compare_board(st: TrackerState) -> None:
    """After the game changed: does the believed physical board match it?"""
    board, target = st.belief, st.target
    if set(board) == set(st.E) and all(target[s] is None or board[s] == target[s] for s in st.E):
        enter_play(st)
        return
    st.mode = CORRECT
    st.vacated = set()
    st.swaps = {s for s in st.E & set(board) & st.S if target[s] is not None and board[s] != target[s]}
    st.candidate = None
    st.illegal_since = None
    st.recount()
    if st.S == st.E and not st.swaps:
        enter_play_from_correction(st)


def on_change(st: TrackerState) -> None:
    """The board changed while being corrected: play goes on once it matches."""
    if st.S == st.E and not st.swaps:
        enter_play_from_correction(st)


def enter_play(st: TrackerState) -> None:
    st.belief = {s: st.target[s] if st.target[s] is not None else st.belief.get(s) for s in st.E}
    st.mode = PLAY
    st.recount()
    # touched: what is lifted now, and (after a committed move) what was lifted after that
    # move landed, e.g. a victim taken off by a fast reply before the move was committed
    landed = st.landed
    st.T = set(st.L)
    st.seen = {}
    if landed is not None:
        st.T |= {s for s in st.E if st.vacated_at.get(s, -1) > landed}
    st.landed = None
    st.candidate = None
    st.illegal_since = None
    st.swaps = set()
    note_illegal(st, st.now)


def enter_play_from_correction(st: TrackerState) -> None:
    kept = {s: st.belief.get(s) for s in st.E if s not in st.vacated}
    st.belief = {s: st.target[s] if st.target[s] is not None else kept.get(s) for s in st.E}
    enter_play(st)


def half_fixed_belief(st: TrackerState) -> dict:
    """The game changed again during a correction: what stands where now, as far as the
    tracker can tell (a square emptied since holds what the game wanted there)."""
    return {s: (st.belief.get(s) if s not in st.vacated else st.target.get(s)) for s in st.S}


def correction_view(st: TrackerState) -> View:
    remove = (st.S - st.E) | st.swaps
    place = st.E - st.S
    m = st.backdrop.frame()
    for sq in place:
        m[sq] = Meaning.PLACE
    for sq in remove:
        m[sq] = Meaning.REMOVE
    sources = {s: (st.belief.get(s) if s not in st.vacated else None) for s in remove}
    targets = {s: st.target.get(s) for s in place | st.swaps}
    pairs, text = say_pairs(st.words, sources, targets, back=True, reasons=st.reasons)
    guidance = GuidanceChanged(text, tuple(sorted(remove)), tuple(sorted(place | st.swaps)), pairs)
    return View(m, guidance, "out-of-sync")
