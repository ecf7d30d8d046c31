"""Run inside a network namespace of its own (tests/test_link_discovery.py starts it with
``unshare -n``, loopback up with multicast on): a host board announces its nameplate with
zeroconf, a stranger announces the same nameplate, and a guest that knows only the code finds
the boards, pairs with the right one and says so as one JSON line. Nothing leaves the namespace."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.link.channel import Channel  # noqa: E402
from companion.link.code import PairingCode  # noqa: E402
from companion.link.discovery import LinkAnnouncer, LinkFinder  # noqa: E402
from companion.link.transport import LinkPort, TcpGuest, TcpHost  # noqa: E402

CODE = PairingCode("41209337")


def main() -> int:
    host = TcpHost("127.0.0.1", 0)
    stranger = TcpHost("127.0.0.1", 0)  # another board, same nameplate, another code
    announcers = [LinkAnnouncer("Board by the window", CODE.nameplate, "127.0.0.1", host.port, ["127.0.0.1"]),
                  LinkAnnouncer("Board by the door", CODE.nameplate, "127.0.0.1", stranger.port, ["127.0.0.1"])]
    for a in announcers:
        a.start()
    ports = [LinkPort(Channel("host", os.urandom, code=CODE), host, save_epoch=lambda e: None),
             LinkPort(Channel("host", os.urandom, code=PairingCode("41555555")), stranger, save_epoch=lambda e: None)]
    finder = LinkFinder(CODE.nameplate, ["127.0.0.1"])
    guest = LinkPort(Channel("guest", os.urandom, code=CODE), TcpGuest(find=finder.find), save_epoch=lambda e: None)
    started = time.monotonic()
    for p in ports + [guest]:
        p.start()
    try:
        while time.monotonic() - started < 30:
            if guest.channel.connected and guest.channel.confirmed:
                break
            if guest.channel.failed:  # the stranger's board: a fresh channel, and the next board
                guest.try_another(Channel("guest", os.urandom, code=CODE))
            time.sleep(0.05)
        print(json.dumps({"paired": guest.channel.connected, "seconds": round(time.monotonic() - started, 2),
                          "host_connected": ports[0].channel.connected,
                          "stranger_connected": ports[1].channel.connected}), flush=True)
    finally:
        for p in ports + [guest]:
            p.stop()
        finder.stop()
        for a in announcers:
            a.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
