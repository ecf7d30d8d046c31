"""The languages (docs/i18n.md): every catalog complete (``msgfmt --statistics``: nothing
untranslated, nothing fuzzy), every marked word of the package in it, placeholders kept,
plural forms right; the language chosen from the system's locale; the broadcast pages in the
spectator's language."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.i18n import LANGUAGES, SOURCE_LANGUAGE, Language, normalise, system_language

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "companion" / "locale"
TRANSLATED = sorted(set(LANGUAGES) - {SOURCE_LANGUAGE})


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "companion.po"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="msgfmt is missing: install.sh installs gettext")
@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_has_no_untranslated_or_fuzzy_entry(lang, tmp_path):
    done = subprocess.run(["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "x.mo"), str(po_path(lang))],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    stats = done.stderr.strip()
    assert re.fullmatch(r"\d+ translated messages?\.", stats), f"{lang}: {stats}"


@pytest.fixture(scope="module")
def template():
    """Every message the package marks, as Babel extracts it (companion/locale/babel.cfg)."""
    from companion.words_cli import extract

    return extract()


@pytest.fixture(scope="module", params=TRANSLATED)
def catalog(request):
    from babel.messages.pofile import read_po

    with open(po_path(request.param), "rb") as f:
        return read_po(f)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_marked_word_of_the_package_is_in_every_catalog_translated_with_its_placeholders(template, lang):
    """`companion words` (companion/words_cli.py) lists the same: missing, untranslated, fuzzy,
    a placeholder of the English lost or added."""
    from companion.words_cli import catalog_findings

    findings = catalog_findings(template, lang)
    assert not findings, f"{len(findings)} to do (companion words --update; docs/i18n.md): " + \
        "; ".join(map(str, findings[:10]))


def test_the_check_finds_a_missing_an_untranslated_and_a_changed_placeholder(tmp_path):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    from companion.words_cli import catalog_findings

    template = Catalog()
    for message in ("Undo", "Redo", "{n} moves", "{name} wins", "Fine"):
        template.add(message)
    de = Catalog(locale="de")
    de.add("Undo", "Zurück")
    de.add("Redo", "")
    de.add("{name} wins", "{nom} gewinnt")
    de.add("Fine", "Gut", flags=["fuzzy"])
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    with open(tmp_path / "de" / "LC_MESSAGES" / "companion.po", "wb") as f:
        write_po(f, de)
    found = {(f.kind, f.message) for f in catalog_findings(template, "de", tmp_path)}
    assert found == {("untranslated", "Redo"), ("missing", "{n} moves"), ("placeholders", "{name} wins"),
                     ("fuzzy", "Fine")}


def test_the_plural_forms_are_the_languages_own(catalog):
    assert catalog.plural_forms == {"de": "nplurals=2; plural=(n != 1);"}.get(str(catalog.locale),
                                                                              catalog.plural_forms)


@pytest.mark.parametrize("environ, code", [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_AT.UTF-8"}, "de"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"),
    ({"LANGUAGE": "fr:de", "LANG": "en_GB.UTF-8"}, "de"),
    ({"LC_ALL": "en_US.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_MESSAGES": "de_CH", "LANG": "en_US"}, "de"),
])
def test_the_system_locale_is_the_default_language(environ, code):
    assert system_language(environ) == code


def test_a_language_is_named_by_any_locale_spelling():
    assert [normalise(c) for c in ("de_DE.UTF-8", "de-AT", "DE", "POSIX", "en_GB@euro")] == ["de", "de", "de", "en",
                                                                                              "en"]
    assert Language.load("de_DE.UTF-8").code == "de"


def test_an_unknown_language_is_one_line_naming_the_known():
    from companion.errors import CompanionError

    with pytest.raises(CompanionError, match=r"^no language 'xx'; the board speaks: de, en$"):
        Language.load("xx")


def test_a_catalog_not_compiled_speaks_english_and_says_so(tmp_path):
    lang = Language.load("de", tmp_path)
    assert lang.missing and lang.gettext("Board") == "Board"


def test_the_command_line_speaks_the_system_language(capsys, monkeypatch):
    from companion.cli import main

    monkeypatch.setenv("COMPANION_LANG", "de")
    try:
        assert main(["moves", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"]) == 0
        assert capsys.readouterr().err == "companion: in dieser Stellung ist die Partie vorbei: Weiß hat gewonnen " \
                                          "(checkmate)\n"
    finally:
        from companion.i18n import use

        use(Language.load("en"))


def test_the_broadcast_pages_speak_the_spectators_language():
    import json

    from companion.broadcast.texts import language_for, results_words, texts_js

    assert language_for("de-DE,de;q=0.9,en;q=0.8").code == "de"
    assert language_for("fr;q=0.9,de;q=0.5").code == "de"
    assert language_for("fr", Language.load("en")).code == "en"
    assert language_for("en;q=0.4, de;q=0.8").code == "de"
    body = texts_js(Language.load("de")).decode()
    data = json.loads(body[body.index("{"):body.rindex("}") + 1])
    assert data["lang"] == "de" and data["toMove"] == "{name} am Zug" and data["resultWords"]["*"] == "läuft"
    assert results_words(Language.load("de"))["columns"][0] == "Runde"


def test_the_trackers_words_follow_the_language():
    from companion.board import texts
    from companion.i18n import use

    use(Language.load("de"))
    try:
        assert texts.text("put back", piece=texts.piece_phrase("Weiß", "Läufer"), square="c1") == \
            "Stelle Läufer (Weiß) zurück auf c1."
        assert texts.more_lit(1) == "1 weiteres Feld leuchtet."
        assert texts.kind_words(["Knight", "Queen"]) == {"Knight": "Springer", "Queen": "Dame"}
        assert texts.colour_name(0, ("white", "black")) == "Weiß"
    finally:
        use(Language.load("en"))
    assert texts.more_lit(2) == "2 more squares are lit."
