"""Dungeon Chess (``dungeon``), rulebook v0.1.0: four asymmetric factions on dungeon maps.

Units are data (maps/variants/dungeon.toml, 24 units in the movement vocabulary); abilities
that change more than the moved piece are the named hooks of companion.games.abilities;
drafting and deployment are companion.games.draft. This module holds the turn structure:

* 2 to 4 players on a map's seats; turns go round by seat number, skipping eliminated players.
* One move, one attack (capture) or one hex per turn. A capture by a hit-and-run unit stops
  the turn on a choice Decision ``"step"`` (answers: ``"stay"`` or a square).
* You may not leave your King attacked ("check"); there is no checkmate: the game ends when a
  King is taken (captured or blown up). With 3-4 players the fallen King's pieces are removed
  and the last King standing wins.
* A player with no legal move passes (option ``when_stuck="pass"``, the publisher's choice) or
  may make moves that leave the King attacked (``when_stuck="expose"``).
* Draws: none by default (the rulebook's game ends only when a King is taken); as options, the
  same position for the ``repetition``-th time, or ``quiet_moves`` turns per surviving player
  without any piece removed (``draw_rules=True``: 3 and 50, DRAW_RULES).

Every decision, with the rulebook's words, is in docs/rules/dungeon.md.
"""

from __future__ import annotations

from ..core.geometry import WATER
from ..core.moves import Answer, Decision, Move, Outcome
from ..core.notation import format_position, parse_position
from ..core.position import Position
from ..core.roster import load_roster
from ..core.noisy import noisy_pseudo_moves
from ..core.rules import Rules, take_choice
from ..errors import PositionError, VariantError
from . import abilities as ab
from .draft import Army, DraftRules, deploy, draft_rules, presets
from ..i18n import N_, _

PASS = Move(-1, -1, None, None, "pass")
STUCK_CHOICES = ("pass", "expose")
#: piece state keys a position text may carry, and what they mean
STATE_KEYS = {"wounded": N_("a Troll that has absorbed its first capture"),
              "hex": N_("turns of its owner left under a hex (1 or 2)"),
              "hex_spent": N_("a Shaman that has used its hex")}
#: default armies for the start position, by the number of players
DEFAULT_ARMIES = {
    2: ("human-balanced", "redskin-elite"),
    3: ("human-balanced", "redskin-elite", "greenskin-midrange"),
    4: ("human-balanced", "skeleton-swarm-24", "redskin-elite", "greenskin-midrange"),
}
#: the optional draw rules (not in the rulebook: "There is no checkmate - the game only ends on
#: actual King capture"): the same position a third time, or 50 turns each without a piece removed
DRAW_RULES = {"repetition": 3, "quiet_moves": 50}
DEFAULT_MAP = "dungeon-compact"
#: the map a game of that many players gets when none is named (three players: the four-player
#: map's three-player seating, docs/rules/dungeon.md)
DEFAULT_MAPS = {2: DEFAULT_MAP, 3: "dungeon-four-player", 4: "dungeon-four-player"}


