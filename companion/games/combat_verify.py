"""Replay a game with dice fights from its dice record: are the recorded fights the game's?

Human Combat Chess first, and every game played with ``fights=dice`` (Dungeon Chess, KoL Chess,
four-player chess: the header names the game and its options, so the same rules are rebuilt).

The dice checks (companion.dice.verify) prove that the faces came from the revealed seed and
that totals and results follow from the faces and the *recorded* modifiers. On their own they
cannot tell whether those modifiers are right: someone could give a fighter twenty fatigue
tokens, or another die, and rescore the round. A version 2 record carries the game (options,
start position, every move, in order with the rounds), so this module replays it with the
real rules and, at every round, compares the record with the engine:

- the fight and round numbers, and the move that started the fight;
- each fighter's piece, dice, fatigue and weapon choice (``rules.fighters(pos)``);
- the result, by answering the engine's fight with the recorded faces.

The replay stops where the game can no longer follow the record (an illegal move, a round
where the game has no fight, a move while a fight waits for its dice, a different number of
fighters, faces the game's dice cannot show); every other difference is reported and the
replay goes on with the engine's view, so later fights are judged on the real game.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.moves import Answer
from ..core.position import Position
from ..dice.odds import Fighter, round_outcome
from ..dice.record import SIDES, DiceRecord, FighterRoll, MoveRecord, RoundRecord
from ..dice.verify import Problem, VerifyResult, verify_record
from ..errors import CompanionError
from ..i18n import _
from . import GAMES, make_rules
from .fight_dice import MAX_TIES, piece_label
from .fights import FightLayer

GAME = "combat"


class _Stop(Exception):
    """The game cannot follow the record any further."""


def verify_game_record(record: DiceRecord) -> VerifyResult:
    """Everything ``companion verify-dice`` checks: the dice (faces from the seed, totals,
    results, order) and, for a version 2 record, the fights against the replayed game.

    The replay trusts the record's header for how the game was set up, so the result notes
    a set-up an arbiter should confirm: a start other than the usual one, "only d6's".
    """
    if record.game_record is None:
        return verify_record(record)
    result = verify_record(record, replay_fights)
    return replace(result, notes=result.notes + tuple(setup_notes(record)))


def setup_notes(record: DiceRecord) -> list[str]:
    """What the record says about the game's set-up that an arbiter should confirm."""
    game = record.game_record
    if game is None:
        return []
    notes = []
    try:
        rules = make_rules(record.game, game.board_map, **game.option_values)
        if not isinstance(rules, FightLayer):
            return []
        usual = rules.position_text(rules.start_position())
    except CompanionError:
        return []  # reported as a problem by the replay
    if game.start != usual:
        notes.append(_("the game starts from the position {start!r} (the record's header), not the usual start: "
                       "check that it is the position the game was played from").format(start=game.start))
    if game.option_values.get("d6_only"):
        notes.append(_("the record says the game was played with only d6's (d8 fighters roll 2d6, d10 fighters "
                       "3d6, the highest counts): check that it was"))
    return notes


def replay_fights(record: DiceRecord) -> list[Problem]:
    """Replay the game a version 2 record carries; the problems in record order.

    A record without its game (version 1) gives no problems: there is nothing to replay.
    """
    game = record.game_record
    if game is None:
        return []
    if record.game != GAME and (record.game not in GAMES or game.option_values.get("fights") != "dice"):
        return [Problem(_("the record is for the game {game!r} without dice fights (its options have no "
                          "fights=dice); the games with dice fights: Human Combat Chess ({game2!r}), and "
                          "{fight_games} with fights=dice").format(
                            game=record.game, game2=GAME, fight_games=', '.join(fight_games())),
                        field="game", expected=GAME,
                        recorded=record.game)]
    problems: list[Problem] = []
    if record.max_ties != MAX_TIES:
        problems.append(Problem(
            _("max_ties recorded {max_ties}, Human Combat Chess says {max_ties2} (the third tie bounces)").format(
                max_ties=record.max_ties, max_ties2=MAX_TIES),
            field="max_ties", expected=str(MAX_TIES), recorded=str(record.max_ties)))
    try:
        rules = make_rules(record.game, game.board_map, **game.option_values)
    except CompanionError as error:
        return problems + [Problem(_("the game cannot be set up from the record's options and board: {error}").format(
                                       error=error),
                                   field="options")]
    try:
        pos = rules.position_from_text(game.start)
    except CompanionError as error:
        return problems + [Problem(_("the start position cannot be read: {error}").format(error=error), field="start")]
    replay = _Replay(rules, pos, record, problems)
    try:
        for item in record.in_order():
            if isinstance(item, MoveRecord):
                replay.move(item)
            else:
                replay.round(item)
    except _Stop:
        pass
    except CompanionError as error:  # the rules refuse something the checks above let through
        problems.append(Problem(_("the replay of the game stops at move {moves}: {error}").format(
                                    moves=replay.moves, error=error),
                                field="game"))
    return problems


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


