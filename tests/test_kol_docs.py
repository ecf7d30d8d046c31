"""docs/rules/kol.md stays true: every ability of the KoL pieces is named in it, every piece of
the roster is quoted, and its quotations really are the text's words."""

import os
import re
from pathlib import Path

import pytest

from companion.core.roster import load_roster
from tests.doc_quotes import block_quotes
from companion.games.abilities import ABILITIES

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "rules" / "kol.md").read_text()
SEED = ROOT.parent / "shared" / "seeds" / "004_2f50874196bc74ee.txt"


def _norm(text: str) -> str:
    text = text.replace("**", "").replace(" / ", " ")
    return re.sub(r"\s+", " ", re.sub(r"(^|\s)- ", " ", text)).strip()


def test_every_ability_of_the_kol_pieces_is_named():
    for name in {a for k in load_roster("kol").kinds for a in k.abilities}:
        assert f"**{ABILITIES[name].title}**" in DOC, name


def test_every_piece_of_the_text_is_quoted():
    for k in load_roster("kol").kinds:
        if k.code != "TK":  # the Tower with its King is ours, not a piece of the text
            assert f"> {k.title} (" in DOC or f"{k.title} (" in DOC, k.title


def test_block_quotes_are_the_texts_words():
    if not SEED.exists():
        if os.environ.get("CI"):
            pytest.fail(f"the rule text is not at {SEED}")
        pytest.skip(f"the KoL Chess rule text is not on this machine (expected at {SEED}, beside the repository): "
                    f"the quotes in docs/rules/kol.md are compared with it where it is")
    seed = _norm(SEED.read_text())
    blocks = block_quotes(DOC)
    assert len(blocks) > 15
    for block in blocks:
        for part in _norm(block).split(" ... "):
            assert part.strip(" .") in seed, part
