"""What to show: the LED meaning of every square and the words, for the state the tracker is in.

:func:`view` returns the whole picture (a :class:`View`); the façade compares it with what it
showed last and reports only the changes. During play:

* nothing in the air: the pending choice's hints, or the King in check and the last move, or
  (games on a map of seats) the side to move's pieces in its player colour;
* pieces in the air: ``LIFTED`` on their squares, their legal destinations (``MOVE``,
  ``CAPTURE``), the rest of a half-done move as hints ("Now move the white rook from h1 to
  f1.");
* a piece where it may not go: ``ILLEGAL``, the way back (``PLACE``) and words;
* a move asked for (the computer's): its squares and the whole move in words, effects included.

Correction and set-up draw their own pictures (correction.py, setup.py).
"""

from __future__ import annotations

from ...core.moves import Move
from .. import texts
from ..palette import Meaning
from . import effects as fx
from .correction import correction_view
from .outputs import GuidanceChanged, ScreenMovesChanged
from .pairing import say_pairs
from .reading import consistent, illegality
from .setup import setup_view
from .state import CORRECT, SETUP, WAITING, TrackerState, View


def view(st: TrackerState, t: int) -> View:
    if st.mode == SETUP:
        return setup_view(st)
    if st.mode == CORRECT:
        return correction_view(st)
    if st.mode == WAITING:
        return st.shown
    return play_view(st, t)


def play_view(st: TrackerState, t: int) -> View:
    L, X = st.L, st.X
    screen = screen_offer(st)
    if not L and not X:
        m = idle_meanings(st, t)
        if st.request is not None:
            request_meanings(st, m)
            return View(m, request_guidance(st), "in-sync", screen=screen)
        return View(m, GuidanceChanged(""), "in-sync", screen=screen)
    illegal, reason = illegality(st)
    if illegal and t - (st.illegal_since if st.illegal_since is not None else t) >= st.illegal_ms:
        v = illegal_view(st, illegal, reason)
        v.screen = screen
        return v
    m = st.backdrop.frame()
    for k in st.forms.check_squares:
        m[k] = Meaning.CHECK
    guidance = GuidanceChanged("")
    if st.request is not None:
        request_meanings(st, m)
        guidance = request_guidance(st)
    else:
        by_mover = st.forms.by_mover
        for sq in L:
            for pm in by_mover.get(sq, ()):
                if pm.form == "full":
                    continue  # lit by its hand form; the full form is what the engine does
                for a, b in pm.relocations:
                    if a != sq:
                        continue
                    capture = b in pm.victims or (pm.victims and b == pm.to)
                    if capture:
                        m[b] = Meaning.CAPTURE
                    elif m.get(b) != Meaning.CAPTURE:
                        m[b] = Meaning.MOVE
        finish = finish_hint(st, m)
        if finish:
            guidance = GuidanceChanged(finish)
    for sq in L:
        # a lifted victim's square shows where the capturing piece goes
        if m.get(sq) != Meaning.CAPTURE:
            m[sq] = Meaning.LIFTED
    return View(m, guidance, "moving", screen=screen)


def idle_meanings(st: TrackerState, t: int) -> dict[int, Meaning]:
    """Nothing in the air. In order: the choice the engine waits for (the Salamander's
    square and where it may step, as hints); the King in check and the last move; or, for
    games with turn colours once the last move has been shown ``last_move_ms``, the pieces
    of the side to move in their player colour. Terrain under everything."""
    m = st.backdrop.frame()
    forms, pos = st.forms, st.pos
    if forms.answer_pms:
        for pm in forms.answer_pms:
            if pm.relocations:
                a, b = pm.relocations[0]
                m[a] = Meaning.HINT_FROM
                m[b] = Meaning.HINT_TO
        for pm in forms.answer_pms:
            for s in pm.touch:  # a gesture: the piece to lift and put back
                m.setdefault(s, Meaning.HINT_FROM)
        return m
    fresh = st.moved_at is not None and t - st.moved_at < st.last_move_ms
    if st.turn_colours and not forms.check_squares and st.request is None and not fresh \
            and pos.pending is None and pos.turn < len(st.backdrop.players):
        colour = st.backdrop.player(pos.turn)
        for sq in pos.occ[pos.turn]:
            m[sq] = colour
        return m
    last = next((d.squares for d in reversed(st.history) if d.squares is not None), None)
    if last is not None:
        m[last[0]] = Meaning.LAST_MOVE_FROM
        m[last[1]] = Meaning.LAST_MOVE_TO
    for k in forms.check_squares:
        m[k] = Meaning.CHECK
    return m


def screen_offer(st: TrackerState) -> ScreenMovesChanged:
    """The moves only the screen can make (hexes), while play is on and no move is asked for."""
    actions = st.forms.screen_actions
    if not actions or st.request is not None:
        return ScreenMovesChanged(())
    return ScreenMovesChanged(tuple(actions), tuple(st.words.describe(st.pos, st.belief, a) for a in actions.values()))


