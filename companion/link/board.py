"""One board of a link, without a screen: what ``companion link-match`` runs twice.

A :class:`LinkedBoard` wires the same parts the app uses: the data folder's stores (the game's
journal, companion.journal; the link's, companion.link.store), a :class:`~companion.link.
transport.LinkPort` (the channel on TCP or MQTT) and a :class:`~companion.link.game.LinkedGame`,
with computer players for its own seats. It pairs with the code (or reconnects with the saved
key), plays the games the host proposes, and after a kill or a power cut picks up where its
journals stand: run it again on the same data folder.

Run as ``python -m companion.link.board`` (the code on standard input, never on the command
line); it prints one JSON line per step (``listening``, ``paired``, ``game``, ``done``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Callable

from ..ai.evaluate import Evaluator
from ..ai.match import make_player
from ..core.moves import Answer
from ..errors import CompanionError, LinkError
from ..i18n import _
from ..journal import JournalStore
from ..session import PlayAnswer, PlayMove, PlayPart, Session
from .channel import Channel
from .code import PairingCode
from .events import OtherGame, PeerAway, ProposalReceived, Refused
from .game import LinkedGame
from .lobby import LinkSeat, Proposal, computer_choices
from .store import LinkStore, game_root
from .transport import LinkPort, MqttLink, TcpGuest, TcpHost

ROLE_OF = {0: "host", 1: "guest"}


class LinkedBoard:
    """A board's side of a link: stores, port, the linked game, its computer players."""

    def __init__(self, data: str | os.PathLike, *, role: str, spec: dict, transport, code: PairingCode | None,
                 out: Callable[[dict], None], master: bytes | None = None,
                 entropy: Callable[[int], bytes] = os.urandom) -> None:
        self.data = Path(data)
        self.me = 0 if role == "host" else 1
        self.spec, self.out = spec, out
        self.links = LinkStore(self.data)
        self.games = JournalStore(self.data)
        saved = self.links.pairing()
        if saved is not None and saved["role"] != role:
            raise LinkError(_("{data}: this board was paired as the {role}").format(data=self.data, role=saved['role']))
        if saved is None and code is None:
            raise LinkError(_("this board is not paired: give the pairing code"))
        self.saved = saved
        self.master = saved["master"] if saved else (master or entropy(32))
        self.number = saved["game"] if saved else 1
        self.nameplate = saved["nameplate"] if saved else code.nameplate
        channel = Channel(role, entropy, key=saved["key"] if saved else None,
                          code=None if saved else code, epoch=saved["epoch"] if saved else 0)
        self.port = LinkPort(channel, transport, save_epoch=self._save_epoch)
        self.game: LinkedGame | None = None
        self.players: dict[int, object] = {}
        self.rejected: dict[str, int] = {}
        self.refused = 0
        self._over_since: float | None = None
        self._stalls: set = set()

    # ----- persistence -------------------------------------------------------------------------------
    def _save_epoch(self, epoch: int) -> None:
        key = self.port.channel.key if self.port.channel.confirmed else None
        if key is not None:
            self.links.save_pairing(role=ROLE_OF[self.me], nameplate=self.nameplate, key=key, master=self.master,
                                    epoch=epoch, game=self.number)

    def _start_session(self, setup) -> Session:
        journal = self.games.create()
        session, _ = Session.new(setup, recorder=journal.append)
        self._journal = journal
        return session

    def _open_game(self) -> list:
        """This board's side of game :attr:`number`: resumed from its journals, or new."""
        link_journal = self.links.open_game(self.number, self.me)
        records = [r for r in self.links.records() if r.get("type") != "link"]
        session, log = None, []
        read = self.games.unfinished()
        if read is not None and read.entries and records:
            session, used, problem = Session.replay(read.entries)
            if problem is not None:
                raise LinkError(_("the game's journal could not be replayed: {problem}").format(problem=problem))
            self._journal = self.games.reopen(read, keep=used)
            session.recorder = self._journal.append
            log = read.entries[1:used]
        elif read is not None:
            self.games.archive("abandoned")
        root = game_root(self.master, self.number)
        self.game, events = LinkedGame.resume(self.me, root, records, session=session, log=log,
                                              record=link_journal.append, start_game=self._start_session,
                                              number=self.number)
        self.players = {}
        if self.port.connected:
            events += self.game.connected(self.port.now_ms())
        if self.me == 0 and self.game.proposal is None:
            events += self.game.propose(self._proposal())
        return events

    def _proposal(self) -> Proposal:
        spec, g = self.spec, self.number - 1
        n = spec["players"]
        seat_a = g % n
        person = spec.get("guest_person", False)  # the guest's seats played by a person (a board with a screen)
        seats = tuple(LinkSeat(f"{'A' if s == seat_a else 'B'} {s + 1}", 0 if s == seat_a else 1,
                               s == seat_a or not person, 1 if s == seat_a or not person else 0)
                      for s in range(n))
        return Proposal(spec["variant"], seats, f"link-{spec['seed']}-{self.number}", spec.get("map"),
                        spec.get("draw_rules", False), 0, 15 * 60, tuple(sorted(spec.get("options", {}).items())),
                        spec.get("d6_only", False))

    # ----- the loop ----------------------------------------------------------------------------------------
    def run(self, games: int) -> None:
        self.port.start()
        if self.saved is not None:
            self._handle(self._open_game())
        try:
            while self.number <= games:
                self._step()
        finally:
            self.port.stop()
        self.out({"event": "done", "rejected": self.rejected, "refused": self.refused})

    def _step(self) -> None:
        port = self.port
        try:
            item = port.inbox.get(timeout=0.05)
        except Exception:  # queue.Empty
            item = None
        now = port.now_ms()
        game = self.game
        if item is not None:
            kind = item[0]
            if kind == "paired":
                self.links.save_pairing(role=ROLE_OF[self.me], nameplate=self.nameplate, key=item[1],
                                        master=self.master, epoch=port.channel.epoch, game=self.number)
                self.out({"event": "paired"})
                self._handle(self._open_game())
                game = self.game
            elif kind == "failed":
                raise LinkError(_("pairing failed: {reason}").format(reason=item[1]))
            elif kind == "rejected":
                self.rejected[item[1]] = self.rejected.get(item[1], 0) + 1
            elif game is None:
                pass
            elif kind == "up":
                self._handle(game.connected(now))
            elif kind == "down":
                game.disconnected()
            elif kind == "payload":
                self._handle(game.receive(item[1], now), item[1])
        if self.game is not None:
            self._handle(self.game.tick(now))
            self._play()
            self._finish_if_over()
        self._flush()
        self._stall_if_asked()

    def _stall_if_asked(self) -> None:
        """Fault injection for the kill tests (``spec["stall"]``: ``fight`` or ``bid`` and its
        count): stop here, everything journaled and sent, so a test can kill the board at that
        moment: a fight waiting for its dice, a duel with this board's bid sealed."""
        stall = self.spec.get("stall")
        game = self.game
        if not stall or game is None or game.phase != "playing" or self._over():
            return
        session = game.session
        if stall["when"] == "fight":
            hit = session.pending_fight() is not None
        else:
            d = session.joint_decision()
            hit = d is not None and game.parts.label() in game.st.sealed
        key = (stall["when"], len(game.st.log))
        if hit and key not in self._stalls:
            self._stalls.add(key)
            if len(self._stalls) >= stall.get("count", 1):
                self.out({"event": "stalled", "when": stall["when"], "log": len(game.st.log)})
                while True:
                    time.sleep(1)

    def _flush(self) -> None:
        if self.game is not None:
            out = self.game.data_to_send()
            if out:
                self.port.send(out)

    def _handle(self, events: list, payload: bytes | None = None) -> None:
        for e in events:
            if isinstance(e, ProposalReceived):
                self._handle(self.game.accept())
            elif isinstance(e, Refused):
                self.refused += 1
                self.out({"event": "refused", "why": e.why})
            elif isinstance(e, OtherGame) and payload is not None and e.number == self.number + 1 \
                    and self._over():
                self._end_game()
                self._handle(self.game.receive(payload, self.port.now_ms()))
            elif isinstance(e, PeerAway):
                self.out({"event": "away"})
        game = self.game
        if game is not None and game.phase == "lobby" and game.proposal is not None and game.st.accepted \
                and game.st.choices is None:
            self._handle(game.choose(computer_choices(game.proposal, self.me, self.spec.get("armies"))))

    # ----- the computer's moves --------------------------------------------------------------------------
    def _player(self, seat: int):
        if seat not in self.players:
            session = self.game.session
            g = self.number - 1
            side = "a" if self.game.proposal.seats[seat].name.startswith("A") else "b"
            spec = self.spec["a"] if side == "a" else self.spec["b"]
            rng = random.Random(f"{self.spec['seed']}:{side}:{g}:{seat}")
            self.players[seat] = make_player(spec, session.rules, rng, Evaluator(session.rules))
        return self.players[seat]

    def _play(self) -> None:
        game = self.game
        if game.phase != "playing" or self._over():
            return
        seat = game.to_act()
        if seat is None:
            return
        session = game.session
        pos, rules = session.pos, session.rules
        player = self._player(seat)
        budget = self.spec["movetime"] / 1000.0 if self.spec.get("movetime") else None
        nodes = self.spec.get("nodes")
        d = pos.pending
        if d is not None and d.get("players"):
            part = player.choose_part(pos, seat, now=time.perf_counter, budget=budget, max_nodes=nodes)
            self._handle(game.act(PlayPart(seat, str(part))))
            return
        if session.draw_offer is not None:  # computers decline, except at the ply cap
            return
        info = player.choose(pos, now=time.perf_counter, budget=budget, max_nodes=nodes)
        best = info.best
        if best is None:
            raise CompanionError(_("the computer found no action for seat {seat}").format(seat=seat + 1))
        action = PlayAnswer(rules.answer_text(best)) if isinstance(best, Answer) else PlayMove(rules.move_text(pos, best))
        self._handle(game.act(action))
        trim = getattr(player, "trim", None)
        if trim is not None:
            trim()

    # ----- the end of a game ---------------------------------------------------------------------------------
    def _plies(self) -> int:
        return len(self.game.session.moves)

    def _over(self) -> bool:
        game = self.game
        if game is None or game.phase != "playing":
            return False
        return game.session.result is not None or self._plies() >= self.spec["max_plies"]

    def _finish_if_over(self) -> None:
        game = self.game
        if not self._over():
            return
        st = game.st
        if st.peer_log < len(st.log):  # the other board has not confirmed the last action yet
            if self._over_since is None:
                self._over_since = time.monotonic()
            if time.monotonic() - self._over_since < 10:
                return
        self._end_game()

    def _end_game(self) -> None:
        game = self.game
        session = game.session
        result = session.result
        seats_a = {i for i, s in enumerate(game.proposal.seats) if s.name.startswith("A")}
        if result is None or not result.winners:
            winner = "draw"
        else:
            winner = "A" if result.winners & seats_a else "B"
        extra = {}
        if session.record is not None:
            from ..dice.record import format_record

            extra[".dice.jsonl"] = format_record(session.record)
        self._journal.close()
        archived = self.games.archive(session.setup.game_id, extra)
        self.out({"event": "game", "game": self.number, "result": winner,
                  "reason": result.reason if result else f"adjudicated draw after {self._plies()} plies",
                  "plies": self._plies(), "actions": len(game.st.log), "hash": game.st.hash(),
                  "journal": str(archived) if archived else "", "seat_a": min(seats_a) + 1})
        self.links.end_game()
        self._over_since = None
        self.number += 1
        self._save_epoch(self.port.channel.epoch)
        self.game = None
        self._handle(self._open_game())


