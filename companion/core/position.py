"""A position: pieces on squares, whose turn, game variables, and an exact undo log.

Every change goes through four primitives (``put``, ``take``, ``set_var``, ``set_state``),
each recorded in the current undo frame and folded into the incremental hash. A game's rules
build any move, fight or explosion from these primitives, so ``undo`` restores the position
exactly, whatever the game, and the hash stays right without per-game code.
"""

from __future__ import annotations

import zlib
from typing import Any, Iterator, Protocol, Sequence

from .geometry import Geometry
from .pieces import Piece, PieceKind

_MASK = (1 << 64) - 1

_PUT, _TAKE, _VAR, _STATE, _TURN, _HIST = range(6)


def splitmix64(x: int) -> int:
    """A fixed, seedless 64-bit mixer: stable Zobrist keys across runs and machines."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


_VALUE_KEYS: dict = {}


def value_key(name: str, value: Any) -> int:
    """The Zobrist key of a game variable's value (stable across runs: from its repr).

    Cached, because a pending decision's repr is long and the search hashes it at every node;
    the cache is bounded and values that cannot be dict keys are simply not cached."""
    try:
        return _VALUE_KEYS[(name, value)]
    except KeyError:
        key = splitmix64(zlib.crc32(f"{name}={value!r}".encode()) + 0x1000)
        if len(_VALUE_KEYS) > 50_000:
            _VALUE_KEYS.clear()
        _VALUE_KEYS[(name, value)] = key
        return key
    except TypeError:  # unhashable value
        return splitmix64(zlib.crc32(f"{name}={value!r}".encode()) + 0x1000)


_STATE_KEYS: dict = {}


def _state_key(piece: Piece, sq: int) -> int:
    """The Zobrist key of a piece's state on ``sq`` (stable across runs: from its repr).

    Cached like :func:`value_key`: a Combat Chess fight sets fatigue twice and the search
    undoes it again, tens of thousands of times a second."""
    items = sorted(piece.state.items())
    try:
        return _STATE_KEYS[(sq, *items)]
    except KeyError:
        key = splitmix64(zlib.crc32(repr(items).encode()) * 409 + sq)
        if len(_STATE_KEYS) > 50_000:
            _STATE_KEYS.clear()
        _STATE_KEYS[(sq, *items)] = key
        return key
    except TypeError:  # an unhashable state value
        return splitmix64(zlib.crc32(repr(items).encode()) * 409 + sq)


class PositionRules(Protocol):
    """What a position needs from its game's rules (companion.core.rules.Rules provides it):
    the piece kinds and the hash keys. Named here so that this module needs nothing above it."""

    kinds: Sequence[PieceKind]
    kind_index: dict[str, int]
    special_kinds: tuple[bool, ...]
    zobrist: list[list[list[int]]]
    turn_keys: list[int]
    unhashed_vars: frozenset


class Position:
    """Mutable game state with apply/undo. Use the rules object to make moves."""

    __slots__ = ("rules", "geometry", "board", "occ", "royals", "turn", "nplayers", "vars",
                 "hash", "_frames", "history", "next_uid", "_zob", "nspecial", "_spec")

    def __init__(self, rules: PositionRules, geometry: Geometry, nplayers: int):
        self.rules = rules
        self.geometry = geometry
        self.board: list[Piece | None] = [None] * geometry.size
        self.occ: list[set[int]] = [set() for _ in range(nplayers)]
        self.royals: list[set[int]] = [set() for _ in range(nplayers)]
        #: per player, how many of its pieces attack along phasing or piercing rides (the
        #: attack test walks those rays only when this is not 0)
        self.nspecial: list[int] = [0] * nplayers
        self._spec = rules.special_kinds
        self.turn = 0
        self.nplayers = nplayers
        self.vars: dict[str, Any] = {}
        self._zob = rules.zobrist
        self.hash = rules.turn_keys[0]
        self._frames: list[list] = []
        self.history: list[int] = []  # hashes of positions before each completed move
        self.next_uid = 1

    # ----- primitives (recorded) -----------------------------------------------------------
    def put(self, sq: int, piece: Piece) -> None:
        if self.board[sq] is not None:
            raise AssertionError(f"put on occupied square {sq}")
        self.board[sq] = piece
        self.occ[piece.owner].add(sq)
        if piece.kind.royal:
            self.royals[piece.owner].add(sq)
        if self._spec[piece.kid]:
            self.nspecial[piece.owner] += 1
        h = self._zob[piece.kid][piece.owner][sq]
        if piece.state:
            h ^= _state_key(piece, sq)
        self.hash ^= h
        if self._frames:
            self._frames[-1].append((_PUT, sq, piece))

    def take(self, sq: int) -> Piece:
        piece = self.board[sq]
        if piece is None:
            raise AssertionError(f"take from empty square {sq}")
        self.board[sq] = None
        self.occ[piece.owner].discard(sq)
        if piece.kind.royal:
            self.royals[piece.owner].discard(sq)
        if self._spec[piece.kid]:
            self.nspecial[piece.owner] -= 1
        h = self._zob[piece.kid][piece.owner][sq]
        if piece.state:
            h ^= _state_key(piece, sq)
        self.hash ^= h
        if self._frames:
            self._frames[-1].append((_TAKE, sq, piece))
        return piece

    def move_piece(self, frm: int, to: int) -> Piece:
        piece = self.take(frm)
        self.put(to, piece)
        return piece

    def set_var(self, name: str, value: Any) -> None:
        old = self.vars.get(name)
        if old == value and (name in self.vars) == (value is not None):
            return
        hashed = name not in self.rules.unhashed_vars
        if old is not None and hashed:
            self.hash ^= value_key(name, old)
        if value is None:
            self.vars.pop(name, None)
        else:
            self.vars[name] = value
            if hashed:
                self.hash ^= value_key(name, value)
        if self._frames:
            self._frames[-1].append((_VAR, name, old))

    def set_state(self, sq: int, key: str, value: Any) -> None:
        """Change the state of the piece on ``sq`` (``None`` deletes the key)."""
        piece = self.board[sq]
        if piece is None:
            raise AssertionError(f"set_state on empty square {sq}")
        old = piece.state.get(key)
        if piece.state:
            self.hash ^= _state_key(piece, sq)
        if value is None:
            piece.state.pop(key, None)
        else:
            piece.state[key] = value
        if piece.state:
            self.hash ^= _state_key(piece, sq)
        if self._frames:
            self._frames[-1].append((_STATE, sq, (key, old)))

    def set_turn(self, player: int) -> None:
        if player == self.turn:
            return
        self.hash ^= self.rules.turn_keys[self.turn] ^ self.rules.turn_keys[player]
        if self._frames:
            self._frames[-1].append((_TURN, self.turn, None))
        self.turn = player

    def record_history(self) -> None:
        """Remember the current position's hash (repetition detection); undone with the frame."""
        self.history.append(self.hash)
        if self._frames:
            self._frames[-1].append((_HIST, 0, None))

    # ----- frames ---------------------------------------------------------------------------
    def begin(self) -> None:
        self._frames.append([])

    def undo_frame(self) -> None:
        frame = self._frames.pop()
        board, occ, royals, zob, spec = self.board, self.occ, self.royals, self._zob, self._spec
        for op, a, b in reversed(frame):
            if op == _PUT:
                board[a] = None
                occ[b.owner].discard(a)
                if b.kind.royal:
                    royals[b.owner].discard(a)
                if spec[b.kid]:
                    self.nspecial[b.owner] -= 1
                h = zob[b.kid][b.owner][a]
                if b.state:
                    h ^= _state_key(b, a)
                self.hash ^= h
            elif op == _TAKE:
                board[a] = b
                occ[b.owner].add(a)
                if b.kind.royal:
                    royals[b.owner].add(a)
                if spec[b.kid]:
                    self.nspecial[b.owner] += 1
                h = zob[b.kid][b.owner][a]
                if b.state:
                    h ^= _state_key(b, a)
                self.hash ^= h
            elif op == _VAR:
                hashed = a not in self.rules.unhashed_vars
                cur = self.vars.get(a)
                if cur is not None and hashed:
                    self.hash ^= value_key(a, cur)
                if b is None:
                    self.vars.pop(a, None)
                else:
                    self.vars[a] = b
                    if hashed:
                        self.hash ^= value_key(a, b)
            elif op == _STATE:
                piece = board[a]
                key, old = b
                if piece.state:
                    self.hash ^= _state_key(piece, a)
                if old is None:
                    piece.state.pop(key, None)
                else:
                    piece.state[key] = old
                if piece.state:
                    self.hash ^= _state_key(piece, a)
            elif op == _HIST:
                self.history.pop()
            else:  # _TURN
                self.hash ^= self.rules.turn_keys[self.turn] ^ self.rules.turn_keys[a]
                self.turn = a

    @property
    def depth(self) -> int:
        """How many applied steps can be undone."""
        return len(self._frames)

    # ----- queries --------------------------------------------------------------------------
    def var(self, name: str, default: Any = None) -> Any:
        return self.vars.get(name, default)

    @property
    def pending(self):
        return self.vars.get("pending")

    def pieces(self, player: int | None = None) -> Iterator[tuple[int, Piece]]:
        players = range(self.nplayers) if player is None else (player,)
        for p in players:
            for sq in sorted(self.occ[p]):
                yield sq, self.board[sq]

    def occupied(self) -> frozenset[int]:
        out: set[int] = set()
        for s in self.occ:
            out |= s
        return frozenset(out)

    def new_piece(self, kind_code: str, owner: int, state: dict | None = None) -> Piece:
        kid = self.rules.kind_index[kind_code]
        piece = Piece(self.rules.kinds[kid], kid, owner, self.next_uid, state)
        self.next_uid += 1
        return piece

    def copy(self) -> "Position":
        """An independent copy with the same undo history (pieces copied, uids kept)."""
        new = Position.__new__(Position)
        new.rules = self.rules
        new.geometry = self.geometry
        mapping: dict[int, Piece] = {}

        def cp(p: Piece) -> Piece:
            q = mapping.get(id(p))
            if q is None:
                q = mapping[id(p)] = p.copy()
            return q

        new.board = [cp(p) if p is not None else None for p in self.board]
        new.occ = [set(s) for s in self.occ]
        new.royals = [set(s) for s in self.royals]
        new.nspecial = list(self.nspecial)
        new._spec = self._spec
        new.turn = self.turn
        new.nplayers = self.nplayers
        new.vars = dict(self.vars)
        new._zob = self._zob
        new.hash = self.hash
        new._frames = [[(op, a, cp(b) if isinstance(b, Piece) else b) for op, a, b in fr] for fr in self._frames]
        new.history = list(self.history)
        new.next_uid = self.next_uid
        return new

    def transplant(self, other: "Position") -> None:
        """Make this position hold ``other``'s pieces, side to move and variables, through the
        primitives (so the current undo frame takes it all back): an arbiter's correction.
        ``other``'s piece uids are moved past this position's own so none is reused, and so is
        a carried piece's uid (state ``carries``: a piece carrying another, KoL's Tower with its
        King)."""
        offset = self.next_uid
        for sq in sorted(self.occupied()):
            self.take(sq)
        for sq, p in other.pieces():
            state = dict(p.state)
            if isinstance(state.get("carries"), int):
                state["carries"] += offset
            self.put(sq, Piece(p.kind, p.kid, p.owner, p.uid + offset, state))
        self.next_uid = other.next_uid + offset
        for name in sorted(set(self.vars) | set(other.vars)):
            self.set_var(name, other.vars.get(name))
        self.set_turn(other.turn)

    def snapshot(self) -> tuple:
        """Everything that defines the position, for exact equality checks in tests."""
        return (
            tuple((sq, p.kind.code, p.owner, p.uid, tuple(sorted(p.state.items())))
                  for sq, p in enumerate(self.board) if p is not None),
            self.turn,
            tuple(sorted((k, repr(v)) for k, v in self.vars.items())),
            self.hash,
            tuple(self.history),
        )
