"""KoL Chess (``kol``): the fourth game, from the help page of a lost web board.

The seed: ../shared/seeds/004 ("KoL Chess"); every reading of it, with the text's own words, is
in docs/rules/kol.md. The board and the set-up are OUR RECONSTRUCTION (maps/kol.toml,
maps/variants/kol.toml [setup]); the pieces' movement is data in the vocabulary. This module
holds what the vocabulary does not say, each part a named ability (companion/games/abilities.py):

* the Gnome's charge (a forward capture that may go one square further);
* the Tower: the King ``retreat``s into it (at most three times a game, a count per player
  that a new Tower does not reset). The Tower then becomes the piece ``TK`` (Tower with its
  King, royal, uncapturable, moving as the Tower but never capturing), which may move on the
  owner's next turn (X+1) only; the King steps ``out`` (and may capture) on turn X+1 or, at the
  latest, X+2 (the TK's state ``turns`` counts the owner's turns ended with the King inside);
* Sneaky Pete's ``swap``, Boris's ``double`` capture (also a threat to the King: check);
* back-row trades: a pawn reaching the far rank stops the turn on a choice Decision
  ``"trade"`` (answers ``keep`` or a piece code), limited to one Tower, one Princess and one of
  each Legend on the board;
* the end: all three Legends lost, checkmate; our documented draws: no legal move without
  check, the same position three times, ``quiet_moves`` moves each without a capture or a pawn
  move.

Moves are written in coordinate notation; the special ones with a word after the squares:
``f1g1in`` (the King retreats), ``g1g2out`` (he leaves), ``j1g4swap``. Everything else (the
Tower with the King moving, Jarlsberg's teleport, Boris's double capture ``i1i6``, the charge
``f4f6``) is unambiguous without one.
"""

from __future__ import annotations

from ..core.compiled import orient, relative_rank
from ..core.geometry import FILES
from ..core.moves import Answer, Decision, Move, Outcome
from ..core.notation import format_position, parse_position
from ..core.pieces import Piece
from ..core.position import Position
from ..core.roster import load_roster
from ..core.rules import Rules, take_choice
from ..core.setup import parse_setup
from ..errors import PositionError, VariantError
from . import abilities as ab
from .kol_search import KolSearchHooks
from ..i18n import N_, _

DEFAULT_MAP = "kol"
#: "Three times during the game, the King can 'retreat' into the tower"
MAX_RETREATS = 3
#: tags the rules read from the map, and what each is for
TAGS = {
    "light": N_("the white/green squares with their blue ones (the Ninja Snowman's)"),
    "dark": N_("the black/red squares with their blue ones (the Demoninja's)"),
    "green": N_("where Sneaky Pete swaps"),
    "red": N_("where Boris's double capture may start"),
    "blue": N_("Jarlsberg's teleport squares"),
    "yeti": N_("the Knott Yeti's roads (edges and central cross)"),
}
#: the piece state a position text may carry: the Tower with its King only
STATE_KEYS = {"turns": "the owner's turns ended with the King inside (1: he may stay this turn, 2: he must leave)"}
SPECIAL_WORDS = {"in": "in", "out": "out", "swap": "swap"}


