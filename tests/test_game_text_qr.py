"""The Load / Save screen's QR codes read back, with a real decoder (zbar, tests/qr_scan.py), to
the exact game text, for a game of each kind, up to the longest text the app puts in one code
(QR_PAGE_BYTES); a longer text is shown as several codes, each read back, that together give the
text, and the screen says so. (The codes as drawn on the screen: tests/ui_kol_driver.py,
scenario load-save. What was checked: docs/game-text.md, "The QR code".)"""

from __future__ import annotations

import pytest

from companion.app import texts as T
from companion.app.presenters.game_text import QR_PAGE_BYTES, QR_QUIET, GameTextPresenter, qr_matrix, qr_pages
from companion.dice.sources import SeededDice
from companion.gametext import MAX_CHARS, format_game, load_game
from companion.session import GameSetup, Seat, Session
from tests.qr_scan import matrix_pgm, scan
from tests.test_gametext import SEED, play_randomly
from tests.ui_flow_helpers import App

#: chess: plain ASCII (a code without a character-set mark); the others: a name ISO-8859-1 holds,
#: and in Dungeon Chess one it does not (codes marked as UTF-8)
NAMES = ("Alice", "Chloé", "Łukasz", "Dan")


def game(kind: str, plies: int = 40, seed: int = 3) -> Session:
    """A game of each kind, played at random: chess; Combat Chess with seeded dice (the seed and
    every roll in the text); Dungeon Chess on the 20x20 map, four players; KoL Chess; Chess 2
    with two armies and the stones bid."""
    setup = {
        "chess": dict(game="chess"),
        "combat": dict(game="combat", dice="seeded", seed=SEED),
        "dungeon": dict(game="dungeon", board_map="dungeon-four-player"),
        "kol": dict(game="kol"),
        "chess2": dict(game="chess2", options={"armies": "two-kings,animals"}, bids="stones"),
    }[kind]
    seats = tuple(Seat(n) for n in (("Alice", "Bob") if kind == "chess" else NAMES[:4 if kind == "dungeon" else 2]))
    session, _ = Session.new(GameSetup(seats=seats, game_id="qr", **setup))
    return play_randomly(session, plies, seed)


def read_back(text: str, tmp_path, name: str) -> list[tuple[int, int, str]]:
    """Each QR page of ``text`` drawn 3 pixels a module and read: (bytes, version, text read)."""
    out = []
    for i, page in enumerate(qr_pages(text)):
        matrix = qr_matrix(page)
        found = scan(matrix_pgm(matrix, tmp_path / f"{name}-{i}.pgm", scale=3))
        assert len(found) == 1, (name, i, found)
        version = (len(matrix) - 2 * QR_QUIET - 17) // 4
        out.append((len(page.encode()), version, found[0]))
    return out


@pytest.mark.parametrize("kind", ["chess", "combat", "dungeon", "kol", "chess2"])
def test_a_games_qr_code_reads_back_to_its_exact_text(kind, tmp_path):
    session = game(kind)
    text = format_game(session)
    read = read_back(text, tmp_path, kind)
    assert [r[2] for r in read] == list(qr_pages(text))  # each code, exactly its page
    assert "".join(r[2] for r in read) == text
    kw = {"source": SeededDice(bytes.fromhex(SEED))} if kind == "combat" else {}
    assert format_game(load_game("".join(r[2] for r in read), **kw)) == text  # and it loads
    assert text.isascii() == (kind == "chess")
    if kind in ("combat", "chess2"):  # what these games add to the text is in the code
        assert ("roll:" in text) if kind == "combat" else ("stones=" in text and "=duel" in text)


def test_the_longest_code_the_app_makes_reads_back(tmp_path):
    """A page of QR_PAGE_BYTES bytes, in accented letters at the cut (two bytes in UTF-8), and a
    line longer than a page (cut in the middle, never inside a letter)."""
    line = "player 2: " + "é" * QR_PAGE_BYTES + "\n"
    text = "companion game 1\n" + line + "x" * (QR_PAGE_BYTES - 1) + "\n"
    pages = qr_pages(text)
    assert "".join(pages) == text and max(len(p.encode()) for p in pages) == QR_PAGE_BYTES
    read = read_back(text, tmp_path, "longest")
    assert [r[2] for r in read] == list(pages)
    assert max(r[1] for r in read) <= 19  # 700 bytes: version 18 or 19, at most 93 modules a side


# the paging is the same for every game: the quick loop reads the Dungeon game's codes, the whole
# suite KoL's too (test_a_games_qr_code_reads_back_to_its_exact_text reads a KoL text in the quick loop)
@pytest.mark.parametrize("kind", ["dungeon", pytest.param("kol", marks=pytest.mark.slow)])
def test_a_long_game_is_shown_as_several_codes_that_read_back_in_order(kind, tmp_path):
    """A game too long for one code: the screen says "Part 1 of N: scan each part with a
    phone" and "Next part" steps through the codes; read one after the other they are the text."""
    session = game(kind, plies=400 if kind == "dungeon" else 200, seed=5)
    text = format_game(session)
    assert len(text.encode()) > 2 * QR_PAGE_BYTES
    app = App(tmp_path / "data")
    assert app.flow.load_save.load_text(text) is None
    p = GameTextPresenter(app.flow.load_save, app.flow.game, app.flow.display)
    p.open()
    v = p.view()
    assert v.text == text and v.pages == len(qr_pages(text)) > 1
    parts = []
    for n in range(v.pages):
        v = p.view()
        assert v.qr_label == T.QR_PAGE.format(n=n + 1, of=v.pages)
        assert v.qr_label.startswith(f"Part {n + 1} of {v.pages}: scan each part")
        parts += scan(matrix_pgm(v.qr, tmp_path / f"part-{n}.pgm", scale=3))
        p.next_page()
    assert "".join(parts) == text
    assert p.view().qr_label.startswith("Part 1 of")  # round again


def test_the_longest_game_text_is_cut_into_pages_that_join_back():
    """At MAX_CHARS (the longest text a game may have) the pages still join back exactly and each
    fits one code; reading them all is left to the tests above (the same pages, many more)."""
    text = "".join(f"{i}. e2e4 e7e5 Chloé\n" for i in range(MAX_CHARS // 20))[:MAX_CHARS]
    pages = qr_pages(text)
    assert "".join(pages) == text and all(len(p.encode()) <= QR_PAGE_BYTES for p in pages)
    assert len(qr_matrix(max(pages, key=lambda p: len(p.encode())))) <= 93 + 2 * QR_QUIET
