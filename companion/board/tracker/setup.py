"""Setting up: guiding any board to a target occupancy (a new game's start position).

Every square to fill is lit ``SETUP_PLACE`` and every stray piece ``REMOVE``; the words name
the next square in order from a1 ("Put the white rook on a1. 31 more squares are lit.").
When the board shows the target, the belief of what stands where is the game's, and the
board is compared with the game as after any change (correction.py).
"""

from __future__ import annotations

from .. import texts
from ..palette import Meaning
from .correction import compare_board
from .outputs import GuidanceChanged, Output, SetupCompleted
from .state import PLAY, SETUP, TrackerState, View


def begin(st: TrackerState, target: frozenset[int] | None) -> None:
    """Guide the board to ``target`` (None: what the game expects)."""
    if target is not None:
        for sq in target:
            st.check_square(sq)
    st.setup_target = target
    st.mode = SETUP
    st.candidate = None
    st.request = None
    st.request_forms = []
    st.request_touched = set()


def check_done(st: TrackerState, t: int) -> list[Output]:
    target = st.setup_target if st.setup_target is not None else st.E
    if st.S != target:
        return []
    st.belief = {s: st.target.get(s) for s in target}
    st.mode = PLAY
    st.setup_target = None
    compare_board(st)
    return [SetupCompleted(t)]


def setup_view(st: TrackerState) -> View:
    target = st.setup_target if st.setup_target is not None else st.E
    place = sorted(target - st.S)
    remove = sorted(st.S - target)
    m = st.backdrop.frame()
    for sq in place:
        m[sq] = Meaning.SETUP_PLACE
    for sq in remove:
        m[sq] = Meaning.REMOVE
    words = st.words
    sentences = []
    if remove:
        sentences.append(texts.text("setup take", piece=words.piece(None), square=words.name(remove[0])))
    elif place:
        sentences.append(texts.text("setup put", piece=words.piece(st.target.get(place[0])),
                                    square=words.name(place[0])))
    more = len(place) + len(remove) - 1
    if more > 0:
        sentences.append(texts.more_lit(more))
    return View(m, GuidanceChanged(" ".join(sentences), tuple(remove), tuple(place)), "setup")