class _Replay:
    """The game as far as it has been replayed, and what was found on the way."""

    def __init__(self, rules: FightLayer, pos: Position, record: DiceRecord, problems: list[Problem]) -> None:
        self.rules, self.pos, self.record, self.problems = rules, pos, record, problems
        self.moves = 0
        self.last_move = _("the start")

    def stop(self, problem: Problem) -> None:
        self.problems.append(problem)
        raise _Stop

    # ----- a move line ----------------------------------------------------------------------------
    def move(self, item: MoveRecord) -> None:
        self.moves += 1
        number, text = self.moves, item.text
        at = _("move {number} ({text!r})").format(number=number, text=text)
        if item.ply != number:
            self.problems.append(Problem(
                _("{at}: numbered {ply} in the record; moves are numbered 1, 2, ...").format(at=at, ply=item.ply),
                field="ply", expected=str(number), recorded=str(item.ply), ply=number))
        d = self.pos.pending
        if d is not None:
            self.stop(Problem(
                _("{at}: recorded while fight {fight} of the game still waits for its round {round}").format(
                    at=at, fight=d.get('number'), round=d.get('round')), field="move", ply=number))
        outcome = self.rules.outcome(self.pos)
        if outcome is not None:
            self.stop(Problem(_("{at}: recorded after the game ended "
                                "({reason})").format(at=at, reason=outcome.reason), field="move", ply=number))
        try:
            self.rules.play(self.pos, self.rules.parse_move(self.pos, text))
        except CompanionError as error:
            self.stop(Problem(_("{at}: not a legal move in the game at this point ({error})").format(
                                  at=at, error=error),
                              field="move", recorded=text, ply=number))
        self.last_move = _("move {number} ({text})").format(number=number, text=text)

    # ----- a round line ---------------------------------------------------------------------------
    def round(self, entry: RoundRecord) -> None:
        rules, pos = self.rules, self.pos
        at = _("fight {fight}, round {round}").format(fight=entry.fight, round=entry.round)
        d = pos.pending
        if d is None or d.kind != "fight":
            self.stop(Problem(_("{at}: recorded after {last_move}, where the game has no fight").format(
                                  at=at, last_move=self.last_move),
                              entry.fight, entry.round, field="fight"))
        number, rnd = d.get("number"), d.get("round")
        if (entry.fight, entry.round) != (number, rnd):
            self.stop(Problem(
                _("{at}: recorded after {last_move}, where the game is at fight {number}, round {rnd}").format(
                    at=at, last_move=self.last_move, number=number, rnd=rnd),
                entry.fight, entry.round, field="fight" if entry.fight != number else "round",
                expected=f"fight {number}, round {rnd}", recorded=f"fight {entry.fight}, round {entry.round}"))
        before = len(self.problems)
        move = rules.move_text(pos, d.get("move"))
        if entry.move != move:
            self.problems.append(Problem(_("{at}: move recorded {move!r}, the game says {move2!r}").format(
                                             at=at, move=entry.move, move2=move),
                                         entry.fight, entry.round, field="move", expected=move, recorded=entry.move))
        attacker, defenders = rules.fighters(pos, d)
        game_sides = (((d.get("attacker"), attacker),), tuple(zip(d.get("defenders"), defenders)))
        unfit: Problem | None = None
        for side, recorded, real in zip(SIDES, (entry.attacker, entry.defender), game_sides):
            if len(recorded.fighters) != len(real):
                self.stop(Problem(
                    _("{at}: the {side} side has {n} fighter(s) in the record, the game says {n2}").format(
                        at=at, side=side, n=len(recorded.fighters), n2=len(real)),
                    entry.fight, entry.round, side, str(len(real)),
                    str(len(recorded.fighters)), "fighters"))
            for index, (roll, (square, fighter)) in enumerate(zip(recorded.fighters, real)):
                label = side if len(real) == 1 else f"{side} {index + 1}"
                self._compare(at, entry, side, label, roll, fighter, piece_label(rules, pos, square))
                try:
                    fighter.dice.check_faces(list(roll.faces))
                except CompanionError as error:
                    unfit = unfit or Problem(
                        _("{at}: the replay stops here: the {label} faces {faces} cannot be the game's dice "
                          "({error})").format(at=at, label=label, faces=list(roll.faces), error=error),
                        entry.fight, entry.round, side, field="faces")
        if unfit is not None:  # after a forged dice type, the game cannot take these faces
            self.stop(unfit)
        answer = Answer("fight", ("roll", tuple(entry.attacker.fighters[0].faces),
                                  tuple(tuple(f.faces) for f in entry.defender.fighters)))
        try:
            rules.play(pos, answer)
        except CompanionError as error:
            self.stop(Problem(_("{at}: the game refuses these faces "
                                "({error})").format(at=at, error=error), entry.fight, entry.round,
                              field="faces"))
        after = pos.pending
        result = "tie" if after is not None and after.get("number") == number else pos.var("fights")[-1][4]
        # With the game's modifiers, the dice checks already recompute the result; report it
        # here only when the recorded modifiers hide it (they give the recorded result).
        if result != entry.result and len(self.problems) > before and self._recorded_result(entry) == entry.result:
            self.problems.append(Problem(
                _("{at}: result recorded {result!r}, the game gives {result2!r} for these faces").format(
                    at=at, result=entry.result, result2=result),
                entry.fight, entry.round, field="result", expected=result, recorded=entry.result))

    def _compare(self, at: str, entry: RoundRecord, side: str, label: str, roll: FighterRoll,
                 fighter: Fighter, piece: str) -> None:
        """One fighter: the record against the game (piece, dice, fatigue, weapon choice)."""
        colour_kind = piece.split(" on ")[0]  # "white pawn on e4" -> "white pawn"
        if not (roll.piece == colour_kind or roll.piece.startswith(colour_kind + " ")):
            self.problems.append(Problem(_("{at}: {label} piece recorded {piece!r}, the game says {piece2}").format(
                                             at=at, label=label, piece=roll.piece, piece2=piece),
                                         entry.fight, entry.round, side, piece, roll.piece, "piece"))
        checks = (
            ("dice", _("dice"), roll.dice.notation(), fighter.dice.notation()),
            ("fatigue", _("fatigue"), str(roll.fatigue), str(fighter.fatigue)),
            ("weapon_choice", _("weapon choice (+1)"), _yes(roll.weapon_choice), _yes(fighter.weapon_choice)),
        )
        for name, words, recorded, real in checks:
            if recorded != real:
                self.problems.append(Problem(_("{at}: {label} {words} recorded {recorded}, the game says "
                                               "{real}").format(
                                                 at=at, label=label, words=words, recorded=recorded, real=real),
                                             entry.fight, entry.round, side, real, recorded, name))

    def _recorded_result(self, entry: RoundRecord) -> str | None:
        """The result the record's own faces and modifiers give (None past its max_ties)."""
        if entry.round > self.record.max_ties:
            return None
        attacker, defender = (sum(f.total for f in entry.side(n).fighters) for n in SIDES)
        return round_outcome(attacker, defender, entry.round, self.record.max_ties)


def fight_games() -> list[str]:
    """The games that can be played with dice fights (Human Combat Chess has them always)."""
    return [name for name, info in GAMES.items() if not info.no_fights and name != GAME]
