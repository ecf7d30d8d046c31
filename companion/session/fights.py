"""Fights (Combat Chess): the dice source, the dice record, the fight waiting for its dice and
every round rolled.

A capture that starts a fight leaves a ``fight`` decision pending; :class:`Fights` says who
fights with which dice and odds (:class:`FightInfo`), checks a :class:`Roll` (the faces of one
round, drawn by the source at the edge or typed from real dice) and applies it, keeping the dice
record (companion.dice.record) that ``companion verify-dice`` checks: each move, each round, the
takebacks, and the seed revealed when the game ends.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from ..core.moves import Answer, Move
from ..dice.linked import LinkProof, linked_faces
from ..dice.record import DiceRecord, FighterRoll, score_round, start_record
from ..dice.sources import SeededDice, SystemDice
from ..errors import DiceError, IllegalMoveError
from ..i18n import _, ngettext
from ..games.fight_dice import seat_colour
from .actions import Roll
from .events import DiceRolled, FightEnded, FighterInfo, FightInfo
from .pieces import KnownPieces
from .setup import GAMES_WITH_DICE, MAX_TIES, PLAYER_COUNTS, SOURCE_OF_MODE, GameSetup
from .state import GameState


class Fights:
    """The fights of one game. Owns the dice ``source`` (None: real dice, typed) and the dice
    ``record`` (None for a game without dice); reads the game and the pieces known."""

    def __init__(self, game: GameState, known: KnownPieces, source=None) -> None:
        self._game, self._known = game, known
        setup = game.setup
        self.source = source if source is not None else default_source(setup)
        self.record: DiceRecord | None = start_dice_record(setup, game.rules, game.pos) if setup.has_dice else None
        #: linked dice: the proof of the last fight rolled (takebacks never lower it: a secret
        #: once shown is never used again)
        self.last_link: LinkProof | None = None

    # ----- what the screen shows ------------------------------------------------------------------------
    def pending(self) -> FightInfo | None:
        """The fight waiting for its dice, or None."""
        d = self._game.pos.pending
        if d is None or d.kind != "fight":
            return None
        return self._info()

    def history(self, uid: int) -> list[dict[str, Any]]:
        """Every finished fight of piece ``uid``: number, move, role, opponent(s), result, rounds."""
        out = []
        for number, move_text, att, defs, result, rounds in self._game.pos.var("fights", ()):
            if uid == att:
                role, others = "attacker", list(defs)
            elif uid in defs:
                role, others = "defender", [att]
            else:
                continue
            won = (result == "attacker") == (role == "attacker") if result != "bounce" else None
            out.append({"number": number, "move": move_text, "role": role,
                        "opponents": [self._known.of(o) for o in others],
                        "result": result, "won": won, "rounds": max(1, len(rounds))})
        return out

    # ----- a round of dice ------------------------------------------------------------------------------
    def draw(self) -> Roll:
        """The next round's faces from the game's source (virtual or seeded dice)."""
        fight = self._require()
        if self._game.setup.dice == "linked":
            raise DiceError(_("a linked game's dice come from both boards' secrets (the link rolls them)"))
        if self.source is None:
            raise DiceError(_('this game uses real dice: enter the numbers rolled'))
        addr = (str(fight.number), fight.round)
        att = self.source.roll_side([fight.attacker.dice], addr[0], addr[1], "attacker")[0]
        defs = self.source.roll_side([d.dice for d in fight.defenders], addr[0], addr[1], "defender")
        return Roll(tuple(att), tuple(tuple(d) for d in defs), self.source.name)

    def check(self, action: Roll) -> None:
        """Refuse faces the pending fight's dice cannot show (DiceError), or a roll with no fight."""
        fight = self._require()
        if action.source not in ("system", "seeded", "entered", "linked"):
            raise DiceError(_("unknown dice source {source!r}").format(source=action.source))
        if (action.source == "linked") != (self._game.setup.dice == "linked") or \
                (action.link is not None) != (action.source == "linked"):
            raise DiceError(_("a linked game rolls only linked dice, each with both boards' secrets")
                            if self._game.setup.dice == "linked" else _("only a linked game rolls linked dice"))
        if len(action.defenders) != len(fight.defenders):
            raise DiceError(ngettext("this fight has {n} defender; {given}", "this fight has {n} defenders; {given}", len(fight.defenders)).format(
                n=len(fight.defenders), given=ngettext("{n} dice list was given", "{n} dice lists were given",
                                                      len(action.defenders)).format(n=len(action.defenders))))
        fight.attacker.dice.check_faces(list(action.attacker))
        for d, faces in zip(fight.defenders, action.defenders):
            d.dice.check_faces(list(faces))
        if action.link is not None:
            self._check_link(fight, action)

    def _check_link(self, fight: FightInfo, action: Roll) -> None:
        """The secrets lead to both chains, the index is this fight's (a new one for a new fight,
        the same for its later rounds), and the faces are the ones they give."""
        link, last = action.link, self.last_link
        if fight.round > 1:
            if last is None or link != last:
                raise DiceError(_("round {round} of a linked fight rolls from the secrets of its first round").format(round=fight.round))
        else:
            problem = link.problem(self._game.setup.chains, last)
            if problem is not None:
                raise DiceError(_("the linked roll does not hold: {problem}").format(problem=problem))
        fight_id = str(fight.number)
        att = linked_faces(link.secrets, [fight.attacker.dice], fight_id, fight.round, "attacker")[0]
        defs = linked_faces(link.secrets, [d.dice for d in fight.defenders], fight_id, fight.round, "defender")
        if tuple(att) != tuple(action.attacker) or tuple(map(tuple, defs)) != tuple(action.defenders):
            raise DiceError(_("the linked roll's faces are not the ones its secrets give ({att}/{defs})").format(att=att, defs=defs))

    def linked_roll(self, link: LinkProof) -> Roll:
        """The pending round's faces from a fight's secrets (the link builds its Roll with this)."""
        fight = self._require()
        fight_id = str(fight.number)
        att = linked_faces(link.secrets, [fight.attacker.dice], fight_id, fight.round, "attacker")[0]
        defs = linked_faces(link.secrets, [d.dice for d in fight.defenders], fight_id, fight.round, "defender")
        return Roll(tuple(att), tuple(tuple(d) for d in defs), "linked", link)

    def apply(self, action: Roll) -> tuple[list, bool]:
        """Roll one round: ``(events, ended)``; ``ended`` when the fight is over (the move list
        then shows its result)."""
        game = self._game
        fight = self._info()
        rolls_att = [_fighter_roll(game.rules, fight.attacker, action.attacker)]
        rolls_def = [_fighter_roll(game.rules, d, faces) for d, faces in zip(fight.defenders, action.defenders)]
        entry = score_round(fight.number, fight.round, fight.move, rolls_att, rolls_def, MAX_TIES, action.link)
        self.record = self.record.with_round(entry)
        if action.link is not None:
            self.last_link = action.link
        game.rules.apply(game.pos, Answer("fight", ("roll", tuple(action.attacker), tuple(action.defenders))))
        after = self.pending()
        events: list = [DiceRolled(entry, after)]
        if after is not None:
            return events, False
        result = entry.result if entry.result != "tie" else "bounce"
        game.moves[-1] = replace(game.moves[-1], fight=result)
        rounds = tuple(r for r in self.record.rounds if r.fight == fight.number)
        events.append(FightEnded(fight.number, result, rounds, fight.attacker, fight.defenders))
        self._known.remember()
        return events, True

    # ----- the dice record follows the game --------------------------------------------------------------
    def moved(self, move_text: str) -> None:
        """A move is about to be played (the record carries the game: version 2)."""
        if self.record is not None:
            self.record = self.record.with_move(move_text)

    def taken_back(self) -> None:
        """Turns were taken back: the record drops what they rolled."""
        if self.record is not None:
            game = self._game
            self.record = self.record.taken_back(len(game.moves), len(game.pos.var("fights", ())))

    def reveal(self) -> str | None:
        """The game ended: seeded dice reveal their seed (into the record); returns it (else None)."""
        seed = self._game.setup.seed
        if not seed or self.record is None:
            return None
        self.record = self.record.with_reveal(bytes.fromhex(seed))
        return seed

    # ----- internals ---------------------------------------------------------------------------------------
    def _require(self) -> FightInfo:
        fight = self.pending()
        if fight is None:
            raise IllegalMoveError(_('no fight is waiting for dice'))
        return fight

    def _info(self) -> FightInfo:
        game = self._game
        pos, rules = game.pos, game.rules
        d = pos.pending
        attacker, defenders = rules.fighters(pos, d)
        move: Move = d.get("move")
        att_sq = d.get("attacker")

        def info(sq: int, fighter) -> FighterInfo:
            p = pos.board[sq]
            return FighterInfo(p.owner, p.kind.name, sq, p.uid, fighter.dice, fighter.fatigue, fighter.weapon_choice)

        number = d.get("number")
        rounds = tuple(r for r in self.record.rounds if r.fight == number) if self.record else ()
        san = game.moves[-1].san if game.moves else rules.move_text(pos, move)
        return FightInfo(
            number, d.get("round"), rules.move_text(pos, move), san,
            info(att_sq, attacker),
            tuple(info(sq, f) for sq, f in zip(d.get("defenders"), defenders)),
            rules.odds(pos, d), rounds, move.special == "prerogative",
        )


