"""Review findings: command-line inputs that printed a traceback instead of one line + exit 2."""

from __future__ import annotations

from companion.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_replay_of_a_log_that_is_not_utf8_exits_2_with_one_line(tmp_path, capsys):
    log = tmp_path / "binary.jsonl"
    log.write_bytes(b"\xff\xfe{\"t\": 1}\n")
    code, out, err = run(capsys, "replay", "--variant", "chess", log)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "binary.jsonl" in err and "UTF-8" in err, err


def test_replay_of_absurdly_nested_json_exits_2_with_one_line(tmp_path, capsys):
    log = tmp_path / "deep.jsonl"
    log.write_text("[" * 100_000 + "\n")
    code, out, err = run(capsys, "replay", "--variant", "chess", log)
    assert code == 2 and err.count("\n") == 1 and "deep.jsonl, line 1" in err, err


def test_verify_dice_of_absurdly_nested_json_exits_2_with_one_line(tmp_path, capsys):
    record = tmp_path / "deep.json"
    record.write_text("[" * 100_000 + "\n")
    code, out, err = run(capsys, "verify-dice", record)
    assert code == 2 and err.count("\n") == 1 and "deep.json line 1" in err, err


def test_check_map_of_absurdly_nested_toml_exits_2_with_one_line(tmp_path, capsys):
    board = tmp_path / "deep.toml"
    board.write_text("a = " + "[" * 100_000 + "\n")
    code, out, err = run(capsys, "check-map", board)
    assert code == 2 and err.count("\n") == 1 and "deep.toml" in err, err