# ----------------------------------------------------------------------------------- the process
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.link.board")
    p.add_argument("--role", choices=("host", "guest"), required=True)
    p.add_argument("--data", required=True)
    p.add_argument("--listen", default=None, metavar="HOST:PORT")
    p.add_argument("--connect", default=None, metavar="HOST:PORT")
    p.add_argument("--broker", default=None)
    p.add_argument("--spec", required=True, help="the match as JSON (variant, players, a, b, seed, ...)")
    p.add_argument("--games", type=int, default=1)
    args = p.parse_args(argv)
    spec = json.loads(args.spec)

    def out(item: dict) -> None:
        print(json.dumps(item), flush=True)

    try:
        saved = LinkStore(args.data).pairing()
        code = None
        if saved is None:
            code = PairingCode.parse(sys.stdin.readline().strip())
        nameplate = saved["nameplate"] if saved else code.nameplate
        if args.broker:
            transport = MqttLink(args.broker, nameplate, args.role, f"companion-{args.role}-{os.getpid()}")
        elif args.role == "host":
            host, _colon, port = (args.listen or "127.0.0.1:0").rpartition(":")
            transport = TcpHost(host or "127.0.0.1", int(port or 0))
            out({"event": "listening", "port": transport.port})
        else:
            host, _colon, port = (args.connect or "").rpartition(":")
            if not host or not port.isdigit():
                raise LinkError(_("--connect HOST:PORT: the host board's address"))
            transport = TcpGuest((host, int(port)))
        master = None
        if spec.get("seed") is not None:  # a match replays: its secrets come from its seed
            master = hashlib.sha256(f"companion link-match {spec['seed']} {args.role}".encode()).digest()
        board = LinkedBoard(args.data, role=args.role, spec=spec, transport=transport, code=code, out=out,
                            master=master)
        board.run(args.games)
    except CompanionError as e:
        print(f"companion: {e}", file=sys.stderr, flush=True)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
