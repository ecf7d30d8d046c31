"""Verification of a dice record: does what it claims hold, and for a seeded game, do the
faces come from the revealed seed?

Checks, each reported as a ``Problem`` naming the fight, round and side:
- the revealed seed hashes (SHA-256) to the commitment published at the start;
- every face equals the one derived from the seed at ``str(fight)/round/side/die``;
- every side's total equals its fighters' kept dice plus modifiers; every result follows from
  the totals and the round number;
- fights are numbered 1, 2, ...; a fight's rounds are 1, 2, ... and continue only after a tie;
  a re-roll keeps the move, fighters and modifiers (the seed: "roll again using the same
  modifiers"); no fight stops on a tie.
Linked dice (two boards, companion.dice.linked) are re-derived from the secrets each fight
carries, and every secret is checked against the chain heads both boards fixed before the first
move (and against the secret it revealed before): neither board could have chosen a roll.
System and entered dice cannot be re-derived: only the consistency checks apply, and the
result says so.

None of this ties the fighters and modifiers to the game: a forger could give a fighter more
fatigue and rescore the round. A version 2 record carries the game, and ``verify_record``
takes a ``replay`` (companion.games.combat_verify, which knows the rules) that replays it
and reports every fight whose fighters, dice, fatigue, weapon choice, move or result are
not the game's. A version 1 record cannot be checked that way; the result notes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from companion.dice.odds import DiceSpec, round_outcome
from companion.dice.record import SIDES, DiceRecord, RoundRecord, SideRoll
from companion.dice.linked import LinkProof, linked_faces
from companion.dice.sources import SIDE_WORDS, SeededDice, commitment_of
from companion.i18n import N_, _, ngettext


def _at(fight: int, round_: int, side: str | None = None) -> str:
    """Where in the record a problem is: "fight 2, round 1" (", attacker")."""
    if side is None:
        return _("fight {fight}, round {round}").format(fight=fight, round=round_)
    return _("fight {fight}, round {round}, {side}").format(fight=fight, round=round_, side=_(SIDE_WORDS[side]))


#: the note on a record that does not carry its game
VERSION_1_NOTE = N_("this is a version 1 record: it does not carry the game, so the fighters' "
                  "dice, fatigue and weapon choice could not be checked against the game")
NOT_REPLAYED_NOTE = N_("the record carries its game, but it was not replayed here, so the fighters' "
                     "dice, fatigue and weapon choice were not checked against it "
                     "(companion verify-dice replays it)")


@dataclass(frozen=True)
class Problem:
    """One thing in a record that is not right; ``message`` says it for a person.

    ``field`` names what is wrong when a recorded value differs from the game's ("fatigue",
    "dice", "weapon_choice", "piece", "move", "result", ...); ``ply`` is the move's number
    when the problem is a move line of the game (counted 1, 2, ... in the record).
    """

    message: str
    fight: int | None = None
    round: int | None = None
    side: str | None = None
    expected: str | None = None
    recorded: str | None = None
    field: str | None = None
    ply: int | None = None

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class VerifyResult:
    """Outcome of ``verify_record``.

    status: "verified" (seeded, every face re-derived, commitment holds), "consistent"
    (system/entered: totals and results hold, faces cannot be re-derived), "unrevealed"
    (seeded, consistent, but no seed to re-derive from) or "mismatch" (see ``problems``).
    """

    status: str
    source: str
    fights: int
    rounds: int
    problems: tuple[Problem, ...] = ()
    #: moves of the game replayed against the fights (None: the game was not replayed)
    moves: int | None = None
    #: what could not be checked (a version 1 record), for a person
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status in ("verified", "consistent")

    @property
    def first(self) -> Problem | None:
        return self.problems[0] if self.problems else None

    def summary(self) -> str:
        """One line, in the language of the moment."""
        counted = _("{rounds} in {fights}").format(
            rounds=ngettext("{n} round", "{n} rounds", self.rounds).format(n=self.rounds),
            fights=ngettext("{n} fight", "{n} fights", self.fights).format(n=self.fights))
        game = ""
        if self.moves is not None:
            game = ngettext("; the game's {n} move replayed, and every fight's fighters, "
                            "dice, fatigue, weapon choice and result are the game's",
                            "; the game's {n} moves replayed, and every fight's fighters, "
                            "dice, fatigue, weapon choice and result are the game's", self.moves).format(n=self.moves)
        if self.status == "verified" and self.source == "linked":
            line = _("verified: {counted} re-derived from both boards' secrets, each of which leads to "
                     "the hash chain its board fixed before the first move{game}")
        elif self.status == "verified":
            line = _("verified: {counted} re-derived from the revealed seed, which matches the "
                     "published commitment{game}")
        elif self.status == "consistent":
            line = _("consistent: {counted}; dice from the '{source}' source cannot be "
                     "re-derived, only totals, results and order were checked{game}")
        elif self.status == "unrevealed":
            line = _("not verified: the seed was never revealed, so the {counted} cannot be "
                     "re-derived (totals, results and order are consistent)")
        else:
            line = ngettext("mismatch: {n} problem in {counted}; first: {first}",
                            "mismatch: {n} problems in {counted}; first: {first}", len(self.problems))
        return line.format(counted=counted, game=game, source=self.source, n=len(self.problems),
                           first=self.problems[0] if self.problems else "")


def _setup(side: SideRoll) -> tuple[tuple[str, DiceSpec, int, bool], ...]:
    return tuple((f.piece, f.dice, f.fatigue, f.weapon_choice) for f in side.fighters)


def _check_round(entry: RoundRecord, max_ties: int) -> list[Problem]:
    """Totals and result recomputed from faces and modifiers."""
    at = _at(entry.fight, entry.round)
    problems = []
    for name in SIDES:
        side = entry.side(name)
        total = sum(f.total for f in side.fighters)
        if total != side.total:
            problems.append(Problem(
                _("{at}: total {recorded} recorded, but the faces and modifiers give {total}").format(
                    at=_at(entry.fight, entry.round, name), recorded=side.total, total=total),
                entry.fight, entry.round, name, str(total), str(side.total), "total"))
    if entry.round <= max_ties:
        attacker, defender = (sum(f.total for f in entry.side(n).fighters) for n in SIDES)
        result = round_outcome(attacker, defender, entry.round, max_ties)
        if result != entry.result:
            problems.append(Problem(
                _("{at}: result {recorded!r} recorded, but {attacker} against {defender} gives {result!r}").format(
                    at=at, recorded=entry.result, attacker=attacker, defender=defender, result=result),
                entry.fight, entry.round, None, result, entry.result, "result"))
    return problems


def _check_order(record: DiceRecord) -> list[Problem]:
    """Fights numbered 1, 2, ...; rounds 1, 2, ... while tied; same move and modifiers."""
    problems = []
    stops_after_tie = _("fight {fight} stops after a tie in round {round}: the record is missing its next round")
    previous: RoundRecord | None = None
    for entry in record.rounds:
        at = _at(entry.fight, entry.round)
        open_fight = previous is not None and previous.result == "tie"
        if open_fight and entry.fight == previous.fight:
            if entry.round != previous.round + 1:
                problems.append(Problem(_("{at}: expected round {n} after a tie").format(at=at, n=previous.round + 1),
                                        entry.fight, entry.round))
            if entry.move != previous.move or any(
                _setup(entry.side(n)) != _setup(previous.side(n)) for n in SIDES
            ):
                problems.append(Problem(
                    _("{at}: the re-roll after a tie changed the move, fighters or modifiers "
                      "(the seed: \"roll again using the same modifiers\")").format(at=at), entry.fight, entry.round))
        else:
            if open_fight:
                problems.append(Problem(
                    stops_after_tie.format(fight=previous.fight, round=previous.round), previous.fight, previous.round))
            expected_fight = 1 if previous is None else previous.fight + 1
            if entry.fight != expected_fight or entry.round != 1:
                problems.append(Problem(
                    _("{at}: expected fight {fight}, round 1 here (fights are numbered "
                      "1, 2, ... and start at round 1)").format(at=at, fight=expected_fight), entry.fight, entry.round))
        if entry.round > record.max_ties:
            problems.append(Problem(ngettext("{at}: a fight has at most {n} round", "{at}: a fight has at most {n} rounds",
                                             record.max_ties).format(at=at, n=record.max_ties),
                                    entry.fight, entry.round))
        previous = entry
    if previous is not None and previous.result == "tie":
        problems.append(Problem(
            stops_after_tie.format(fight=previous.fight, round=previous.round), previous.fight, previous.round))
    return problems


def _check_faces(record: DiceRecord, seed: bytes) -> list[Problem]:
    """Every face re-derived from the seed, at the address str(fight)/round/side/die."""
    dice = SeededDice(seed)
    problems = []
    for entry in record.rounds:
        for name in SIDES:
            side = entry.side(name)
            expected = dice.roll_side([f.dice for f in side.fighters], str(entry.fight), entry.round, name)
            for fighter, own in zip(side.fighters, expected):
                if list(fighter.faces) != own:
                    problems.append(Problem(
                        _("{at}: {piece} ({dice}) shows {faces} in the record, but the seed gives {own}").format(
                            at=_at(entry.fight, entry.round, name), piece=fighter.piece, dice=fighter.dice,
                            faces=list(fighter.faces), own=own),
                        entry.fight, entry.round, name, str(own), str(list(fighter.faces))))
    return problems


def _check_linked(record: DiceRecord) -> list[Problem]:
    """Every round's faces from its fight's two secrets; each fight's secrets on both chains, at
    an index above the last fight's; a fight's later rounds from the same secrets."""
    problems = []
    last: LinkProof | None = None
    for entry in record.rounds:
        at = _at(entry.fight, entry.round)
        link = entry.link
        if entry.round > 1:
            if link != last:
                problems.append(Problem(_("{at}: a re-roll must use the secrets of its fight's first round").format(at=at),
                                        entry.fight, entry.round, field="link"))
        else:
            why = link.problem(record.chains, last)
            if why is not None:
                problems.append(Problem(_("{at}: {problem}").format(at=at, problem=why), entry.fight, entry.round, field="link"))
            last = link
        for name in SIDES:
            side = entry.side(name)
            expected = linked_faces(link.secrets, [f.dice for f in side.fighters], str(entry.fight), entry.round, name)
            for fighter, own in zip(side.fighters, expected):
                if list(fighter.faces) != own:
                    problems.append(Problem(
                        _("{at}: {piece} ({dice}) shows {faces} in the record, but the boards' secrets give {own}").format(
                            at=_at(entry.fight, entry.round, name), piece=fighter.piece, dice=fighter.dice,
                            faces=list(fighter.faces), own=own),
                        entry.fight, entry.round, name, str(own), str(list(fighter.faces))))
    return problems


#: a game replay: the problems of a record that carries its game, in record order
Replay = Callable[[DiceRecord], "list[Problem]"]


def verify_record(record: DiceRecord, replay: Replay | None = None) -> VerifyResult:
    """Check a finished game's record; problems come in record order (the first is first).

    ``replay`` (companion.games.combat_verify.replay_fights) checks a version 2 record's
    fights against its game; within one round its problems come first, since a wrong
    modifier or dice type is the cause of what the other checks then see.
    """
    problems: list[Problem] = []
    if record.source == "seeded" and record.revealed_seed is not None:
        opened = commitment_of(record.revealed_seed)
        if opened != record.commitment:
            problems.append(Problem(
                _("the revealed seed does not match the published commitment: SHA-256 of the "
                  "seed is {opened}, the commitment is {commitment}").format(opened=opened, commitment=record.commitment),
                expected=record.commitment, recorded=opened))
    found: list[Problem] = []  # for one round: the game's view, a wrong face, then what it disturbs
    notes: tuple[str, ...] = ()
    moves: int | None = None
    if record.game_record is None:
        notes = (VERSION_1_NOTE,)
    elif replay is None:
        notes = (NOT_REPLAYED_NOTE,)
    else:
        found += replay(record)
        moves = len(record.game_record.moves)
    if record.source == "seeded" and record.revealed_seed is not None:
        found += _check_faces(record, record.revealed_seed)
    if record.source == "linked":
        found += _check_linked(record)
    found += _check_order(record)
    for entry in record.rounds:
        found += _check_round(entry, record.max_ties)
    problems += sorted(found, key=_record_order(record))  # stable
    fights = len({entry.fight for entry in record.rounds})
    if problems:
        status = "mismatch"
    elif record.source == "linked":
        status = "verified"
    elif record.source != "seeded":
        status = "consistent"
    else:
        status = "verified" if record.revealed_seed is not None else "unrevealed"
    return VerifyResult(status, record.source, fights, len(record.rounds), tuple(problems), moves, notes)


def _record_order(record: DiceRecord) -> Callable[[Problem], float]:
    """Sort key: where in the record a problem is (a round, or a move between rounds)."""
    position: dict[tuple[int, int], float] = {}
    for index, entry in enumerate(record.rounds):
        position.setdefault((entry.fight, entry.round), index)
    moves = record.game_record.moves if record.game_record is not None else ()
    move_position = {number: m.rounds_before - 0.5 for number, m in enumerate(moves, start=1)}

    def key(problem: Problem) -> float:
        if problem.ply is not None:
            return move_position.get(problem.ply, -1)
        return position.get((problem.fight, problem.round), -1)  # type: ignore[arg-type]

    return key
