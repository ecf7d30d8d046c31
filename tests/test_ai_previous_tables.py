"""The previous strongest level (the baseline of ``ai-match --b previous``) judges positions with
its own frozen copies of the tables (companion/ai/tables/previous/): today's tables can change
without changing the baseline, so a match against it shows a table's change too."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from companion.ai.eval_table import TABLE_DIR, load_table, table_for
from companion.ai.previous import PREVIOUS_TABLE_DIR, previous_table
from companion.games import make_rules, names
from companion.games.chess2 import rules_for


def _with_tempo_77(text: str) -> str:
    if re.search(r"^tempo\s*=", text, re.M):
        return re.sub(r"^tempo\s*=.*$", "tempo = 77", text, count=1, flags=re.M)
    if "[evaluation]" in text:
        return text.replace("[evaluation]", "[evaluation]\ntempo = 77", 1)
    return "[evaluation]\ntempo = 77\n" + text


def _games():
    out = [make_rules(n) for n in names()]
    out += [rules_for(("animals", "reaper")), rules_for(("nemesis", "two-kings")), rules_for(("empowered", "classic"))]
    return out


@pytest.mark.parametrize("rules", _games(), ids=lambda r: f"{r.name}-{'-'.join(getattr(r, 'evaluation_tables', ()) or ())}")
def test_every_games_previous_table_is_read_from_the_frozen_copies(rules, tmp_path, monkeypatch):
    """Every game's baseline table (Chess 2's merged army tables too) follows the frozen folder:
    a value changed in a copy of that folder changes it, today's folder does not."""
    import companion.ai.previous as previous

    folder = tmp_path / "previous"
    shutil.copytree(PREVIOUS_TABLE_DIR, folder)
    names_used = getattr(rules, "evaluation_tables", None) or (rules.name,)
    for name in names_used:
        path = folder / f"{name}.toml"
        if path.exists():
            path.write_text(_with_tempo_77(path.read_text(encoding="utf-8")), encoding="utf-8")
    before = previous_table(rules)
    monkeypatch.setattr(previous, "PREVIOUS_TABLE_DIR", folder)
    if any((folder / f"{n}.toml").exists() for n in names_used):
        assert previous_table(rules).tempo == 77 != before.tempo
    assert previous_table(rules).piece_mobility == 0 and previous_table(rules).king_attack == 0


def test_every_table_of_today_has_its_frozen_copy():
    today = {p.name for p in TABLE_DIR.glob("*.toml")}
    frozen = {p.name for p in PREVIOUS_TABLE_DIR.glob("*.toml")}
    assert today <= frozen, today - frozen


def test_a_changed_table_of_today_does_not_change_the_previous_level(tmp_path):
    """The same lookup in another folder (as previous.py does with its own): a value changed
    there is read, inheritance stays inside that folder, and the other folder is untouched."""
    folder = tmp_path / "tables"
    shutil.copytree(TABLE_DIR, folder, ignore=shutil.ignore_patterns("previous"))
    path = folder / "dungeon.toml"
    path.write_text(_with_tempo_77(path.read_text(encoding="utf-8")), encoding="utf-8")
    rules = make_rules("dungeon")
    assert table_for(rules, directory=folder).tempo == 77
    assert table_for(rules).tempo == load_table("dungeon").tempo != 77
    assert previous_table(rules).tempo != 77
    # a table inheriting names a table in its own folder
    (folder / "child.toml").write_text('[evaluation]\ninherit = "dungeon"\n', encoding="utf-8")
    assert load_table("child", folder).tempo == 77
    assert Path(load_table("child", folder).source).parent == folder
