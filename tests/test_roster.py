"""Piece rosters as data: the FIDE roster loads; malformed rosters are clear errors."""

import pytest

from companion.core.roster import load_roster, roster_from_dict
from companion.errors import VariantError


def test_fide_roster_loads_with_six_pieces():
    r = load_roster("chess")
    assert [k.code for k in r.kinds] == ["P", "N", "B", "R", "Q", "K"]
    assert r.by_code("K").royal and r.by_code("P").promotes_to == ("Q", "R", "B", "N")


@pytest.mark.parametrize("data,words", [
    ({"variant": {"name": "x"}, "pieces": {"a": {"code": "A"}}, "extra": {}}, "unknown table [extra]"),
    ({"pieces": {"a": {"code": "A"}}}, "missing [variant]"),
    ({"variant": {"title": "x"}, "pieces": {"a": {"code": "A"}}}, "needs name"),
    ({"variant": {"name": "x"}}, "no [pieces"),
    ({"variant": {"name": "x"}, "pieces": {"a": {"code": "A", "speed": 3}}}, "[pieces.a]: unknown key 'speed'"),
    ({"variant": {"name": "x"}, "pieces": {"a": {}}}, "missing code"),
    ({"variant": {"name": "x"}, "pieces": {"a": {"code": "A", "value": "high"}}}, "value must be int"),
    ({"variant": {"name": "x"}, "pieces": {"a": {"code": "A", "royal": 1}}}, "royal must be bool"),
    ({"variant": {"name": "x"}, "pieces": {"a": {"code": "A", "both": ["fly 1,1"]}}}, "[pieces.a] both"),
    ({"variant": {"name": "x"}, "pieces": {"a": {"code": "A", "promotes_to": ["Z"]}}}, "promotes_to names 'Z'"),
    ({"variant": {"name": "x", "water": "swim"}, "pieces": {"a": {"code": "A"}}}, "[variant] water must be one of"),
])
def test_bad_roster_names_file_piece_and_key(data, words):
    with pytest.raises(VariantError) as err:
        roster_from_dict(data, "my.toml")
    assert "my.toml" in str(err.value) and words in str(err.value)


def test_missing_and_broken_files(tmp_path):
    with pytest.raises(VariantError, match="no such roster file"):
        load_roster(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[variant\nname='x'")
    with pytest.raises(VariantError, match="TOML syntax error"):
        load_roster(bad)


def test_the_variant_sets_the_water_rule_of_every_piece_that_sets_none():
    data = {"variant": {"name": "x", "water": "cross"},
            "pieces": {"a": {"code": "A"}, "b": {"code": "B", "water": "stop"}}}
    r = roster_from_dict(data, "my.toml")
    assert [k.water for k in r.kinds] == ["cross", "stop"]
    assert roster_from_dict({"variant": {"name": "x"}, "pieces": {"a": {"code": "A"}}}, "x").kinds[0].water == "block"
