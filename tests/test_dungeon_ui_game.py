"""Playing Dungeon Chess in the app, without Kivy: the board presenter (terrain, units in
their players' colours), the side panel (2-4 players, effects in words), the questions the
board asks (a Salamander's step, a forced pass), the hex buttons, undo, the end and resuming."""

from companion.app import theme
from companion.app.presenters.dungeon_game import effect_words
from companion.session import Seat
from tests.dungeon_ui_helpers import DungeonApp, ScriptedComputer, play_quick_four, start_quick_four


def quick_four(tmp_path, count=None, **kw):
    app = DungeonApp(tmp_path, **kw)
    start_quick_four(app)
    play_quick_four(app, count)
    return app


# ----- the board ---------------------------------------------------------------------------------


def test_the_board_draws_terrain_and_units_in_their_players_colours(tmp_path):
    app = quick_four(tmp_path, 0)
    assert app.flow.view_screen == "dungeon_game" and app.flow.display.screen == "game"
    v = app.p.board.view()
    assert (v.width, v.height, v.units) == (20, 20, True)
    assert v.owner_colours == tuple(theme.seat_colour(c) for c in ("blue", "red", "green", "yellow"))
    sq = {s.name: s for s in v.squares}
    assert sq["a1"].terrain == "void" and sq["j10"].terrain == "water" and sq["h2"].terrain == "floor"
    assert (sq["h2"].glyph, sq["h2"].owner) == ("PR", 0) and (sq["r11"].glyph, sq["r11"].owner) == ("WD", 3)
    assert v.files[-1] == "t" and v.ranks[-1] == "20"


def test_a_hexed_and_a_wounded_unit_carry_a_badge(tmp_path):
    app = quick_four(tmp_path, 5)  # the Troll pushed back (wounded), the Demonics hexed
    sq = {s.name: s for s in app.p.board.view().squares}
    assert sq["n13"].badge == "W" and sq["q11"].badge == "H2"


def test_a_lifted_unit_is_drawn_faded_and_its_moves_are_lit(tmp_path):
    app = quick_four(tmp_path, 0)
    app.tap("k14", settle=False)
    sq = {s.name: s for s in app.p.board.view().squares}
    assert sq["k14"].lifted and sq["m13"].light is not None  # the Knight may attack the Troll
    assert sq["a1"].light is None


# ----- the side panel ------------------------------------------------------------------------------


def test_four_players_whose_turn_and_what_the_last_turn_did(tmp_path):
    app = quick_four(tmp_path, 1)
    v = app.p.dungeon.view()
    assert [(c.name, c.to_move, c.out, c.units) for c in v.players] == [
        ("Blue", False, False, "7"), ("Red", True, False, "5"), ("Green", False, False, "6"),
        ("Yellow", False, False, "4")]
    assert v.status == "Red to move" and v.last_turn == "Blue: KN k14xm13"
    # said with the attacker's name and square: "the attacker stays" beside the board's "Move
    # the blue Knight back" read as a contradiction
    assert v.effects == ("Yellow's Troll absorbs the blow and is pushed back from m13 to n13; "
                         "the attacking Knight does not take the square: it stays on k14.")
    bar = app.p.bar.view()
    assert bar.can_resign and bar.can_undo and not bar.can_draw and bar.action == ""  # one bar in every game


def test_the_effects_of_a_turn_are_said_with_the_players_names(tmp_path):
    app = quick_four(tmp_path, 10)  # the Hero takes the hexed Demonics next to yellow's King
    v = app.p.dungeon.view()
    assert v.effects == (
        "Green's Demonics on q11 is captured. Green's Demonics explodes on q11! "
        "Yellow's Warlord on r11 is destroyed by the explosion. Yellow's Shaman on r12 is destroyed by the "
        "explosion. Yellow's King has fallen: Yellow is out and all their units leave the board.")
    assert [c.out for c in v.players] == [False, False, False, True]
    assert v.history.splitlines()[0] == "8. Yellow: GB s8-s7"


