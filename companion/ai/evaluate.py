"""Static evaluation for any game, from its piece data and its evaluation table.

Everything that depends only on (kind, owner, square) is folded into two tables at start-up,
middlegame and endgame, so scoring a position is one pass over the pieces:

* material: ``kind.value``, or ``kind.cost`` x ``xp_value`` for games that price pieces in XP
  (Dungeon Chess), or the table's ``[values]``; royal pieces count nothing (losing one ends
  the game, which the search sees);
* a piece-square table when the table gives one for the kind (FIDE chess); otherwise terms
  computed from the movement data on the real map: mobility = how many squares the piece
  reaches from there on the empty board (so water, void and edges count against a square:
  that is the terrain awareness), closeness to the centre, and for pawn-like pieces (those
  that promote) progress toward promotion worth a share of the promotion gain.

Then, per position: live mobility and the attack on each enemy royal (``piece_mobility``,
``king_attack``: the squares pieces reach now, from the compiled movement tables), pawn structure (doubled, isolated, passed; along each owner's forward
axis), pairs, open lines, piece state (fatigue lowers a piece's value by the table's share per
point), king safety (own pieces around a royal piece, enemy pieces near it; middlegame), and
in a won endgame a push of the lone enemy royal to the edge. When one side leads by
``hunt_lead`` of material, a king hunt (two players; off unless the table sets it): its pieces
earn ``king_hunt`` per step closer to the enemy royal, and each square that royal could step
to safely costs ``king_box`` (a game won only by taking the King must go and take it). Against
royal pieces left alone (a bare King) the hunt runs whatever the lead, and the hunter's own royal
joins it. Middlegame and endgame scores are blended by the phase (how much non-pawn material is
left).

Scores are per player; :meth:`Evaluator.evaluate` gives one player's view: its score minus the
opponents' total divided by (players - 1), an eliminated player counting nothing (the paranoid
view used by the search; with two players it is plain "mine minus theirs").
"""

from __future__ import annotations

from ..core.compiled import relative_rank
from ..core.pieces import Piece
from ..core.position import Position, splitmix64
from .eval_table import EvalTable, table_for
from .eval_terms import _OFFICER, _PAWN, _ROYAL, PositionTerms
from ..i18n import _

_CACHE_LIMIT = 200_000


