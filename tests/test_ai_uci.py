"""Our UCI client: the sans-I/O protocol line by line, the subprocess adapter against a fake
engine that misbehaves on demand, and Stockfish itself (Debian's, installed by
companion/install.sh) as a seat: levels by Elo, refusals in one line."""

import random
import sys
import time

import pytest

from companion.ai.match import run_match
from companion.ai.players import computer_players, make_computer, parse_stockfish
from companion.ai.search import MATE
from companion.ai.stockfish import StockfishMissing, StockfishPlayer, UciEngine, _score
from companion.ai.uci import BestMove, EngineNamed, EngineOption, Info, ReadyOk, UciError, UciOk, UciProtocol, parse_info
from companion.errors import CompanionError
from companion.games import make_rules

FAKE = __file__.replace("test_ai_uci.py", "fake_uci_engine.py")


def handshake(proto: UciProtocol) -> list:
    assert proto.start() == ["uci"]
    events = []
    for line in ["Stockfish 15.1 by the Stockfish developers", "id name Stockfish 15.1", "id author them",
                 "option name Hash type spin default 16 min 1 max 33554432",
                 "option name Clear Hash type button",
                 "option name UCI_LimitStrength type check default false",
                 "option name UCI_Elo type spin default 1350 min 1350 max 2850",
                 "option name Debug Log File type string default ",
                 "option name EvalFile type string default <empty>",
                 "option name Style type combo default Normal var Solid var Normal var Risky",
                 "uciok"]:
        events += proto.feed(line)
    return events


# ----- the protocol, line by line -------------------------------------------------------------------
def test_the_handshake_names_the_engine_and_lists_its_options():
    proto = UciProtocol()
    events = handshake(proto)
    assert EngineNamed("Stockfish 15.1") in events and isinstance(events[-1], UciOk)
    assert proto.state == "idle" and proto.name == "Stockfish 15.1"
    assert proto.options["uci_elo"] == EngineOption("UCI_Elo", "spin", "1350", 1350, 2850)
    assert proto.options["clear hash"].type == "button"
    assert proto.options["evalfile"].default is None
    assert proto.options["style"].choices == ("Solid", "Normal", "Risky")


def test_options_are_checked_against_what_the_engine_declared():
    proto = UciProtocol()
    handshake(proto)
    assert proto.set_option("UCI_Elo", 1500) == ["setoption name UCI_Elo value 1500"]
    assert proto.set_option("uci_limitstrength", True) == ["setoption name UCI_LimitStrength value true"]
    assert proto.set_option("Clear Hash", None) == ["setoption name Clear Hash"]
    assert proto.set_option("Style", "Risky") == ["setoption name Style value Risky"]
    for name, value, words in [("UCI_Elo", 1200, "from 1350 to 2850"), ("UCI_Elo", "1500", "whole number"),
                               ("UCI_LimitStrength", 1, "true or false"), ("Contempt", 3, "has no option"),
                               ("Style", "Wild", "one of Solid, Normal, Risky"),
                               ("Debug Log File", "a\nb", "no line break")]:
        with pytest.raises(UciError, match=words):
            proto.set_option(name, value)


def test_a_search_runs_from_go_to_bestmove():
    proto = UciProtocol()
    handshake(proto)
    assert proto.position("8/8/8/8/8/8/8/K6k w - - 0 1", ["a1a2"]) == [
        "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"]
    assert proto.go(movetime_ms=500, searchmoves=("h1g1",)) == ["go movetime 500 searchmoves h1g1"]
    assert proto.state == "thinking" and proto.stop() == ["stop"]
    info = proto.feed("info depth 12 seldepth 18 multipv 1 score cp -35 upperbound nodes 4242 nps 99 time 43 "
                      "hashfull 3 pv e7e5 g1f3 b8c6")[0]
    assert info == Info(depth=12, seldepth=18, multipv=1, score_cp=-35, bound="upperbound", nodes=4242, nps=99,
                        time_ms=43, pv=("e7e5", "g1f3", "b8c6"))
    assert proto.feed("info string NNUE evaluation using nn.nnue enabled")[0].string.startswith("NNUE")
    assert proto.feed("bestmove e7e5 ponder g1f3") == [BestMove("e7e5", "g1f3")]
    assert proto.state == "idle" and proto.stop() == []
    proto.go(depth=1)
    assert proto.feed("bestmove (none)") == [BestMove(None)]