def test_every_kind_of_effect_has_words():
    from tests.dungeon_board import rules

    r = rules("dungeon-four-player")
    names = ("Ann", "Bo", "Cy", "Di")
    sq = r.geometry.parse_square
    said = [effect_words(r, e, names) for e in (
        ("captured", sq("l13"), "Skeleton", 1), ("crushed", sq("c5"), "Troll", 3, "water"),
        ("hex", sq("q11"), "Demonics", 2, 2), ("hex_ends", sq("q11"), "Demonics", 2),
        ("step", sq("h7"), sq("i8"), "Salamander", 2), ("king_falls", 1), ("pass", 2))]
    assert said == [
        "Bo's Skeleton on l13 is captured (fragile: any enemy next to it may take it).",
        "Di's Troll on c5 cannot be pushed back (water behind it) and dies.",
        "Cy's Demonics on q11 is hexed: no move or attack for 2 turns.",
        "The hex on Cy's Demonics on q11 wears off.",
        "Cy's Salamander steps on from h7 to i8 (hit-and-run).",
        "Bo's King has fallen.", "Cy has no legal move and passes."]


def test_a_push_back_is_guided_on_the_board_with_its_reason(tmp_path):
    app = quick_four(tmp_path, 0)
    app.move("k14", "m13")
    assert not app.flow.board.in_sync
    assert app.flow.board.guidance == ("Move the blue Knight back from m13 to k14 (the yellow Troll took the blow). "
                                 "Put the yellow Troll on n13 (thick skin).")
    app.follow_the_lights()
    assert app.flow.board.in_sync and app.flow.board.guidance == ""


# ----- questions from the board, and the hex -------------------------------------------------------


def test_the_salamanders_step_is_asked_with_big_buttons(tmp_path):
    app = quick_four(tmp_path, 3)
    prompt = app.flow.display.prompt
    assert prompt.kind == "step" and prompt.cancel and prompt.cancel_label == "Look at the board"
    assert prompt.title.startswith("The green Salamander may step one more square (hit-and-run)")
    assert [o.label for o in prompt.options] == ["Stay on h7", "Step to g7", "Step to g8", "Step to h8",
                                                "Step to i7", "Step to i8"]
    assert app.p.dungeon.view().status == "Green to move"
    app.answer_label("Step to i8")
    assert app.flow.game.session.moves[-1].san == "SL g9xh7-i8"
    assert app.flow.board.guidance == "Move the green Salamander from h7 to i8 (hit-and-run)."


def test_a_step_question_put_aside_comes_back_and_the_board_can_answer_it(tmp_path):
    app = quick_four(tmp_path, 3)
    app.answer(None)  # "Look at the board"
    assert app.flow.display.prompt is None and (app.p.bar.view().action, app.p.bar.view().action_label) == ("question", "Step?")
    app.p.bar.action()
    assert app.flow.display.prompt.kind == "step"
    app.answer(None)
    app.tap("h7", "g7")  # the Salamander steps on the board
    assert app.flow.game.session.moves[-1].san == "SL g9xh7-g7"
    assert app.flow.play.parked is None and app.flow.display.prompt is None and app.p.bar.view().action != "question"


def test_a_hex_is_chosen_on_the_screen(tmp_path):
    app = quick_four(tmp_path, 4)
    v = app.p.dungeon.view()
    assert app.p.bar.view().action_label == "Hex\u2026" and v.status == "Yellow to move  Check!"
    app.p.bar.action()
    prompt = app.flow.display.prompt
    assert prompt.kind == "hex" and [o.label for o in prompt.options] == [
        "Hex the green Demonics on q11 with the yellow Shaman"]
    app.answer("0")
    assert app.flow.game.session.moves[-1].san == "SM r12 hex q11"
    assert app.p.dungeon.view().effects == "Green's Demonics on q11 is hexed: no move or attack for 2 turns."


def test_a_player_without_a_legal_move_is_asked_to_pass(tmp_path):
    app = quick_four(tmp_path, 13)
    prompt = app.flow.display.prompt
    assert prompt.kind == "pass" and not prompt.cancel
    assert prompt.title == "The green player has no legal move and must pass."
    app.answer(None)  # cannot be closed unanswered
    assert app.flow.display.prompt is prompt
    app.answer_label("Pass")
    assert app.flow.game.session.moves[-1].san == "pass" and app.p.dungeon.view().effects == "Green has no legal move and passes."


