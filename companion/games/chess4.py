"""Four-player chess (``chess4``): four standard armies on the 14x14 cross, as chess.com plays it.

The rules are chess.com's "4 Player Chess" (its help page, docs/rules/chess4.md, where each rule
is quoted with its source and every decision is recorded). The board is data (maps/chess4.toml),
the pieces and the set-up too (maps/variants/chess4.toml); this module holds what the turn
structure adds to the movement vocabulary:

* Four players move clockwise (Red, Blue, Yellow, Green: the map's seats 1-4). A move may not
  leave one's own King attacked by any player still in the game. Kings are not captured (only a
  resigned player's King, which stays "live" on the board, and Kings in a dice fight).
* Castling on either side, en passant (each player may take a pawn that passed on its next
  turn), promotion on the 8th rank (the middle of the board: free-for-all, to a Queen worth 1
  point, ``D``) or the 11th (teams, to Q, R, B or N).
* Checkmate and stalemate happen when the player's turn comes: the player is out, its pieces
  stay on the board as dead walls (grey) that block, attack nothing and are taken for nothing.
* Free-for-all (``mode="ffa"``, the default): points (variable ``points``) for captures of live
  pieces, checkmate, being stalemated, checking two or three Kings at once, the live Kings of
  resigned players and draws; the game ends when three players are out or by a draw rule, and
  the most points win (ties share the win).
* Teams (``mode="teams"``): partners sit opposite (Red and Yellow, Blue and Green) and never
  take each other's pieces; the first team to checkmate an opponent wins; a stalemate draws.

Dice fights (``fights="dice"``, companion/games/fights.py) take their hooks from here: a piece
lost in a fight scores for the winner; a King lost in a fight puts its player out (teams: the
team loses).
"""

from __future__ import annotations

from dataclasses import replace

from ..core.compiled import relative_rank
from ..core.moves import Move, Outcome
from ..core.position import Position
from ..core.roster import load_roster
from ..core.noisy import noisy_pseudo_moves
from ..core.rules import Rules
from ..core.setup import parse_setup
from ..errors import IllegalMoveError, PositionError, VariantError
from . import chess4_text as text
from .chess import promote
from ..i18n import _

DEFAULT_MAP = "chess4"
FFA, TEAMS = "ffa", "teams"
MODES = (FFA, TEAMS)
#: "Capturing active (colored) pieces: Pawns +1, 1-point Queens +1, Knights +3, Bishops +5,
#: Rooks +5, Queens +9, Kings +20"
POINTS = {"P": 1, "D": 1, "N": 3, "B": 5, "R": 5, "Q": 9, "K": 20}
MATE_POINTS = 20       # "Checkmating an opponent: +20 points"
STALEMATE_POINTS = 20  # "Stalemating yourself +20"
DRAW_POINTS = 10       # a draw by rule: +10 to each player still in the game
LIVE_KING_POINTS = 20  # the sole survivor, for each resigned player's King still on the board
#: "Checking two players simultaneously: with a Queen: +1, otherwise +5 / Checking three players
#: simultaneously: with a Queen: +5, otherwise +20"
CHECK_POINTS = {2: (1, 5), 3: (5, 20)}
#: "Pawns will promote on your 8th rank" (free-for-all); "Pawns promote on your 11th rank" (teams)
PROMOTION_RANK = {FFA: 7, TEAMS: 10}
TEAM_PROMOTIONS = ("Q", "R", "B", "N")
#: how the game ended: the word the position text keeps (no spaces) -> the result's reason
ENDINGS = {"out": "three players out", "fifty": "fifty-move rule", "repetition": "threefold repetition",
           "material": "insufficient material", "checkmate": "checkmate", "stalemate": "stalemate",
           "resigned": "resigned", "fight": "king lost a fight"}
QUIET_PLIES = 100  # fifty moves of two-player chess: 100 plies without a capture or pawn move
REPETITIONS = 3