def test_mate_scores_become_ours():
    assert _score(parse_info("depth 5 score mate 2 pv a1a8")) == MATE - 3
    assert _score(parse_info("depth 5 score mate -1")) == -(MATE - 2)
    assert _score(parse_info("depth 5 score cp 77")) == 77.0


def test_commands_out_of_turn_and_lines_out_of_place_are_refused():
    proto = UciProtocol()
    with pytest.raises(UciError, match="not allowed while the engine is new"):
        proto.go(movetime_ms=10)
    with pytest.raises(UciError, match="before the handshake"):
        proto.is_ready()
    proto.start()
    with pytest.raises(UciError, match="already started"):
        proto.start()
    proto.feed("uciok")
    with pytest.raises(UciError, match="best move while idle"):
        proto.feed("bestmove e2e4")
    with pytest.raises(UciError, match="readyok without isready"):
        proto.feed("readyok")
    with pytest.raises(UciError, match="uciok outside the handshake"):
        proto.feed("uciok")
    with pytest.raises(UciError, match="needs a limit"):
        proto.go()
    with pytest.raises(UciError, match="whole number from 1"):
        proto.go(movetime_ms=0)
    with pytest.raises(UciError, match="one line"):
        proto.position("8/8 w\nquit")
    assert proto.is_ready() == ["isready"] and proto.feed("readyok") == [ReadyOk()]
    assert proto.feed("info depth 3") == []  # not thinking: ignored
    assert proto.feed("some words the engine says") == []


# ----- the adapter against a fake engine ------------------------------------------------------------
def fake(tmp_path, mode: str) -> str:
    script = tmp_path / f"fake-{mode}"
    script.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} {mode}\n")
    script.chmod(0o755)
    return str(script)


def test_the_adapter_plays_a_search_with_a_fake_engine(tmp_path):
    engine = UciEngine(fake(tmp_path, "good"))
    try:
        assert engine.name == "Fake 1.0"
        engine.configure({"UCI_Elo": 1500})
        seen = []
        best, info = engine.think("8/8/8/8/8/8/8/K6k w - - 0 1", movetime_ms=50, on_info=seen.append)
        assert best == BestMove("e2e4", "e7e5") and info.score_cp == 15 and len(seen) == 2
        best, _ = engine.think("8/8/8/8/8/8/8/K6k w - - 0 1", depth=3, searchmoves=("a1b1",))
        assert best.move == "a1b1"
    finally:
        engine.close()
    assert engine.proc.poll() is not None


def test_a_stop_makes_the_engine_answer_at_once(tmp_path):
    engine = UciEngine(fake(tmp_path, "slow"))
    try:
        calls = []
        best, info = engine.think("8/8/8/8/8/8/8/K6k w - - 0 1", movetime_ms=60_000,
                                  stop=lambda: calls.append(1) or len(calls) > 2)
        assert best.move == "d2d4" and info.score_mate == 2
    finally:
        engine.close()


def test_an_engine_that_dies_or_never_answers_is_one_clear_error(tmp_path):
    engine = UciEngine(fake(tmp_path, "crash-on-go"))
    try:
        with pytest.raises(UciError, match="stopped answering"):
            engine.think("8/8/8/8/8/8/8/K6k w - - 0 1", movetime_ms=10)
    finally:
        engine.close()
    with pytest.raises(UciError, match="did not answer within 1 s"):
        UciEngine(fake(tmp_path, "mute"), timeout=1.0)