def finish_hint(st: TrackerState, m: dict[int, Meaning]) -> str:
    """A move half done (the king castled but the rook waits; the pawn took en passant but
    the victim still stands): light and say the rest."""
    if not st.X or st.candidate is not None:
        return ""
    cands = [pm for pm in st.forms.by_added.get(next(iter(st.X)), ()) if consistent(st, pm)]
    if len(cands) != 1:
        return ""
    pm = cands[0]
    words, belief = st.words, st.belief
    sentences = []
    for a, b in pm.relocations:
        if a in st.S:
            m[a] = Meaning.HINT_FROM
            m[b] = Meaning.HINT_TO
            sentences.append(texts.text("finish move", piece=words.piece(belief.get(a)),
                                        frm=words.name(a), to=words.name(b)))
    for v in pm.victims:
        if v != pm.to and v in st.S:
            m[v] = Meaning.CAPTURE
            sentences.append(texts.text("finish take", piece=words.piece(belief.get(v)), square=words.name(v)))
    return " ".join(sentences)


def illegal_view(st: TrackerState, illegal: set[int], reason: str) -> View:
    L, X, belief, words = st.L, st.X, st.belief, st.words
    m = st.backdrop.frame()
    for x in X:
        m[x] = Meaning.ILLEGAL if x in illegal else Meaning.REMOVE
    for sq in L:
        m[sq] = Meaning.PLACE
    sources = {x: None for x in X}
    if len(L) == 1:
        only = next(iter(L))
        for x in illegal:
            sources[x] = belief.get(only)
    targets = {sq: belief.get(sq) for sq in L}
    pairs, text = say_pairs(words, sources, targets, back=True)
    bad = sorted(illegal)
    if len(bad) == 1:
        movers = [belief.get(s) for s in L if st.owner(s) == st.pos.turn]
        if len(L) == 1:
            movers = [belief.get(next(iter(L)))]
        look = movers[0] if len(movers) == 1 else None
        intro = texts.text("illegal one", piece=words.piece(look), square=words.name(bad[0]))
    elif reason == "joint":
        intro = texts.text("one at a time")
    else:
        intro = texts.text("illegal many", squares=", ".join(words.name(s) for s in bad))
    if st.request is not None:
        intro = texts.text("not the request") + " " + intro
    guidance = GuidanceChanged(" ".join(filter(None, (intro, text))), tuple(sorted(X)), tuple(sorted(L)), pairs)
    return View(m, guidance, "out-of-sync", tuple(bad), tuple(sorted(L)))


# ----- a move asked for (the computer's) --------------------------------------------------------
def request_meanings(st: TrackerState, m: dict[int, Meaning]) -> None:
    req = st.request
    for a, b in req.relocations:
        if a in st.S:
            m[a] = Meaning.COMPUTER_MOVE_FROM
        m[b] = Meaning.COMPUTER_MOVE_TO
    landing = {b for _, b in req.relocations}
    for v in req.victims | (req.optional & st.S):
        if v not in req.added and v not in landing and v in st.S:
            m[v] = Meaning.COMPUTER_MOVE_FROM
    for s in req.touch - req.victims - {a for a, _ in req.relocations}:  # to lift and put back
        m.setdefault(s, Meaning.COMPUTER_MOVE_FROM)


def request_guidance(st: TrackerState) -> GuidanceChanged:
    """The whole move in words, effects included (it does not change while the person
    carries it out)."""
    req = st.request
    words, belief = st.words, st.belief
    move = req.moves[0]
    reasons = words.effect_reasons(req.effects, move) if req.effects else {}
    sentences = []

    def take(v: int) -> str:
        piece = words.piece(belief.get(v))
        if v in reasons:
            return fx.sentence("take off", reasons[v], piece=piece, square=words.name(v))
        return texts.text("request take", piece=piece, square=words.name(v))

    # the captured pieces first (the captured one, and a victim where the mover lands: Boris's
    # second), the mover, then what the move's effects remove
    landing = {b for _, b in req.relocations}
    captured = {m.capture for m in req.moves if isinstance(m, Move) and m.capture is not None} | \
        (req.victims & landing)
    sentences += [take(v) for v in sorted(req.victims & captured)]
    for a, b in req.relocations:
        look = belief.get(a)
        if b in reasons:
            sentences.append(fx.sentence("move", reasons[b], piece=words.piece(look), frm=words.name(a),
                                         to=words.name(b)))
        else:
            sentences.append(texts.text("request move", piece=words.piece(look), frm=words.name(a),
                                        to=words.name(b)))
    sentences += [take(v) for v in sorted((req.victims | req.optional) - captured)]
    for sq, look in req.looks:  # a piece that comes out of another (a King out of its Tower)
        if sq not in landing and look != belief.get(sq):
            sentences.append(texts.text("request put", piece=words.piece(look), square=words.name(sq)))
    # pieces that only show the move by being lifted and put back (the Tiger that returns, a
    # Tower entered): neither taken nor moved
    for sq in sorted(req.touch - req.victims - {a for a, _ in req.relocations}):
        sentences.append(texts.text("request touch", piece=words.piece(belief.get(sq)), square=words.name(sq)))
    if move.promotion:
        sentences.append(texts.text("request promote", kind=words.kind_name(move.promotion)))
    place = req.added | ({move.to} if move.to not in req.removed else set())
    return GuidanceChanged(" ".join(sentences), tuple(sorted(req.removed | req.victims | req.optional)),
                           tuple(sorted(place)), tuple(req.relocations))