class KolRules(KolSearchHooks, Rules):
    name = "kol"
    title = "KoL Chess"
    unhashed_vars = frozenset({"quiet", "effects"})

    def __init__(self, board_map, roster: str = "kol", quiet_moves: int = 50, repetition: int = 3):
        for opt, v in (("repetition", repetition), ("quiet_moves", quiet_moves)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0 or (opt == "repetition" and v == 1):
                raise VariantError(_("kol option {opt}={v!r}: expected a whole number >= 2, or 0 for no such "
                                     "draw").format(
                                       opt=opt, v=v))
        self.board_map = board_map
        self.roster = load_roster(roster)
        if board_map.players != 2:
            raise VariantError(_("KoL Chess is for two players; the map {name} has {players}").format(
                                   name=board_map.name, players=board_map.players))
        geo = board_map.geometry
        where = str(board_map.source or board_map.name)
        missing = [t for t in TAGS if t not in geo.tags]
        if missing:
            tags = "; ".join(_("{tag} ({meaning})").format(tag=t, meaning=_(TAGS[t])) for t in missing)
            raise VariantError(_("{where}: KoL Chess needs the tags {tags} (docs/rules/kol.md, docs/maps.md)").format(
                where=where, tags=tags))
        super().__init__(geo, self.roster.kinds, tuple(seat.home for seat in board_map.seats))
        self.quiet_moves = quiet_moves
        self.repetition = repetition
        self.tags = {t: geo.tags[t] for t in TAGS}
        _check_colours(geo, self.tags, where)
        for k in self.kinds:
            for a in k.abilities:
                if a not in ab.ABILITIES:
                    raise VariantError(_("{source}: [pieces.{name}] ability {a!r} is unknown; known: "
                                         "{abilities}").format(
                                           source=self.roster.source, name=k.name, a=a,
                                           abilities=', '.join(sorted(ab.ABILITIES))))
        kids = lambda pred: frozenset(i for i, k in enumerate(self.kinds) if pred(k))  # noqa: E731
        self.pawns = kids(lambda k: k.role == "pawn")
        self.monsters = kids(lambda k: k.role == "monster")
        self.legends = kids(lambda k: k.role == "legend")
        self.chargers = kids(lambda k: "charge" in k.abilities)
        self.swappers = kids(lambda k: "swap" in k.abilities)
        self.doublers = kids(lambda k: "double_capture" in k.abilities)
        self.trade_some = kids(lambda k: "back_row_trade" in k.abilities)
        self.trade_any = kids(lambda k: "back_row_trade_any" in k.abilities)
        kings = [i for i, k in enumerate(self.kinds) if k.royal and "retreat" in k.abilities]
        towers = [i for i, k in enumerate(self.kinds) if not k.royal and "holds_king" in k.abilities]
        held = [i for i, k in enumerate(self.kinds) if k.royal and "holds_king" in k.abilities]
        princesses = [i for i, k in enumerate(self.kinds) if k.role == "royal" and i not in kings]
        for what, found in (("King (royal, ability retreat)", kings), ("Tower (ability holds_king)", towers),
                            ("Tower with its King (royal, ability holds_king)", held)):
            if len(found) != 1:
                raise VariantError(_("{source}: KoL Chess needs exactly one {what}, found {n}").format(
                                       source=self.roster.source, what=what, n=len(found)))
        self.KING, self.TOWER, self.HELD = kings[0], towers[0], held[0]
        self.princess = frozenset(princesses)
        #: kinds of which a side may have one on the board at a time (a TK counts as a Tower)
        self.one_each = frozenset({self.TOWER} | self.princess | self.legends)
        self.lines8 = ab.line_table(geo, ab.STRAIGHT)
        self.lines_through = [frozenset(s for line in lines for s in line) for lines in self.lines8]
        self.lines4 = ab.line_table(geo, ab.ORTHOGONAL)
        self.forward = [forward_steps(geo, home) for home in self.homes]
        self.last_rank = [(geo.height if home in ("south", "north") else geo.width) - 1 for home in self.homes]
        bans = self.capture_bans
        self.may_capture = (lambda a, v: True) if bans is None else (lambda a, v: v not in bans[a])  # noqa: E731

    # ----- set-up -----------------------------------------------------------------------------
    def start_position(self) -> Position:
        """The roster's ``[setup]`` grid (our reconstruction), Blue (player 1) to move."""
        if not self.roster.setup:
            raise VariantError(_("{source}: no [setup] grid: KoL Chess needs its start position there").format(
                                   source=self.roster.source))
        pos = parse_setup(self, self.roster.setup, self.roster.source, self.roster.setup_line)
        self.validate(pos, f"{self.roster.source} [setup]")
        return pos

    # ----- attacks ----------------------------------------------------------------------------
    def is_attacked(self, pos: Position, sq: int, by: int) -> bool:
        if super().is_attacked(pos, sq, by):
            return True
        return bool(self._double_threats(pos, sq, by))

    def attackers(self, pos: Position, sq: int, by: int) -> list[int]:
        out = super().attackers(pos, sq, by)
        return out + [s for s in self._double_threats(pos, sq, by) if s not in out]

    def _double_threats(self, pos: Position, sq: int, by: int) -> list[int]:
        if not pos.occ[by] or pos.board[sq] is None:
            return []
        return ab.double_threats(pos.board, self.lines4, self.tags["red"], self.see_through, self.doublers, sq, by,
                                 self.may_capture)

    # ----- moves ------------------------------------------------------------------------------
    def extra_moves(self, pos: Position, player: int, out: list[Move]) -> None:
        self.special_moves(pos, player, sorted(pos.occ[player]), out)

    def special_moves(self, pos: Position, player: int, squares, out: list[Move]) -> None:
        """The moves of the named abilities for the pieces on ``squares``."""
        board = pos.board
        retreats = pos.var("retreats", (0, 0))[player]
        for sq in squares:
            p = board[sq]
            kid = p.kid
            if kid in self.chargers:
                out += ab.charge_moves(board, self.forward[player], self.chargers, sq, player, self.may_capture)
            elif kid in self.swappers:
                out += ab.swap_moves(board, self.lines8, self.tags["green"], self.pawns | self.monsters, sq, player)
            elif kid in self.doublers:
                out += ab.double_captures(board, self.lines4, self.tags["red"], self.see_through, sq, player,
                                          self.may_capture)
            elif kid == self.KING and retreats < MAX_RETREATS:
                for t in self.compiled[kid][player].leaps_both[sq]:
                    q = board[t]
                    if q is not None and q.owner == player and q.kid == self.TOWER:
                        out.append(Move(sq, t, None, None, "in"))
            elif kid == self.HELD and p.state.get("turns", 0) >= 1:
                for t in self.compiled[self.KING][player].leaps_both[sq]:
                    q = board[t]
                    if q is None:
                        out.append(Move(sq, t, None, None, "out"))
                    elif q.owner != player and self.may_capture(self.KING, q.kid):
                        out.append(Move(sq, t, t, None, "out"))

    def held_king(self, pos: Position, player: int) -> int | None:
        """The square of ``player``'s Tower with the King inside, if the King is in it."""
        board = pos.board
        for r in pos.royals[player]:
            if board[r].kid == self.HELD:
                return r
        return None

    def legal_moves(self, pos: Position) -> list[Move]:
        if pos.pending is not None or self._legends_lost(pos) is not None:
            return []
        return self._legal(pos, self.pseudo_moves(pos, pos.turn))

    def moves_from(self, pos: Position, sq: int) -> list[Move]:
        """Legal moves of the piece on ``sq`` (a lifted piece), without generating the others'."""
        p = pos.board[sq] if 0 <= sq < len(pos.board) else None
        if p is None or p.owner != pos.turn or pos.pending is not None or self._legends_lost(pos) is not None:
            return []
        held = self.held_king(pos, pos.turn)
        if held is not None and pos.board[held].state.get("turns", 0) >= 2:
            return [m for m in self.legal_moves(pos) if m.frm == sq]  # a forced exit decides for all
        pseudo = self.pseudo_moves(pos, pos.turn, (sq,))
        self.special_moves(pos, pos.turn, (sq,), pseudo)
        return self._legal(pos, pseudo)

    def _legal(self, pos: Position, pseudo: list[Move]) -> list[Move]:
        """The Tower's timing, then the King's safety. With the King inside: the Tower may move
        on turn X+1 only; on X+2 the King must leave (when no exit is legal, any other move but
        a Tower move is allowed: docs/rules/kol.md)."""
        player = pos.turn
        held = self.held_king(pos, player)
        if held is not None:
            turns = pos.board[held].state.get("turns", 0)
            if turns >= 2:
                exits = [m for m in pseudo if m.frm == held and m.special == "out" and self.is_legal(pos, m)]
                if exits:
                    return exits
            if turns != 1:
                pseudo = [m for m in pseudo if m.frm != held or m.special == "out"]
            # the King inside cannot be attacked: only his steps out need a look
            return [m for m in pseudo if m.special != "out" or self.is_legal(pos, m)]
        kings = pos.royals[player]
        if len(kings) != 1 or self.in_check(pos, player):
            return [m for m in pseudo if self.is_legal(pos, m)]
        # not in check: a plain quiet move of another piece, from and to squares off every line
        # through the King, changes no attack on him (leaps are never blocked; slides, the
        # double capture and the Gnomes' see-through all run along those lines)
        lines = self.lines_through[next(iter(kings))]
        board = pos.board
        king = self.KING
        return [m for m in pseudo
                if (m.capture is None and not m.special and m.frm not in lines and m.to not in lines
                    and board[m.frm].kid != king) or self.is_legal(pos, m)]

    def is_legal(self, pos: Position, move: Move) -> bool:
        """A plain move or a charge: the piece moved (its victim taken) is enough (:func:`safe_after`)."""
        if move.special not in ("", "charge"):
            return super().is_legal(pos, move)
        return safe_after(self, pos, move)

    # ----- making moves -----------------------------------------------------------------------
    def perform(self, pos: Position, move: Move) -> None:
        board = pos.board
        player = pos.turn
        piece = board[move.frm]
        effects: list = []
        quiet = pos.var("quiet", 0) + 1
        special = move.special
        arrived = [move.to]
        if special == "in":
            king = pos.take(move.frm)
            tower = pos.take(move.to)
            pos.put(move.to, Piece(self.kinds[self.HELD], self.HELD, player, tower.uid,
                                   {"carries": king.uid, "turns": 0}))
            done = pos.var("retreats", (0, 0))
            pos.set_var("retreats", tuple(n + 1 if i == player else n for i, n in enumerate(done)))
            effects.append(("retreat", move.frm, move.to, player, done[player] + 1))
        elif special == "out":
            if move.capture is not None:
                self._capture(pos, move.capture, effects)
                quiet = 0
            held = pos.take(move.frm)
            pos.put(move.frm, Piece(self.kinds[self.TOWER], self.TOWER, player, held.uid))
            pos.put(move.to, Piece(self.kinds[self.KING], self.KING, player, held.state["carries"]))
            effects.append(("exit", move.frm, move.to, player))
        elif special == "swap":
            a = pos.take(move.frm)
            b = pos.take(move.to)
            pos.put(move.frm, b)
            pos.put(move.to, a)
            effects.append(("swap", move.frm, move.to, a.kind.title, b.kind.title, player))
            arrived = [move.frm, move.to]
        elif special == "double":
            self._capture(pos, move.capture, effects)
            self._capture(pos, move.to, effects)
            pos.move_piece(move.frm, move.to)
            quiet = 0
        else:
            if move.capture is not None:
                self._capture(pos, move.capture, effects)
                quiet = 0
            pos.move_piece(move.frm, move.to)
            if special == "charge":
                effects.append(("charge", move.frm, move.capture, move.to, player))
        if piece.kid in self.pawns:
            quiet = 0
        for sq in arrived:
            options = self._trade_options(pos, sq, player, move)
            if options:
                pos.set_var("effects", tuple(effects))
                pos.set_var("pending", Decision("trade", player, False, (
                    ("square", sq), ("options", options), ("effects", tuple(effects)), ("quiet", quiet))))
                return
        self._close_turn(pos, player, effects, quiet)

    def _capture(self, pos: Position, sq: int, effects: list) -> None:
        victim = pos.take(sq)
        effects.append(("captured", sq, victim.kind.title, victim.owner))

    def _trade_options(self, pos: Position, sq: int, player: int, move: Move) -> tuple[str, ...]:
        """The pieces a pawn that has just reached the far rank on ``sq`` may be traded for."""
        p = pos.board[sq]
        if p is None or p.owner != player or p.kid not in self.pawns:
            return ()
        home = self.homes[player]
        if relative_rank(self.geometry, sq, home) != self.last_rank[player]:
            return ()
        start = move.to if sq == move.frm else move.frm  # where the pawn came from (a swap: the other square)
        if relative_rank(self.geometry, start, home) == self.last_rank[player]:
            return ()  # it was on the far rank already (a Gnome moving along it)
        if p.kid in self.trade_any:
            wanted = [i for i, k in enumerate(self.kinds) if i not in self.pawns and not k.royal or i in self.princess]
        elif p.kid in self.trade_some:
            wanted = sorted(self.monsters | self.princess | {self.TOWER})
        else:
            return ()
        have = self._on_board(pos, player)
        options = [self.kinds[i].code for i in sorted(wanted)
                   if i != self.KING and i != self.HELD and not (i in self.one_each and have.get(i, 0))]
        return tuple(options)

    def _on_board(self, pos: Position, player: int) -> dict[int, int]:
        counts: dict[int, int] = {}
        board = pos.board
        for s in pos.occ[player]:
            kid = board[s].kid
            kid = self.TOWER if kid == self.HELD else kid
            counts[kid] = counts.get(kid, 0) + 1
        return counts

    def answers(self, pos: Position) -> list[Answer]:
        d = pos.pending
        if d is None or d.kind != "trade":
            return []
        return [Answer("trade", "keep")] + [Answer("trade", code) for code in d.get("options")]

    def answer(self, pos: Position, answer: Answer) -> None:
        d, value, effects = take_choice(pos, answer, "trade", "keep",
                                        refusal=_("no back-row trade is waiting for an answer"),
                                        not_an_option=_("{value!r} is not one of the trades (keep, {options})"))
        sq = d.get("square")
        if value != "keep":
            old = pos.take(sq)
            new = pos.new_piece(value, old.owner)
            new.uid = old.uid
            pos.put(sq, new)
            effects.append(("trade", sq, old.kind.title, new.kind.title, old.owner))
        self._close_turn(pos, d.player, effects, d.get("quiet"))

    def _close_turn(self, pos: Position, player: int, effects: list, quiet: int) -> None:
        held = self.held_king(pos, player)
        if held is not None and pos.board[held].state.get("turns", 0) < 2:
            # 2 is "he must leave": a King who cannot leave on turn X+2 stays under that
            # obligation, the same position turn after turn (docs/rules/kol.md)
            pos.set_state(held, "turns", pos.board[held].state.get("turns", 0) + 1)
        pos.set_var("quiet", quiet)
        pos.set_var("effects", tuple(effects))
        self.end_turn(pos)

    # ----- the end ----------------------------------------------------------------------------
    def _legends_lost(self, pos: Position) -> int | None:
        """The player with no Legend left on the board, if any."""
        board = pos.board
        for p in range(pos.nplayers):
            if not any(board[s].kid in self.legends for s in pos.occ[p]):
                return p
        return None

    def outcome(self, pos: Position, claim_draw: bool = True) -> Outcome | None:
        if pos.pending is not None:
            return None
        lost = self._legends_lost(pos)
        if lost is not None:
            return Outcome(frozenset({1 - lost}), "all three Legends captured")
        player = pos.turn
        if not self.legal_moves(pos):
            if self.in_check(pos, player):
                return Outcome(frozenset({1 - player}), "checkmate")
            return Outcome(frozenset(), "no legal move")
        if self.repetition and 1 + sum(1 for h in pos.history if h == pos.hash) >= self.repetition:
            return Outcome(frozenset(), f"the same position {self.repetition} times")
        if self.quiet_moves and pos.var("quiet", 0) >= 2 * self.quiet_moves:
            return Outcome(frozenset(), f"{self.quiet_moves} moves each without a capture or a pawn move")
        return None

    def draw_clock(self, pos: Position) -> tuple[int, int] | None:
        if not self.quiet_moves:
            return None
        return pos.var("quiet", 0), 2 * self.quiet_moves

    # ----- the physical board -----------------------------------------------------------------
    def occupancy_after(self, pos: Position, move: Move) -> frozenset[int]:
        """Occupied squares once ``move`` is made (a double capture empties two squares, a swap
        or an exit with a capture none: the King's square stays held by the Tower)."""
        self.apply(pos, move)
        try:
            return pos.occupied()
        finally:
            self.undo(pos)

    def square_colours(self) -> tuple[str, ...]:
        """Each square's colour word (white, green, black, red, blue), for the screen."""
        t = self.tags
        return tuple("blue" if sq in t["blue"] else "green" if sq in t["green"] else "red" if sq in t["red"]
                     else "white" if sq in t["light"] else "black" for sq in range(self.geometry.size))

    def board_picture(self) -> str:
        """The square colours as ``companion check-map`` draws them: W white, G green, K black,
        R red, B blue; a ``*`` after a square marks the Knott Yeti's roads."""
        geo, t = self.geometry, self.tags
        rows = []
        label = len(str(geo.height))
        for rank in reversed(range(geo.height)):
            cells = []
            for f in range(geo.width):
                sq = rank * geo.width + f
                c = ("B" if sq in t["blue"] else "G" if sq in t["green"] else "R" if sq in t["red"]
                     else "W" if sq in t["light"] else "K")
                cells.append(c + ("*" if sq in t["yeti"] else " "))
            rows.append(f"{rank + 1:>{label}}  " + " ".join(cells).rstrip())
        rows.append(" " * (label + 2) + "   ".join(FILES[:geo.width]))
        rows.append("colours: W white, G green (light); K black, R red (dark); B blue; * the Knott Yeti's roads")
        return "\n".join(rows) + "\n"

    def describe_effects(self, pos: Position) -> list[str]:
        """The last turn's effects in words (what to do on the board, what happened)."""
        return [describe_effect(self, e) for e in pos.var("effects", ())]

    # ----- dice fights (companion/games/fights.py; docs/rules/combat.md, "KoL Chess") -----------
    def fight_turn_over(self, pos: Position, player: int, touched, removed: bool, effects: list) -> None:
        """A fight the attacker did not win ends the turn as any turn (the Tower's count of the
        King's turns inside); a piece that left the board counts as a capture for the draw rule."""
        self._close_turn(pos, player, effects, 0 if removed else pos.var("quiet", 0) + 1)

    def fight_hand(self, pos: Position, move: Move) -> frozenset[int]:
        """While the dice roll the capture stands as made; a King stepping out of his Tower to
        capture leaves the Tower on its square."""
        occ = Rules.occupancy_after(self, pos, move)
        return occ | {move.frm} if move.special == "out" else occ

    # ----- names ------------------------------------------------------------------------------
    def move_text(self, pos: Position, move: Move) -> str:
        g = self.geometry
        return g.name_of(move.frm) + g.name_of(move.to) + SPECIAL_WORDS.get(move.special, "")

    def answer_text(self, answer: Answer) -> str:
        return str(answer.value)

    def san(self, pos: Position, move: Move) -> str:
        """The move for the move list: the piece that moves, the squares (``x`` for a capture)
        and the special move's word: ``K f1-g1 in``, ``K g1xf2 out``, ``SP e4-g4 swap``,
        ``B e1xe5``, ``GN e4xe6``."""
        g = self.geometry
        code = "K" if move.special == "out" else pos.board[move.frm].kind.code
        sep = "x" if move.capture is not None else "-"
        text = f"{code} {g.name_of(move.frm)}{sep}{g.name_of(move.to)}"
        word = SPECIAL_WORDS.get(move.special)
        return f"{text} {word}" if word else text

    # ----- position text ----------------------------------------------------------------------
    def position_text(self, pos: Position) -> str:
        """The extended format (companion/core/notation.py) with ``retreats`` (the King's
        retreats so far, per player) and ``quiet`` (plies without a capture or pawn move)."""
        keep = {}
        if any(pos.var("retreats", (0, 0))):
            keep["retreats"] = pos.var("retreats")
        if pos.var("quiet", 0):
            keep["quiet"] = pos.var("quiet")
        return format_position(pos, keep, hidden_state=("carries",))

    def position_from_text(self, text: str) -> Position:
        pos = parse_position(self, text, {"retreats": list, "quiet": int})
        retreats = pos.var("retreats", (0, 0))
        if len(retreats) != 2 or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_RETREATS
                                         for n in retreats):
            raise PositionError(_("retreats={retreats}: expected two counts from 0 to {max_retreats}, e.g. "
                                  "retreats=[1,0]").format(retreats=list(retreats), max_retreats=MAX_RETREATS))
        quiet = pos.var("quiet", 0)
        if isinstance(quiet, bool) or quiet < 0:
            raise PositionError(_("quiet={quiet!r}: expected a whole number of plies, 0 or more").format(quiet=quiet))
        for sq, piece in pos.pieces():
            for key, value in piece.state.items():
                if piece.kid != self.HELD or key not in STATE_KEYS:
                    raise PositionError(_("{title} on {square}: no state {key!r} here; only the Tower with its "
                                          "King (TK) carries turns=1 or turns=2").format(
                                            title=_(piece.kind.title), square=self.geometry.name_of(sq), key=key))
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise PositionError(_("{title} on {square}: turns={value!r}; expected 1 or 2").format(
                                            title=_(piece.kind.title), square=self.geometry.name_of(sq), value=value))
                if value > 2:  # written by versions that counted on while the King could not leave
                    pos.set_state(sq, "turns", 2)
            if piece.kid == self.HELD:
                if "turns" not in piece.state:
                    raise PositionError(_("Tower with its King on {square}: needs :turns=1 or :turns=2 (how many "
                                          "of its side's turns have ended with the King inside)").format(
                                            square=self.geometry.name_of(sq)))
                pos.set_state(sq, "carries", pos.next_uid)
                pos.next_uid += 1
        self.validate(pos, "position", game_over=True)
        return pos

    def validate(self, pos: Position, where: str, game_over: bool = False) -> None:
        """One King (or Tower with King) per side, at most one Tower, one Princess and one of
        each Legend per side, the side not to move not in check; at least one Legend each (a
        start), or for one side only (``game_over``: a position the game ended in, which a text
        may carry)."""
        names = (_("Blue"), _("Orange"))
        for p in range(2):
            counts = self._on_board(pos, p)
            kings = counts.get(self.KING, 0)
            held = sum(1 for s in pos.occ[p] if pos.board[s].kid == self.HELD)
            fallen = getattr(self, "king_may_have_fallen", False) and kings + held == 0  # lost a dice fight
            if kings + held != 1 and not fallen:
                raise PositionError(_("{where}: {side} must have exactly one King (K, or TK: the Tower with the "
                                      "King inside), found {kings}").format(
                                        where=where, side=names[p], kings=kings + held))
            for kid in sorted(self.one_each):
                if counts.get(kid, 0) > 1:
                    raise PositionError(_("{where}: {side} has {counts} of {title}; a side may have one at a "
                                          "time").format(
                                            where=where, side=names[p], counts=counts[kid],
                                            title=_(self.kinds[kid].title)))
            if not any(counts.get(k) for k in self.legends):
                if not game_over:
                    raise PositionError(_("{where}: {side} has no Legend left (the game would be over)").format(
                                            where=where, side=names[p]))
                if p == 1 and self._legends_lost(pos) == 0:
                    raise PositionError(_("{where}: neither side has a Legend left; a game ends when the first "
                                          "side loses its last one").format(where=where))
        # with dice fights an attacker that lost can leave the enemy King attacked (docs/rules/combat.md)
        if self.in_check(pos, 1 - pos.turn) and not getattr(self, "opponent_may_be_in_check", False):
            raise PositionError(_("{where}: {side} is in check but it is {other}'s turn").format(
                                    where=where, side=names[1 - pos.turn], other=names[pos.turn]))



