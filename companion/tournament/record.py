"""Game records: a game at the table as PGN (and as a JSON snapshot), and PGN read back into
our games.

:func:`pgn_game` turns a :class:`Table` (or a bare session) into a :class:`PgnGame` value:
the seven-tag roster, Board, WhiteElo/BlackElo, TimeControl, Termination, Variant (for our
variants), each move's clock and time as ``[%clk]``/``[%emt]``, draw offers as ``(=)``,
penalties and arbiter actions as comments, and what each game adds per move through its
*commenter* (:data:`COMMENTERS`): Combat Chess writes every fight (dice, modifiers, result) as
a sentence plus ``[%dice ...]``; a game written in coordinates gets each move's player and the
move in the app's words. Chess 2's duels in words (bids, stones) plug in the same way with
:func:`register_commenter`.

:func:`snapshot` freezes the game now (PGN value, clock, whose turn) into an immutable
:class:`GameSnapshot`; :func:`snapshot_pgn` and :func:`snapshot_json` are pure functions of it,
safe to call from another thread (a live broadcast).

How our games are written (docs/tournament.md): FIDE chess and Combat Chess in SAN; every
other game (Dungeon Chess, Chess 2, KoL Chess, a game added later) in coordinate moves
(``k14m13``, ``k14m13hex``, ``pass``; the choices made after a move each after a colon:
``k14m13:i8``, ``e4d5:duel:0-2``) from the position in its FEN tag (our extended position
text), with the players beyond the second in ``Player3``/``Player4`` tags and the moves
numbered by rounds of play. :func:`replay_pgn` reads every one of them back
through the rules to the final position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from ..core.moves import Answer
from ..errors import CompanionError, RecordError
from ..i18n import _
from ..games import GAMES, make_rules
from ..games.chess2_armies import armies_in_text
from . import texts as W
from .clock import ClockView, format_clk
from .pgn import PgnGame, PgnMove, format_pgn, ordered_tags

#: Games whose moves are written in SAN (and read back by matching SAN): FIDE chess and Combat
#: Chess, which moves as chess does. Every other game is written in coordinate moves from the
#: position in its FEN tag, the choices after a move joined with colons.
SAN_GAMES = frozenset({"chess", "combat"})
#: Games that are dice fights by themselves (every other game takes them as the option fights=dice,
#: written as the tag [Fights "dice"])
GAMES_WITH_FIGHTS = frozenset({"combat"})


def variant_tag(game: str) -> str | None:
    """The Variant tag of ``game``: its title in the games registry (companion.games.GAMES), so
    a game added there is written and read back with no code here; None for FIDE chess."""
    if game == "chess":
        return None
    info = GAMES.get(game)
    return info.title if info is not None else None


def _games_of_variants() -> dict[str, str]:
    out = {"standard": "chess", "chess": "chess", "": "chess"}
    for name in GAMES:
        tag = variant_tag(name)
        if tag is not None:
            out[tag.lower()] = name
    return out
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

#: PGN Termination per result reason (the PGN standard's words).
TERMINATION = {
    "time": "time forfeit", "time, cannot win": "time forfeit",
    "illegal move": "rules infraction", "illegal move, cannot win": "rules infraction",
    "set by the arbiter": "adjudication", "forfeit": "rules infraction", "ended by the arbiter": "unterminated",
}


# ----- per-game comments ---------------------------------------------------------------------------

#: game name -> commenter(session, table_or_None) -> {ply index: (sentence, ((command, value), ...))}
Commenter = Callable[[Any, Any], dict[int, tuple[str, tuple[tuple[str, str], ...]]]]
COMMENTERS: dict[str, Commenter] = {}


def register_commenter(game: str, commenter: Commenter) -> None:
    """Let a game write what happens in its moves (Chess 2: a duel's bids and stones)."""
    COMMENTERS[game] = commenter


def _combat_comments(session, table) -> dict[int, tuple[str, tuple[tuple[str, str], ...]]]:
    """Each fight as a sentence and its dice as ``[%dice]`` (see the pgn module)."""
    from ..dice.record import MoveRecord, RoundRecord

    record = session.record
    if record is None or record.game_record is None:
        return {}
    rounds: dict[int, list] = {}
    current = None
    for item in record.in_order():
        if isinstance(item, MoveRecord):
            current = item.ply - 1
        elif isinstance(item, RoundRecord) and current is not None:
            rounds.setdefault(current, []).append(item)
    out = {}
    for ply, rs in rounds.items():
        parts = []
        for r in rs:
            lead = f"round {r.round}: " if len(rs) > 1 else ""
            parts.append(f"{lead}{_side_words(r.attacker)} against {_side_words(r.defender)}; "
                         f"{_RESULT_WORDS[r.result]}")
        dice = " ".join(_dice_command(r) for r in rs)
        out[ply] = (f"Fight {rs[0].fight}: " + ". ".join(parts) + ".", (("dice", dice),))
    return out


_RESULT_WORDS = {"attacker": "the attacker wins", "defender": "the defender holds", "tie": "a tie, rolled again",
                 "bounce": "the third tie: both go back"}


def _side_words(side) -> str:
    """"white bishop (d8) rolls 6, +1 weapon choice: 7"; several fighters together."""
    parts = []
    for f in side.fighters:
        faces = ", ".join(str(x) for x in f.faces)
        if len(f.faces) > 1:
            faces += f" ({f.dice.keep} counts)" if f.dice.keep != "highest" else " (the highest counts)"
        mods = ""
        if f.weapon_choice:
            mods += ", +1 weapon choice"
        if f.fatigue:
            mods += f", -{f.fatigue} fatigue"
        parts.append(f"{f.piece} ({f.dice.notation()}) rolls {faces}{mods}")
    if len(parts) == 1:
        return f"{parts[0]}: {side.total}"
    return " and ".join(parts) + f", together {side.total}"


def _dice_command(r) -> str:
    att = ".".join(str(x) for x in r.attacker.fighters[0].faces)
    defs = ",".join(".".join(str(x) for x in f.faces) for f in r.defender.fighters)
    return f"{att}/{defs}"


def _coordinate_comments(session, table) -> dict[int, tuple[str, tuple[tuple[str, str], ...]]]:
    """A game written in coordinate moves (Dungeon Chess, KoL Chess, any game not in SAN):
    each move's player and the move in the app's words (the unit moved, a special move)."""
    names = [seat.recorded for seat in session.seats]
    return {i: (f"{names[m.player]}: {m.san}", ()) for i, m in enumerate(session.moves)}


def _no_comments(session, table) -> dict:
    return {}


def _coordinate_fight_comments(session, table) -> dict[int, tuple[str, tuple[tuple[str, str], ...]]]:
    """A game in coordinate moves played with dice fights: each move's player and words, and
    each fight as Combat Chess writes it (a sentence and ``[%dice]``)."""
    words = _coordinate_comments(session, table)
    for ply, (sentence, commands) in _combat_comments(session, table).items():
        said, _ = words.get(ply, ("", ()))
        words[ply] = (" ".join(filter(None, (said, sentence))), commands)
    return words


register_commenter("combat", _combat_comments)


# ----- a game as PGN --------------------------------------------------------------------------------


def _round_tag(setup) -> str:
    """The PGN standard (8.1.1.3): the round; "?" when it is unknown; "-" when a round number
    is inappropriate. A tournament game is played in some round: one not given is unknown;
    a casual game has none."""
    if setup is not None and setup.round:
        return setup.round
    return "?" if setup is not None and setup.tournament else "-"


def pgn_game(table, *, final_note: bool = True) -> PgnGame:
    """The game as PGN: a :class:`~companion.tournament.table.Table`, or a bare session (a game
    from before tables: no clock, no event)."""
    session = getattr(table, "session", table)
    t = table if session is not table else None
    setup = t.setup if t is not None else None
    game = session.setup
    seats = session.seats
    result = t.result_code() if t is not None else _session_result(session)
    tags: dict[str, str] = {
        "Event": (setup.event if setup and setup.event else ("Casual game" if not setup or not setup.tournament else "?")),
        "Site": setup.site if setup and setup.site else "?",
        "Date": setup.date if setup and setup.date else "????.??.??",
        "Round": _round_tag(setup),
        # a seat called by the app's word has it in English, as the record's own sentences are
        "White": seats[0].recorded,
        "Black": seats[1].recorded if len(seats) > 1 else "?",
        "Result": result,
    }
    if setup and setup.board:
        tags["Board"] = setup.board
    for i, colour in enumerate(("White", "Black")):
        if setup and i < len(setup.ratings) and setup.ratings[i] is not None:
            tags[f"{colour}Elo"] = str(setup.ratings[i])
    for i, seat in enumerate(seats[2:], start=3):
        tags[f"Player{i}"] = seat.recorded
    if len(seats) > 2:
        tags["Players"] = str(len(seats))
    tags["TimeControl"] = setup.time_control if setup and setup.time_control else "-"
    tags["Termination"] = _termination(session, t)
    if variant_tag(game.game) is not None:
        tags["Variant"] = variant_tag(game.game)
    start = _start_text(session)
    # an arbiter's correction (Load / Save, companion.gametext): PGN cannot change the position
    # in the middle of a game, so the record starts from the last correction (its FEN) and the
    # moves before it are told in the opening comment
    cut = max((i for i, m in enumerate(session.moves) if m.move == "position"), default=-1)
    if cut >= 0:
        start = [e for e in session.history if e.get("type") == "position"][-1]["position"]
    if start is not None:
        tags["SetUp"] = "1"
        tags["FEN"] = start
    if game.board_map:
        tags["Map"] = game.board_map
    if game.draw_rules:
        tags["DrawRules"] = "1"  # a game whose draw rules are a choice, played with them
    if setup is not None:
        tags["Mode"] = setup.mode
    if game.has_dice and game.game not in GAMES_WITH_FIGHTS:
        tags["Fights"] = "dice"  # a game played with dice fights (companion/games/fights.py)
    if game.option_values.get("mode") == "teams":
        tags["Teams"] = "1"  # four-player chess in teams
    if game.has_dice:
        tags["Dice"] = {"virtual": "app", "seeded": "checkable", "entered": "real"}[game.dice]
        if game.d6_only:
            tags["DiceD6Only"] = "1"
        if game.commitment:
            tags["DiceSeal"] = game.commitment
            if session.is_over and game.seed:
                tags["DiceSeed"] = game.seed
    for i, seat in enumerate(seats):
        if seat.computer:
            tags[f"{'White' if i == 0 else 'Black' if i == 1 else f'Player{i + 1}'}Type"] = "program"
    tags["Annotator"] = "Companion"
    tags["GameId"] = game.game_id

    if game.game in SAN_GAMES:
        plain = _combat_comments if game.has_dice else _no_comments  # FIDE chess with fights: Combat's
    else:
        plain = _coordinate_fight_comments if game.has_dice else _coordinate_comments
    extra = COMMENTERS.get(game.game, plain)(session, t)
    notes: dict[int, list[str]] = {}
    if t is not None:
        for note in t.notes:
            notes.setdefault(note.ply, []).append(note.text)
    if final_note and session.result is not None:
        notes.setdefault(len(session.moves), []).append(_ending(session, t))
    offers, unplaced = _offer_plies(session, t)
    for player in unplaced:
        notes.setdefault(len(session.moves), []).insert(0, W.record("draw offer", name=seats[player].recorded))
    moves = []
    for i, m in enumerate(session.moves):
        if i <= cut:
            continue
        text = _token(session, t, i)
        words, commands = extra.get(i, ("", ()))
        comment = " ".join(filter(None, [words] + notes.get(i + 1, [])))
        ply = t.plies.get(i) if t is not None else None
        moves.append(PgnMove(text, comment, ply.left_ms if ply else None, ply.spent_ms if ply else None,
                             i in offers, tuple(commands), m.player))
    intro = " ".join(notes.get(0, []))
    if cut >= 0:
        before = " ".join(_token(session, t, i) if m.move != "position" else W.record("position set")
                          for i, m in enumerate(session.moves[:cut]))
        told = [W.record("corrected", moves=before or "-")]
        told += [text for ply in range(cut + 2) for text in notes.get(ply, [])]
        intro = " ".join(told)
    per = len(seats) if len(seats) > 2 else 2
    first_black = False
    first_number = 1
    if game.game in SAN_GAMES and start is not None:
        fields = start.split()
        first_black = len(fields) > 1 and fields[1] == "b"
        if len(fields) >= 6 and fields[5].isdigit():
            first_number = int(fields[5])
    return PgnGame(tuple(ordered_tags(tags)), tuple(moves), result, intro, first_number, first_black, per)


def _session_result(session) -> str:
    r = session.result
    if r is None or len(session.seats) != 2:
        return "*"
    if not r.winners:
        return "1/2-1/2"
    return "1-0" if 0 in r.winners else "0-1"


def _termination(session, t) -> str:
    r = session.result
    if r is None:
        return "unterminated"
    if t is not None and t.unfinished:
        return "unterminated"
    return TERMINATION.get(r.reason, "normal")


def _ending(session, t) -> str:
    r = session.result
    names = [seat.recorded for seat in session.seats]
    winner = ", ".join(names[w] for w in sorted(r.winners)) if r.winners else ""
    losers = [n for i, n in enumerate(names) if i not in r.winners]
    template = W.ENDINGS.get(r.reason)
    if template is None:
        return f"{winner} wins ({r.reason})." if winner else f"Drawn ({r.reason})."
    return template.format(winner=winner, loser=", ".join(losers) if r.reason != "resigned" else _resigner(session))


def _resigner(session) -> str:
    r = session.result
    names = [seat.recorded for seat in session.seats]
    return ", ".join(n for i, n in enumerate(names) if i not in r.winners)


def _start_text(session) -> str | None:
    """The start position for the FEN tag, or None for chess from the usual start."""
    game = session.setup
    if game.game not in SAN_GAMES:  # coordinate games always carry their start (our position text)
        return game.start or _initial_text(session)
    if game.start is None:
        return None
    text = game.start
    return None if text == START_FEN else text


def _initial_text(session) -> str:
    rules = session.rules
    pos = rules.start_position()
    return rules.position_text(pos)


def _token(session, t, i: int) -> str:
    m = session.moves[i]
    if session.setup.game in SAN_GAMES:
        return m.san
    answers = t.answers.get(i, []) if t is not None else []
    return ":".join([m.move, *answers])


def _offer_plies(session, t) -> tuple[set[int], list[int]]:
    """Which moves carry a draw offer (FIDE 9.1.2.1: made with the move, before the press; an
    offer while the opponent thinks goes with the offerer's last move), and the players whose
    offer has no move to go with yet."""
    if t is None:
        return set(), []
    out, unplaced = set(), []
    moves = session.moves
    for played, player in t.offers:
        if played < len(moves) and moves[played].player == player:
            out.add(played)
            continue
        if played < len(moves):
            for j in range(played - 1, -1, -1):
                if moves[j].player == player:
                    out.add(j)
                    break
            continue
        unplaced.append(player)
    return out, unplaced


# ----- snapshots for a broadcast --------------------------------------------------------------------


@dataclass(frozen=True)
class GameSnapshot:
    """The game at one moment, as an immutable value: its PGN, the clock, whose turn it is and
    the position; built on the UI thread, read anywhere."""

    pgn: PgnGame
    clock: ClockView | None
    turn: int
    position: str
    over: bool
    names: tuple[str, ...]
    t_ms: int


def snapshot(table, t_ms: int) -> GameSnapshot:
    session = getattr(table, "session", table)
    clock = table.clock_view(t_ms) if hasattr(table, "clock_view") else None
    return GameSnapshot(pgn_game(table), clock, session.turn, session.rules.position_text(session.pos),
                        session.is_over, tuple(s.recorded for s in session.seats), t_ms)


def snapshot_pgn(snap: GameSnapshot) -> str:
    """The PGN text of a snapshot (the clock now is in :func:`snapshot_json`)."""
    return format_pgn(snap.pgn)


def snapshot_json(snap: GameSnapshot) -> dict:
    """A JSON-ready summary: tags, moves (text, clock), whose turn, the clocks now, the position."""
    clock = None
    if snap.clock is not None:
        c = snap.clock
        clock = {"times_ms": list(c.times), "running": c.running, "counting": c.counting, "paused": c.paused,
                 "flagged": c.flagged, "moves": list(c.moves), "faces": [format_clk(x) for x in c.times]}
    return {
        "tags": dict(snap.pgn.tags),
        "moves": [{"move": m.text, "clock_ms": m.clock_ms, "emt_ms": m.emt_ms, "comment": m.comment,
                   "draw_offer": m.draw_offer} for m in snap.pgn.moves],
        "result": snap.pgn.result,
        "turn": snap.turn,
        "players": list(snap.names),
        "position": snap.position,
        "over": snap.over,
        "clock": clock,
        "t_ms": snap.t_ms,
    }


# ----- reading PGN back into our games ----------------------------------------------------------------


@dataclass(frozen=True)
class ReplayedGame:
    """A PGN game played through our rules: the game's name, the rules and the final position."""

    game: str
    rules: Any
    pos: Any
    plies: int


def game_of(pgn: PgnGame) -> str:
    variant = (pgn.tag("Variant") or "").strip().lower()
    known = _games_of_variants()
    name = known.get(variant)
    if name is None:
        tags = sorted({variant_tag(g) for g in known.values() if variant_tag(g)})
        raise RecordError(_("variant {variant!r} is not one of ours ({items} or standard chess)").format(variant=pgn.tag('Variant'), items=', '.join(tags)))
    return name


def replay_pgn(pgn: PgnGame) -> ReplayedGame:
    """Play a PGN game through our rules (SAN for chess games, coordinate moves for Dungeon
    Chess, each fight's ``[%dice]``); RecordError names the move that does not fit."""
    name = game_of(pgn)
    fights = pgn.tag("Fights") == "dice"
    options: dict[str, Any] = {"d6_only": True} if (name == "combat" or fights) and pgn.tag("DiceD6Only") == "1" \
        else {}
    if fights:
        options["fights"] = "dice"
    if pgn.tag("Teams") == "1":
        options["mode"] = "teams"
    if pgn.tag("DrawRules") == "1":
        options["draw_rules"] = True
    if (pgn.tag("Players") or "").isdigit():  # more than two players: the map's seating for them
        options["players"] = int(pgn.tag("Players"))
    fen = pgn.tag("FEN")
    options.update(armies_in_text(fen))  # Chess 2: the armies its FEN names
    try:
        rules = make_rules(name, pgn.tag("Map"), **options)
        pos = rules.position_from_text(fen) if fen else rules.start_position()
    except CompanionError as e:
        raise RecordError(_("PGN game {white} - {black}: {problem}").format(white=pgn.tag('White'), black=pgn.tag('Black'), problem=e)) from None
    for i, move in enumerate(pgn.moves):
        where = _("move {n} ({move})").format(n=i + 1, move=move.text)
        if pos.pending is not None:
            raise RecordError(_("{where}: the game waits for {kind} first").format(where=where, kind=pos.pending.kind))
        try:
            if name in SAN_GAMES:
                action = _from_san(rules, pos, move.text, where)
                rules.apply(pos, action)
            else:
                text, *answers = move.text.split(":")
                rules.apply(pos, rules.parse_move(pos, text))
                for answer in answers:
                    options_ = {rules.answer_text(a): a for a in rules.answers(pos)} if pos.pending else {}
                    if answer not in options_:
                        raise RecordError(_("{where}: {answer!r} is not a choice here").format(where=where, answer=answer))
                    rules.apply(pos, options_[answer])
            if pos.pending is not None and pos.pending.kind == "fight":
                dice = move.command("dice")
                outcome = move.command("fight")
                if dice is None and outcome in ("attacker", "defender", "bounce"):
                    rules.apply(pos, Answer("fight", outcome))
                    continue
                if dice is None:
                    raise RecordError(_("{where}: a fight without its [%dice]").format(where=where))
                for round_text in dice.split():
                    if pos.pending is None:
                        raise RecordError(_("{where}: more dice than the fight needs").format(where=where))
                    rules.apply(pos, Answer("fight", ("roll",) + _faces(round_text, where)))
                if pos.pending is not None:
                    raise RecordError(_("{where}: the fight is not over after its dice").format(where=where))
        except RecordError:
            raise
        except CompanionError as e:
            raise RecordError(_("{where}: {problem}").format(where=where, problem=e)) from None
    return ReplayedGame(name, rules, pos, len(pgn.moves))


def _from_san(rules, pos, san: str, where: str):
    want = san.rstrip("+#!?")
    castle = want.startswith("O-O") or want.startswith("0-0")
    squares = re.findall(r"[a-z]\d+", want)
    target = None
    if squares and not castle:
        try:
            target = rules.geometry.parse_square(squares[-1])
        except ValueError:
            raise RecordError(_("{where}: {san!r} is not a move").format(where=where, san=san)) from None
    for m in rules.legal_moves(pos):
        if castle != (m.special == "castle") or (target is not None and m.to != target):
            continue
        if rules.san(pos, m).rstrip("+#") == want:
            return m
    raise RecordError(_("{where}: {san!r} is not a legal move here").format(where=where, san=san))


def _faces(text: str, where: str) -> tuple:
    try:
        att, defs = text.split("/")
        a = tuple(int(x) for x in att.split("."))
        d = tuple(tuple(int(x) for x in one.split(".")) for one in defs.split(","))
    except ValueError:
        raise RecordError(_("{where}: [%dice] rounds look like 5/3 or 6.2/4,1, got {text!r}").format(where=where, text=text)) from None
    return a, d


def known_games() -> list[str]:
    return sorted(GAMES)


def pgn_from_actions(game: str, rules, start, actions, *, event: str = "?", board_map: str | None = None,
                     fen: str | None = None, names: tuple[str, ...] = ()) -> PgnGame:
    """A PGN game from a start position and the moves, answers and fight results played on it
    (``companion replay --pgn``): SAN for chess games, each fight's dice (or, for a result
    given without dice, ``[%fight attacker]``)."""
    from ..core.moves import Move

    pos = start.copy()
    moves: list[list] = []  # [token, dice rounds, fight result, seat]
    for a in actions:
        if isinstance(a, Move):
            seat = pos.turn
            token = rules.san(pos, a) if game in SAN_GAMES else rules.move_text(pos, a)
            rules.apply(pos, a)
            moves.append([token, [], None, seat])
        elif a.decision == "fight":
            value = a.value
            if isinstance(value, tuple) and value and value[0] == "roll":
                att, defs = value[1], value[2]
                moves[-1][1].append(".".join(map(str, att)) + "/" + ",".join(".".join(map(str, d)) for d in defs))
            else:
                moves[-1][2] = str(value)
            rules.apply(pos, a)
        else:
            moves[-1][0] += ":" + rules.answer_text(a)
            rules.apply(pos, a)
    outcome = rules.outcome(pos)
    result = "*"
    if outcome is not None and pos.nplayers == 2:
        result = "1/2-1/2" if not outcome.winners else ("1-0" if 0 in outcome.winners else "0-1")
    tags = {"Event": event, "White": names[0] if names else "?", "Black": names[1] if len(names) > 1 else "?",
            "Result": result, "Termination": "normal" if outcome is not None else "unterminated"}
    if variant_tag(game) is not None:
        tags["Variant"] = variant_tag(game)
    if fen:
        tags["SetUp"] = "1"
        tags["FEN"] = fen
    elif game not in SAN_GAMES:
        tags["SetUp"] = "1"
        tags["FEN"] = rules.position_text(start)
    if board_map:
        tags["Map"] = board_map
    if pos.nplayers > 2:
        tags["Players"] = str(pos.nplayers)
    out = []
    for token, dice, fight, seat in moves:
        commands = []
        if dice:
            commands.append(("dice", " ".join(dice)))
        if fight:
            commands.append(("fight", fight))
        out.append(PgnMove(token, "", None, None, False, tuple(commands), seat))
    per = pos.nplayers if pos.nplayers > 2 else 2
    return PgnGame(tuple(ordered_tags(tags)), tuple(out), result, "", 1, start.turn == 1 and per == 2, per)
