"""The pieces seen this game: which are captured (the side panel's lists), and who a fight's
opponents were after they left the board."""

from __future__ import annotations


class KnownPieces:
    """Every piece seen on the board this game, ``uid -> (kind name, owner)``. An arbiter's
    correction starts the knowledge again (what was captured before it is not known after);
    taking the correction back restores what was known before it."""

    def __init__(self, rules, pos) -> None:
        self._rules, self._pos = rules, pos
        self._known: dict[int, tuple[str, int]] = {}
        self._before: list[dict[int, tuple[str, int]]] = []  # the knowledge before each correction
        self.remember()

    def remember(self) -> None:
        """Note the pieces on the board now (after each step that may bring new ones)."""
        for _, p in self._pos.pieces():
            self._known[p.uid] = (p.kind.name, p.owner)

    def corrected(self) -> None:
        """The position was set anew: only its pieces are known."""
        self._before.append(self._known)
        self._known = {}
        self.remember()

    def correction_undone(self) -> None:
        self._known = self._before.pop()

    def of(self, uid: int) -> tuple[str, int]:
        """(kind name, owner) of piece ``uid`` (``("piece", -1)`` if it was never seen)."""
        return self._known.get(uid, ("piece", -1))

    def captured(self, player: int) -> list[str]:
        """Kind names of ``player``'s pieces no longer on the board, in the order of value."""
        pos = self._pos
        present = {p.uid for _, p in pos.pieces()}
        present |= {p.state["carries"] for _, p in pos.pieces() if "carries" in p.state}  # KoL's King in his Tower
        gone = [kind for uid, (kind, owner) in self._known.items() if owner == player and uid not in present]
        order = {k.name: k.value for k in self._rules.kinds}
        return sorted(gone, key=lambda k: -order.get(k, 0))
