"""Two linked boards in one process (companion.link.game over real channels): every game played
through the link, fair dice and sealed bids, requests, takebacks, a mismatch, a board that
restarts at any moment, a board that stays away. Pure: no sockets, no clock."""

import json
import random

import pytest

from companion.dice.record import format_record, parse_record
from companion.errors import LinkError
from companion.games.combat_verify import verify_game_record
from companion.link.channel import Channel
from companion.link.events import Mismatch, PeerAway, Refused, TakebackAsked
from companion.link.game import LinkedGame
from companion.link.state import AWAY_MS, CLAIM_REASON
from companion.session import OfferDraw, PlayMove, Resign, Session
from tests.link_helpers import Board, Pair, act_randomly, play_out


def _same(pair: Pair, refused: tuple[int, int] = (0, 0)) -> None:
    a, b = pair.a, pair.b
    assert a.game.st.hash() == b.game.st.hash()
    assert a.journal == b.journal  # the same actions, in the same order, in both games' journals
    assert (a.game.st.refused, b.game.st.refused) == refused


SLOW = pytest.mark.slow


@pytest.mark.parametrize("game, players", [("chess", 2), ("combat", 2), ("chess2", 2), pytest.param("kol", 2, marks=SLOW),
                                           ("dungeon", 2), pytest.param("dungeon", 3, marks=SLOW),
                                           pytest.param("dungeon", 4, marks=SLOW)])
def test_every_game_is_played_through_the_link_alike_on_both_boards(game, players):
    pair = Pair(seed=game)
    pair.start(game, players=players)
    plies = play_out(pair, seed=players, max_plies=160)
    assert plies > 20
    _same(pair)
    assert pair.a.session.setup == pair.b.session.setup


@pytest.mark.parametrize("mode", ["ffa", "teams"])
def test_four_player_chess_through_the_link_two_seats_at_each_board(mode):
    pair = Pair(seed=f"chess4-{mode}")
    pair.start("chess4", players=4, options={"mode": mode}, boards=(0, 1, 0, 1))
    assert pair.a.game.proposal.seats_of(0) == (0, 2) and pair.b.game.proposal.seats_of(1) == (1, 3)
    plies = play_out(pair, seed=4, max_plies=120)
    assert plies == 120 or pair.a.session.result is not None
    _same(pair)
    assert pair.a.session.setup == pair.b.session.setup and pair.a.session.setup.option_values["mode"] == mode


@pytest.mark.parametrize("game, players, boards", [("chess", 2, None), pytest.param("kol", 2, None, marks=SLOW),
                                                   pytest.param("dungeon", 3, (0, 1, 0), marks=SLOW),
                                                   pytest.param("chess4", 4, (0, 1, 0, 1), marks=SLOW)])
def test_dice_fights_on_any_game_come_from_both_boards_secrets(game, players, boards):
    """Dice fights as a layer of every game (the ``fights`` option): linked dice, checked."""
    pair = Pair(seed=f"fights-{game}")
    pair.start(game, players=players, options={"fights": "dice"}, boards=boards)
    play_out(pair, seed=5, max_plies=200)
    _same(pair)
    record = pair.a.session.record
    assert pair.a.session.setup.dice == "linked" and record.source == "linked" and len(record.rounds) >= 1
    result = verify_game_record(parse_record(format_record(record)))
    assert result.ok and result.status == "verified", result.summary()


def test_combat_dice_come_from_both_boards_secrets_and_verify_dice_checks_the_record():
    pair = Pair(seed="dice")
    pair.start("combat")
    play_out(pair, seed=7, max_plies=300)
    _same(pair)
    record = pair.a.session.record
    assert record.source == "linked" and len(record.rounds) > 5
    assert format_record(record) == format_record(pair.b.session.record)
    result = verify_game_record(parse_record(format_record(record)))
    assert result.ok and result.status == "verified", result.summary()
    # a forged face does not verify
    text = format_record(record)
    line = next(i for i, ln in enumerate(text.splitlines()) if '"type": "round"' in ln)
    lines = text.splitlines()
    value = json.loads(lines[line])
    face = value["attacker"]["fighters"][0]["faces"][0]
    value["attacker"]["fighters"][0]["faces"][0] = 1 if face != 1 else 2
    lines[line] = json.dumps(value)
    forged = verify_game_record(parse_record("\n".join(lines) + "\n"))
    assert not forged.ok and "secrets give" in str(forged.first)


def test_a_board_reveals_its_dice_secret_only_for_a_fight_that_stands_and_only_once():
    pair = Pair(seed="reveal")
    pair.start("combat")
    play_out(pair, seed=3, max_plies=200)
    for board in (pair.a, pair.b):
        reveals = [n for n in board.game.st.mine if n["kind"] == "reveal"]
        indices = [n["index"] for n in reveals]
        assert indices == sorted(set(indices))  # never twice, always upwards
    fights = len({r.fight for r in pair.a.session.record.rounds})
    total = sum(1 for b in (pair.a, pair.b) for n in b.game.st.mine if n["kind"] == "reveal")
    assert total == fights  # one reveal a fight, by the board that did not start it


