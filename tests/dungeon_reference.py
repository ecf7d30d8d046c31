"""A slow, independent Dungeon Chess move generator written straight from the rulebook table
(and the readings in docs/rules/dungeon.md), sharing nothing with the engine's vocabulary or
compiled tables. Tests compare the engine against it on random positions.

Squares are (file, rank) pairs internally; the results are engine square ints.
"""

ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ALL8 = ORTHO + DIAG
L_JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
STRAIGHT2 = ((2, 0), (-2, 0), (0, 2), (0, -2))

FLOOR, WATER, VOID = 0, 1, 2
PAWNS = {"hero", "skeleton", "kobold", "goblin"}


class Ref:
    def __init__(self, pos):
        self.pos = pos
        self.g = pos.geometry
        self.w, self.h = self.g.width, self.g.height

    # -- board access
    def at(self, f, r):
        return self.pos.board[r * self.w + f]

    def ter(self, f, r):
        return self.g.terrain[r * self.w + f]

    def on(self, f, r):
        return 0 <= f < self.w and 0 <= r < self.h and self.ter(f, r) != VOID

    def sq(self, f, r):
        return r * self.w + f

    def name(self, f, r):
        p = self.at(f, r)
        return None if p is None else p.kind.name

    # -- rules
    def hexed(self, p):
        return bool(p.state.get("hex"))

    def intimidated(self, f, r):
        p = self.at(f, r)
        if p.kind.name not in PAWNS:
            return False
        for dx, dy in ALL8:
            if self.on(f + dx, r + dy):
                q = self.at(f + dx, r + dy)
                if q is not None and q.owner != p.owner and q.kind.name == "ogre":
                    return True
        return False

    def moves(self, player, with_hex=True):
        """Set of (from, to, is_capture, is_hex)."""
        out = set()
        for sq, p in list(self.pos.pieces(player)):
            if self.hexed(p):
                continue
            f, r = sq % self.w, sq // self.w
            quiet, caps = self.unit_moves(p, f, r)
            if not self.intimidated(f, r):
                for dx, dy in ALL8:  # fragile Skeletons next to it
                    t = (f + dx, r + dy)
                    if self.on(*t):
                        q = self.at(*t)
                        if q is not None and q.owner != player and q.kind.name == "skeleton":
                            caps.add(t)
            else:
                caps = set()
            for t in quiet:
                out.add((sq, self.sq(*t), False, False))
            for t in caps:
                out.add((sq, self.sq(*t), True, False))
            if with_hex and p.kind.name == "shaman" and not p.state.get("hex_spent"):
                out_players = self.pos.var("out", ())
                for dx, dy in ALL8:
                    x, y = f + dx, r + dy
                    while self.on(x, y):  # water does not block sight, void does
                        q = self.at(x, y)
                        if q is not None:
                            if q.owner != player and q.owner not in out_players:
                                out.add((sq, self.sq(x, y), False, True))
                            break
                        x, y = x + dx, y + dy
        return out

    def unit_moves(self, p, f, r):
        n = p.kind.name
        me = p.owner
        quiet, caps = set(), set()

        def empty_floor(x, y, water_ok=False):
            return self.on(x, y) and self.at(x, y) is None and (self.ter(x, y) == FLOOR or (water_ok and self.ter(x, y) == WATER))

        def enemy_on(x, y, water_ok=False):
            if not self.on(x, y):
                return False
            q = self.at(x, y)
            return q is not None and q.owner != me and (self.ter(x, y) == FLOOR or water_ok)

        def steps(dirs, quiet_too=True, cap_too=True, water_ok=False, scale=1):
            for dx, dy in dirs:
                x, y = f + dx * scale, r + dy * scale
                if quiet_too and empty_floor(x, y, water_ok):
                    quiet.add((x, y))
                if cap_too and enemy_on(x, y, water_ok):
                    caps.add((x, y))

        def slide(dirs, water, quiet_too=True, cap_too=True, phase=False, pierce=None):
            """water: 'block' (stop before it) or 'cross' (pass over, never stop)."""
            for dx, dy in dirs:
                x, y = f + dx, r + dy
                passed = 0
                while self.on(x, y):
                    if self.ter(x, y) == WATER and water == "block":
                        break
                    q = self.at(x, y)
                    if q is None:
                        if quiet_too and passed == 0 and self.ter(x, y) == FLOOR:
                            quiet.add((x, y))
                    else:
                        if q.owner != me:
                            if cap_too and self.ter(x, y) == FLOOR:
                                caps.add((x, y))
                            if pierce == "any" and passed == 0:
                                passed = 1
                            else:
                                break
                        else:
                            if phase:
                                pass
                            elif pierce in ("any", "friend") and passed == 0:
                                passed = 1
                            else:
                                break
                    x, y = x + dx, y + dy

        def screen_slide():
            """Up to the first piece (the screen); over water, never stopping on it."""
            for dx, dy in ORTHO:
                x, y = f + dx, r + dy
                while self.on(x, y) and self.at(x, y) is None:
                    if self.ter(x, y) == FLOOR:
                        quiet.add((x, y))
                    x, y = x + dx, y + dy

        def cannon():
            for dx, dy in ORTHO:
                x, y = f + dx, r + dy
                screen = False
                while 0 <= x < self.w and 0 <= y < self.h and self.ter(x, y) != VOID:
                    if self.ter(x, y) == WATER:
                        x, y = x + dx, y + dy
                        continue
                    q = self.at(x, y)
                    if q is not None:
                        if screen:
                            if q.owner != me and q.kind.name != "iron_golem":
                                caps.add((x, y))
                            break
                        screen = True
                    x, y = x + dx, y + dy

        if n in PAWNS:
            steps(ALL8, cap_too=False)
            steps(DIAG, quiet_too=False)
            if n in ("kobold", "goblin"):
                screen_slide()
                cannon()
        elif n == "stronghold":
            steps(ORTHO, cap_too=False)
            slide(ORTHO, "cross", quiet_too=False)
        elif n == "tomb":
            steps(ORTHO, cap_too=False)
            slide(ORTHO, "cross", quiet_too=False, pierce="friend")
        elif n in ("iron_golem", "ogre"):
            steps(ORTHO)
            screen_slide()
            cannon()
        elif n in ("knight", "salamander"):
            steps(L_JUMPS)
        elif n == "reaper":
            steps(L_JUMPS, water_ok=True)
        elif n == "orc":
            steps(L_JUMPS)
            steps(ORTHO, scale=2)
        elif n == "archer":
            slide(DIAG, "cross", cap_too=False)
            slide(DIAG, "cross", quiet_too=False, pierce="any")
        elif n == "wraith":
            slide(DIAG, "cross", phase=True)
        elif n in ("fire_elemental", "troll"):
            slide(DIAG, "block")
        elif n == "wizard":
            slide(ORTHO, "cross", cap_too=False)
            slide(ALL8, "cross", quiet_too=False)
        elif n == "vampire":
            slide(DIAG, "cross", cap_too=False)
            slide(ALL8, "cross", quiet_too=False)
        elif n in ("demonics", "shaman"):  # "Water blocks diagonal slides for ... Demonics, and Shaman"
            slide(ORTHO, "cross")
            slide(DIAG, "block")
        elif n == "princess":
            steps(ALL8)
            slide(DIAG, "cross", cap_too=False)
        elif n == "warlock":
            steps(ALL8)
            slide(DIAG, "cross", quiet_too=False)
        elif n in ("red_dragon", "warlord"):
            steps(ALL8)
            steps(L_JUMPS, quiet_too=False)
        else:
            raise AssertionError(f"reference does not know {n}")
        return quiet, caps

    def attacked(self, sq, by):
        return any(t == sq and cap for _, t, cap, _ in self.moves(by, with_hex=False))