class DungeonRules(Rules):
    name = "dungeon"
    title = "Dungeon Chess"
    unhashed_vars = frozenset({"quiet", "effects"})

    def __init__(self, board_map, roster: str = "dungeon", when_stuck: str = "pass",
                 repetition: int = 0, quiet_moves: int = 0, armies: tuple[str, ...] | None = None):
        if when_stuck not in STUCK_CHOICES:
            raise VariantError(_("dungeon option when_stuck={when_stuck!r}: expected one of {stuck_choices}").format(
                                   when_stuck=when_stuck, stuck_choices=', '.join(STUCK_CHOICES)))
        for opt, v in (("repetition", repetition), ("quiet_moves", quiet_moves)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0 or (opt == "repetition" and v == 1):
                raise VariantError(_("dungeon option {opt}={v!r}: expected a whole number >= 2, or 0 for no such "
                                     "draw").format(opt=opt, v=v))
        self.board_map = board_map
        self.roster = load_roster(roster)
        homes = tuple(seat.home for seat in board_map.seats)
        super().__init__(board_map.geometry, self.roster.kinds, homes)
        self.when_stuck = when_stuck
        self.repetition = repetition
        self.quiet_moves = quiet_moves
        self.draft_rules: DraftRules = draft_rules()
        self._by_name = {k.name: k for k in self.kinds}
        for k in self.kinds:
            for a in k.abilities:
                if a not in ab.ABILITIES:
                    raise VariantError(_("{source}: [pieces.{name}] ability {a!r} is unknown; known: {abilities}").format(
                                           source=self.roster.source, name=k.name, a=a,
                                           abilities=', '.join(sorted(ab.ABILITIES))))
        self.fragile = self._kids("fragile")
        self.intimidators = self._kids("intimidate")
        self.thick = self._kids("thick_skin")
        self.volatile = self._kids("volatile")
        self.hit_and_run = self._kids("hit_and_run")
        self.hexers = self._kids("hex")
        self.pawns = frozenset(i for i, k in enumerate(self.kinds) if k.role == "pawn")
        geo = self.geometry
        self.neighbours = ab.neighbour_table(geo)
        self.sight = ab.sight_table(geo)
        self.lines = [frozenset(s for line in self.sight_all(sq) for s in line) for sq in range(geo.size)]
        # the fast legality path assumes that only slides and cannons can be blocked
        self.fast_legality = not any(p.lame for k in self.kinds for __, p in k.all_patterns())
        names = armies or DEFAULT_ARMIES.get(self.nplayers)
        self.default_armies = tuple(names) if names else None

    def _kids(self, ability: str) -> frozenset[int]:
        return frozenset(i for i, k in enumerate(self.kinds) if ability in k.abilities)

    def sight_all(self, sq: int):
        """The 8 lines from ``sq`` to the board edge, ignoring terrain (a superset of every line a
        slide, a cannon or a piercing attack can use)."""
        g = self.geometry
        f, r = sq % g.width, sq // g.width
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            line, x, y = [], f + dx, r + dy
            while g.on_board(x, y):
                line.append(y * g.width + x)
                x += dx
                y += dy
            yield line

    def roster_kind(self, name: str):
        try:
            return self._by_name[name]
        except KeyError:
            raise VariantError(_("dungeon: no unit named {name!r}; known: {known}").format(
                                   name=name, known=', '.join(sorted(self._by_name)))) from None

    # ----- setup ------------------------------------------------------------------------------
    def armies(self, names: tuple[str, ...] | None = None) -> list[Army]:
        names = names or self.default_armies
        if not names or len(names) != self.nplayers:
            raise VariantError(_("dungeon on {name}: give one army per player ({nplayers})").format(
                                   name=self.board_map.name, nplayers=self.nplayers))
        known = presets()
        try:
            return [known[n] for n in names]
        except KeyError as e:
            raise VariantError(_("unknown army {args!r}; presets: {known}").format(
                                   args=e.args[0], known=', '.join(sorted(known)))) from None

    def start_position(self) -> Position:
        """The default armies (DEFAULT_ARMIES, or the ``armies`` option) deployed automatically,
        player 1 to move."""
        return deploy(self, self.armies())

    # ----- attacks ----------------------------------------------------------------------------
    def cannot_attack(self, pos: Position, sq: int) -> bool:
        """A hexed unit and an intimidated Pawn cannot attack (nor give check)."""
        p = pos.board[sq]
        if p.state and p.state.get("hex"):
            return True
        return p.kid in self.pawns and ab.is_intimidated(pos.board, self.neighbours, self.intimidators, sq)

    def is_attacked(self, pos: Position, sq: int, by: int) -> bool:
        if super().is_attacked(pos, sq, by):
            for s in super().attackers(pos, sq, by):
                if not self.cannot_attack(pos, s):
                    return True
        target = pos.board[sq]
        if target is not None and target.kid in self.fragile:
            return bool(self._fragile_attackers(pos, sq, by))
        return False

    def attackers(self, pos: Position, sq: int, by: int) -> list[int]:
        out = [s for s in super().attackers(pos, sq, by) if not self.cannot_attack(pos, s)]
        target = pos.board[sq]
        if target is not None and target.kid in self.fragile:
            out += [s for s in self._fragile_attackers(pos, sq, by) if s not in out]
        return out

    def _fragile_attackers(self, pos: Position, sq: int, by: int) -> list[int]:
        board = pos.board
        return [n for n in self.neighbours[sq]
                if board[n] is not None and board[n].owner == by and not self.cannot_attack(pos, n)]

    # ----- moves ------------------------------------------------------------------------------
    def pseudo_moves(self, pos: Position, player: int, squares=None) -> list[Move]:
        """The vocabulary's moves, minus hexed units and intimidated Pawns' attacks, plus the
        fragile captures and the hexes."""
        return self._pseudo(pos, player, squares, False)

    def _pseudo(self, pos: Position, player: int, squares, noisy: bool) -> list[Move]:
        """:meth:`pseudo_moves`, or with ``noisy`` its captures and promotions only (no hexes:
        a hex captures nothing), in the same order (companion/core/noisy.py)."""
        board = pos.board
        squares = pos.occ[player] if squares is None else squares
        active = [s for s in squares if not (board[s].state and board[s].state.get("hex"))]
        if noisy:
            moves = noisy_pseudo_moves(self, pos, player, active)
        else:
            moves = super().pseudo_moves(pos, player, active)
        pawns, neighbours, intim = self.pawns, self.neighbours, self.intimidators
        out = []
        silenced: dict[int, bool] = {}
        for m in moves:
            if m.capture is not None and board[m.frm].kid in pawns:
                s = silenced.get(m.frm)
                if s is None:
                    s = silenced[m.frm] = ab.is_intimidated(board, neighbours, intim, m.frm)
                if s:
                    continue
            out.append(m)
        out_players = pos.var("out", ())
        for sq in active:
            p = board[sq]
            victims = ab.fragile_captures(board, neighbours, self.fragile, sq, player)
            if victims and not (p.kid in pawns and ab.is_intimidated(board, neighbours, intim, sq)):
                have = {m.to for m in out if m.frm == sq and m.capture is not None}
                out.extend(Move(sq, v, v, None, "fragile") for v in victims if v not in have)
            if p.kid in self.hexers and not noisy:
                out.extend(ab.hex_moves(pos, self.sight, sq, player, out_players))
        return out

    def is_over(self, pos: Position) -> bool:
        return len(self.alive(pos)) <= 1

    def alive(self, pos: Position) -> list[int]:
        out = pos.var("out", ())
        return [p for p in range(pos.nplayers) if p not in out and pos.royals[p]]

    def legal_moves(self, pos: Position) -> list[Move]:
        if pos.pending is not None or self.is_over(pos):
            return []
        pseudo = self.pseudo_moves(pos, pos.turn)
        moves = self._legal(pos, pseudo)
        if moves:
            return moves
        if self.when_stuck == "expose":
            moves = [m for m in pseudo if self._keeps_king(pos, m)]
        return moves or [PASS]

    def noisy_moves(self, pos: Position) -> list[Move]:
        """The legal captures and promotions without generating the quiet moves, nor checking
        their legality (most of a node otherwise). None legal: ``legal_moves`` would give
        ``[PASS]`` (no capture), or with ``when_stuck = "expose"`` the moves that keep the King."""
        if pos.pending is not None or self.is_over(pos):
            return []
        moves = self._legal(pos, self._pseudo(pos, pos.turn, None, True))
        if moves or self.when_stuck != "expose":
            return moves
        return super().noisy_moves(pos)

    def has_legal_move(self, pos: Position) -> bool:
        """A turn with no legal move is passed (or exposes the King): only a pending decision
        or a finished game has none."""
        return pos.pending is None and not self.is_over(pos)

    def moves_from(self, pos: Position, sq: int) -> list[Move]:
        """Legal moves of the piece on ``sq`` (hexes included: special ``"hex"``), fast enough
        to light a lifted piece."""
        p = pos.board[sq] if 0 <= sq < len(pos.board) else None
        if p is None or p.owner != pos.turn or pos.pending is not None or self.is_over(pos):
            return []
        moves = self._legal(pos, self.pseudo_moves(pos, pos.turn, (sq,)))
        if not moves and self.when_stuck == "expose" and not self._legal(pos, self.pseudo_moves(pos, pos.turn)):
            moves = [m for m in self.pseudo_moves(pos, pos.turn, (sq,)) if self._keeps_king(pos, m)]
        return moves

    def legal_candidates(self, pos: Position, in_check: bool | None = None):
        """``(pseudo-legal moves, legality test)``: the moves passing the test are ``legal_moves``,
        for a search that tests only the moves it plays. Not in check a free move (see
        :meth:`_legal`) is among them, else None; in check none may pass, and ``legal_moves`` then
        decides (the turn is passed). None while a decision waits or once the game is over."""
        player = pos.turn
        kings = pos.royals[player]
        if pos.pending is not None or self.is_over(pos):
            return None
        in_check = self.in_check(pos, player) if in_check is None else in_check
        if not in_check and (not self.fast_legality or len(kings) != 1):
            return None
        pseudo = self.pseudo_moves(pos, player)

        def looked(m: Move) -> bool:
            return self._quiet_safe(pos, m, player) if m.capture is None and not m.special else self.is_legal(pos, m)

        if in_check:
            return pseudo, looked
        lines, board, intim = self.lines[next(iter(kings))], pos.board, self.intimidators

        def free(m: Move) -> bool:
            return (m.capture is None and not m.special and m.frm not in lines and m.to not in lines
                    and not board[m.frm].kind.royal and board[m.frm].kid not in intim)

        return (pseudo, lambda m: free(m) or looked(m)) if any(map(free, pseudo)) else None

    def _legal(self, pos: Position, pseudo: list[Move]) -> list[Move]:
        """Filter with two shortcuts for quiet moves (no capture, no special action). When the
        King is not attacked, a quiet move of a piece that is not the King, nor an Ogre, from
        and to squares off every line through the King, cannot change any attack on the King
        (leaps are never blocked; slides, piercing attacks and cannons all run along those
        lines): legal without a look. Any other quiet move only needs the piece moved
        (:meth:`_quiet_safe`); captures and special actions are played out (:meth:`is_legal`)."""
        player = pos.turn
        kings = pos.royals[player]
        safe_now = self.fast_legality and len(kings) == 1 and not self.in_check(pos, player)
        lines = self.lines[next(iter(kings))] if safe_now else None
        board = pos.board
        out = []
        for m in pseudo:
            if m.capture is None and not m.special:
                if ((safe_now and m.frm not in lines and m.to not in lines
                        and not board[m.frm].kind.royal and board[m.frm].kid not in self.intimidators)
                        or self._quiet_safe(pos, m, player)):
                    out.append(m)
            elif self.is_legal(pos, m):
                out.append(m)
        return out

    def _quiet_safe(self, pos: Position, move: Move, player: int) -> bool:
        """:meth:`is_legal` for a move that captures nothing and is no special action (a King's
        step, a piece on a line through its King): ``perform`` would move the piece and close
        the turn, and closing the turn changes nothing an enemy attack depends on (nothing is
        removed, and only the mover's own hexes count down), so moving the piece is enough.
        A third of the cost of the full check."""
        pos.begin()
        try:
            pos.move_piece(move.frm, move.to)
            return self._safe(pos, player)
        finally:
            pos.undo_frame()

    def is_legal(self, pos: Position, move: Move) -> bool:
        """After the move (and, for a hit-and-run capture, after at least one of the steps), the
        mover's King stands and is not attacked, or the game is won."""
        player = pos.turn
        pos.begin()
        try:
            self.perform(pos, move)
            if pos.pending is not None:
                return bool(self.answers(pos))
            return self._safe(pos, player)
        finally:
            pos.undo_frame()

    def _safe(self, pos: Position, player: int) -> bool:
        if not pos.royals[player]:
            return False
        alive = self.alive(pos)
        if alive == [player]:
            return True
        return not any(self.is_attacked(pos, k, e) for k in pos.royals[player] for e in alive if e != player)

    def _keeps_king(self, pos: Position, move: Move) -> bool:
        """For ``when_stuck="expose"``: the move may leave the King attacked, never blown up."""
        player = pos.turn
        pos.begin()
        try:
            self.perform(pos, move)
            return bool(pos.royals[player])
        finally:
            pos.undo_frame()

    # ----- making moves -----------------------------------------------------------------------
    def perform(self, pos: Position, move: Move) -> None:
        player = pos.turn
        effects: list = []
        removed = False
        if move.special == "pass":
            effects.append(("pass", player))
        elif move.special == "hex":
            ab.cast_hex(pos, move, effects)
        else:
            removed = self._strike(pos, move, effects)
            if removed and pos.board[move.to] is not None and pos.board[move.to].kid in self.hit_and_run:
                self._eliminate(pos, effects)
                # the capture may have blown up the mover's own King (a Demonics next to it):
                # with three or more players left, the mover is out and its pieces, the
                # attacker too, are gone: no step to offer (the move is illegal anyway)
                if not self.is_over(pos) and pos.board[move.to] is not None:
                    steps = ab.step_squares(pos, self.neighbours, move.to)
                    if steps:
                        pos.set_var("effects", tuple(effects))
                        pos.set_var("pending", Decision("step", player, False, (
                            ("square", move.to), ("options", tuple(steps)),
                            ("effects", tuple(effects)), ("removed", removed))))
                        return
        self._close_turn(pos, player, effects, removed)

    def _strike(self, pos: Position, move: Move, effects: list) -> bool:
        """Move or capture; returns whether a piece left the board."""
        board = pos.board
        if move.capture is None:
            pos.move_piece(move.frm, move.to)
            return False
        target = board[move.capture]
        if target.kid in self.thick and ab.absorb(pos, self.homes, move.capture, effects):
            return False
        victim = pos.take(move.capture)
        effects.append(("captured", move.capture, victim.kind.title, victim.owner))
        pos.move_piece(move.frm, move.to)
        if victim.kid in self.volatile:
            ab.explode(pos, self.neighbours, self.volatile, move.capture, victim.owner, victim.kind.title, effects)
        return True

    def answers(self, pos: Position) -> list[Answer]:
        """The hit-and-run choices that keep the mover's King safe: "stay" or a square."""
        d = pos.pending
        if d is None or d.kind != "step":
            return []
        player = d.player
        out = []
        for value in ("stay",) + d.get("options"):
            a = Answer("step", value)
            pos.begin()
            try:
                self.answer(pos, a)
                ok = self._safe(pos, player)
            finally:
                pos.undo_frame()
            if ok:
                out.append(a)
        return out

    def answer(self, pos: Position, answer: Answer) -> None:
        d, value, effects = take_choice(
            pos, answer, "step", "stay", refusal=_("no hit-and-run step is waiting for an answer"),
            not_an_option=_("{value!r} is not one of the hit-and-run choices (stay or a square next to it)"))
        if value != "stay":
            piece = pos.move_piece(d.get("square"), value)
            effects.append(("step", d.get("square"), value, piece.kind.title, piece.owner))
        self._close_turn(pos, d.player, effects, d.get("removed"))

    def _eliminate(self, pos: Position, effects: list) -> None:
        """Players whose King fell are out; with more than one survivor their pieces go."""
        out = pos.var("out", ())
        fallen = [p for p in range(pos.nplayers) if p not in out and not pos.royals[p]]
        if not fallen:
            return
        out = tuple(sorted(out + tuple(fallen)))
        pos.set_var("out", out)
        if pos.nplayers - len(out) > 1:
            for p in fallen:
                squares = tuple(sorted(pos.occ[p]))
                for s in squares:
                    pos.take(s)
                effects.append(("eliminated", p, squares))
        else:
            for p in fallen:
                effects.append(("king_falls", p))

    def _close_turn(self, pos: Position, player: int, effects: list, removed: bool) -> None:
        self._eliminate(pos, effects)
        ab.tick_hexes(pos, player, effects)
        pos.set_var("quiet", 0 if removed or any(e[0] == "eliminated" for e in effects) else pos.var("quiet", 0) + 1)
        pos.set_var("effects", tuple(effects))
        self.end_turn(pos)

    # ----- the end ----------------------------------------------------------------------------
    def outcome(self, pos: Position, claim_draw: bool = True) -> Outcome | None:
        if pos.pending is not None:
            return None
        alive = self.alive(pos)
        if len(alive) == 1:
            blown = any(e[0] == "destroyed" for e in pos.var("effects", ()))
            how = "the last King standing" if pos.nplayers > 2 else "King captured"
            if blown and pos.nplayers == 2:
                how = "King destroyed by an explosion"
            return Outcome(frozenset(alive), how)
        if not alive:
            return Outcome(frozenset(), "no King left")
        if self.repetition and 1 + sum(1 for h in pos.history if h == pos.hash) >= self.repetition:
            return Outcome(frozenset(), f"the same position {self.repetition} times")
        if self.quiet_moves and pos.var("quiet", 0) >= self.quiet_moves * len(alive):
            return Outcome(frozenset(), f"{self.quiet_moves} moves each without a piece removed")
        return None

    def draw_clock(self, pos: Position) -> tuple[int, int] | None:
        """The quiet-move rule: turns without a piece removed, against its limit for the players left."""
        if not self.quiet_moves:
            return None
        return pos.var("quiet", 0), self.quiet_moves * max(1, len(self.alive(pos)))

    # ----- the physical board and the screen --------------------------------------------------
    def occupancy_after(self, pos: Position, move: Move) -> frozenset[int]:
        """Occupied squares once ``move`` and all its effects (push-back, explosion, fragile
        capture, elimination) are done; during a hit-and-run choice, before the step."""
        self.apply(pos, move)
        try:
            return pos.occupied()
        finally:
            self.undo(pos)

    def describe_effects(self, pos: Position) -> list[str]:
        """The last turn's effects beyond the moved piece, in words (see abilities.py)."""
        return [describe_effect(self, e) for e in pos.var("effects", ())]

    # ----- dice fights (companion/games/fights.py; docs/rules/combat.md, "Dungeon Chess") -------
    #: "There is no checkmate - the game only ends on actual King capture": no King's Prerogative
    has_checkmate = False

    def fight_lost(self, pos: Position, sq: int, winner_sq: int, effects: list) -> bool:
        """An attacker that lost its fight is captured by the defender, with what a capture does
        here: a Troll's thick skin absorbs it (pushed back, the attacker stays alive: False), a
        Demonics explodes, sparing the winner as it spares a capturer."""
        piece = pos.board[sq]
        if piece.kid in self.thick and ab.absorb(pos, self.homes, sq, effects):
            return False
        victim = pos.take(sq)
        effects.append(("captured", sq, victim.kind.title, victim.owner))
        if victim.kid in self.volatile:
            winner = pos.take(winner_sq)  # "the capturer ... survives"
            ab.explode(pos, self.neighbours, self.volatile, sq, victim.owner, victim.kind.title, effects)
            pos.put(winner_sq, winner)
        return True

    def fight_turn_over(self, pos: Position, player: int, touched, removed: bool, effects: list) -> None:
        """The turn of a fight the attacker did not win ends as any turn here (eliminations, hexes
        wearing off, the quiet-move count)."""
        self._close_turn(pos, player, effects, removed)

    # ----- names ------------------------------------------------------------------------------
    def move_text(self, pos: Position, move: Move) -> str:
        if move.special == "pass":
            return "pass"
        text = super().move_text(pos, move)
        return text + "hex" if move.special == "hex" else text

    def answer_text(self, answer: Answer) -> str:
        return "stay" if answer.value == "stay" else self.geometry.name_of(answer.value)

    def position_text(self, pos: Position) -> str:
        """The extended format (companion/core/notation.py) with ``out`` and ``quiet``."""
        keep = {k: v for k, v in pos.vars.items() if k in ("out", "quiet") and v}
        return format_position(pos, keep)

    def position_from_text(self, text: str) -> Position:
        pos = parse_position(self, text, {"out": list, "quiet": int})
        out = pos.var("out", ())
        for p in out:
            if not isinstance(p, int) or not 0 <= p < pos.nplayers:
                raise PositionError(_("out={out}: expected player indexes 0..{nplayers}").format(
                                        out=list(out), nplayers=pos.nplayers - 1))
        for sq, piece in pos.pieces():
            for key, value in piece.state.items():
                if key not in STATE_KEYS:
                    raise PositionError(_("{title} on {square}: unknown state {key!r}; known: {value}").format(
                                            title=_(piece.kind.title), square=self.geometry.name_of(sq), key=key,
                                            value=', '.join(f'{k} ({_(v)})' for k, v in STATE_KEYS.items())))
                if not isinstance(value, int) or not (1 <= value <= (ab.HEX_TURNS if key == "hex" else 1)):
                    raise PositionError(_("{title} on {square}: {key}={value!r} is out of range").format(
                                            title=_(piece.kind.title), square=self.geometry.name_of(sq), key=key,
                                            value=value))
            if self.geometry.terrain[sq] == WATER and piece.kind.water != "stop":
                raise PositionError(_("{title} on {square}: it cannot stand on water").format(
                                        title=_(piece.kind.title), square=self.geometry.name_of(sq)))
        for p in range(pos.nplayers):
            n = len(pos.royals[p])
            if p in out:
                if n:
                    raise PositionError(_("player {p} is out but still has a King").format(p=p + 1))
                if pos.occ[p] and pos.nplayers - len(out) > 1:
                    raise PositionError(_("player {p} is out but still has pieces").format(p=p + 1))
            elif n != 1:
                raise PositionError(_("player {p} must have exactly one King, found {n}").format(p=p + 1, n=n))
        if pos.turn in out:
            raise PositionError(_("player {turn} is out and cannot be the one to move").format(turn=pos.turn + 1))
        return pos


def describe_effect(rules: DungeonRules, e: tuple) -> str:
    """One effect tuple (see companion/games/abilities.py) in plain words."""
    n = rules.geometry.name_of
    who = lambda p: f"player {p + 1}"  # noqa: E731
    kind = e[0]
    if kind == "captured":
        return f"{who(e[3])}'s {e[2]} on {n(e[1])} is captured."
    if kind == "absorbed":
        return f"{who(e[4])}'s {e[3]} absorbs the blow: move it back from {n(e[1])} to {n(e[2])}; the attacker stays where it was."
    if kind == "crushed":
        return f"{who(e[3])}'s {e[2]} on {n(e[1])} cannot be pushed back ({e[4]} behind it) and dies."
    if kind == "explosion":
        return f"{who(e[3])}'s {e[2]} explodes on {n(e[1])}: every enemy piece next to it is destroyed."
    if kind == "destroyed":
        return f"Remove {who(e[3])}'s {e[2]} from {n(e[1])} (destroyed by the explosion)."
    if kind == "hex":
        return f"{who(e[3])}'s {e[2]} on {n(e[1])} is hexed: it cannot move or attack for its owner's next {e[4]} turns."
    if kind == "hex_ends":
        return f"The hex on {who(e[3])}'s {e[2]} on {n(e[1])} wears off."
    if kind == "step":
        return f"{who(e[4])}'s {e[3]} steps on from {n(e[1])} to {n(e[2])} (hit-and-run)."
    if kind == "eliminated":
        squares = ", ".join(n(s) for s in e[2]) or "none"
        return f"{who(e[1])}'s King has fallen: remove all their pieces ({squares})."
    if kind == "king_falls":
        return f"{who(e[1])}'s King has fallen."
    if kind == "pass":
        return f"{who(e[1])} has no legal move and passes."
    return repr(e)


def make(board_map=None, players: int | None = None, draw_rules: bool = False, **options) -> DungeonRules:
    """Dungeon Chess on ``board_map`` (a map name or path; default: DEFAULT_MAPS for the number
    of players). Options: players (2-4; default the map's seats; fewer only where the map offers
    a seating for them), when_stuck ("pass"/"expose"), draw_rules (the optional draw rules:
    repetition 3 and quiet_moves 50; off by default, as in the rulebook), repetition and
    quiet_moves (each rule on its own; 0 = off), armies (preset names, one per player, for the
    start position)."""
    from ..maps import load_map

    allowed = {"when_stuck", "repetition", "quiet_moves", "armies", "roster"}
    unknown = set(options) - allowed
    if unknown:
        raise VariantError(_("dungeon options: unknown {unknown}; allowed: {allowed}").format(
                               unknown=', '.join(sorted(unknown)),
                               allowed=', '.join(sorted(allowed | {'players', 'draw_rules'}))))
    if players is not None and (isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4):
        raise VariantError(_("dungeon is played by 2 to 4 players, got {players!r}").format(players=players))
    if draw_rules:
        options = {**DRAW_RULES, **options}
    loaded = load_map(board_map or DEFAULT_MAPS.get(players or 2, DEFAULT_MAP))
    return DungeonRules(loaded.for_players(players or loaded.players), **options)
