"""Boards on one network find each other for the link with mDNS (zeroconf), for real, in a
network namespace of its own (only a loopback interface, multicast on), as the broadcast's
discovery test does: the guest knows only the code; a stranger's board with the same nameplate
is found too, and gets nowhere without the code."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_broadcast_discovery import NETNS, _namespace_problem

pytestmark = pytest.mark.slow  # real mDNS in a network namespace

HERE = Path(__file__).resolve().parent


def test_the_guest_finds_the_host_by_its_nameplate_and_pairs_with_the_code():
    problem = _namespace_problem()
    if problem is not None:
        pytest.skip(f"real multicast discovery needs a network namespace: {problem}")
    r = subprocess.run(["unshare", "-n", "sh", "-c", NETNS, sys.executable, str(HERE / "link_discovery_runner.py")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-3000:]
    result = json.loads(r.stdout.strip().splitlines()[-1])
    assert result["paired"] and result["host_connected"] and not result["stranger_connected"]
    assert result["seconds"] < 20