def safe_after(rules: KolRules, pos: Position, move: Move) -> bool:
    """``Rules.is_legal`` of a plain move or a charge (its victim taken, the piece moved) without
    the rest of ``perform``: closing the turn (the Tower's count, the quiet count, a back-row trade
    offered) changes no attack on the mover's King."""
    player = pos.turn
    pos.begin()
    try:
        if move.capture is not None:
            pos.take(move.capture)
        pos.move_piece(move.frm, move.to)
        return not any(rules.is_attacked(pos, k, e) for k in pos.royals[player] for e in rules.enemies(pos, player))
    finally:
        pos.undo_frame()


def forward_steps(geo, home: str) -> list:
    """Per square: (one square forward, two squares forward or None) for a player at ``home``,
    or None at the edge."""
    dx, dy = orient(0, 1, home)
    out = []
    for sq in range(geo.size):
        f, r = sq % geo.width + dx, sq // geo.width + dy
        if not geo.on_board(f, r) or geo.is_void(r * geo.width + f):
            out.append(None)
            continue
        one = r * geo.width + f
        f2, r2 = f + dx, r + dy
        two = r2 * geo.width + f2 if geo.on_board(f2, r2) and not geo.is_void(r2 * geo.width + f2) else None
        out.append((one, two))
    return out

