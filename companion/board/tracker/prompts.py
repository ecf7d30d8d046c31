"""Questions for the screen: which promotion piece, which of two moves, a choice the engine
waits for, a forced pass.

Two sorts of question:

* a question about the board (``promotion``, ``which-move``): opened when the board shows more
  than one action for the same squares; ``prompt_pms`` holds the forms it is about. It lapses
  when the pieces move on.
* the *standing* question of the position itself (``pos.pending``'s choice, e.g. the
  Salamander's ``step``; ``pass`` when passing is the only legal move): open while play is on,
  whatever the board shows (``prompt_pms`` empty).
"""

from __future__ import annotations

from ...core.moves import Move
from .. import texts
from .forms import PhysicalMove, look_of
from .outputs import Action, Output, PromptRequested, PromptWithdrawn
from .state import PLAY, TrackerState


def standing_prompt(st: TrackerState) -> PromptRequested | None:
    """The question that stays open while the position waits for it: a pending choice
    (hit-and-run: "stay" or a square) or a forced pass."""
    pos, forms, words = st.pos, st.forms, st.words
    options = tuple(forms.standing_actions)
    if forms.answers:
        d = pos.pending
        square = d.get("square")
        look = look_of(pos.board[square]) if isinstance(square, int) and pos.board[square] is not None else None
        if d.kind == "step":
            text = texts.text("step question", piece=words.piece(look))
            labels = tuple(texts.text("step stay", square=words.name(square)) if a.value == "stay"
                           else texts.text("step to", square=words.name(a.value))
                           for a in forms.standing_actions.values())
        else:
            text = texts.text("decision question")
            labels = options
        return PromptRequested(d.kind, options, text, labels)
    if forms.pass_only:
        return PromptRequested("pass", options, texts.text("pass question", colour=words.colour(pos.turn)),
                               (texts.text("pass label"),))
    return None


def open_prompt(st: TrackerState, pms: list[PhysicalMove]) -> list[Output]:
    """Ask which of the actions the board shows was meant."""
    words = st.words
    moves = [m for pm in pms for m in pm.moves]
    if len(pms) == 1 and all(isinstance(m, Move) and m.promotion for m in moves):
        pm = pms[0]
        owner = st.owner(pm.frm)
        kinds = [words.kind_name(m.promotion) for m in moves]
        prompt = PromptRequested(
            "promotion", tuple(m.promotion for m in moves),
            texts.text("promotion question", colour=words.colour(owner), square=words.name(pm.to)),
            tuple(k.capitalize() for k in kinds))
    else:
        options = tuple(words.action_text(st.pos, m) for m in moves)
        labels = tuple(words.describe(st.pos, st.belief, m) for m in moves)
        prompt = PromptRequested("which-move", options, texts.text("which move question"), labels)
    st.prompt = prompt
    st.prompt_pms = list(pms)
    return [prompt]


def withdraw_prompt(st: TrackerState, keep_standing: bool = False) -> list[Output]:
    """Close the open question. ``keep_standing``: leave a standing question to
    :func:`sync_standing`, which closes it only if it changed."""
    st.choice = None
    if st.prompt is None:
        st.prompt_pms = []
        return []
    if keep_standing and not st.prompt_pms:
        return []
    kind = st.prompt.kind
    st.prompt = None
    st.prompt_pms = []
    return [PromptWithdrawn(kind)]


def sync_standing(st: TrackerState) -> list[Output]:
    """Open the standing question while play is on (the board shows the game or a move is
    in progress); close it when it no longer applies or the board needs fixing first."""
    want = st.standing if st.mode == PLAY else None
    out: list[Output] = []
    if st.prompt is not None and not st.prompt_pms and st.prompt != want:
        out.append(PromptWithdrawn(st.prompt.kind))
        st.prompt = None
    if want is not None and st.prompt is None and not st.prompt_pms and st.choice is None:
        st.prompt = want
        out.append(want)
    return out


def chosen_action(st: TrackerState, option: str) -> Action | None:
    """The action of the open question about the board that ``option`` names, if any."""
    chosen = None
    for m in (m for pm in st.prompt_pms for m in pm.moves):
        if st.prompt.kind == "promotion":
            if m.promotion and option.upper() == m.promotion.upper():
                chosen = m
        elif option == st.words.action_text(st.pos, m):
            chosen = m
    return chosen
