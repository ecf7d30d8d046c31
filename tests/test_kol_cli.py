"""KoL Chess on the command line: moves, perft, check-map, replay and ai-match with
--variant kol; a bad KoL position or map is one line and exit 2."""

import pytest

from companion.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_moves_of_the_start_position(capsys):
    code, out, _ = run(capsys, "moves", "--variant", "kol")
    moves = out.split()
    assert code == 0 and len(moves) == 54 and "f1g1in" in moves and "d1l9" in moves


def test_perft_from_a_position_with_the_tower_holding_its_king(capsys):
    fen = "B11/3k8/12/12/12/12/12/12/12/12/6(1KG)5/6(1TK:turns=1)4b 1 retreats=[1,0]"
    code, out, _ = run(capsys, "perft", "--variant", "kol", "--fen", fen, "--depth", "1", "--divide")
    lines = out.strip().splitlines()
    divided = [line for line in lines[:-1] if line]
    assert code == 0 and lines[-1] == str(len(divided))
    assert {"g1f1out: 1", "g1f2out: 1", "g1a1: 1", "g1k1: 1"} <= set(divided) and "g1h1out: 1" not in divided


def test_check_map_checks_the_colours_and_draws_the_set_up(capsys):
    code, out, _ = run(capsys, "check-map", "kol")
    assert code == 0 and "KoL Chess: the map suits the game" in out
    assert "KY SV KN NS J  K  T  P  B  SP DE VG" in out and " 1  K* W* K* W* K* W* K* W* K* G* K* W*" in out


def test_a_bad_kol_map_is_one_line(capsys, tmp_path):
    from companion.maps import MAPS_DIR

    text = (MAPS_DIR / "kol.toml").read_text().replace('blue = ["c3",', 'blue = ["a4", "c3",')
    (tmp_path / "kol.toml").write_text(text)
    code, out, err = run(capsys, "check-map", str(tmp_path / "kol.toml"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "a4 is both green and blue" in err


@pytest.mark.parametrize("fen,words", [
    ("12/12 1", "position has 2 rows, the board has 12"),
    ("B2k8/12/12/12/12/12/12/12/12/12/12/K1b9 1 retreats=[9,0]", "expected two counts from 0 to 3"),
])
def test_a_bad_kol_position_is_one_line(capsys, fen, words):
    code, out, err = run(capsys, "moves", "--variant", "kol", "--fen", fen)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and words in err


def test_replay_of_a_sensor_log_with_a_retreat(capsys, tmp_path):
    log = tmp_path / "kol.jsonl"
    log.write_text("\n".join([
        '{"t": 100, "square": "a2", "occupied": false}', '{"t": 200, "square": "a3", "occupied": true}',
        '{"t": 1000, "square": "l11", "occupied": false}', '{"t": 1100, "square": "l10", "occupied": true}',
    ]) + "\n")
    code, out, _ = run(capsys, "replay", "--variant", "kol", str(log))
    assert code == 0 and out.splitlines()[:2] == ["a2a3", "l11l10"]


def test_ai_match_plays_kol(capsys):
    code, out, _ = run(capsys, "ai-match", "--variant", "kol", "--a", "max", "--b", "random", "--games", "1",
                       "--nodes", "60", "--max-plies", "12")
    assert code == 0 and out.strip().splitlines()[-1].startswith("score ")
