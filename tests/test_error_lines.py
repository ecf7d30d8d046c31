"""Every error line cuts what it quotes (companion.errors.cut_quotes, applied to each
CompanionError as it is made): a 100,000-character input is not echoed back whole."""

import pytest

from companion.errors import CompanionError, PairingError, cut_quotes, error_line


def test_a_long_quoted_input_is_cut_to_its_start_with_its_length():
    e = PairingError(f"pairs.csv, line 3: unknown column {'z' * 100_000!r} (known: round, board)")
    assert str(e) == ("pairs.csv, line 3: unknown column 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...' "
                      "(100,000 characters) (known: round, board)")
    assert isinstance(e, ValueError) and isinstance(e, CompanionError)


@pytest.mark.parametrize("text", [
    "the board's PGN holds 2 games, not one; it's refused and nothing of it is kept, whatever it says",
    "got 'short' and \"also short\"",
    "a number like 4.5, got '' (columns 81-84)",
])
def test_prose_and_short_quotes_are_left_as_they_are(text):
    assert cut_quotes(text) == text


def test_both_kinds_of_quote_and_escaped_quotes_are_cut():
    long = "it's " + "q" * 80  # repr quotes it with double quotes
    assert cut_quotes(f"x {long!r} y") == 'x "it\'s qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq..." (85 characters) y'
    both = "'\"" + "w" * 80
    assert cut_quotes(f"got {both!r}.").startswith("got '\\'\"www") and cut_quotes(f"got {both!r}.").endswith(
        "...' (83 characters).")  # the characters as quoted


def test_a_line_for_the_terminal_is_one_bounded_line():
    assert error_line("one\ntwo") == "one two"
    assert len(error_line("unrecognized arguments: " + "a" * 50_000)) == 1000
