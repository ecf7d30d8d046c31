"""Fairness between two boards that do not trust each other: sealed choices, dice, duels.

* :class:`Sealing` - commit-reveal of any choice (companion.link.sealing): a board commits,
  and opens only once the other board's commitment is journaled on its side, so neither choice
  can depend on the other. Used for the set-up (armies, deployments, the coin) and for Chess 2's
  duel bids.
* :class:`Fights` - a Combat Chess fight's dice from both boards' hash-chain secrets
  (companion.dice.linked): the board that did *not* start the fight reveals its secret for the
  fight's chain index as soon as the fight stands; the board that did writes the rolls (all
  rounds, from the one pair of secrets). One extra message each way: the dice come one round
  trip after the capture.
* :class:`Parts` - a joint decision (Chess 2's bids): each board seals its players' parts, both
  open, and the writer plays them as the session's ``PlayPart`` actions, which the other board
  checks against what was opened.
"""

from __future__ import annotations

from ..dice.linked import LinkProof, chains_to
from ..errors import LinkError
from ..i18n import _
from ..session import PlayPart
from .sealing import commitment, nonce_for, opens
from .state import LinkState


class Sealing:
    def __init__(self, st: LinkState) -> None:
        self.st = st

    def seal(self, label: str, value) -> None:
        """Commit to ``value`` under ``label`` (journaled first, opened later by :meth:`step`)."""
        st = self.st
        if label in st.sealed or (label, st.me) in st.commits:
            raise LinkError(_("your choice is sealed already"))
        st.write({"type": "sealed", "label": label, "value": value})
        st.sealed[label] = value
        self._commit(label)

    def _commit(self, label: str) -> None:
        st = self.st
        k = len(st.mine) + 1
        digest = commitment(label, st.sealed[label], nonce_for(st.root, k))
        st.commits[(label, st.me)] = (digest, k)
        st.note("commit", label=label, digest=digest)

    def finish(self) -> None:
        """After a power cut: a choice journaled as sealed whose commitment was not (the power
        went between the two lines; nothing of it was sent) is committed now, the same value:
        once sealed, a choice is never made again."""
        st = self.st
        for label in list(st.sealed):
            if (label, st.me) not in st.commits:
                self._commit(label)

    def is_sealed(self, label: str, board: int) -> bool:
        return (label, board) in self.st.commits

    def value(self, label: str, board: int):
        return self.st.opened.get((label, board))

    def both_open(self, label: str) -> bool:
        return all((label, b) in self.st.opened for b in (0, 1))

    def step(self, label: str) -> bool:
        """Open this board's choice once the other board's commitment is in."""
        st = self.st
        if (label, st.me) in st.commits and (label, st.peer) in st.commits and (label, st.me) not in st.opened:
            _, k = st.commits[(label, st.me)]
            value = st.sealed[label]
            st.opened[(label, st.me)] = value
            st.note("open", label=label, value=value, nonce=nonce_for(st.root, k))
            return True
        return False

    # ----- notes ---------------------------------------------------------------------------------------
    def absorb_mine(self, note: dict, k: int) -> None:
        st = self.st
        if note["kind"] == "commit":
            st.commits[(note["label"], st.me)] = (note["digest"], k)
        elif note["kind"] == "open":
            st.opened[(note["label"], st.me)] = note["value"]

    def absorb_theirs(self, note: dict, k: int) -> str | None:
        """The other board's commit or open; returns why it is refused (None: taken)."""
        st = self.st
        label = note.get("label")
        if not isinstance(label, str) or len(label) > 40:
            return _("a sealed choice without a label")
        if note["kind"] == "commit":
            digest = note.get("digest")
            if not isinstance(digest, str) or len(digest) != 64:
                return _("a commitment that is not a SHA-256 digest")
            if (label, st.peer) in st.commits:
                return _("a second commitment for {label}").format(label=label)
            st.commits[(label, st.peer)] = (digest, k)
            return None
        if (label, st.peer) not in st.commits:
            return _("an opening for {label} without its commitment").format(label=label)
        if (label, st.me) not in st.commits:
            return _("an opening for {label} before this board committed (it may not be seen yet)").format(label=label)
        if (label, st.peer) in st.opened:
            return _("a second opening for {label}").format(label=label)
        digest, _number = st.commits[(label, st.peer)]
        if not opens(digest, label, note.get("value"), note.get("nonce")):
            return _("the opening for {label} is not what the other board committed to").format(label=label)
        st.opened[(label, st.peer)] = note["value"]
        return None


