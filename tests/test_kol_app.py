"""KoL Chess in the app without a window (the flow and its presenters on the simulated board):
the start screen, the board's colours, a back-row trade asked by name on the screen, the
Tower's state in the piece card, and the computer answering a trade."""

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
    assert [g.key for g in v.games] == ["chess", "combat", "dungeon", "kol"] and v.games[3].selected
    assert [s.colour for s in v.seats] == ["Blue", "Orange"] and [s.name for s in v.seats] == ["Blue", "Orange"]
    assert "reconstruction" in v.game_hint
    app.start.start()
    app.pump()
    assert app.flow.screen == "setup" and app.flow.board.width == 12


def test_the_board_shows_the_square_colours_and_the_reconstruction(tmp_path):
    app = App(tmp_path)
    start_kol(app)
    squares = app.board.view().squares
    assert [squares[sq(n)].colour for n in ("a1", "b1", "j1", "a4", "a5", "c3", "f3")] == \
        ["black", "white", "green", "green", "red", "blue", "blue"]
    assert app.flow.view_screen == "dungeon_game"
    from companion.app.presenters.dungeon_game import DungeonGamePresenter
    assert DungeonGamePresenter(app.flow).view().title == "KoL Chess (reconstructed board)"


def test_a_back_row_trade_is_asked_by_name_and_answered_on_the_screen(tmp_path):
    app = App(tmp_path)
    start_kol(app, {"e11": "KG"})
    tap(app, "e11", "e12")
    prompt = app.flow.prompt
    assert prompt is not None and prompt.kind == "trade"
    assert prompt.title == "Trade the Knob Goblin on e12?"
    labels = [o.label for o in prompt.options]
    assert labels[0] == "Keep the Knob Goblin" and "Ninja Snowman" in labels and "Princess" in labels
    app.flow.answer_prompt(prompt.options[labels.index("Vicious Gnauga")].key)
    app.pump()
    s = app.flow.session
    assert s.pos.board[sq("e12")].kind.code == "VG" and s.pos.turn == 1 and app.flow.prompt is None
    from companion.app.presenters.dungeon_game import DungeonGamePresenter
    view = DungeonGamePresenter(app.flow).view()
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