def _check_colours(geo, tags: dict, where: str) -> None:
    """The square colours must make sense together (docs/rules/kol.md): light and dark split the
    board; green squares are light, red ones dark; no square is two of green, red and blue."""
    name = geo.name_of
    light, dark = tags["light"], tags["dark"]
    both = light & dark
    if both:
        raise VariantError(_("{where}: tags light and dark both hold {name}; a square is one or the other").format(
                               where=where, name=name(min(both))))
    neither = [s for s in geo.playable() if s not in light and s not in dark]
    if neither:
        raise VariantError(_("{where}: {name} is in neither tag light nor tag dark; every square is one").format(
                               where=where, name=name(neither[0])))
    for colour, family in (("green", light), ("red", dark)):
        off = tags[colour] - family
        if off:
            other = "dark" if family is light else "light"
            raise VariantError(_("{where}: {colour} square {name} is {other}; green squares are light "
                                 "(white/green) and red squares dark (black/red)").format(
                                   where=where, colour=colour, name=name(min(off)), other=other))
    for a, b in (("green", "red"), ("green", "blue"), ("red", "blue")):
        common = tags[a] & tags[b]
        if common:
            raise VariantError(_("{where}: {name} is both {a} and {b}; a square has one colour").format(
                                   where=where, name=name(min(common)), a=a, b=b))


