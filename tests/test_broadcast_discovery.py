"""Discovery: a board announces itself with mDNS/DNS-SD and a hall with the round's key finds it
without an address (and a board announced without the key is found but not believed).

For real, over multicast, in a network namespace of its own (``unshare -n``: only a loopback
interface, multicast switched on; nothing reaches any other network), which this machine and
CI (root) allow. The names and records themselves are checked without a network."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.broadcast.discovery import SERVICE_TYPE, announce_addresses, instance_name, service_info

pytestmark = pytest.mark.slow  # real mDNS in a network namespace

HERE = Path(__file__).resolve().parent
NETNS = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && exec \"$0\" \"$@\""


def _namespace_problem() -> str | None:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "unshare or ip is missing"
    r = subprocess.run(["unshare", "-n", "sh", "-c", NETNS, "true"], capture_output=True, text=True, timeout=30)
    return None if r.returncode == 0 else f"cannot make a network namespace here ({r.stderr.strip()[:200]})"


def test_a_hall_finds_a_board_by_mdns_and_sees_it_leave():
    problem = _namespace_problem()
    if problem is not None:
        pytest.skip(f"real multicast discovery needs a network namespace: {problem}")
    r = subprocess.run(["unshare", "-n", "sh", "-c", NETNS, sys.executable, str(HERE / "broadcast_discovery_runner.py")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    steps = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    found, gone = steps
    assert found["step"] == "found" and found["key"] == f"http://127.0.0.1:{found['port']}"
    assert found["name"] == "Board 12 at the window" and found["players"] == ["White", "Black"]
    assert found["boards"] == 2 and "not signed with the round key" in found["impostor"]  # found, not believed
    assert found["seconds"] < 10
    assert gone["step"] == "gone" and gone["status"] == "off"


def test_a_board_is_announced_under_its_name_with_its_port_and_paths():
    info = service_info("Board 12 at the window", 8080, ["192.0.2.40"])
    assert info.type == SERVICE_TYPE and info.name == f"Board 12 at the window.{SERVICE_TYPE}"
    assert info.port == 8080 and info.parsed_addresses() == ["192.0.2.40"]
    assert info.properties[b"json"] == b"/game.json" and info.properties[b"format"] == b"1"


def test_instance_names_are_made_safe_and_short():
    assert instance_name("Board 7 / Hall B.2") == "Board 7 - Hall B-2"
    assert len(instance_name("x" * 200).encode()) == 63
    assert instance_name("...") == "---" and instance_name("") == "board"


def test_a_board_bound_to_one_address_announces_that_address():
    assert announce_addresses("192.0.2.7") == ["192.0.2.7"]
    assert all(isinstance(a, str) for a in announce_addresses(""))
