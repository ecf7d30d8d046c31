"""Actions: what the journal holds. Every change to a game is one of these small values, written
before it takes effect; the journal's first entry is the game's set-up (:func:`start_to_json`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..dice.linked import LinkProof
from ..errors import RecordError
from ..i18n import _, pgettext
from .fields import JsonFields
from .setup import GameSetup



@dataclass(frozen=True)
class PlayMove:
    """A move made on the board, in coordinate text (``e2e4``, ``e7e8q``)."""

    move: str


@dataclass(frozen=True)
class Roll:
    """The faces of one round of the pending fight: the attacker's dice and each defender's.
    ``source`` says where they came from ("system", "seeded", "entered", "linked"); a linked
    roll carries its ``link``: the chain index and both boards' secrets it was derived from
    (companion.dice.linked), which the session checks before anything is written."""

    attacker: tuple[int, ...]
    defenders: tuple[tuple[int, ...], ...]
    source: str
    link: LinkProof | None = None


@dataclass(frozen=True)
class PlayAnswer:
    """The answer to a choice the game waits for in the middle of a turn (Dungeon Chess: a
    Salamander's extra step, ``stay`` or a square such as ``i8``), as ``rules.answer_text``."""

    answer: str


@dataclass(frozen=True)
class PlayPart:
    """One player's part of a *joint* decision (Chess 2's secret duel bid), as the text of the
    option (``"2"``). The session keeps it sealed (and the journal holds it, so a power cut
    loses nothing) but shows it to nobody; when every player's part is in, the joint answer is
    played. Against the computer, its part is sealed before the person's."""

    player: int
    part: str


@dataclass(frozen=True)
class Undo:
    """Take back ``turns`` whole turns (a move with its fight, or with the choice it asked
    for, counts as one turn)."""

    turns: int


@dataclass(frozen=True)
class SetPosition:
    """An arbiter's correction: the game goes on from ``position`` (``rules.position_text``).
    It counts as a turn (Undo takes it back) and stays in the game's record."""

    position: str


@dataclass(frozen=True)
class Resign:
    player: int


@dataclass(frozen=True)
class OfferDraw:
    player: int


@dataclass(frozen=True)
class AnswerDraw:
    accept: bool


@dataclass(frozen=True)
class Adjudicate:
    """The game ends off the board (a flag, a second illegal move, a claim, an agreed or an
    arbiter's result): ``winners`` (empty: nobody wins) and ``reason`` (a key of
    companion.app.texts.RESULT_REASONS)."""

    winners: tuple[int, ...]
    reason: str


Action = PlayMove | PlayAnswer | PlayPart | Roll | Undo | Resign | OfferDraw | AnswerDraw | Adjudicate | SetPosition


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, PlayMove):
        return {"type": "move", "move": action.move}
    if isinstance(action, PlayAnswer):
        return {"type": "answer", "answer": action.answer}
    if isinstance(action, PlayPart):
        return {"type": "part", "player": action.player, "part": action.part}
    if isinstance(action, Roll):
        return {"type": "roll", "attacker": list(action.attacker),
                "defenders": [list(d) for d in action.defenders], "source": action.source,
                **({"link": action.link.to_json()} if action.link is not None else {})}
    if isinstance(action, Undo):
        return {"type": "undo", "turns": action.turns}
    if isinstance(action, Resign):
        return {"type": "resign", "player": action.player}
    if isinstance(action, OfferDraw):
        return {"type": "offer-draw", "player": action.player}
    if isinstance(action, AnswerDraw):
        return {"type": "answer-draw", "accept": action.accept}
    if isinstance(action, Adjudicate):
        return {"type": "adjudicate", "winners": list(action.winners), "reason": action.reason}
    if isinstance(action, SetPosition):
        return {"type": "position", "position": action.position}
    raise TypeError(f"not a session action: {action!r}")


def action_from_json(value: Any, where: str | None = None) -> Action:
    """The inverse of :func:`action_to_json`; RecordError names ``where`` and the field."""
    where = pgettext("where in a record", "action") if where is None else where
    kind = value.get("type") if isinstance(value, dict) else None
    if kind == "move":
        return PlayMove(JsonFields(value, where, ("type", "move")).text("move"))
    if kind == "answer":
        return PlayAnswer(JsonFields(value, where, ("type", "answer")).text("answer"))
    if kind == "part":
        f = JsonFields(value, where, ("type", "player", "part"))
        return PlayPart(f.integer("player", 0), f.text("part"))
    if kind == "roll":
        f = JsonFields(value, where, ("type", "attacker", "defenders", "source", "link"), optional=("link",))
        defenders = f.value["defenders"]
        if not isinstance(defenders, list) or not defenders:
            raise RecordError(_("{where}: 'defenders' must be a non-empty list of dice lists").format(where=where))
        link = LinkProof.from_json(value["link"], f"{where} link") if "link" in value else None
        return Roll(f.faces(value["attacker"], "attacker"),
                    tuple(f.faces(d, f"defenders[{i}]") for i, d in enumerate(defenders)), f.text("source"), link)
    if kind == "undo":
        return Undo(JsonFields(value, where, ("type", "turns")).integer("turns", 1))
    if kind == "resign":
        return Resign(JsonFields(value, where, ("type", "player")).integer("player", 0))
    if kind == "offer-draw":
        return OfferDraw(JsonFields(value, where, ("type", "player")).integer("player", 0))
    if kind == "answer-draw":
        return AnswerDraw(JsonFields(value, where, ("type", "accept")).flag("accept"))
    if kind == "adjudicate":
        f = JsonFields(value, where, ("type", "winners", "reason"))
        winners = value["winners"]
        if not isinstance(winners, list) or not all(isinstance(w, int) and not isinstance(w, bool) for w in winners):
            raise RecordError(_("{where}: 'winners' must be a list of player numbers").format(where=where))
        return Adjudicate(tuple(winners), f.text("reason"))
    if kind == "position":
        return SetPosition(JsonFields(value, where, ("type", "position")).text("position"))
    raise RecordError(_("{where}: unknown action type {kind!r} (expected move, answer, roll, undo, resign, offer-draw, answer-draw, adjudicate, part or position)").format(where=where, kind=kind))


def start_to_json(setup: GameSetup) -> dict[str, Any]:
    """The journal's first entry: the set-up (the commitment is shown, the seed kept)."""
    return {"type": "start", "version": 1, "setup": setup.to_json(), "commitment": setup.commitment}


def start_from_json(value: Any, where: str | None = None) -> GameSetup:
    where = pgettext("where in a record", "start") if where is None else where
    f = JsonFields(value, where, ("type", "version", "setup", "commitment"))
    if value["type"] != "start":
        raise RecordError(_("{where}: the first entry must be the game's start, got type {kind!r}").format(where=where, kind=value['type']))
    if f.integer("version") != 1:
        raise RecordError(_("{where}: journal version {version} is not known (this companion reads 1)").format(where=where, version=value['version']))
    setup = GameSetup.from_json(value["setup"], _("{where}, set-up").format(where=where))
    if value["commitment"] != setup.commitment:
        raise RecordError(_("{where}: the dice commitment does not belong to the seed").format(where=where))
    return setup