def _notes_in_order(board: Board) -> list[tuple[str, dict]]:
    """What a board's link journal holds: its own notes and the other's, in the order written."""
    return [(r["type"], r["note"]) for r in board.records if r["type"] in ("mine", "theirs")]


def test_sealed_choices_and_duel_bids_are_committed_by_both_boards_before_either_is_opened():
    pair = Pair(seed="duel")
    pair.start("chess2", armies=("animals", "reaper"))
    assert pair.a.session.setup.option_values["armies"] == "animals,reaper"
    play_out(pair, seed=11, max_plies=250)
    _same(pair)
    labels = set()
    for board in (pair.a, pair.b):
        seen_commit: dict[str, set] = {}
        for who, note in _notes_in_order(board):
            if note["kind"] == "commit":
                seen_commit.setdefault(note["label"], set()).add(who)
                labels.add(note["label"])
            if note["kind"] == "open" and who == "mine":
                assert seen_commit[note["label"]] == {"mine", "theirs"}, note["label"]
    assert "setup" in labels and any(label.startswith("part@") for label in labels)
    parts = [e for e in pair.a.journal if e.get("type") == "part"]
    assert parts and len(parts) % 2 == 0


def test_an_opening_that_is_not_what_was_committed_is_refused():
    pair = Pair(seed="forge")
    pair.start("chess")
    b = pair.b
    st = b.game.st
    forged = {"t": "note", "k": st.theirs + 1, "g": 1, "at": len(st.log), "h": st.hash(),
              "v": {"kind": "open", "label": "setup", "value": {"coin": "00", "seats": {}}, "nonce": "0" * 64}}
    events = b.game.receive(json.dumps(forged).encode(), 0)
    assert any(isinstance(e, Refused) and "a second opening" in e.why for e in events)


def test_the_board_that_does_not_write_asks_and_nobody_acts_for_the_other_boards_players():
    pair = Pair(seed="ask")
    pair.start("chess")
    a, b = pair.a, pair.b
    with pytest.raises(LinkError, match="other board's turn"):
        b.game.act(PlayMove("e7e5"))
    with pytest.raises(LinkError, match="other board"):
        a.game.act(Resign(1))
    pair.feed(b, b.game.act(OfferDraw(1)))  # white (board a) writes: black's offer is a request
    pair.pump()
    assert a.session.draw_offer == 1 and b.session.draw_offer == 1
    from companion.session import AnswerDraw

    pair.feed(a, a.game.act(AnswerDraw(False)))
    pair.pump()
    assert a.session.draw_offer is None and a.session.result is None
    # the other board writing a resignation of this board's player is refused
    st = a.game.st
    forged = {"t": "entry", "n": len(st.log) + 1, "e": {"type": "resign", "player": 0}, "g": 1,
              "at": len(st.log) + 1, "h": "x"}
    events = a.game.receive(json.dumps(forged).encode(), 0)
    assert any(isinstance(e, Refused) for e in events) and a.session.result is None
    pair.feed(b, b.game.act(Resign(1)))
    pair.pump()
    assert a.session.result.winners == frozenset({0}) and b.session.result == a.session.result
    _same(pair, refused=(1, 0))  # the forged resignation, refused


def test_a_move_written_out_of_turn_is_refused():
    pair = Pair(seed="turn")
    pair.start("chess")
    a = pair.a
    st = a.game.st
    forged = {"t": "entry", "n": 1, "e": {"type": "move", "move": "e2e4"}, "g": 1, "at": 1, "h": "x"}
    events = a.game.receive(json.dumps(forged).encode(), 0)
    assert any(isinstance(e, Refused) and "out of turn" in e.why for e in events)
    assert st.log == []


def test_a_message_the_other_board_sent_from_the_lobby_is_no_disagreement_once_the_game_started():
    """Seen once under load (a linked Dungeon draft): the other board's last lobby message, sent
    before it had a game (hash ""), came after this board had started: it said "the boards
    disagree" at action 0."""
    pair = Pair(seed="lobby-late")
    pair.start("chess")
    a = pair.a
    late = {"t": "sync", "log": 0, "notes": 0, "g": a.game.st.number, "at": 0, "h": ""}
    events = a.game.receive(json.dumps(late).encode(), 0)
    assert not any(isinstance(e, Mismatch) for e in events) and a.game.st.phase == "playing"
    wrong = dict(late, h="0123456789abcdef")  # a real hash that differs is still a disagreement
    events = a.game.receive(json.dumps(wrong).encode(), 0)
    assert any(isinstance(e, Mismatch) for e in events)