class Evaluator(PositionTerms):
    """Per-(rules, table) precomputed tables and the evaluation function."""

    def __init__(self, rules, table: EvalTable | None = None):
        self.rules = rules
        self.table = table or table_for(rules)
        t = self.table
        geo = rules.geometry
        self.geometry = geo
        self.nplayers = rules.nplayers
        self.allies = getattr(rules, "allies", None)  # a team game: the players on one side
        homes = tuple(getattr(rules, "homes", ("south", "north", "west", "east")[: rules.nplayers]))
        self.homes = homes
        kinds = rules.kinds
        n = geo.size
        w, h = geo.width, geo.height
        self.file = [s % w for s in range(n)]
        self.rank = [s // w for s in range(n)]
        # piece values
        vals = []
        for k in kinds:
            v = t.values.get(k.code)
            if v is None:
                v = float(k.value) if k.value else float(k.cost) * t.xp_value
            # royal pieces count nothing (losing one ends the game, which the search sees),
            # unless the table gives them a value (Chess 2's second Warrior King)
            vals.append(v if k.code in t.values else (0.0 if k.royal else v))
        self.values = vals
        top = max(vals) if vals else 100.0
        #: for move ordering (most valuable victim): a royal counts more than anything
        self.order_values = [(top * 2 + 100 if k.royal else v) for k, v in zip(kinds, vals)]
        #: kinds that change on the far rank: by promotion, or by a decision the table names
        #: with its gain (KoL's back-row trades: ``[far_rank_gain]``)
        self.far_gain = {rules.kind_index[c]: g for c, g in t.far_rank_gain.items() if c in rules.kind_index}
        self.pawnlike = frozenset(i for i, k in enumerate(kinds)
                                  if (k.promotes_to or i in self.far_gain) and not k.royal)
        self.royal = frozenset(i for i, k in enumerate(kinds) if k.royal)
        self.phase_weight = [0.0 if (i in self.pawnlike or k.royal) else t.phase.get(k.code, vals[i])
                             for i, k in enumerate(kinds)]
        self.pair = {rules.kind_index[c]: b for c, b in t.pair.items() if c in rules.kind_index}
        self.open_line = {rules.kind_index[c]: b for c, b in t.open_line.items() if c in rules.kind_index}
        self.penalty = dict(t.state_penalty)
        cx, cy = (w - 1) / 2, (h - 1) / 2
        self.centre_dist = [max(abs(s % w - cx), abs(s // w - cy)) for s in range(n)]
        self.max_centre = max(self.centre_dist) if n else 1
        # tables
        self.mg: list[list[list[float]]] = []
        self.eg: list[list[list[float]]] = []
        for kid, k in enumerate(kinds):
            per_mg, per_eg = [], []
            for owner in range(self.nplayers):
                mg, eg = self._square_values(kid, k, owner, homes[owner])
                per_mg.append(mg)
                per_eg.append(eg)
            self.mg.append(per_mg)
            self.eg.append(per_eg)
        # the per-position pass reads these: each player's tables by kind, and each kind's role
        self._mg_of = [[self.mg[k][p] for k in range(len(kinds))] for p in range(self.nplayers)]
        self._eg_of = [[self.eg[k][p] for k in range(len(kinds))] for p in range(self.nplayers)]
        #: each kind's role: 0 pawn-like, 1 royal, 2 any other piece
        self.role = self._role = [_PAWN if i in self.pawnlike else _ROYAL if i in self.royal else _OFFICER
                                  for i in range(len(kinds))]
        self.phase_full = t.phase_material or self._start_phase_material()
        self.draw_fade = float(t.draw_fade)
        #: rules.goal_zone(player): squares a royal piece wins on (Chess 2's Midline Invasion)
        self.goal_zone = getattr(rules, "goal_zone", None)
        self._cache: dict[int, tuple] = {}
        self._pawn_cache: dict[int, tuple] = {}
        self._pawn_keys = [[splitmix64((p + 1) * 1_000_003 + sq) for sq in range(n)] for p in range(self.nplayers)]
        self.neighbours = [tuple(s2 for s2 in range(max(0, sq - w - 1), min(n, sq + w + 2))
                                 if geo.distance(sq, s2) == 1) for sq in range(n)]
        #: squares on a rank, file or diagonal from each square, or a knight's jump away (the
        #: search asks the engine whether a quiet move gives check only for moves to or from these)
        steps = ((1, 0), (0, 1), (1, 1), (1, -1), (-1, 0), (0, -1), (-1, -1), (-1, 1))
        jumps = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
        self.lines = [frozenset(sq + k * dx + k * dy * w for dx, dy in steps for k in range(1, max(w, h))
                                if 0 <= sq % w + k * dx < w and 0 <= sq // w + k * dy < h)
                      | frozenset(sq + dx + dy * w for dx, dy in jumps if 0 <= sq % w + dx < w and 0 <= sq // w + dy < h)
                      for sq in range(n)]
        self._activity_tables(kinds)
        self._threat_tables()

    # ----- precomputation ----------------------------------------------------------------------
    def _reach(self, kid: int, owner: int) -> list[int]:
        """Squares the kind reaches from each square on the empty board (0 on void)."""
        rules, geo = self.rules, self.geometry
        code = rules.kinds[kid].code
        out = [0] * geo.size
        for sq in geo.playable():
            pos = rules.new_position()
            pos.put(sq, pos.new_piece(code, owner))
            out[sq] = len(rules.pseudo_moves(pos, owner))
        return out

    def _square_values(self, kid: int, kind, owner: int, home: str) -> tuple[list[float], list[float]]:
        t, geo = self.table, self.geometry
        n = geo.size
        base = self.values[kid]
        grids = t.pst.get(kind.code)
        if grids is not None:
            mg_grid, eg_grid = grids
            if (len(mg_grid), len(mg_grid[0])) != (geo.height, geo.width) and home in ("south", "north"):
                from ..errors import VariantError
                raise VariantError(_("{source}: [pst.{code}] is {n}x{n2}, the board is {width}x{height}").format(
                                       source=t.source, code=kind.code, n=len(mg_grid[0]), n2=len(mg_grid),
                                       width=geo.width, height=geo.height))
            mg, eg = [base] * n, [base] * n
            for sq in range(n):
                cell = self._cell(sq, home, len(mg_grid[0]), len(mg_grid))
                if cell is None:
                    continue
                r, f = cell
                mg[sq] = base + mg_grid[r][f]
                eg[sq] = base + eg_grid[r][f]
            return mg, eg
        reach = self._reach(kid, owner)
        playable = [r for s, r in enumerate(reach) if not geo.is_void(s)]
        mean = sum(playable) / len(playable) if playable else 0.0
        mg, eg = [base] * n, [base] * n
        gain = 0.0
        if kid in self.far_gain:
            gain = self.far_gain[kid]
        elif kid in self.pawnlike:
            gain = max(self.values[self.rules.kind_index[c]] for c in kind.promotes_to) - base
        last = (geo.height if home in ("south", "north") else geo.width) - 1
        for sq in range(n):
            if geo.is_void(sq):
                continue
            mob = t.mobility * (reach[sq] - mean)
            central = t.centre * (self.max_centre - self.centre_dist[sq])
            if kind.royal:
                mg[sq] = base - central  # a royal piece hides in the middlegame ...
                eg[sq] = base + mob + 2 * central  # ... and walks to the centre in the endgame
                continue
            adv = 0.0
            if gain > 0:
                progress = relative_rank(geo, sq, home) / last
                adv = t.advance * gain * progress * progress
            mg[sq] = base + mob + central + adv
            eg[sq] = base + mob + central + 2 * adv
        return mg, eg

    def _cell(self, sq: int, home: str, gw: int, gh: int) -> tuple[int, int] | None:
        """Row (0 = the owner's far rank) and column of ``sq`` in an owner-relative grid."""
        f, r = self.file[sq], self.rank[sq]
        w, h = self.geometry.width, self.geometry.height
        if home == "south":
            rel_r, rel_f = r, f
        elif home == "north":
            rel_r, rel_f = h - 1 - r, f  # mirrored like chess (a1 and a8 on the same side)
        elif home == "west":
            rel_r, rel_f = f, h - 1 - r
        else:
            rel_r, rel_f = w - 1 - f, r
        if rel_r >= gh or rel_f >= gw:
            return None
        return gh - 1 - rel_r, rel_f

    def _start_phase_material(self) -> float:
        start = getattr(self.rules, "start_position", None)
        if start is None:
            return 0.0
        try:
            pos = start()
        except Exception:  # a game that needs a draft or setup first: fall back to the first position seen
            return 0.0
        return self._phase_material(pos)

    def _phase_material(self, pos: Position) -> float:
        pw = self.phase_weight
        return sum(pw[pos.board[s].kid] for occ in pos.occ for s in occ)

    # ----- values ------------------------------------------------------------------------------------
    def piece_value(self, piece: Piece) -> float:
        """Material value of one piece, lowered by its state (fatigue ...)."""
        v = self.values[piece.kid]
        if piece.state and v:
            v -= self._state_penalty(piece, v)
        return v

    def _state_penalty(self, piece: Piece, value: float) -> float:
        share = 0.0
        for key, amount in piece.state.items():
            pen = self.penalty.get(key)
            if pen is not None and isinstance(amount, int) and amount > 0:
                share += min(pen.max, pen.per_point * amount)
        return value * min(share, 1.0)

    def material(self, pos: Position, player: int) -> float:
        """Material only, from ``player``'s side (as :meth:`evaluate` weighs the opponents)."""
        totals = [sum(self.piece_value(pos.board[s]) for s in occ) for occ in pos.occ]
        return self._view(pos, totals, player)

    def _view(self, pos: Position, totals, player: int) -> float:
        """Mine minus the opponents' total over (players - 1): an eliminated opponent counts
        nothing, so knocking one out is always good for the viewer. In a team game (the rules'
        ``allies``) the partner's count as mine, the opponents' each in full."""
        out = pos.vars.get("out", ())
        if self.allies is not None:
            side = self.allies(player)
            if len(side) > 1:
                mine = sum(totals[q] for q in side)
                others = sum(totals[q] for q in range(pos.nplayers) if q not in side and q not in out)
                return mine - others * len(side) / (pos.nplayers - len(side))
        others = sum(totals[q] for q in range(pos.nplayers) if q != player and q not in out)
        return totals[player] - others / (pos.nplayers - 1)

    def evaluate(self, pos: Position, player: int) -> float:
        """The position from ``player``'s side, in centipawns, faded toward a draw as the
        game's draw clock runs out (:meth:`fade`)."""
        return self._seen_by(pos, self.scores(pos), player)

    def _seen_by(self, pos: Position, s, player: int) -> float:
        v = self._view(pos, s, player)
        v = v + self.table.tempo if pos.turn == player else v - self.table.tempo
        return v * self.fade(pos) if self.draw_fade else v

    def evaluate_lazy(self, pos: Position, player: int, lo: float, hi: float, margin: float) -> float:
        """:meth:`evaluate`, or, when the position scored without the live mobility and
        king-attack terms is more than ``margin`` outside (``lo``, ``hi``), that score: the
        live terms cannot bring it back inside (in chess they stay within +-62 centipawns in
        99.5% of searched positions), and walking every piece's rays is the costliest part of
        an evaluation. The search's capture search stands pat on it (lazy evaluation)."""
        key = pos.hash
        s = self._cache.get(key)
        if s is None:
            parts = self._parts(pos)
            if self.live and margin > 0:
                mgs, egs, phase, extra = parts[:4]
                base = [mgs[p] * phase + egs[p] * (1.0 - phase) + extra[p] for p in range(pos.nplayers)]
                v = self._seen_by(pos, base, player)
                if v - margin >= hi or v + margin <= lo:
                    return v
            s = self._finish(pos, key, parts)
        return self._seen_by(pos, s, player)

    def fade(self, pos: Position) -> float:
        """1, or less once the game's draw clock (``rules.draw_clock``: the fifty-move rule, the
        quiet-move rule) has run past ``draw_fade`` of its limit: down to 0 when it runs out. A
        lead that nothing turns into progress is worth less and less, so the side ahead takes
        the capture or pawn move that resets the clock before the rule calls the game drawn,
        and the side behind is content to wait."""
        clock = self.rules.draw_clock(pos)
        if clock is None:
            return 1.0
        count, limit = clock
        start = limit * self.draw_fade
        if count <= start:
            return 1.0
        return max(0.0, (limit - count) / (limit - start))

    def scores(self, pos: Position) -> tuple[float, ...]:
        """Each player's score (material and position), cached by position hash."""
        key = pos.hash
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        return self._finish(pos, key, self._parts(pos))

    def _parts(self, pos: Position):
        """Everything but the live terms: per player the middlegame and endgame sums, the
        phase, the other terms (``extra``), and the pieces by role (the live terms walk them)."""
        if not self.phase_full:
            self.phase_full = self._phase_material(pos) or 1.0
        board = pos.board
        n = pos.nplayers
        pw, role, pkeys = self.phase_weight, self._role, self._pawn_keys
        open_line, pair = self.open_line, self.pair
        mgs = [0.0] * n
        egs = [0.0] * n
        mats = [0.0] * n
        fulls = [0.0] * n
        vals = self.values
        pawns: list[list[int]] = [[] for _ in range(n)]
        royals: list[list[int]] = [[] for _ in range(n)]
        officers: list[list[int]] = [[] for _ in range(n)]
        liners: list[list[tuple[int, float]]] = [[] for _ in range(n)]
        counts: list[dict[int, int]] = [{} for _ in range(n)]
        phase_mat = 0.0
        pawn_key = 0
        for p in range(n):
            m = e = mat = full = 0.0
            cnt = counts[p]
            keys = pkeys[p]
            mgp, egp = self._mg_of[p], self._eg_of[p]
            mine_p, royals_p, officers_p = pawns[p], royals[p], officers[p]
            for sq in pos.occ[p]:
                pc = board[sq]
                k = pc.kid
                m += mgp[k][sq]
                e += egp[k][sq]
                mat += pw[k]
                full += vals[k]
                if pc.state:
                    pen = self._state_penalty(pc, vals[k])
                    m -= pen
                    e -= pen
                r = role[k]
                if r == _PAWN:
                    mine_p.append(sq)
                    pawn_key ^= keys[sq]
                elif r == _ROYAL:
                    royals_p.append(sq)
                else:
                    officers_p.append(sq)
                    if k in open_line:
                        liners[p].append((sq, open_line[k]))
                if k in pair:
                    cnt[k] = cnt.get(k, 0) + 1
            mgs[p], egs[p], mats[p], fulls[p] = m, e, mat, full
            phase_mat += mat
        phase = min(1.0, phase_mat / self.phase_full)
        t = self.table
        structure = self._pawn_cache.get(pawn_key)
        if structure is None:
            structure = self._pawn_structure(pos, pawns)
            if len(self._pawn_cache) < _CACHE_LIMIT // 4:  # full: trim() empties it between moves
                self._pawn_cache[pawn_key] = structure
        lines, pawn_scores = structure
        extra = list(pawn_scores)
        for p in range(n):
            cnt = counts[p]
            for kid, bonus in self.pair.items():
                if cnt.get(kid, 0) >= 2:
                    extra[p] += bonus
            if liners[p]:
                home, own = self.homes[p], lines[p]
                for sq, bonus in liners[p]:
                    if not (own >> self._line_of(sq, home)) & 1:
                        extra[p] += bonus
            if phase > 0 and royals[p]:
                extra[p] += phase * self._king_safety(pos, p, royals[p], officers)
        if self._threat:
            self._threats(pos, extra)
        if phase < 0.6 and t.mop_up:
            self._mop_up(pos, mats, pawns, royals, extra, 1.0 - phase)
        if n == 2 and (t.king_hunt or t.king_box or t.bare_trap):
            self._king_hunt(pos, fulls, royals, officers, pawns, extra)
        if self.goal_zone is not None and t.goal:
            self._goal(pos, royals, extra)
        for var, worth in self.table.counter.items():
            counts = pos.vars.get(var)
            if counts is not None:
                top = len(worth) - 1
                for p in range(n):
                    extra[p] += worth[min(counts[p], top)]
        if n > 2:
            gone = pos.vars.get("out", ())
            for p in range(n):
                if p not in gone:
                    extra[p] += t.alive
        return mgs, egs, phase, extra, officers, royals, pawns

    def _finish(self, pos: Position, key: int, parts) -> tuple[float, ...]:
        """The scores from :meth:`_parts` with the live terms added; cached by ``key``."""
        mgs, egs, phase, extra, officers, royals, pawns = parts
        n = pos.nplayers
        if self.live:
            live = [0.0] * n
            self._activity(pos, officers, royals, pawns, live, phase)
            extra = [extra[p] + live[p] for p in range(n)]
        # rounded: float sums in piece-set order (which apply/undo may change) must not make
        # two visits of one position differ in the last bit
        out = tuple(round(mgs[p] * phase + egs[p] * (1.0 - phase) + extra[p], 6) for p in range(n))
        if len(self._cache) < _CACHE_LIMIT:  # full: trim() empties it between moves
            self._cache[key] = out
        return out

    def trim(self) -> None:
        """Empty the caches once they are three-quarters full. Freeing 150,000 entries takes
        tens of milliseconds: the players call this between moves, never inside a search."""
        if len(self._cache) >= _CACHE_LIMIT * 3 // 4:
            self._cache = {}
        if len(self._pawn_cache) >= _CACHE_LIMIT * 3 // 16:
            self._pawn_cache = {}
