"""KoL Chess in the app without a window (the flow and its presenters on the simulated board):
the start screen, the board's colours, a back-row trade asked by name on the screen, the
Tower's state in the piece card, the computer answering a trade, and a game with a clock
(the clock screen, its record, its text)."""

from companion.games import make_rules
from companion.session import Seat
from tests.kol_board import BASE, position
from tests.ui_flow_helpers import App

R = make_rules("kol")


def start_kol(app, pieces=None, computer=False):
    start = R.position_text(position(pieces)) if pieces is not None else None
    seats = (Seat("Blue"), Seat("Computer", True, 1) if computer else Seat("Orange"))
    app.flow.new_game("kol", seats, start=start)
    app.pump()
    app.setup.fill()
    app.pump()


def sq(name):
    return R.geometry.parse_square(name)


def tap(app, *names):
    for n in names:
        app.board.tap(sq(n))
        app.pump()
    app.clock.t += 2000
    app.pump()


def test_kol_is_on_the_start_screen_with_blue_and_orange(tmp_path):
    app = App(tmp_path)
    app.start.choose_game("kol")
    v = app.start.view()
    assert [g.key for g in v.games] == ["chess", "dungeon", "chess2", "kol", "chess4"] and v.games[3].selected
    assert [s.colour for s in v.seats] == ["Blue", "Orange"] and [s.name for s in v.seats] == ["Blue", "Orange"]
    assert "reconstruction" in v.game_hint
    app.start.start()
    app.pump()
    assert app.flow.display.screen == "setup" and app.flow.board.link.width == 12


def test_the_board_shows_the_square_colours_and_the_reconstruction(tmp_path):
    app = App(tmp_path)
    start_kol(app)
    squares = app.board.view().squares
    assert [squares[sq(n)].colour for n in ("a1", "b1", "j1", "a4", "a5", "c3", "f3")] == \
        ["black", "white", "green", "green", "red", "blue", "blue"]
    assert app.flow.view_screen == "dungeon_game"
    from companion.app.presenters.dungeon_game import DungeonGamePresenter
    assert DungeonGamePresenter(app.flow.game, app.flow.ai, app.flow.board, app.flow.display).view().title == "KoL Chess (reconstructed board)"


def test_a_back_row_trade_is_asked_by_name_and_answered_on_the_screen(tmp_path):
    app = App(tmp_path)
    start_kol(app, {"e11": "KG"})
    tap(app, "e11", "e12")
    prompt = app.flow.display.prompt
    assert prompt is not None and prompt.kind == "trade"
    assert prompt.title == "Trade the Knob Goblin on e12?"
    labels = [o.label for o in prompt.options]
    assert labels[0] == "Keep the Knob Goblin" and "Ninja Snowman" in labels and "Princess" in labels
    app.flow.display.answer_prompt(prompt.options[labels.index("Vicious Gnauga")].key)
    app.pump()
    s = app.flow.game.session
    assert s.pos.board[sq("e12")].kind.code == "VG" and s.pos.turn == 1 and app.flow.display.prompt is None
    from companion.app.presenters.dungeon_game import DungeonGamePresenter
    view = DungeonGamePresenter(app.flow.game, app.flow.ai, app.flow.board, app.flow.display).view()
    assert "Blue's Knob Goblin on e12 is traded for a Vicious Gnauga." in view.effects
    assert view.last_turn == "Blue: KG e11-e12"


def test_the_computer_answers_a_trade_with_a_strong_piece():
    """The search answers a pending back-row trade (a choice decision) itself: a Gnome reaching
    the far rank is traded, not kept."""
    import random

    from companion.ai.levels import ComputerPlayer, parse_level
    from tests.kol_board import play

    pos = position({"e11": "GN", "e12": "kg"})
    play(pos, "e11e12")
    player = ComputerPlayer(R, parse_level("max"), random.Random(1))
    info = player.choose(pos, now=lambda: 0.0, budget=None, max_nodes=400)
    assert info.best.decision == "trade" and info.best.value != "keep"


def test_a_kol_game_with_a_clock_shows_the_clock_in_blue_and_orange_and_keeps_its_record(tmp_path):
    """The tournament table's features with no KoL code: a casual clock (the clock screen, the
    board a tap away on the unit-game screen with a button back), the record as PGN, the
    game's text with its clock, all from the start screen's table settings."""
    from companion.gametext import load_table
    from companion.tournament.pgn import parse_pgn
    from companion.tournament.record import replay_pgn

    app = App(tmp_path, computer=False)
    app.start.choose_game("kol")
    assert app.start.view().table == "Casual, no clock"
    app.start_at_the_table("kol", "blitz")
    flow = app.flow
    assert flow.game.table.clock is not None and flow.view_screen == "clock"
    halves = app.clock_screen.view().halves
    assert [h.name for h in halves] == ["Blue", "Orange"]
    app.clock.t += 500
    app.clock_screen.tap(1)  # Orange starts Blue's clock
    app.pump()
    app.clock_screen.board()
    assert flow.view_screen == "dungeon_game"
    assert app.bar.view().action == "clock"  # the game bar's own slot brings the clock back
    tap(app, "a2", "a3")
    assert [m.move for m in flow.game.session.moves] == ["a2a3"]
    app.bar.action()
    assert flow.view_screen == "clock" and app.clock_screen.view().status.startswith("Orange")
    app.clock.t += 3000
    app.clock_screen.tap(0)  # Blue presses
    app.pump()
    assert flow.game.table.clock.running == 1 and 0 in flow.game.table.plies
    flow.records.save()
    (game,) = parse_pgn((tmp_path / "games" / f"{flow.game.session.setup.game_id}.pgn").read_text())
    assert game.tag("Variant") == "KoL Chess" and game.moves[0].text == "a2a3" and game.moves[0].clock_ms
    assert replay_pgn(game).rules.position_text(replay_pgn(game).pos) == flow.game.session.rules.position_text(flow.game.session.pos)
    text = flow.load_save.game_text()  # the clock as it stands when the text is made
    back = load_table(text)
    assert back.clock.view(0).times == flow.game.table.clock.view(app.clock.t).times and back.clock.paused
