"""take_choice (companion/core/rules.py): the one way a pending choice that carries its options and
the turn's effects is answered (KoL Chess's back-row trade, Dungeon Chess's hit-and-run step)."""

from __future__ import annotations

import pytest

from companion.core.moves import Answer, Decision
from companion.core.rules import take_choice, waiting_decision
from companion.errors import IllegalMoveError
from companion.games import make_rules


class _Position:
    """The two things take_choice touches: the pending decision and setting it."""

    def __init__(self, pending: Decision | None) -> None:
        self.pending = pending

    def set_var(self, name: str, value) -> None:
        assert name == "pending"
        self.pending = value


TRADE = Decision("trade", 0, False, (("square", 4), ("options", ("Q", "R")), ("effects", (("captured", 12),))))
WORDS = dict(refusal="no trade is waiting", not_an_option="{value!r} is not one of the trades (keep, {options})")


def test_the_default_is_taken_the_decision_cleared_and_its_effects_handed_back_as_a_list():
    pos = _Position(TRADE)
    d, value, effects = take_choice(pos, Answer("trade", "keep"), "trade", "keep", **WORDS)
    assert (d, value, effects) == (TRADE, "keep", [("captured", 12)])
    assert pos.pending is None


def test_an_option_is_taken():
    pos = _Position(TRADE)
    assert take_choice(pos, Answer("trade", "R"), "trade", "keep", **WORDS)[1] == "R"
    assert pos.pending is None


def test_a_value_that_is_no_option_is_refused_in_the_games_words_and_nothing_changes():
    pos = _Position(TRADE)
    with pytest.raises(IllegalMoveError, match=r"^'K' is not one of the trades \(keep, Q, R\)$"):
        take_choice(pos, Answer("trade", "K"), "trade", "keep", **WORDS)
    assert pos.pending is TRADE


@pytest.mark.parametrize("pending, answer", [(None, Answer("trade", "keep")), (TRADE, Answer("step", "stay")),
                                             (Decision("step", 0, False, ()), Answer("trade", "keep"))])
def test_no_such_choice_waiting_is_refused(pending, answer):
    pos = _Position(pending)
    with pytest.raises(IllegalMoveError, match="^no trade is waiting$"):
        take_choice(pos, answer, "trade", "keep", **WORDS)
    with pytest.raises(IllegalMoveError, match="^no trade is waiting$"):
        waiting_decision(pos, answer, "trade", "no trade is waiting")
    assert pos.pending is pending


@pytest.mark.parametrize("game, answer, words", [
    ("kol", Answer("trade", "keep"), "no back-row trade is waiting for an answer"),
    ("dungeon", Answer("step", "stay"), "no hit-and-run step is waiting for an answer"),
])
def test_kol_and_dungeon_answer_through_it(game, answer, words):
    rules = make_rules(game, None)
    pos = rules.start_position()
    with pytest.raises(IllegalMoveError, match=f"^{words}$"):
        rules.answer(pos, answer)