class Chess4Rules(Rules):
    name = "chess4"
    title = "Four-player chess"
    unhashed_vars = frozenset({"halfmove", "effects"})
    endings = ENDINGS

    def __init__(self, board_map, mode: str = FFA, roster: str = "chess4"):
        if mode not in MODES:
            raise VariantError(_("chess4 option mode={mode!r}: expected one of {modes}").format(
                                   mode=mode, modes=', '.join(MODES)))
        if board_map.players != 4:
            raise VariantError(_("four-player chess needs a map with 4 seats; {name} has {players}").format(
                                   name=board_map.name, players=board_map.players))
        self.board_map = board_map
        self.mode = mode
        self.teams = mode == TEAMS
        self.roster = load_roster(roster)
        promotions = TEAM_PROMOTIONS if self.teams else None
        kinds = [replace(k, promotes_to=promotions) if promotions and k.promotes_to else k for k in self.roster.kinds]
        super().__init__(board_map.geometry, kinds, tuple(seat.home for seat in board_map.seats))
        for code in ("P", "K", "Q", "D", "R"):
            if code not in self.kind_index:
                raise VariantError(_("{source}: four-player chess needs a piece with code {code!r}").format(
                                       source=self.roster.source, code=code))
        self.P, self.K, self.R = self.kind_index["P"], self.kind_index["K"], self.kind_index["R"]
        self.queens = frozenset((self.kind_index["Q"], self.kind_index["D"]))
        geo = self.geometry
        rank = PROMOTION_RANK[mode]
        for p, home in enumerate(self.homes):
            ck = self.compiled[self.P][p]
            zone = frozenset(s for s in range(geo.size) if not geo.is_void(s) and relative_rank(geo, s, home) == rank)
            self.compiled[self.P][p] = replace(ck, promo_squares=zone)
        self.lines = [frozenset(_lines_through(geo, sq)) for sq in range(geo.size)]
        self.castles = _castles(self, self._setup())

    # ----- set-up ---------------------------------------------------------------------------------
    def _setup(self) -> Position:
        if not self.roster.setup:
            raise VariantError(_("{source}: no [setup] grid: four-player chess needs its start position").format(
                                   source=self.roster.source))
        return parse_setup(self, self.roster.setup, self.roster.source, self.roster.setup_line)

    def start_position(self) -> Position:
        """chess.com's set-up, Red (player 1) to move, every castling right, no points."""
        pos = self._setup()
        pos.set_var("castling", tuple(sorted(r for p in range(4) for r in self.castles[p])))
        if not self.teams:
            pos.set_var("points", (0, 0, 0, 0))
        return pos

    # ----- who plays against whom -------------------------------------------------------------------
    def partner(self, player: int) -> int | None:
        return (player + 2) % 4 if self.teams else None

    def allies(self, player: int) -> frozenset[int]:
        """The players on ``player``'s side (itself, and its partner in teams)."""
        return frozenset({player, (player + 2) % 4}) if self.teams else frozenset({player})

    def active(self, pos: Position) -> list[int]:
        out = pos.var("out", ())
        return [p for p in range(pos.nplayers) if p not in out]

    def enemies(self, pos: Position, player: int) -> list[int]:
        out = pos.var("out", ())
        mate = self.partner(player)
        return [p for p in range(pos.nplayers) if p != player and p != mate and p not in out]

    def is_over(self, pos: Position) -> bool:
        return pos.var("ended") is not None

    # ----- moves ----------------------------------------------------------------------------------
    def pseudo_moves(self, pos: Position, player: int, squares=None) -> list[Move]:
        return self._spare_partner(pos, player, super().pseudo_moves(pos, player, squares))

    def _spare_partner(self, pos: Position, player: int, moves: list[Move]) -> list[Move]:
        """In teams, no capture of the partner's pieces."""
        if self.teams:
            board, mate = pos.board, self.partner(player)
            moves = [m for m in moves if m.capture is None or board[m.capture].owner != mate]
        return moves

    def noisy_moves(self, pos: Position) -> list[Move]:
        """The legal captures and promotions without the quiet moves (core/noisy.py): the
        vocabulary's and en passant (castling is neither)."""
        if pos.pending is not None or self.is_over(pos):
            return []
        player = pos.turn
        moves = noisy_pseudo_moves(self, pos, player)
        self._en_passant_moves(pos, player, moves)
        return self._legal(pos, self._spare_partner(pos, player, moves), first=False)

    def extra_moves(self, pos: Position, player: int, out: list[Move]) -> None:
        self._castling_moves(pos, player, out)
        self._en_passant_moves(pos, player, out)

    def _castling_moves(self, pos: Position, player: int, out: list[Move]) -> None:
        rights = pos.var("castling", ())
        if not rights:
            return
        board = pos.board
        foes = self.enemies(pos, player)
        for rook_sq, (king, king_to, rook_to, empty, safe) in self.castles[player].items():
            if rook_sq not in rights or any(board[s] is not None for s in empty):
                continue
            if any(self.is_attacked(pos, s, e) for s in safe for e in foes):
                continue
            out.append(Move(king, king_to, None, None, "castle"))

    def _en_passant_moves(self, pos: Position, player: int, out: list[Move]) -> None:
        """Each other player's pawn that passed a square on its last move may be taken there by
        ``player``'s pawns on ``player``'s next turn (chess.com: one chance each)."""
        eps = pos.var("ep")
        if not eps:
            return
        board = pos.board
        mate = self.partner(player)
        ck = self.compiled[self.P][player]
        pawns = [s for s in pos.occ[player] if board[s].kid == self.P]
        for owner, entry in enumerate(eps):
            if entry is None or owner == player or owner == mate:
                continue
            target, passed = entry
            victim = board[passed]
            if board[target] is not None or victim is None or victim.owner != owner or victim.kid != self.P:
                continue
            start = len(out)
            for s in pawns:
                if target in ck.leaps_capture[s]:
                    out.append(Move(s, target, passed, None, "ep"))
            if ck.promo_squares and target in ck.promo_squares:
                self._expand_promotions(out, start, ck.promo_squares, self.kinds[self.P].promotes_to)

    def legal_moves(self, pos: Position) -> list[Move]:
        if pos.pending is not None or self.is_over(pos):
            return []
        return self._legal(pos, self.pseudo_moves(pos, pos.turn), first=False)

    def has_legal_move(self, pos: Position) -> bool:
        return bool(self._legal(pos, self.pseudo_moves(pos, pos.turn), first=True))

    def _legal(self, pos: Position, pseudo: list[Move], first: bool) -> list[Move]:
        """The pseudo moves that take no King of a player still in the game and leave the
        mover's King unattacked. Without check, a move of another piece from a square off every
        line through the King cannot expose it (leaps are never blocked)."""
        me = pos.turn
        board = pos.board
        kings = pos.royals[me]
        out_players = pos.var("out", ())
        live = lambda sq: board[sq].kind.royal and board[sq].owner not in out_players  # noqa: E731
        lines = None
        if len(kings) == 1:
            (k,) = kings
            if not any(self.is_attacked(pos, k, e) for e in self.enemies(pos, me)):
                lines = self.lines[k]
        out = []
        for m in pseudo:
            if m.capture is not None and live(m.capture):
                continue
            if lines is not None and m.frm not in lines and m.special != "ep" and not board[m.frm].kind.royal:
                ok = True
            else:
                ok = self.is_legal(pos, m)
            if ok:
                out.append(m)
                if first:
                    return out
        return out

    def is_legal(self, pos: Position, move: Move) -> bool:
        """After the move's pieces have moved, no player still in the game attacks the mover's King."""
        me = pos.board[move.frm].owner if move.frm >= 0 and pos.board[move.frm] is not None else pos.turn
        pos.begin()
        try:
            if move.special == "castle":
                rook_from, rook_to = self._castle_rook(move)
                pos.move_piece(move.frm, move.to)
                pos.move_piece(rook_from, rook_to)
            else:
                if move.capture is not None:
                    pos.take(move.capture)
                pos.move_piece(move.frm, move.to)
            foes = self.enemies(pos, me)
            return not any(self.is_attacked(pos, k, e) for k in pos.royals[me] for e in foes)
        finally:
            pos.undo_frame()

    def _castle_rook(self, move: Move) -> tuple[int, int]:
        for player in range(4):
            for rook_sq, (king, king_to, rook_to, _e, _s) in self.castles[player].items():
                if king == move.frm and king_to == move.to:
                    return rook_sq, rook_to
        raise IllegalMoveError(_("{move_text} is not a castling").format(move_text=self.move_text(None, move)))

    # ----- making moves ---------------------------------------------------------------------------
    def perform(self, pos: Position, move: Move) -> None:
        board = pos.board
        me = pos.turn
        piece = board[move.frm]
        effects: list = []
        halfmove = pos.var("halfmove", 0) + 1
        self._set_ep(pos, me, None)
        before = self._checked(pos, me) if not self.teams else ()
        touched = [move.frm, move.to]
        if move.special == "castle":
            rook_from, rook_to = self._castle_rook(move)
            pos.move_piece(move.frm, move.to)
            pos.move_piece(rook_from, rook_to)
            touched.append(rook_from)
        else:
            if move.capture is not None:
                self._capture(pos, move.capture, me, effects)
                touched.append(move.capture)
                halfmove = 0
            pos.move_piece(move.frm, move.to)
            if move.promotion:
                promote(pos, move.to, move.promotion)
            if piece.kid == self.P:
                halfmove = 0
                g = self.geometry
                dx, dy = g.file_of(move.to) - g.file_of(move.frm), g.rank_of(move.to) - g.rank_of(move.frm)
                if move.capture is None and max(abs(dx), abs(dy)) == 2 and min(abs(dx), abs(dy)) == 0:
                    self._set_ep(pos, me, ((move.frm + move.to) // 2, move.to))
        self._lose_castling(pos, touched)
        if not self.teams:
            self._check_bonus(pos, me, before, effects)
        self.close(pos, me, effects, halfmove)

    def _capture(self, pos: Position, sq: int, by: int, effects: list) -> None:
        """Take the piece on ``sq`` for ``by``: points for a live piece (free-for-all), a King of a
        player still in the game (lost in a dice fight) puts that player out."""
        victim = pos.take(sq)
        effects.append(("captured", sq, victim.kind.title, victim.owner))
        owner = victim.owner
        out = pos.var("out", ())
        if not self.teams:
            worth = 0
            if owner not in out:
                worth = POINTS.get(victim.kind.code, 0)
            elif victim.kind.royal and owner in pos.var("resigned", ()):
                worth = LIVE_KING_POINTS
                pos.set_var("resigned", tuple(p for p in pos.var("resigned", ()) if p != owner) or None)
            self._score(pos, by, worth, "capture", effects)
        if victim.kind.royal and owner not in out:
            if self.teams:
                self._end(pos, "fight", frozenset(self.allies(by)))
            else:
                self._put_out(pos, owner, "king_lost", effects)

    def _score(self, pos: Position, player: int, worth: int, why: str, effects: list) -> None:
        if worth and not self.teams:
            points = list(pos.var("points", (0, 0, 0, 0)))
            points[player] += worth
            pos.set_var("points", tuple(points))
            effects.append(("points", player, worth, why))

    def _checked(self, pos: Position, player: int) -> frozenset[int]:
        """The Kings of players still in the game that ``player`` attacks."""
        return frozenset(k for e in self.enemies(pos, player) for k in pos.royals[e] if self.is_attacked(pos, k, player))

    def _check_bonus(self, pos: Position, me: int, before, effects: list) -> None:
        """Points for checking two or three Kings at once (at least one of them by this move);
        the Queen's rate when every piece giving those checks is a Queen."""
        now = self._checked(pos, me)
        if len(now) < 2 or not (now - before):
            return
        board = pos.board
        queens = all(board[a].kid in self.queens for k in now for a in self.attackers(pos, k, me))
        self._score(pos, me, CHECK_POINTS[min(len(now), 3)][0 if queens else 1], "checks", effects)

    def _set_ep(self, pos: Position, player: int, entry) -> None:
        eps = pos.var("ep")
        if eps is None and entry is None:
            return
        eps = list(eps or (None,) * 4)
        if eps[player] == entry:
            return
        eps[player] = entry
        pos.set_var("ep", tuple(eps) if any(e is not None for e in eps) else None)

    def _lose_castling(self, pos: Position, touched) -> None:
        rights = pos.var("castling", ())
        if not rights:
            return
        kept = []
        for r in rights:
            player = next(p for p in range(4) if r in self.castles[p])
            king = self.castles[player][r][0]
            if r not in touched and king not in touched:
                kept.append(r)
        if len(kept) != len(rights):
            pos.set_var("castling", tuple(kept) or None)

    def close(self, pos: Position, player: int, effects: list, halfmove: int) -> None:
        """After ``player``'s turn: the move counter, the next player still in the game, whose
        turn may end it (checkmate, stalemate), the draw rules, the effects to show."""
        pos.set_var("halfmove", halfmove)
        if not self.is_over(pos):
            nxt = self.next_player(pos)
            for skipped in _between(player, nxt):  # a player out passes its turn: its chance is gone
                self._set_ep(pos, skipped, None)
            pos.set_turn(nxt)
            self._reach_turn(pos, effects)
        if not self.is_over(pos):
            self._draw_rules(pos, effects)
        pos.set_var("effects", tuple(effects))

    def _reach_turn(self, pos: Position, effects: list) -> None:
        """"Checkmate only happens when the checkmated player's turn is reached": the player to
        move without a legal move is checkmated (in check) or stalemated, and is out; then the
        next one's turn is reached in the same way."""
        while not self.is_over(pos):
            if len(self.active(pos)) <= 1:
                self._finish(pos, "out", effects)
                return
            p = pos.turn
            if self.has_legal_move(pos):
                return
            if self.in_check(pos, p):
                if self.teams:
                    self._end(pos, "checkmate", frozenset(self.enemies(pos, p)))
                    return
                self._score(pos, self._mater(pos, p), MATE_POINTS, "checkmate", effects)
                self._put_out(pos, p, "checkmated", effects)
            else:
                if self.teams:
                    self._end(pos, "stalemate", frozenset())
                    return
                self._score(pos, p, STALEMATE_POINTS, "stalemate", effects)
                self._put_out(pos, p, "stalemated", effects)
            self._set_ep(pos, p, None)
            pos.set_turn(self.next_player(pos))

    def _mater(self, pos: Position, player: int) -> int:
        """Who checkmated ``player``: of the players attacking its King, the last to have moved."""
        (k,) = pos.royals[player]
        attackers = [e for e in self.enemies(pos, player) if self.is_attacked(pos, k, e)]
        for back in range(1, 4):
            q = (player - back) % 4
            if q in attackers:
                return q
        return attackers[0]

    def _put_out(self, pos: Position, player: int, how: str, effects: list) -> None:
        """``player`` leaves the game; its pieces stay on the board, dead."""
        if player in pos.var("out", ()):
            return
        pos.set_var("out", tuple(sorted(pos.var("out", ()) + (player,))))
        effects.append((how, player, ()))

    def _draw_rules(self, pos: Position, effects: list) -> None:
        if pos.var("halfmove", 0) >= QUIET_PLIES:
            self._finish(pos, "fifty", effects, draw=True)
        elif 1 + sum(1 for h in pos.history if h == pos.hash) >= REPETITIONS:
            self._finish(pos, "repetition", effects, draw=True)
        elif all(len(pos.occ[p]) == len(pos.royals[p]) for p in self.active(pos)):
            self._finish(pos, "material", effects, draw=True)

    def _finish(self, pos: Position, ending: str, effects: list, draw: bool = False) -> None:
        """The game ends (free-for-all): +10 each to the players left after a draw by rule; the
        sole survivor +20 for each resigned player's King still on the board."""
        active = self.active(pos)
        if self.teams:
            self._end(pos, ending, frozenset())
            return
        if draw:
            for p in active:
                self._score(pos, p, DRAW_POINTS, "draw", effects)
        elif len(active) == 1:
            kings = sum(1 for p in pos.var("resigned", ()) if pos.royals[p])
            self._score(pos, active[0], LIVE_KING_POINTS * kings, "live kings", effects)
        pos.set_var("ended", ending)

    def _end(self, pos: Position, ending: str, winners: frozenset) -> None:
        """Teams: the game is over (``winners`` the winning team, empty for a draw)."""
        pos.set_var("ended", ending)
        pos.set_var("winners", tuple(sorted(winners)) or None)

    def resign(self, pos: Position, player: int) -> None:
        """``player`` resigns: free-for-all, it is out and its army dead, but its King stays live
        (capturable for +20) and never moves; teams, its team loses. One undo step."""
        if player in pos.var("out", ()) or self.is_over(pos):
            raise IllegalMoveError(_("player {player} is not in the game").format(player=player + 1))
        pos.begin()
        try:
            pos.record_history()
            effects: list = [("resigned", player, ())]
            if self.teams:
                self._end(pos, "resigned", frozenset(self.enemies(pos, player)))
            else:
                pos.set_var("resigned", tuple(sorted(pos.var("resigned", ()) + (player,))))
                self._put_out(pos, player, "resigned", [])
                self._set_ep(pos, player, None)
                if pos.turn == player:
                    pos.set_turn(self.next_player(pos))
                self._reach_turn(pos, effects)
            pos.set_var("effects", tuple(effects))
        except BaseException:
            pos.undo_frame()
            raise

    # ----- dice fights (companion/games/fights.py; docs/rules/combat.md, "Four-player chess") -------
    def fight_lost(self, pos: Position, sq: int, winner_sq: int, effects: list) -> bool:
        """The attacker that lost is taken by the defender: points to the defender's player, and a
        King lost so puts its player out (teams: its team loses)."""
        self._capture(pos, sq, pos.board[winner_sq].owner, effects)
        return True

    def fight_turn_over(self, pos: Position, player: int, touched, removed: bool, effects: list) -> None:
        self._set_ep(pos, player, None)
        self._lose_castling(pos, touched)
        self.close(pos, player, effects, 0 if removed else pos.var("halfmove", 0) + 1)

    # ----- the end --------------------------------------------------------------------------------
    def outcome(self, pos: Position, claim_draw: bool = True) -> Outcome | None:
        if pos.pending is not None:
            return None
        ended = pos.var("ended")
        if ended is None:
            return None
        reason = ENDINGS.get(ended, ended)
        if self.teams:
            return Outcome(frozenset(pos.var("winners", ())), reason)
        points = pos.var("points", (0, 0, 0, 0))
        top = max(points)
        return Outcome(frozenset(p for p in range(4) if points[p] == top), reason)

    def draw_clock(self, pos: Position) -> tuple[int, int] | None:
        return pos.var("halfmove", 0), QUIET_PLIES

    def occupancy_after(self, pos: Position, move: Move) -> frozenset[int]:
        """Castling moves the rook too; everything else as the engine's default."""
        occ = super().occupancy_after(pos, move)
        if move.special == "castle":
            rook_from, rook_to = self._castle_rook(move)
            occ = (occ - {rook_from}) | {rook_to}
        return occ

    def describe_turn(self, pos: Position) -> list[str]:
        """What the last turn did besides moving a piece, in words (points, players out)."""
        return text.describe_turn(self, pos)

    # ----- names and texts ------------------------------------------------------------------------
    def san(self, pos: Position, move: Move) -> str:
        return text.san(self, pos, move)

    def position_text(self, pos: Position) -> str:
        return text.format_chess4(self, pos)

    def position_from_text(self, value: str) -> Position:
        return text.parse_chess4(self, value)


def _between(player: int, nxt: int) -> list[int]:
    """The seats strictly between ``player`` and ``nxt`` going round the table."""
    out, p = [], (player + 1) % 4
    while p != nxt and p != player:
        out.append(p)
        p = (p + 1) % 4
    return out


def _lines_through(geo, sq: int):
    """The squares on the 8 lines from ``sq`` to the board's edge (void included)."""
    f0, r0 = geo.file_of(sq), geo.rank_of(sq)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
        x, y = f0 + dx, r0 + dy
        while geo.on_board(x, y):
            yield y * geo.width + x
            x += dx
            y += dy


def _castles(rules: Chess4Rules, start: Position) -> list[dict[int, tuple]]:
    """Per player, per rook of the set-up on its King's rank: (King's square, where the King
    goes, where the rook goes, the squares that must be empty, the squares the King stands on
    or crosses, which must not be attacked): the King moves two squares toward the rook, the
    rook to the square the King crossed, as in chess."""
    geo = rules.geometry
    out: list[dict[int, tuple]] = []
    for p in range(4):
        kings = [s for s in start.occ[p] if start.board[s].kid == rules.K]
        if len(kings) != 1:
            raise VariantError(_("{source} [setup]: player {p} needs one King").format(
                                   source=rules.roster.source, p=p + 1))
        (k,) = kings
        table = {}
        home = relative_rank(geo, k, rules.homes[p])
        for r in start.occ[p]:
            if start.board[r].kid != rules.R or relative_rank(geo, r, rules.homes[p]) != home:
                continue
            step = _unit(geo, k, r)
            if step is None:
                continue
            path = []
            s = k + step
            while s != r:
                path.append(s)
                s += step
            if len(path) < 2:
                continue
            table[r] = (k, k + 2 * step, k + step, tuple(path), (k, k + step, k + 2 * step))
        out.append(table)
    return out


def _unit(geo, a: int, b: int) -> int | None:
    """The one-square step from ``a`` toward ``b`` along their rank or file (None: not in line)."""
    dx, dy = geo.file_of(b) - geo.file_of(a), geo.rank_of(b) - geo.rank_of(a)
    if dx and dy:
        return None
    return (dx > 0) - (dx < 0) + ((dy > 0) - (dy < 0)) * geo.width


def make(board_map=None, mode: str = FFA, **options) -> Chess4Rules:
    """Four-player chess on ``board_map`` (default ``chess4``). Options: mode ("ffa", the
    default, or "teams"), players (4 only), roster."""
    from ..maps import load_map

    players = options.pop("players", None)
    if players is not None and players != 4:
        raise VariantError(_("four-player chess is played by 4 players, got {players!r}").format(players=players))
    unknown = set(options) - {"roster"}
    if unknown:
        raise VariantError(_("chess4 options: unknown {unknown}; allowed: mode, players, roster").format(
                               unknown=', '.join(sorted(unknown))))
    return Chess4Rules(load_map(board_map or DEFAULT_MAP), mode=mode, **options)


__all__ = ["Chess4Rules", "FFA", "TEAMS", "POINTS", "make", "PositionError"]
