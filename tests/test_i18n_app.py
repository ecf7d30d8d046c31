"""The app shows no bare words (docs/i18n.md): every word on the touchscreen comes from the
catalog through companion/app/texts.py. The walk is `companion words` (companion/words_cli.py):

An AST walk of companion/app (the .py files) and a look at every .kv file:

* a string literal or f-string with a word in it, given as a shown text (a keyword argument or
  an attribute named ``text``, ``title``, ``label``, ``message``, ``notice``, ``status``, ``hint``,
  ``summary``, ``problem``, ... or ending in ``_label``, ``_text``, ...) fails, unless the
  allow-list in companion/words_cli.py names it (a technical name);
* a ``.kv`` ``text:`` with a quoted word fails (kv files read ``T.NAME``);
* a module-level read of ``T.NAME`` outside texts.py fails: it would keep the language of the
  moment the module was imported.

Non-words are fine bare: square names, numbers, symbols ("\\u2212", "|<"), markup.
"""

from __future__ import annotations

from companion.words_cli import bare_words, module_level_texts


def test_the_app_shows_no_word_that_is_not_from_the_catalog():
    assert bare_words() == [], "words shown bare (docs/i18n.md: mark them in companion/app/texts.py; companion words)"


def test_the_check_finds_a_bare_word(tmp_path):
    """The walk itself: a bare label, a bare f-string notice and a bare kv text are found."""
    app = tmp_path / "app"
    app.mkdir()
    (app / "x.py").write_text('label = Label(text="Start")\nself.notice = f"Saved {n} games"\nok = Label(text="e4")\n'
                              'UNDO = T.UNDO\n')
    (app / "x.kv").write_text('Label:\n    text: "Undo"\nLabel:\n    text: T.UNDO\n')
    assert sorted(f.split(":", 2)[-1].strip() for f in bare_words(app)) == ["'Saved  games'", "'Start'", "'Undo'"]
    assert module_level_texts(app) == ["x.py:4: T.UNDO"]


def test_no_module_keeps_a_text_from_the_moment_it_was_imported():
    assert module_level_texts() == [], "read T.NAME where it is shown, not at import"


def test_every_text_reads_in_the_language_of_the_moment():
    from companion.app import texts as T
    from companion.i18n import Language, use

    assert T.UNDO == "Undo"
    use(Language.load("de"))
    try:
        assert T.UNDO == "Zurück"
        assert T.GAMES_MOVES.format(n=1) == "1 Zug" and T.GAMES_MOVES.format(n=2) == "2 Züge"
        assert T.GAME_TITLES["chess"] == "Schach" and T.PIECE_CODES["Q"] == "queen"
        assert T.seat_word("blue") == "Blau"
    finally:
        use(Language.load("en"))
    assert T.UNDO == "Undo" and T.seat_word("blue") == "Blue"


def test_a_module_of_words_reads_in_the_language_of_the_moment():
    """companion.i18n.read_in_language: what texts.py does, for any module of words
    (online_texts.py, ...): its constants leave the namespace and come back translated."""
    from companion.i18n import N_, Language, read_in_language, use

    namespace = {"__name__": "words", "UNDO": N_("Undo"), "KINDS": {"q": N_("queen")}, "GLYPH": "\u265b"}
    text = read_in_language(namespace, as_is=("GLYPH",))
    assert "UNDO" not in namespace and namespace["GLYPH"] == "\u265b"
    assert namespace["__getattr__"]("UNDO") == "Undo" and text("KINDS") == {"q": "queen"}
    use(Language.load("de"))
    try:
        assert text("UNDO") == "Zurück" and text("KINDS") == {"q": "Dame"}
    finally:
        use(Language.load("en"))