@pytest.mark.parametrize("accept", [True, False])
def test_a_takeback_needs_both_players(accept):
    pair = Pair(seed="undo")
    pair.start("chess")
    a, b = pair.a, pair.b
    for board, move in ((a, "e2e4"), (b, "e7e5"), (a, "g1f3")):
        pair.feed(board, board.game.act(PlayMove(move)))
        pair.pump()
    pair.feed(a, a.game.ask_takeback())
    pair.pump()
    assert any(isinstance(e, TakebackAsked) and e.turns == 1 for e in b.events)
    pair.feed(b, b.game.answer_takeback(accept))
    pair.pump()
    assert len(a.session.moves) == (2 if accept else 3) == len(b.session.moves)
    _same(pair)


def test_a_mismatch_stops_play_shows_both_views_and_is_fixed_when_both_choose_one():
    pair = Pair(seed="mismatch")
    pair.start("chess")
    a, b = pair.a, pair.b
    pair.feed(a, a.game.act(PlayMove("e2e4")))
    pair.pump()
    # a bug (or a hand) changes b's game behind the link's back: a pawn gone from a2
    b.session.correct_position("rnbqkbnr/pppppppp/8/8/4P3/8/1PPP1PPP/RNBQKBNR b KQkq - 0 1")
    pair.tick(2500)  # the next heartbeat carries the hashes
    for board in (a, b):
        shown = [e for e in board.events if isinstance(e, Mismatch)]
        assert shown and shown[-1].theirs is not None and shown[-1].mine != shown[-1].theirs
        assert board.game.phase == "mismatch"
        with pytest.raises(LinkError, match="disagree"):
            board.game.act(PlayMove("e7e5"))
    pair.feed(a, a.game.fix_mismatch("mine"))
    pair.feed(b, b.game.fix_mismatch("theirs"))
    pair.pump()
    assert a.game.phase == b.game.phase == "playing"
    assert a.game.st.hash() == b.game.st.hash()
    pair.feed(b, b.game.act(PlayMove("e7e5")))
    pair.pump()
    assert a.session.moves[-1].move == "e7e5"


def _restart(pair: Pair, board: Board) -> Board:
    """``board`` loses power: what was on the wire to or from it, and what it had not sent, is
    gone; it comes back from its two journals and reconnects with the saved key."""
    pair.wire = [(to, f) for to, f in pair.wire if to is not board and to is not pair.other(board)]
    board.game.data_to_send()
    new = Board(board.me, seed=f"again{board.channel.epoch}", key=board.channel.key)
    new.records, new.journal = list(board.records), list(board.journal)
    session = None
    if new.journal:
        session, used, problem = Session.replay(new.journal)
        assert problem is None
        session.recorder = new.journal.append
    new.game, events = LinkedGame.resume(board.me, board.root, new.records, session=session, log=new.journal[1:],
                                         record=new.records.append, start_game=new._start)
    new.channel = Channel(new.role, new.entropy, key=board.channel.key, epoch=board.channel.epoch)
    if board is pair.a:
        pair.a = new
    else:
        pair.b = new
    other = pair.other(new)
    other.channel.start(pair.now)  # both ends see the connection go and come back
    new.channel.start(pair.now)
    pair._collect(other)
    pair._collect(new)
    pair.feed(new, events)
    pair.pump()
    return new


@pytest.mark.parametrize("game, who, plies", [
    ("combat", 1, 36), pytest.param("combat", 0, 160, marks=SLOW), pytest.param("combat", 1, 160, marks=SLOW),
    ("chess2", 0, 36), pytest.param("chess2", 0, 160, marks=SLOW), pytest.param("chess2", 1, 160, marks=SLOW)])
