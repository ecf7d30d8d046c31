"""``companion link-match``: two board processes, linked as two players' boards would be.

    companion link-match --variant combat --a 2 --b greedy --games 4 --movetime 100 --seed 1
    companion link-match --variant chess2 --a max --b 3 --broker mqtt://127.0.0.1:1883

ai-match's options (companion.ai.match.add_match_arguments), plus ``--broker URL`` (through an MQTT broker; without it the boards link
directly over TCP on this machine's loopback). Two processes of ``python -m
companion.link.board`` (the host with side A's seat, the guest with side B's, as ai-match seats
them) pair with one pairing code (handed over on their standard input, as a player types it),
and play every game through the link: the same code the app uses, computer players at both
boards. One line per game, the score last (``score A-B-draws``), as ai-match prints it.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from typing import Callable

from ..ai.match import DEFAULT_MAX_PLIES, PLIES_PER_PLAYER, add_match_arguments, check_player
from ..cli_parser import army_options, fight_options, player_options
from ..errors import LinkError
from ..i18n import _
from .code import PairingCode


def add_parser(subparsers):
    p = subparsers.add_parser(
        "link-match", help=_("play computer players on two linked board processes and print the score"),
        description=_("Play N games between A (the host board) and B (the guest board), each at its own "
                      "board process, linked through the board-to-board link (TCP on loopback, or an MQTT "
                      "broker). One line per game; the last line is 'score A-B-draws'."))
    add_match_arguments(p, games=2)
    p.add_argument("--broker", default=None, metavar="URL",
                   help=_("link through this MQTT broker (mqtt://host:port); default: TCP on loopback"))
    p.set_defaults(func=run)
    return p


def spec_of(args) -> dict:
    from ..games import make_rules

    for side in ("a", "b"):
        check_player(side, getattr(args, side))
    options = {**player_options(args), **army_options(args), **fight_options(args),
               **({"mode": args.mode} if args.mode else {})}
    rules = make_rules(args.variant, args.map, **options)
    n = rules.nplayers
    if args.variant == "dungeon" and "armies" in options:  # each seat's preset, refused here in one line
        from ..games.draft import draft_problems, zone_capacity

        for seat, army in enumerate(rules.armies()):
            problems = draft_problems(rules.roster, army, rules.draft_rules, zone_capacity(rules, seat, army))
            if problems:
                raise LinkError(_("--armies: {army} cannot play seat {seat} on this map: {problems}").format(
                    army=options["armies"][seat], seat=seat + 1, problems="; ".join(problems)))
    open_options = {k: str(v) for k, v in options.items() if k in ("fights", "mode")}
    return {"variant": args.variant, "map": args.map, "players": n, "a": args.a, "b": args.b,
            "armies": options.get("armies"), "movetime": None if args.nodes else args.movetime,
            "nodes": args.nodes, "seed": args.seed, "draw_rules": args.draw_rules,
            "max_plies": args.max_plies or max(DEFAULT_MAX_PLIES, PLIES_PER_PLAYER * n),
            "options": open_options, "d6_only": bool(options.get("d6_only"))}


class BoardProcess:
    """One ``python -m companion.link.board`` child: its JSON lines on :attr:`lines`."""

    def __init__(self, role: str, data: str, spec: dict, games: int, *, code: PairingCode | None,
                 listen: str | None = None, connect: str | None = None, broker: str | None = None) -> None:
        cmd = [sys.executable, "-m", "companion.link.board", "--role", role, "--data", data,
               "--spec", json.dumps(spec), "--games", str(games)]
        if broker:
            cmd += ["--broker", broker]
        elif listen:
            cmd += ["--listen", listen]
        elif connect:
            cmd += ["--connect", connect]
        self.role = role
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env={**os.environ, "KIVY_NO_ARGS": "1"})
        self.proc.stdin.write((code.digits if code else "") + "\n")
        self.proc.stdin.close()
        self.lines: list[dict] = []
        self.cond = threading.Condition()
        self.stderr = ""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            try:
                item = json.loads(line)
            except ValueError:
                continue
            with self.cond:
                self.lines.append(item)
                self.cond.notify_all()
        with self.cond:
            self.cond.notify_all()

    def _read_err(self) -> None:
        self.stderr = self.proc.stderr.read()

    def wait_for(self, test: Callable[[dict], bool], timeout: float) -> dict:
        end = time.monotonic() + timeout
        seen = 0
        with self.cond:
            while True:
                for item in self.lines[seen:]:
                    if test(item):
                        return item
                seen = len(self.lines)
                left = end - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and seen == len(self.lines)):
                    last = self.stderr.strip().splitlines()[-1] if self.stderr.strip() else ""
                    raise LinkError((_("the {role} board stopped or took too long: {reason}") if last else
                                     _("the {role} board stopped or took too long")).format(role=self.role, reason=last))
                self.cond.wait(min(left, 0.2))

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_match(spec: dict, games: int, *, broker: str | None, out: Callable[[str], None] = print,
              data: str | None = None) -> tuple[int, int, int]:
    if broker:
        from .transport import parse_broker  # the link's sockets (and aiohttp's connector): only when it runs

        parse_broker(broker)
    workdir = data or tempfile.mkdtemp(prefix="companion-link-")
    code = PairingCode.from_number(secrets.randbelow(10 ** 8))
    port = free_port()
    host = BoardProcess("host", os.path.join(workdir, "host"), spec, games, code=code,
                        listen=None if broker else f"127.0.0.1:{port}", broker=broker)
    guest = BoardProcess("guest", os.path.join(workdir, "guest"), spec, games, code=code,
                         connect=None if broker else f"127.0.0.1:{port}", broker=broker)
    wa = wb = draws = 0
    try:
        per_game = 60 + 4 * spec["max_plies"] * ((spec["movetime"] or 200) / 1000.0)
        for g in range(1, games + 1):
            started = time.monotonic()
            item = host.wait_for(lambda x, g=g: x.get("event") == "game" and x["game"] == g, per_game)
            theirs = guest.wait_for(lambda x, g=g: x.get("event") == "game" and x["game"] == g, 30)
            if theirs["hash"] != item["hash"] or theirs["actions"] != item["actions"]:
                raise LinkError(_("game {g}: the boards ended on different positions").format(g=g))
            w = item["result"]
            wa, wb, draws = wa + (w == "A"), wb + (w == "B"), draws + (w == "draw")
            out(f"game {g}/{games}: A={spec['a']} as player {item['seat_a']} vs B={spec['b']}: "
                f"{'draw' if w == 'draw' else w + ' wins'} ({item['reason']}), {item['plies']} plies, "
                f"{time.monotonic() - started:.1f} s; running {wa}-{wb}-{draws}")
        for board in (host, guest):
            board.wait_for(lambda x: x.get("event") == "done", 30)
    finally:
        host.kill()
        guest.kill()
        if data is None:
            shutil.rmtree(workdir, ignore_errors=True)
    out(f"score {wa}-{wb}-{draws}")
    return wa, wb, draws


def run(args) -> int:
    spec = spec_of(args)
    run_match(spec, args.games, broker=args.broker, out=lambda line: print(line, flush=True))
    return 0
