"""Two linked boards in one process, for the link's pure tests: two LinkedGames, each with its
own session, joined through two real Channels (optionally through a tampering hand), and
computer-free random players that act through the link as a board's players would."""

from __future__ import annotations

import random

from companion.link.channel import Channel, Connected, Received
from companion.link.code import PairingCode
from companion.link.game import LinkedGame
from companion.link.lobby import LinkSeat, Proposal, default_choices
from companion.session import PlayAnswer, PlayMove, PlayPart, Session

CODE = PairingCode("41209337")


def entropy_of(seed: str):
    rng = random.Random(seed)
    return lambda n: bytes(rng.getrandbits(8) for _ in range(n))


class Board:
    """One board: a channel, a linked game, a session journal (a list) and a link journal."""

    def __init__(self, me: int, seed: str = "x", key: bytes | None = None) -> None:
        self.me = me
        self.role = "host" if me == 0 else "guest"
        self.entropy = entropy_of(f"{seed}:{me}")
        self.channel = Channel(self.role, self.entropy, key=key, code=None if key else CODE)
        self.root = bytes([me + 1]) * 32
        self.journal: list[dict] = []
        self.records: list[dict] = []
        self.game = LinkedGame(me, self.root, record=self.records.append, start_game=self._start)
        self.events: list = []

    def _start(self, setup):
        session, _ = Session.new(setup, recorder=self.journal.append)
        return session

    @property
    def session(self):
        return self.game.session


class Pair:
    """Two boards and the wire between them. ``hand(frame, direction)`` may change, drop (None)
    or multiply (a list) each frame on its way."""

    def __init__(self, seed: str = "x", hand=None) -> None:
        self.a, self.b = Board(0, seed), Board(1, seed)
        self.hand = hand
        self.now = 0
        self.wire: list[tuple[Board, bytes]] = []
        for board in (self.a, self.b):
            board.channel.start(self.now)
            self._collect(board)
        self.pump()

    def other(self, board: Board) -> Board:
        return self.b if board is self.a else self.a

    def _collect(self, board: Board) -> None:
        for frame in board.channel.data_to_send():
            out = self.hand(frame, board.role) if self.hand else frame
            for f in ([] if out is None else out if isinstance(out, list) else [out]):
                self.wire.append((self.other(board), f))

    def flush(self, board: Board) -> None:
        payloads = board.game.data_to_send()
        if board.channel.connected:
            for p in payloads:
                board.channel.send(p)
        self._collect(board)

    def feed(self, board: Board, events: list) -> None:
        board.events += events
        self.flush(board)

    def pump(self, limit: int = 100_000) -> None:
        for _ in range(limit):
            for board in (self.a, self.b):
                self.flush(board)
            if not self.wire:
                return
            to, frame = self.wire.pop(0)
            for e in to.channel.receive(frame, self.now):
                if isinstance(e, Connected):
                    self.feed(to, to.game.connected(self.now))
                elif isinstance(e, Received):
                    self.feed(to, to.game.receive(e.payload, self.now))
            self._collect(to)
        raise AssertionError("the boards never went quiet")

    def tick(self, ms: int) -> None:
        self.now += ms
        for board in (self.a, self.b):
            board.channel.tick(self.now)
            self._collect(board)
            self.feed(board, board.game.tick(self.now))
        self.pump()

    def start(self, game: str, *, players: int = 2, armies=("classic", "classic"), first: int | None = 0,
              board_map=None, options: dict | None = None, boards: tuple[int, ...] | None = None) -> None:
        """The host proposes ``game``; ``boards``: each seat's board (default: the first seat at
        the host, the others at the guest)."""
        boards = boards or tuple(0 if i == 0 else 1 for i in range(players))
        seats = tuple(LinkSeat(f"P{i + 1}", b) for i, b in enumerate(boards))
        proposal = Proposal(game, seats, f"t-{game}", board_map, first=first, claim_after_s=60, options=options or {})
        self.feed(self.a, self.a.game.propose(proposal))
        self.pump()
        self.feed(self.b, self.b.game.accept())
        self.pump()
        for board, army in ((self.a, armies[0]), (self.b, armies[1])):
            self.feed(board, board.game.choose(default_choices(proposal, board.me, army)))
        self.pump()


def act_randomly(pair: Pair, rng: random.Random) -> bool:
    """Whoever must act does something legal at random; False when nobody can."""
    for board in (pair.a, pair.b):
        seat = board.game.to_act()
        if seat is None:
            continue
        s = board.session
        pos, rules = s.pos, s.rules
        d = pos.pending
        if d is not None and d.get("players"):
            action = PlayPart(seat, str(rng.choice(s.part_options(seat))))
        elif d is not None:
            action = PlayAnswer(rules.answer_text(rng.choice(rules.answers(pos))))
        else:
            action = PlayMove(rules.move_text(pos, rng.choice(rules.legal_moves(pos))))
        pair.feed(board, board.game.act(action))
        pair.pump()
        return True
    return False


def play_out(pair: Pair, seed: int = 1, max_plies: int = 400) -> int:
    rng = random.Random(seed)
    plies = 0
    while pair.a.session.result is None and plies < max_plies:
        if not act_randomly(pair, rng):
            break
        plies += 1
    return plies
