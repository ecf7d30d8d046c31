"""The app's one on-screen keyboard (companion/app/presenters/entry.py): names on the letters
layout, PINs and clock times on the number pad, and a game's text on the text layout, with a
cursor; every character a game's text is written with can be typed on it."""

import pytest

from companion.app.presenters.entry import (
    BACK, CLEAR, ENTER, LEFT, MORE, RIGHT, SHIFT, SPACE, TEXT, TEXT_MORE, Entry, key_rows, time_face, time_ms,
)
from companion.gametext import format_game
from tests.test_gametext import GAMES, clocked_tournament_game, new, play_randomly


def typed(entry: Entry, *keys: str) -> Entry:
    for k in keys:
        entry = entry.press(k)
    return entry


def test_a_name_gets_a_capital_after_a_space_and_accents_on_the_second_page():
    e = typed(Entry("Name"), *"ann", SPACE, "d", MORE)
    assert e.text == "Ann D" and e.accents and "é" in e.rows()[0]
    e = typed(e, "é", MORE, "z")
    assert e.text == "Ann Déz" and not e.accents
    assert typed(Entry("Name"), *"ab", BACK, BACK, BACK).text == ""
    assert typed(Entry("Name", max_len=3), *"abcd").text == "Abc"


def test_the_number_pad_takes_digits_only_and_reads_a_time_from_the_right():
    e = typed(Entry("Time", keys="digits", kind="time", max_len=6), "1", "a", SPACE, "3", "0", "0", "0")
    assert e.text == "13000" and e.shown == "1:30:00" and time_ms(e.text) == 90 * 60_000
    assert time_face("130") == "1:30" and [r for r in e.rows()][-1] == (CLEAR, "0", BACK)


def test_the_text_layout_edits_in_the_middle_with_a_cursor():
    e = typed(Entry.for_text("Type"), "e", "2", "e", "4", ENTER, "e", "7")
    assert e.text == "e2e4\ne7" and e.with_cursor == "e2e4\ne7|"
    e = typed(e, LEFT, LEFT, LEFT, BACK)
    assert e.text == "e2e\ne7" and e.with_cursor == "e2e|\ne7"
    e = typed(e, "5", RIGHT, RIGHT, RIGHT, RIGHT, "5")
    assert e.text == "e2e5\ne75" and e.with_cursor.endswith("e75|")
    e = typed(e, SHIFT, "k", "k")  # shift is for one letter on the text layout
    assert e.text.endswith("Kk") and not e.upper
    assert typed(e, CLEAR).text == "" and typed(Entry("Name"), ENTER).text == ""  # no new line in a name


def test_a_letters_key_is_the_same_whatever_its_case_and_its_label_follows_the_shift():
    e = Entry.for_text("Type")
    keys = {k.key for row in key_rows(e) for k in row}
    shifted = key_rows(e.press(SHIFT))
    assert {k.key for row in shifted for k in row} == keys
    assert any(k.key == "q" and k.label == "Q" for row in shifted for k in row)
    assert [len(r) for r in key_rows(e)] == [len(r) for r in TEXT] and len(TEXT_MORE) == len(TEXT)


def keys_for(ch: str) -> list[str]:
    """The keys that type ``ch`` on the text layout (shift for a capital, more for the second page)."""
    if ch == "\n":
        return [ENTER]
    if ch == " ":
        return [SPACE]
    low = ch.lower()
    for page, before, after in ((TEXT, [], []), (TEXT_MORE, [MORE], [MORE])):
        if any(low in row for row in page):
            return before + ([SHIFT] if ch != low else []) + [low] + after
    raise AssertionError(f"{ch!r} cannot be typed on the text layout")


@pytest.mark.parametrize("game,dice", GAMES)
def test_every_character_of_a_games_text_can_be_typed(game, dice):
    texts = [format_game(play_randomly(new(game, dice), 30, 4))]
    if game == "chess":
        h = clocked_tournament_game()
        texts.append(format_game(h.table, h.t))  # a clock's entries: JSON lines
    for text in texts:
        e = Entry.for_text("Type", max_len=len(text))
        for ch in text:
            e = typed(e, *keys_for(ch))
        assert e.text == text
