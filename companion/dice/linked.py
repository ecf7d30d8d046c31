"""Dice for two linked boards: every fight's faces from both boards' secrets (commit-reveal).

Neither board may choose a roll or foresee it, and neither trusts the other. Each board makes
a **hash chain** before the game: a random root ``r`` (32 bytes, drawn at the edge), the links
``s_i = H^(L-i)(r)`` for ``i = 0 .. L`` (``H`` is SHA-256) and the **head** ``s_0 = H^L(r)``.
The two heads are exchanged before the first move and written into the game's set-up
(``GameSetup.chains``), so every secret either board will ever reveal is fixed before the game
starts: revealing ``s_i`` proves itself (``H^i(s_i) == head``) and tells nothing of
``s_(i+1)`` (that would mean inverting SHA-256).

Fight ``k`` of the game uses the next unused index ``i`` of both chains (indices only go up,
across takebacks too: a secret once shown is never used again). Its seed is
``SHA-256("companion linked fight" || s_i(board 1) || s_i(board 2))`` and every die of every
round is derived from that seed exactly as a seeded game's (companion.dice.sources.seeded_face,
address ``fight/round/side/die``). A board reveals its ``s_i`` only once the other board's
``s_i`` is fixed (it is, by the head), so neither side can steer the seed; the side that learns
both secrets first learns the roll at the moment it is decided, never before.

Pure: the root comes in as bytes; nothing here draws randomness. ``L`` is
:data:`CHAIN_LENGTH`; a game never needs more fights than that (the board refuses a fight past it
with one line), and :class:`HashChain` keeps a checkpoint every :data:`CHECKPOINT` links, so a
secret costs at most that many hashes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Sequence

from .odds import DiceSpec
from .sources import SeededDice
from ..errors import DiceError
from ..i18n import _, pgettext

#: Links in a chain: the most fights one linked game can have (a game of Combat Chess has tens;
#: 16,384 is past any game the draw rules let run). Building a chain costs this many hashes.
CHAIN_LENGTH = 1 << 14
#: A checkpoint every so many links: a secret costs at most this many hashes.
CHECKPOINT = 256
_FIGHT_SEED = b"companion linked fight"


def _h(value: bytes) -> bytes:
    return hashlib.sha256(value).digest()


def _is_hex64(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


class HashChain:
    """One board's chain from its root: :attr:`head` to publish, :meth:`secret` to reveal."""

    def __init__(self, root: bytes, length: int = CHAIN_LENGTH) -> None:
        if not isinstance(root, bytes) or len(root) < 16:
            raise DiceError(_("a chain's root must be at least 16 random bytes"))
        if not 1 <= length <= CHAIN_LENGTH:
            raise DiceError(_("a chain has 1 to {most} links, got {length}").format(most=CHAIN_LENGTH, length=length))
        self.length = length
        # checkpoints: H^(j*CHECKPOINT)(root) for each j, so H^(L-i)(root) starts from one of them
        self._marks = [root]
        value = root
        for step in range(1, length + 1):
            value = _h(value)
            if step % CHECKPOINT == 0:
                self._marks.append(value)
        self.head = value.hex()

    def __repr__(self) -> str:  # the root is never printed
        return f"HashChain(head={self.head[:16]}..., length={self.length})"

    def secret(self, index: int) -> str:
        """``s_index`` as hex (index 1 .. length; 0 is the head)."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= self.length:
            raise DiceError(_("this linked game has used all its {n:,} fights' secrets").format(n=self.length)
                            if isinstance(index, int) and index > self.length
                            else _("a chain index is 0 to {most}, got {index!r}").format(most=self.length, index=index))
        steps = self.length - index  # H^steps(root)
        value = self._marks[steps // CHECKPOINT]
        for _step in range(steps % CHECKPOINT):
            value = _h(value)
        return value.hex()


def chains_to(secret: str, index: int, head: str, *, known: tuple[int, str] | None = None) -> bool:
    """Does ``secret`` sit at ``index`` of the chain whose head is ``head``? ``known``: a later-
    checked ``(index, secret)`` of the same chain below ``index``, to stop there instead (cost
    ``index - known index`` hashes)."""
    if not _is_hex64(secret) or not _is_hex64(head) or isinstance(index, bool) or not isinstance(index, int):
        return False
    if not 1 <= index <= CHAIN_LENGTH:
        return False
    stop_index, stop_value = (0, head) if known is None or known[0] >= index else known
    value = bytes.fromhex(secret)
    for _ in range(index - stop_index):
        value = _h(value)
    return value.hex() == stop_value


def fight_seed(secrets: Sequence[str]) -> bytes:
    """The seed of one fight from both boards' secrets, in the boards' order."""
    if len(secrets) != 2 or not all(_is_hex64(s) for s in secrets):
        raise DiceError(_('a linked fight needs two secrets of 64 hex digits'))
    return _h(_FIGHT_SEED + b"".join(bytes.fromhex(s) for s in secrets))


def linked_faces(secrets: Sequence[str], specs: Sequence[DiceSpec], fight_id: str, round_number: int,
                 side: str) -> list[list[int]]:
    """Faces of one side's fighters in one round, from the fight's two secrets."""
    return SeededDice(fight_seed(secrets)).roll_side(specs, fight_id, round_number, side)


@dataclass(frozen=True)
class LinkProof:
    """What a linked roll carries: the chain index and both boards' secrets at it."""

    index: int
    secrets: tuple[str, str]

    def __post_init__(self) -> None:
        object.__setattr__(self, "secrets", tuple(self.secrets))
        if isinstance(self.index, bool) or not isinstance(self.index, int) or not 1 <= self.index <= CHAIN_LENGTH:
            raise DiceError(_("a linked roll's chain index is 1 to {most}, got {index!r}").format(most=CHAIN_LENGTH, index=self.index))
        if len(self.secrets) != 2 or not all(_is_hex64(s) for s in self.secrets):
            raise DiceError(_("a linked roll carries both boards' secrets, 64 hex digits each"))

    def to_json(self) -> dict:
        return {"index": self.index, "secrets": list(self.secrets)}

    @classmethod
    def from_json(cls, value, where: str | None = None) -> LinkProof:
        where = pgettext("where in a record", "link") if where is None else where
        from ..errors import RecordError

        if not isinstance(value, dict) or set(value) != {"index", "secrets"}:
            raise RecordError(_("{where}: expected the fields index and secrets").format(where=where))
        secrets = value["secrets"]
        if not isinstance(secrets, list):
            raise RecordError(_("{where}: 'secrets' must be a list of two hex texts").format(where=where))
        try:
            return cls(value["index"], tuple(secrets))
        except DiceError as e:
            raise RecordError(_("{where}: {problem}").format(where=where, problem=e)) from None

    def problem(self, heads: Sequence[str], after: LinkProof | None = None) -> str | None:
        """Why these secrets are not the chains' (None: they are). ``after``: the proof of the
        previous fight, whose index this one must pass (a secret is never used twice)."""
        if after is not None and self.index <= after.index:
            return _("chain index {index} was used already (the last fight used {last}): "
                     "a secret once shown is never used again").format(index=self.index, last=after.index)
        for board, (secret, head) in enumerate(zip(self.secrets, heads), start=1):
            known = (after.index, after.secrets[board - 1]) if after is not None else None
            if not chains_to(secret, self.index, head, known=known):
                wrong = (_("board {board}'s secret at chain index {index} does not lead to the chain committed at the start")
                         if known is None else
                         _("board {board}'s secret at chain index {index} does not lead to the chain it revealed before"))
                return wrong.format(board=board, index=self.index)
        return None
