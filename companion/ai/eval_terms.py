"""The evaluation's per-position terms beyond material and the square tables: live mobility
and the attack on each enemy royal, pawn structure, king safety, the goal zone, the mop-up of a
lone royal and the king hunt. :class:`~companion.ai.evaluate.Evaluator` holds the tables these
read (built at start-up) and calls them from ``scores``; they are a mixin so the hot loop stays
plain attribute access."""

from __future__ import annotations

from ..core.compiled import relative_rank
from ..core.position import Position

_PAWN, _ROYAL, _OFFICER = 0, 1, 2  # a kind's role in the evaluation


class PositionTerms:
    """The terms computed per position (see the module's text); mixed into the Evaluator."""

    def _activity_tables(self, kinds) -> None:
        """For the live terms (``piece_mobility``, ``king_attack``): each piece kind's leaps and
        slides per owner and square (from the compiled movement), the mobility weight per
        square (lower for kinds that reach more: ``piece_mobility`` x sqrt(8 / mean reach)),
        the reach it counts from (half the mean: fewer costs, more earns) and its weight in an
        attack on a King (value / 100, at most 5)."""
        t, rules = self.table, self.rules
        #: king safety's tropism by king square (filled when a royal first stands there): 4 -
        #: (king distance) for each square within 3, else 0
        self._near_rows: list = [None] * self.geometry.size
        #: the goal term's King steps to the zone per player and square (built at first use)
        self._goal_steps: list | None = None
        self._shelter_tropism = (t.shelter, t.tropism)
        #: the hunt's walking distances by the hunted royal's square (hunt_paths; filled lazily)
        self._walks: list = [None] * self.geometry.size
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


    def _near_row(self, k: int) -> list[int]:
        fl, rk = self.file, self.rank
        kf, kr = fl[k], rk[k]
        row = [max(0, 4 - max(abs(fl[s] - kf), abs(rk[s] - kr))) for s in range(self.geometry.size)]
        self._near_rows[k] = row
        return row

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
        board = pos.board
        shelter_w, tropism_w = self._shelter_tropism
        score = 0.0
        for k in royals:
            shelter = 0
            for s in self.neighbours[k]:
                q = board[s]
                if q is not None and q.owner == p:
                    shelter += 1
            near = self._near_rows[k] or self._near_row(k)  # 4 - king distance, 0 from 4 squares away
            danger = 0
            for q in range(pos.nplayers):
                if q != p:
                    for s in officers[q]:
                        danger += near[s]
            score += shelter_w * min(shelter, 3) - tropism_w * danger
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
        steps_to = self._goal_steps or self._goal_step_tables()
        for p in range(pos.nplayers):
            zone = self.goal_zone(p)
            outside = [k for k in royals[p] if k not in zone]
            if not outside or len(outside) > 2:
                continue
            if any(steps_to[p][k] > 2 for k in outside):
                continue  # a royal three steps or more from the zone: every term below is 0
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

    def _goal_step_tables(self) -> list:
        """Per player and square, the King steps to its goal zone (0 in it; 3 for three or more)."""
        tables = []
        for p in range(self.nplayers):
            zone = self.goal_zone(p)
            steps = [0 if s in zone else 3 for s in range(self.geometry.size)]
            for d in (1, 2):
                for s in range(self.geometry.size):
                    if steps[s] == 3 and any(steps[z] == d - 1 for z in self.neighbours[s]):
                        steps[s] = d
            tables.append(steps)
        self._goal_steps = tables
        return tables

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
            if t.hunt_paths:
                walk = self._walks[ks] or self._walk_from(ks)
                for s in hunters:
                    bonus += t.king_hunt * (span - min(walk[s], span))
            else:
                for s in hunters:
                    d = max(abs(fl[s] - kf), abs(rk[s] - kr))
                    bonus += t.king_hunt * (span - d)
        if t.king_box or (bare and t.bare_trap):
            room = self._royal_room(pos, ks, foe, lead) if t.box_moves else self._neighbour_room(pos, ks, foe, lead)
            if bare:
                # a reward for the squares taken, never below 0: charged for the squares left,
                # the side that must win scored its won ending under a draw (-contempt) and
                # repeated moves; the last squares count most (bare_trap): closing the net
                # pays at once, so a shallow search does not walk around it
                # (box_moves counts up to 12 escapes: at most 8 count here too, as in the charge)
                bonus += t.king_box * (8 - min(room, 8)) + t.bare_trap / (room + 1)
            else:
                # at most 8 squares' worth, as the neighbour count: a Princess's 20 slide squares
                # charged in full would pay a side for dropping under hunt_lead
                bonus -= t.king_box * min(room, 8)
        extra[lead] += bonus

    def _walk_from(self, sq: int) -> list[int]:
        """King steps from ``sq`` to every square around water and void (``hunt_paths``): behind
        Dungeon Chess's lake a piece is further from the enemy King than the straight line
        says (a Red Dragon on h7 and a Princess on b3 are 6 steps apart as the crow flies, 9 on
        foot). A square no walk reaches is as far as the board is wide. Filled per square the
        first time a royal stands there."""
        geo = self.geometry
        n = geo.size
        far = max(geo.width, geo.height) * 4
        dist = [far] * n
        dist[sq] = 0
        todo = [sq]
        for s in todo:
            d = dist[s] + 1
            for s2 in self.neighbours[s]:
                if dist[s2] > d and not geo.is_void(s2) and not geo.is_water(s2):
                    dist[s2] = d
                    todo.append(s2)
        self._walks[sq] = dist
        return dist

    def _neighbour_room(self, pos: Position, ks: int, foe: int, lead: int) -> int:
        """The squares next to ``foe``'s royal on ``ks`` it could step to without being attacked
        by ``lead`` (not void, water or its own piece; the royal still on its square)."""
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
        return room

    def _royal_room(self, pos: Position, ks: int, foe: int, lead: int) -> int:
        """The royal's escapes (``box_moves``): its steps to squares ``lead`` does not attack,
        plus one for each direction in which a longer move of its own (a Princess's diagonal
        slide, a Red Dragon's jump capture) reaches such a square, however many squares that
        line holds: one piece across it closes it all, and a Princess on a long diagonal is
        no safer in a corner than the count of its squares would say. The royal is lifted off
        the board for the test, so a square behind it on a checking line, or a cannon that
        needed it as a screen, counts right. At most 16 (8 steps, 8 directions)."""
        rules, board = self.rules, pos.board
        fl, rk = self.file, self.rank
        moves = rules.pseudo_moves(pos, foe, (ks,))
        royal = board[ks]
        board[ks] = None
        kf, kr = fl[ks], rk[ks]
        steps = set()
        lines = set()
        try:
            for m in moves:
                t = m.to
                df, dr = fl[t] - kf, rk[t] - kr
                if max(abs(df), abs(dr)) <= 1:
                    if t not in steps and not rules.is_attacked(pos, t, lead):
                        steps.add(t)
                else:
                    way = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
                    if way not in lines and not rules.is_attacked(pos, t, lead):
                        lines.add(way)
        finally:
            board[ks] = royal
        return len(steps) + len(lines)

    # ----- threats (dice fights) -----------------------------------------------------------------
    def _threat_tables(self) -> None:
        """For ``threat`` (games with dice fights, two players): each kind's fight die."""
        rules = self.rules
        sides = getattr(rules, "fight_sides", None)
        known = sides is not None and self.nplayers == 2
        self._threat = float(self.table.threat) if known else 0.0
        #: :meth:`fight_gain` can answer (the search's leaves with ``leaf_fights``)
        self.fights_known = known and bool(self._threat or self.table.leaf_fights)
        if not self.fights_known:
            return
        self._win_chances: dict = {}
        #: per player and kind: the squares it captures on from each square, by leap and by ray
        compiled = rules.compiled
        self._captures_of = [[None] * len(rules.kinds) for _ in range(self.nplayers)]
        for kid in range(len(rules.kinds)):
            for p in range(self.nplayers):
                ck = compiled[kid][p]
                self._captures_of[p][kid] = (
                    [frozenset(a) | frozenset(b) for a, b in zip(ck.leaps_both, ck.leaps_capture)],
                    [tuple(a) + tuple(b) for a, b in zip(ck.rays_both, ck.rays_capture)])

    def _win_chance(self, akid: int, afat: int, dkid: int, dfat: int) -> float:
        """The chance that a piece of kind ``akid`` with ``afat`` tokens wins its attack on one
        of kind ``dkid`` (a King defending takes weapon choice; no King's Prerogative)."""
        key = (akid, afat, dkid, dfat)
        p = self._win_chances.get(key)
        if p is None:
            p = self._win_chances[key] = float(self.rules.attack_odds(akid, afat, dkid, dfat).attacker)
        return p

    def _threats(self, pos: Position, extra) -> None:
        """What the side not to move gains from the fights it could start on its next turn,
        which a capture search from the side to move never tries (:meth:`_fight_gains`); it
        earns ``threat`` x (their sum less half the largest: one threat can be met)."""
        them = 1 - pos.turn
        total, top = self._fight_gains(pos, them)
        if total:
            extra[them] += self._threat * (total - 0.5 * top)

    def fight_gain(self, pos: Position) -> float:
        """The side to move's best fight by the odds (:meth:`_fight_gains`), 0 if none pays."""
        return self._fight_gains(pos, pos.turn)[1]

    def _fight_gains(self, pos: Position, side: int) -> tuple[float, float]:
        """The fights ``side`` could start: for each enemy piece (a King excepted) the best
        attack on it by the odds, ``p`` x (the piece, less what its best defender wins back:
        the defender's odds against the tired attacker x the attacker) - (1 - ``p``) x the
        attacker; a King attacks only an undefended piece. Their sum and the largest, counting
        only those that pay."""
        board, royal = pos.board, self.royal
        them = 1 - side
        caps = self._captures_of[side]
        mine = pos.occ[them]
        hit: dict = {}
        for s in pos.occ[side]:
            leaps, rays = caps[board[s].kid]
            for t in mine.intersection(leaps[s]):
                if t in hit:
                    hit[t].append(s)
                else:
                    hit[t] = [s]
            for ray in rays[s]:
                for t in ray:
                    if board[t] is not None:
                        if t in mine:
                            if t in hit:
                                hit[t].append(s)
                            else:
                                hit[t] = [s]
                        break
        total = top = 0.0
        if not hit:
            return total, top
        chance, worth_of, attackers = self._win_chance, self.piece_value, self.rules.attackers
        for sq, hits in hit.items():
            pc = board[sq]
            if pc.kid in royal:
                continue
            value = worth_of(pc)
            dfat = pc.state.get("fatigue", 0) if pc.state else 0
            guards = attackers(pos, sq, them)
            best = 0.0
            for a in hits:
                att = board[a]
                if att.kid in royal and guards:
                    continue  # a King cannot step onto a guarded square
                afat = att.state.get("fatigue", 0) if att.state else 0
                worth = worth_of(att)
                p = chance(att.kid, afat, pc.kid, dfat)
                gain = value
                if guards:
                    back = 0.0
                    for g in guards:
                        gp = board[g]
                        back = max(back, chance(gp.kid, gp.state.get("fatigue", 0) if gp.state else 0, att.kid, afat + 1))
                    gain -= back * worth
                ev = p * gain - (1.0 - p) * worth
                if ev > best:
                    best = ev
            if best > 0.0:
                total += best
                if best > top:
                    top = best
        return total, top
