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

import pytest

from companion.words_cli import bare_errors, bare_words, gettext_traps, module_level_texts


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


@pytest.mark.xdist_group("package-syntax-trees")  # one worker parses the package once for both
def test_no_error_a_player_reads_is_raised_with_a_bare_message():
    """Every file of companion/ (issue 31's last gap, closed area by area this session)."""
    assert bare_errors() == [], "errors raised with a bare message (docs/i18n.md, Errors too)"


@pytest.mark.xdist_group("package-syntax-trees")  # one worker parses the package once for both
def test_no_marked_word_is_lost_to_an_f_string_or_a_throwaway_underscore():
    assert gettext_traps() == [], "docs/i18n.md: the two traps"


def test_the_check_finds_both_gettext_traps(tmp_path):
    """A literal marked inside an f-string (Babel on Python 3.11 never extracts it: three lichess
    words were missing from the catalog that way) and ``_`` as a throwaway name in a function that
    calls ``_()`` (an UnboundLocalError the firmware simulator met); a variable's text translated
    inside an f-string, and a throwaway ``_`` in a comprehension or another function, pass."""
    package = tmp_path / "companion"
    package.mkdir()
    (package / "x.py").write_text(
        "def f(kind, rows):\n"
        "    a = f'{_(\"game id\")}: {kind}'\n"
        "    b = f'{_(kind.title)} ({kind.code})'\n"
        "    return [r for r, _ in rows], a, b\n"
        "def g(sel):\n"
        "    ready, _, _ = sel()\n"
        "    return _('ready')\n"
        "def h(sel):\n"
        "    ready, _ = sel()\n"
        "    return ready\n")
    assert gettext_traps(package) == [
        "companion/x.py:2: a gettext call inside an f-string is never extracted",
        "companion/x.py:6: '_' is a throwaway name here and _() is called in the same function"]


def test_the_check_finds_a_bare_error_message(tmp_path):
    """The walk itself: a literal, an f-string over several lines, a ``"...".format``, an error of
    the package's own (a subclass of a subclass) and a piece handed to a helper that makes the error
    (companion/bounds.py's ``what``) are found; a marked message and one that is only placeholders
    pass; a ValueError is no CompanionError."""
    package = tmp_path / "companion"
    package.mkdir()
    (package / "errors.py").write_text("class CompanionError(Exception): ...\nclass MapError(CompanionError): ...\n")
    (package / "x.py").write_text(
        "from .errors import MapError\nclass Broken(MapError): ...\nclass Worse(Broken): ...\n"
        "def f(n, path, e):\n"
        "    raise MapError('no map')\n"
        "    raise Worse(\n        f'{n} rows, '\n        f'want 8'\n    )\n"
        "    raise errors.MapError('{n} rows'.format(n=n))\n"
        "    raise MapError(_('no map'))\n"
        "    raise MapError(_('{n} rows').format(n=n))\n"
        "    raise MapError(f'{path}: {e}')\n"
        "    raise ValueError('no map')\n"
        "    n = whole_number(text, f'row {n}: empty squares', MapError, 0, 8)\n"
        "    raise self.fail(key, _('no map'))\n")
    assert bare_errors(package) == ["companion/x.py:5: 'no map'", "companion/x.py:7: '{n} rows, want 8'",
                                    "companion/x.py:10: '{n} rows'", "companion/x.py:15: 'row {n}: empty squares'"]