def test_a_board_that_loses_power_at_any_moment_goes_on_with_nothing_lost_or_doubled(game, who, plies):
    """Kill one board after every few deliveries (mid-fight, between duel bids, anywhere):
    after each restart the boards agree by numbers and the game goes on to its end."""
    pair = Pair(seed=f"kill{game}{who}")
    pair.start(game, armies=("classic", "animals"))
    rng = random.Random(5)
    limit, kills, plies = plies, 0, 0
    while pair.a.session.result is None and plies < limit:
        if not act_randomly(pair, rng):
            break
        plies += 1
        if plies % 3 == 0:
            victim = pair.a if who == 0 else pair.b
            _restart(pair, victim)
            kills += 1
    assert kills >= min(10, limit // 3 - 1)
    _same(pair)
    if game == "combat":
        assert verify_game_record(parse_record(format_record(pair.a.session.record))).ok


def test_a_kill_between_the_moment_a_board_writes_and_the_moment_it_sends():
    pair = Pair(seed="between")
    pair.start("combat")
    a = pair.a
    a.game.act(PlayMove("e2e4"))  # journaled and applied on a, never sent: the power goes
    a = _restart(pair, a)
    assert len(pair.b.session.moves) == 1  # resent by number after the restart
    _same(pair)


def test_a_board_that_stays_away_can_be_waited_for_and_then_claimed():
    pair = Pair(seed="away")
    pair.start("chess")
    a, b = pair.a, pair.b
    pair.feed(a, a.game.act(PlayMove("e2e4")))
    pair.pump()
    pair.hand = lambda frame, role: None  # the network goes
    pair.tick(AWAY_MS + 100)
    assert any(isinstance(e, PeerAway) for e in a.events)
    with pytest.raises(LinkError, match="can be claimed in"):
        a.game.claim(pair.now)
    pair.tick(60_000)
    pair.feed(a, a.game.claim(pair.now))
    assert a.session.result.reason == CLAIM_REASON and a.session.result.winners == frozenset({0})
    pair.hand = None  # the network comes back: b learns of the claim
    a.channel.start(pair.now)
    b.channel.start(pair.now)
    pair._collect(a)
    pair._collect(b)
    pair.pump()
    assert b.session.result == a.session.result


def test_a_claim_stands_when_the_absent_board_had_moved_meanwhile():
    pair = Pair(seed="fork")
    pair.start("chess")
    a, b = pair.a, pair.b
    pair.feed(a, a.game.act(PlayMove("e2e4")))
    pair.pump()
    pair.hand = lambda frame, role: None  # the network goes
    b.game.act(PlayMove("e7e5"))  # b moves; a never hears of it
    b.game.data_to_send()
    pair.tick(AWAY_MS + 61_000)
    pair.feed(a, a.game.claim(pair.now))
    pair.hand = None
    for board in (a, b):
        board.channel.start(pair.now)
        pair._collect(board)
    pair.pump()
    assert b.session.result == a.session.result and a.session.result.reason == CLAIM_REASON
    from companion.link.events import ClaimedWhileAway

    assert any(isinstance(e, ClaimedWhileAway) and e.lost == 1 for e in b.events)
    assert len(b.session.moves) == 2 and len(a.session.moves) == 1  # b's record keeps its move


def test_no_takeback_while_a_fight_waits_for_its_dice():
    """Its secrets may be shown already: taken back, the next fight would roll with known secrets."""
    pair = Pair(seed="fightundo")
    pair.start("combat")
    a, b = pair.a, pair.b
    for board, move in ((a, "e2e4"), (b, "d7d5"), (a, "e4d5")):
        if move == "e4d5":
            pair.hand = lambda frame, role: None if role == "guest" else frame  # b's reveal never arrives
        pair.feed(board, board.game.act(PlayMove(move)))
        pair.pump()
    assert a.session.pending_fight() is not None and b.session.pending_fight() is not None
    with pytest.raises(LinkError, match="finish the fight first"):
        a.game.ask_takeback()
    st = b.game.st
    forged = {"t": "note", "k": st.theirs + 1, "g": 1, "at": len(st.log), "h": st.hash(),
              "v": {"kind": "takeback", "turns": 1, "at": len(st.log)}}
    events = b.game.receive(json.dumps(forged).encode(), 0)
    assert any(isinstance(e, Refused) and "finish the fight first" in e.why for e in events)
    assert not any(isinstance(e, TakebackAsked) for e in events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_linked_dungeon_game_of_default_armies_starts_with_no_king_attacked(players):
    """Each board seals its own seats' armies and squares without seeing the other's; the
    defaults are placed as the board's own automatic deployment places every seat in turn."""
    pair = Pair(seed=f"dungeon-{players}")
    pair.start("dungeon", players=players, board_map="dungeon-four-player" if players > 2 else None,
               boards=tuple(i % 2 for i in range(players)))
    assert not pair.a.session.in_check() and pair.a.game.st.hash() == pair.b.game.st.hash()


def test_a_linked_dungeon_army_is_one_that_fits_the_seat_and_a_stranger_one_is_refused():
    from companion.link.lobby import LinkSeat, Proposal, dungeon_armies, dungeon_choices

    proposal = Proposal("dungeon", tuple(LinkSeat(n, i % 2) for i, n in enumerate(("B", "R", "G", "Y"))), "g",
                        "dungeon-four-player")
    names = [name for name, _ in dungeon_armies(proposal, 1)]
    assert names[0] == "skeleton-swarm-24" and "skeleton-swarm" not in names  # the default first; 56 do not fit
    chosen = dungeon_choices(proposal, 1, {1: "human-balanced", 3: "greenskin-midrange"})
    assert set(chosen) == {"1", "3"} and chosen["1"]["army"]["faction"] == "human"
    with pytest.raises(LinkError, match="unknown army 'dragons' for seat 2"):
        dungeon_choices(proposal, 1, {1: "dragons", 3: "greenskin-midrange"})
