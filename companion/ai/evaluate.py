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

_CACHE_LIMIT = 200_000
_PAWN, _ROYAL, _OFFICER = 0, 1, 2  # a kind's role in the evaluation


class Evaluator:
    """Per-(rules, table) precomputed tables and the evaluation function."""

    def __init__(self, rules, table: EvalTable | None = None):
        self.rules = rules
        self.table = table or table_for(rules)
        t = self.table
        geo = rules.geometry
        self.geometry = geo
        self.nplayers = rules.nplayers
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
                raise VariantError(f"{t.source}: [pst.{kind.code}] is {len(mg_grid[0])}x{len(mg_grid)}, "
                                   f"the board is {geo.width}x{geo.height}")
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

    def _activity_tables(self, kinds) -> None:
        """For the live terms (``piece_mobility``, ``king_attack``): each piece kind's leaps and
        slides per owner and square (from the compiled movement), the mobility weight per
        square (lower for kinds that reach more: ``piece_mobility`` x sqrt(8 / mean reach)),
        the reach it counts from (half the mean: fewer costs, more earns) and its weight in an
        attack on a King (value / 100, at most 5)."""
        t, rules = self.table, self.rules
        self.live = bool(t.piece_mobility or t.king_attack)
        if not self.live:
            return
        compiled = rules.compiled
        self._moves_of = [[None] * len(kinds) for _ in range(self.nplayers)]
        self._mob_weight = [0.0] * len(kinds)
        self._mob_base = [0.0] * len(kinds)
        self._attack_weight = [0.0] * len(kinds)
        geo = self.geometry
        for kid, k in enumerate(kinds):
            if self._role[kid] != _OFFICER:
                continue
            for p in range(self.nplayers):
                ck = compiled[kid][p]
                self._moves_of[p][kid] = (ck.leaps_both, ck.leaps_move, ck.rays_both, ck.rays_move,
                                          ck.leaps_capture, ck.rays_capture)
            reach = self._reach(kid, 0)
            playable = [r for s, r in enumerate(reach) if not geo.is_void(s)]
            mean = max(1.0, sum(playable) / len(playable)) if playable else 1.0
            self._mob_weight[kid] = t.piece_mobility * (8.0 / mean) ** 0.5
            self._mob_base[kid] = mean / 2.0
            self._attack_weight[kid] = min(5.0, max(1.0, self.values[kid] / 100.0))
        self._zone = [frozenset(self.neighbours[sq] + (sq,)) for sq in range(geo.size)]

    def _activity(self, pos: Position, officers, royals, pawns, extra, phase: float) -> None:
        """Mobility (squares each piece other than pawn-like and royal ones reaches now: empty or
        an enemy's) and the attack on each enemy royal (the squares of its zone these pieces
        reach, weighted by the attackers' values; ``king_attack`` x units^2 / 10, units at most
        40, in the middlegame share ``phase``, once two pieces take part). No mobility against
        nothing but royal pieces: centralising the Queen there fought the mop-up's drive and a
        King and Queen drew by the fifty-move rule against random moves."""
        t = self.table
        board = pos.board
        n = pos.nplayers
        zones = [self._zone[royals[q][0]] if royals[q] else frozenset() for q in range(n)]
        mw, mb, aw = self._mob_weight, self._mob_base, self._attack_weight
        for p in range(n):
            tables = self._moves_of[p]
            foes_zone = frozenset().union(*(zones[q] for q in range(n) if q != p)) if n > 2 else zones[1 - p]
            mob = 0.0
            units = 0.0
            attackers = 0
            for sq in officers[p]:
                kid = board[sq].kid
                lb, lm, rb, rm, lc, rc = tables[kid]
                count = 0
                hits = 0
                for s in lb[sq]:
                    q = board[s]
                    if q is None or q.owner != p:
                        count += 1
                    if s in foes_zone:
                        hits += 1
                for s in lm[sq]:
                    if board[s] is None:
                        count += 1
                for ray in rb[sq]:
                    for s in ray:
                        q = board[s]
                        if s in foes_zone:
                            hits += 1
                        if q is None:
                            count += 1
                        else:
                            if q.owner != p:
                                count += 1
                            break
                for ray in rm[sq]:
                    for s in ray:
                        if board[s] is not None:
                            break
                        count += 1
                mob += mw[kid] * (count - mb[kid])
                if hits:
                    units += hits * aw[kid]
                    attackers += 1
            if any(officers[q] or pawns[q] for q in range(n) if q != p):
                extra[p] += mob  # against bare royals the mating drive (mop_up, the hunt) decides alone
            if attackers >= 2 and phase > 0:
                units = min(units, 40.0)
                extra[p] += phase * t.king_attack * units * units / 10.0

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
        nothing, so knocking one out is always good for the viewer."""
        out = pos.vars.get("out", ())
        others = sum(totals[q] for q in range(pos.nplayers) if q != player and q not in out)
        return totals[player] - others / (pos.nplayers - 1)

    def evaluate(self, pos: Position, player: int) -> float:
        """The position from ``player``'s side, in centipawns, faded toward a draw as the
        game's draw clock runs out (:meth:`fade`)."""
        s = self.scores(pos)
        v = self._view(pos, s, player)
        v = v + self.table.tempo if pos.turn == player else v - self.table.tempo
        return v * self.fade(pos) if self.draw_fade else v

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
        if self.live:
            self._activity(pos, officers, royals, pawns, extra, phase)
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

    # ----- terms -----------------------------------------------------------------------------------
    def _line_of(self, sq: int, home: str) -> int:
        return self.file[sq] if home in ("south", "north") else self.rank[sq]

    def _pawn_structure(self, pos: Position, pawns) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Lines holding each player's pawn-like pieces (bit masks), and each player's
        pawn-structure score (cached by the pawn-like pieces' placement: it changes rarely)."""
        t = self.table
        n = pos.nplayers
        geo = self.geometry
        all_lines = []
        scores = []
        for p in range(n):
            home = self.homes[p]
            lines: dict[int, int] = {}
            for sq in pawns[p]:
                ln = self._line_of(sq, home)
                lines[ln] = lines.get(ln, 0) + 1
            all_lines.append(sum(1 << ln for ln in lines))  # a bit mask: ints are not tracked by the GC
            score = 0.0
            for ln, c in lines.items():
                if c > 1:
                    score -= t.doubled * (c - 1)
                if (ln - 1) not in lines and (ln + 1) not in lines:
                    score -= t.isolated * c
            if t.passed and n == 2 and pawns[p]:
                foe = 1 - p
                fhome = self.homes[foe]
                if self._line_axis(home) == self._line_axis(fhome):
                    last = (geo.height if home in ("south", "north") else geo.width) - 1
                    theirs = [(self._line_of(s, fhome), relative_rank(geo, s, home)) for s in pawns[foe]]
                    for sq in pawns[p]:
                        ln = self._line_of(sq, home)
                        rr = relative_rank(geo, sq, home)
                        if not any(abs(fl - ln) <= 1 and fr > rr for fl, fr in theirs):
                            progress = rr / last
                            score += t.passed * (0.5 + 3.0 * progress * progress)
            scores.append(score)
        return tuple(all_lines), tuple(scores)

    @staticmethod
    def _line_axis(home: str) -> int:
        return 0 if home in ("south", "north") else 1

    def _king_safety(self, pos: Position, p: int, royals: list[int], officers) -> float:
        """Own pieces next to each royal piece (shelter), enemy non-pawn pieces near it."""
        t = self.table
        board = pos.board
        fl, rk = self.file, self.rank
        score = 0.0
        for k in royals:
            shelter = 0
            for s in self.neighbours[k]:
                q = board[s]
                if q is not None and q.owner == p:
                    shelter += 1
            kf, kr = fl[k], rk[k]
            danger = 0
            for q in range(pos.nplayers):
                if q == p:
                    continue
                for s in officers[q]:
                    d = max(abs(fl[s] - kf), abs(rk[s] - kr))
                    if d < 4:
                        danger += 4 - d
            score += t.shelter * min(shelter, 3) - t.tropism * danger
        return score

    def _goal(self, pos: Position, royals, extra) -> None:
        """A royal piece near the zone it wins on (Chess 2: a King next to its fifth rank): worth
        ``[goal] entry[n]`` for the n zone squares next to it it could step to safely (empty or
        an enemy's, not attacked), plus ``approach`` for each safe square next to it from which
        it could. A player whose win needs two royals still outside (Two Kings) is worth the
        smaller of their two terms: both must get there."""
        t = self.table.goal
        entry, approach = t.get("entry", (0.0,)), t.get("approach", 0.0)
        board, rules, neighbours = pos.board, self.rules, self.neighbours
        for p in range(pos.nplayers):
            zone = self.goal_zone(p)
            outside = [k for k in royals[p] if k not in zone]
            if not outside or len(outside) > 2:
                continue
            foes = [q for q in range(pos.nplayers) if q != p]

            def free(s: int) -> bool:
                q = board[s]
                return (q is None or q.owner != p) and not any(rules.is_attacked(pos, s, f) for f in foes)

            terms = []
            for k in outside:
                near = [s for s in neighbours[k] if s in zone]
                if near:
                    terms.append(entry[min(sum(1 for s in near if free(s)), len(entry) - 1)])
                elif approach:
                    steps = 0
                    for s in neighbours[k]:
                        if any(z in zone for z in neighbours[s]) and free(s):
                            if any(free(z) for z in neighbours[s] if z in zone):
                                steps += 1
                    terms.append(approach * min(steps, 3))
                else:
                    terms.append(0.0)
                if not terms[-1]:
                    break  # one royal with nothing: the smaller term is 0
            extra[p] += min(terms)

    def _mop_up(self, pos: Position, mats, pawns, royals, extra, weight: float) -> None:
        """Far ahead in an endgame: push the opponent's lone royal to the edge, come closer."""
        out = pos.vars.get("out", ())
        alive = [p for p in range(pos.nplayers) if p not in out]
        if len(alive) != 2:
            return
        a, b = alive
        lead, lone = (a, b) if mats[a] > mats[b] else (b, a)
        if mats[lead] - mats[lone] < 200 or pawns[lone] or not royals[lone] or not royals[lead]:
            return
        t = self.table
        ks, ls = royals[lead][0], royals[lone][0]
        dist = max(abs(self.file[ks] - self.file[ls]), abs(self.rank[ks] - self.rank[ls]))
        bonus = t.mop_up * self.centre_dist[ls] + t.mop_up * 0.5 * (self.max_centre * 2 - dist)
        extra[lead] += weight * bonus

    def _king_hunt(self, pos: Position, fulls, royals, officers, pawns, extra) -> None:
        """Ahead by ``hunt_lead``, or against a bare royal: bring every piece closer to the enemy
        royal and take away its safe squares (against a bare royal: reward the squares taken,
        the last ones most). Games that end only when a King is taken (Dungeon
        Chess) are otherwise drawn by the quiet-move rule with a won position on the board."""
        t = self.table
        a, b = 0, 1
        lead, foe = (a, b) if fulls[a] >= fulls[b] else (b, a)
        if not royals[foe]:
            return
        bare = bool(officers[lead] or pawns[lead]) and not officers[foe] and not pawns[foe]
        if not bare and fulls[lead] - fulls[foe] < t.hunt_lead:
            return
        fl, rk = self.file, self.rank
        ks = royals[foe][0]
        kf, kr = fl[ks], rk[ks]
        span = max(self.geometry.width, self.geometry.height)
        bonus = 0.0
        if t.king_hunt:
            # against a bare royal the own royal joins the hunt: it guards the helpers on the way
            # in and takes squares from the enemy royal
            hunters = officers[lead] + pawns[lead] + (royals[lead] if bare else [])
            for s in hunters:
                d = max(abs(fl[s] - kf), abs(rk[s] - kr))
                bonus += t.king_hunt * (span - d)
        if t.king_box or (bare and t.bare_trap):
            board, rules, geo = pos.board, self.rules, self.geometry
            room = 0
            for s in self.neighbours[ks]:
                if geo.is_void(s) or geo.is_water(s):
                    continue
                q = board[s]
                if q is not None and q.owner == foe:
                    continue
                if not rules.is_attacked(pos, s, lead):
                    room += 1
            if bare:
                # a reward for the squares taken, never below 0: charged for the squares left,
                # the side that must win scored its won ending under a draw (-contempt) and
                # repeated moves; the last squares count most (bare_trap): closing the net
                # pays at once, so a shallow search does not walk around it
                bonus += t.king_box * (8 - room) + t.bare_trap / (room + 1)
            else:
                bonus -= t.king_box * room
        extra[lead] += bonus