def describe_effect(rules: KolRules, e: tuple) -> str:
    """One effect tuple in plain words."""
    n = rules.geometry.name_of
    who = ("Blue", "Orange")
    kind = e[0]
    if kind == "captured":
        return f"{who[e[3]]}'s {e[2]} on {n(e[1])} is captured."
    if kind == "retreat":
        return (f"{who[e[3]]}'s King retreats from {n(e[1])} into the Tower on {n(e[2])} "
                f"(retreat {e[4]} of {MAX_RETREATS}).")
    if kind == "exit":
        return f"{who[e[3]]}'s King leaves the Tower on {n(e[1])} for {n(e[2])}."
    if kind == "swap":
        return f"{who[e[5]]}'s {e[3]} on {n(e[1])} and {e[4]} on {n(e[2])} change places."
    if kind == "charge":
        return f"{who[e[4]]}'s Gnome captures on {n(e[2])} and charges on to {n(e[3])}."
    if kind == "trade":
        return f"{who[e[4]]}'s {e[2]} on {n(e[1])} is traded for a {e[3]}."
    return repr(e)


def make(board_map=None, **options) -> KolRules:
    """KoL Chess on ``board_map`` (a map name or path; default ``kol``, our reconstruction).
    Options: quiet_moves (50; 0 = off), repetition (3; 0 = off), roster."""
    from ..maps import load_map

    allowed = {"quiet_moves", "repetition", "roster"}
    unknown = set(options) - allowed
    if unknown:
        raise VariantError(_("kol options: unknown {unknown}; allowed: {allowed}").format(
                               unknown=', '.join(sorted(unknown)), allowed=', '.join(sorted(allowed))))
    return KolRules(load_map(board_map or DEFAULT_MAP), **options)