class Fights:
    """A fight's dice: the reveal of the board that waits, the rolls of the board that writes."""

    def __init__(self, st: LinkState, append) -> None:
        self.st, self._append = st, append

    def index(self) -> int:
        last = self.st.session.fights.last_link
        return (last.index if last is not None else 0) + 1

    def step(self, writer: int) -> bool:
        st = self.st
        fight = st.session.pending_fight()
        if fight is None:
            return False
        if fight.round > 1:  # a re-roll after a tie: the same secrets
            if writer == st.me:
                self._append(st.session.fights.linked_roll(st.session.fights.last_link))
                return True
            return False
        i = self.index()
        if writer != st.me:
            if i in st.revealed:
                return False
            st.revealed.add(i)
            st.note("reveal", index=i, secret=st.chain.secret(i))
            return True
        theirs = st.peer_secrets.get(i)
        if theirs is None:
            return False
        mine = st.chain.secret(i)
        secrets = (mine, theirs) if st.me == 0 else (theirs, mine)
        self._append(st.session.fights.linked_roll(LinkProof(i, secrets)))
        return True

    def waiting(self) -> int | None:
        """The chain index whose other secret this board waits for (None: not waiting)."""
        st = self.st
        if st.session is None or st.session.pending_fight() is None or st.writer() != st.me:
            return None
        i = self.index()
        return i if i not in st.peer_secrets else None

    def absorb_mine(self, note: dict) -> None:
        self.st.revealed.add(note["index"])

    def absorb_theirs(self, note: dict) -> str | None:
        st = self.st
        i, secret = note.get("index"), note.get("secret")
        head = st.session.setup.chains[st.peer] if st.session is not None and st.session.setup.chains else None
        if head is None:
            return _("a dice secret in a game without linked dice")
        if not chains_to(secret, i, head):
            return _("the dice secret at chain index {i} does not lead to the other board's chain").format(i=i)
        st.peer_secrets[i] = secret
        return None


class Parts:
    """A joint decision (Chess 2's bids) between two boards."""

    def __init__(self, st: LinkState, sealing: Sealing, append) -> None:
        self.st, self.sealing, self._append = st, sealing, append
        self.chosen: dict[int, str] = {}  # this board's parts chosen so far (sealed when all are in)

    def label(self) -> str:
        """``part@N``: N counts the actions before the decision's own parts."""
        log = self.st.log
        n = len(log)
        while n and log[n - 1].get("type") == "part":
            n -= 1
        return f"part@{n}"

    def choose(self, player: int, part: str) -> None:
        """A local player's part: kept until every local player's is in, then sealed."""
        st = self.st
        d = st.session.joint_decision()
        if d is None:
            raise LinkError(_("no secret choice is waiting"))
        players = d.get("players")
        if player not in players or st.board_of(player) != st.me:
            raise LinkError(_("that part is for a player at the other board"))
        options = [str(o) for o in st.session.part_options(player)]
        if str(part) not in options:
            raise LinkError(_("{part!r} is not possible (possible: {options})").format(
                part=part, options=', '.join(options)))
        label = self.label()
        if label in st.sealed:
            raise LinkError(_("your part is sealed already"))
        self.chosen[player] = str(part)
        mine = [p for p in players if st.board_of(p) == st.me]
        if all(p in self.chosen for p in mine):
            value = {str(p): self.chosen[p] for p in mine}
            self.chosen = {}
            self.sealing.seal(label, value)

    def step(self, writer: int) -> bool:
        st = self.st
        d = st.session.joint_decision()
        if d is None:
            return False
        label = self.label()
        if self.sealing.step(label):
            return True
        if writer != st.me or not self.sealing.both_open(label):
            return False
        sealed = set(st.session.sealed_players)
        for p in d.get("players"):
            if p not in sealed:
                part = self.sealing.value(label, st.board_of(p)).get(str(p))
                self._append(PlayPart(p, str(part)))
                return True
        return False

    def check(self, action: PlayPart) -> str | None:
        """Why the other board's PlayPart is not what was opened (None: it is)."""
        label = self.label()
        value = self.sealing.value(label, self.st.board_of(action.player))
        if not isinstance(value, dict) or value.get(str(action.player)) != action.part:
            return _("player {player}'s part {part!r} is not the one opened for {label}").format(
                player=action.player + 1, part=action.part, label=label)
        return None