# ----- Stockfish as a seat ----------------------------------------------------------------------------
def test_stockfish_plays_a_legal_chess_move_at_a_given_elo():
    rules = make_rules("chess")
    player = StockfishPlayer(rules, 1500)
    try:
        pos = rules.start_position()
        info = player.choose(pos, now=time.perf_counter, budget=0.05)
        assert info.best in rules.legal_moves(pos) and info.nodes > 0
        mate = rules.position_from_text("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
        assert rules.move_text(mate, player.choose(mate, now=time.perf_counter, budget=0.2).best) == "a1a8"
    finally:
        player.close()


def test_stockfish_is_refused_in_one_line_where_it_cannot_play():
    with pytest.raises(CompanionError, match="plays FIDE chess only, not combat"):
        StockfishPlayer(make_rules("combat"), 1500)
    with pytest.raises(CompanionError, match="plays from Elo 1350 to 2850"):
        StockfishPlayer(make_rules("chess"), 1000)
    with pytest.raises(StockfishMissing, match="Stockfish is not installed at /nowhere/stockfish: install it"):
        StockfishPlayer(make_rules("chess"), 1500, path="/nowhere/stockfish")
    with pytest.raises(CompanionError, match="stockfish:ELO"):
        parse_stockfish("stockfish:strong")


def test_the_seat_choices_list_stockfish_for_chess_only_when_it_is_installed():
    ours = computer_players("chess", find=lambda: None)
    assert [c.key for c in ours] == ["1", "2", "3", "4", "5", "max"] and ours[0].title == "Level 1: beginner"
    with_sf = computer_players("chess", find=lambda: "/usr/games/stockfish")
    assert [c.key for c in with_sf if c.engine == "stockfish"] == [
        "stockfish:1350", "stockfish:1500", "stockfish:1800", "stockfish:2100", "stockfish:2400", "stockfish:2850"]
    assert with_sf[-1].title == "Stockfish, Elo 2850"
    assert computer_players("combat", find=lambda: "/usr/games/stockfish") == ours
    assert all(c.engine == "ours" for c in computer_players("dungeon"))
    player = make_computer("stockfish:1350", make_rules("chess"), random.Random(1))
    try:
        assert player.name == "stockfish:1350"
    finally:
        player.close()


def test_ai_match_plays_stockfish_and_closes_its_process(monkeypatch):
    engines = []
    real_close = UciEngine.close

    def close(self):
        real_close(self)
        engines.append(self.proc.poll())

    monkeypatch.setattr(UciEngine, "close", close)
    lines = []
    score = run_match("chess", None, "1", "stockfish:1350", 2, 20, 1, now=time.perf_counter, out=lines.append,
                      max_plies=6)
    assert sum(score) == 2 and lines[-1] == "score 0-0-2" and "adjudicated" in lines[0]
    assert len(engines) == 2 and None not in engines  # one process a game, each ended


def test_stockfish_is_given_the_game_so_far_so_it_sees_repetitions():
    """The moves since the game's start go to Stockfish (``position fen ... moves ...``): its own
    and the replies found from the position after its last move; a takeback starts again."""
    rules = make_rules("chess")
    player = StockfishPlayer(rules, 1350)
    try:
        pos = rules.start_position()
        start = rules.fen(pos)
        played = []
        for _ in range(2):
            move = player.choose(pos, now=time.perf_counter, budget=0.02).best
            reply = rules.legal_moves(rules.apply(pos, move) or pos)[0]
            rules.undo(pos)
            for m in (move, reply):
                played.append(rules.move_text(pos, m))
                rules.play(pos, m)
        assert player._game(pos) == (start, tuple(played))
        rules.undo(pos)
        rules.undo(pos)
        assert player._game(pos) == (rules.fen(pos), ())
    finally:
        player.close()