def test_undo_takes_back_the_capture_and_its_step_and_the_board_is_guided_back(tmp_path):
    app = quick_four(tmp_path, 4)
    app.p.bar.undo()
    app.pump()
    s = app.flow.game.session
    assert len(s.moves) == 2 and s.turn == 2 and app.flow.display.notice == "Taken back: SL g9xh7-i8"
    app.follow_the_lights()
    assert app.flow.board.in_sync and app.flow.board.sensed == s.pos.occupied()


def test_a_computers_salamander_step_is_answered_by_the_computer(tmp_path):
    app = DungeonApp(tmp_path)
    app.flow.ai.computer = computer = ScriptedComputer(["g9h7", "i8"])
    start_quick_four(app, tuple(Seat(n, n == "Green", 1 if n == "Green" else 0)
                                for n in ("Blue", "Red", "Green", "Yellow")))
    play_quick_four(app, 2)
    app.pump()  # the computer's move arrives from its worker
    assert app.p.dungeon.view().status == "Green plays g9\u2013h7"  # lit for a person to carry out
    app.move("g9", "h7")
    app.pump()
    assert computer.asked == [("move", "g9h7"), ("step", "i8")]
    s = app.flow.game.session
    assert s.moves[-1].san == "SL g9xh7-i8" and s.pos.pending is None and s.turn == 3
    assert app.flow.board.guidance == "Move the green Salamander from h7 to i8 (hit-and-run)."


# ----- the end, and resuming ---------------------------------------------------------------------------


def test_the_last_king_standing_wins(tmp_path):
    app = quick_four(tmp_path)
    assert app.flow.display.screen == "game_over"
    v = app.p.over.view()
    assert (v.headline, v.reason) == ("Blue wins", "the last King standing")
    assert v.moves[0] == ("1.", "Blue", "KN k14xm13") and len(v.moves) == 14
    # the last move may still be taken back (casual play): the game is archived on leaving
    assert v.can_undo and (tmp_path / "current.jsonl").exists()
    app.p.over.new_game()
    assert list((tmp_path / "games").glob("game-1*.jsonl")) and not (tmp_path / "current.jsonl").exists()


def test_an_unfinished_four_player_game_is_resumed_where_it_stopped(tmp_path):
    first = quick_four(tmp_path, 3)  # the Salamander's step still to choose
    first.flow.stop()
    app = DungeonApp(tmp_path)
    assert app.flow.display.screen == "resume"
    assert app.p.resume.view().summary == ("Dungeon Chess on Four Player Dungeon: Blue, Red, Green, Yellow, "
                                           "3 moves played.")
    app.p.resume.accept()
    app.pump()
    assert app.flow.display.screen == "setup" and (app.flow.board.link.width, app.flow.board.link.height) == (20, 20)
    app.p.setup.fill()
    app.pump()
    app.settle()
    assert app.flow.display.screen == "game" and app.flow.display.prompt.kind == "step"
    play_quick_four(app, start=3)
    assert app.flow.game.session.result.reason == "the last King standing"


def test_a_unit_tapped_in_info_mode_is_described(tmp_path):
    app = quick_four(tmp_path, 1)
    app.p.board.toggle_info_mode()
    app.tap("n13", settle=False)
    v = app.p.info.view()
    assert v.title == "Yellow's Troll on n13" and v.glyph == "TR"
    assert v.fatigue == "Wounded: it has absorbed one capture; the next one kills it."
    assert v.fights[0].startswith("Slides diagonally") and v.colours[0] == theme.seat_colour("yellow")
    # the card says each rule once: the roster's words, then the abilities by name (it used to
    # add each ability's full words, repeating "Water stops its slides" and the push back)
    assert v.fights == ("Slides diagonally; captures the same way. Survives the first capture (pushed 1 square "
                        "back). Water stops its slides.", "Abilities: Thick-skinned, Water weakness")


def test_units_an_explosion_or_an_elimination_removed_are_drawn_faded_until_taken_off(tmp_path):
    app = quick_four(tmp_path, 9)
    app.move("p10", "q11")  # the Demonics explodes, yellow is out
    sq = {s.name: s for s in app.p.board.view().squares}
    assert (sq["r11"].glyph, sq["r11"].owner, sq["r11"].stray) == ("WD", 3, True)  # destroyed
    assert (sq["s7"].glyph, sq["s7"].owner, sq["s7"].stray) == ("", 3, True)  # eliminated
    app.follow_the_lights()
    assert not app.p.board.view().squares[app.sq("r11")].glyph