def default_source(setup: GameSetup):
    """The dice source a set-up asks for: system randomness, a seed, or none (real dice)."""
    if not setup.has_dice or setup.dice == "entered":
        return None
    if setup.dice == "seeded":
        return SeededDice(bytes.fromhex(setup.seed))
    return SystemDice()


def start_dice_record(setup: GameSetup, rules, pos) -> DiceRecord:
    """An empty dice record that carries the game (version 2): its options, board and start
    position, so that ``companion verify-dice`` can replay it and check every fight."""
    return start_record(setup.game_id, setup.game, _RecordSource(setup), MAX_TIES,
                        start=rules.position_text(pos), options=record_options(setup),
                        board_map=setup.board_map)


def record_options(setup: GameSetup) -> dict[str, Any]:
    """The rules' options a dice record carries, so ``companion verify-dice`` builds the same
    rules (``make_rules(game, board_map, **options)``): Human Combat Chess's ``d6_only`` alone,
    as ever; another game's also its own (``fights``, ``players``, ...)."""
    if setup.game in GAMES_WITH_DICE:
        return {"d6_only": setup.d6_only}
    options: dict[str, Any] = {"d6_only": setup.d6_only, **setup.option_values}
    if setup.draw_rules:
        options["draw_rules"] = True
    if setup.game in PLAYER_COUNTS:
        options["players"] = len(setup.seats)
    return options


class _RecordSource:
    """What start_record needs to know about the source: its record name and commitment."""

    def __init__(self, setup: GameSetup) -> None:
        self.name = SOURCE_OF_MODE[setup.dice]
        self.commitment = setup.commitment
        self.chains = setup.chains


def _fighter_roll(rules, f: FighterInfo, faces: Sequence[int]) -> FighterRoll:
    desc = f"{seat_colour(rules, f.player)} {f.kind.replace('_', ' ')}"
    return FighterRoll(desc, f.dice, tuple(faces), f.fatigue, f.weapon_choice)
