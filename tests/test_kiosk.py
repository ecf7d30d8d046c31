"""The kiosk around the app (companion/app/systemd.py, backlight.py, kiosk.py, pacing.Dimmer,
hardware/companion.service): sd_notify over a real unix datagram socket, a watchdog fed by a
real Kivy clock that stops pinging while the loop hangs, the screen dimmed at rest and woken by
a board event (a fake sysfs folder), and the log caps."""

from __future__ import annotations

import configparser
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.app.backlight import SysfsBacklight, dim_after_ms
from companion.app.kiosk import Kiosk, build_kiosk
from companion.app.pacing import DIM_LEVEL, Dimmer
from companion.app.systemd import LoopWatchdog, Notifier, socket_address, watchdog_interval_s
from companion.errors import CompanionError

ROOT = Path(__file__).resolve().parents[1]


class Listener:
    """systemd's end: a unix datagram socket that records each message with its arrival time."""

    def __init__(self, folder: Path, abstract: bool = False) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        if abstract:
            name = f"companion-test-{os.getpid()}-{id(self)}"
            self.sock.bind("\0" + name)
            self.env_value = "@" + name
        else:
            path = folder / "notify"
            self.sock.bind(str(path))
            self.env_value = str(path)
        self.sock.settimeout(0.05)
        self.messages: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                continue
            except OSError:
                return
            self.messages.append((time.monotonic(), data.decode()))

    def wait_for(self, text: str, count: int = 1, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while sum(m == text for _, m in self.messages) < count:
            assert time.monotonic() < deadline, f"no {count} x {text!r} within {timeout} s: {self.messages}"
            self._stop.wait(0.01)

    def times(self, text: str) -> list[float]:
        return [t for t, m in self.messages if m == text]

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


@pytest.fixture
def listener(tmp_path):
    ear = Listener(tmp_path)
    yield ear
    ear.close()


# --- sd_notify ----------------------------------------------------------------------------------


def test_notify_socket_addresses_a_path_or_the_abstract_namespace():
    assert socket_address({"NOTIFY_SOCKET": "/run/systemd/notify"}) == "/run/systemd/notify"
    assert socket_address({"NOTIFY_SOCKET": "@abc"}) == "\0abc"
    assert socket_address({}) is None
    assert socket_address({"NOTIFY_SOCKET": "relative"}) is None


def test_watchdog_interval_from_the_environment_is_for_this_process_only():
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"}, pid=7) == 30.0
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "8"}, pid=7) is None
    assert watchdog_interval_s({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_interval_s({}) is None


def test_ready_and_stopping_reach_a_real_socket(listener):
    kiosk = build_kiosk({"NOTIFY_SOCKET": listener.env_value, "WATCHDOG_USEC": "1000000"})
    kiosk.started("playing chess")
    listener.wait_for("READY=1\nSTATUS=playing chess")
    kiosk.stopping()
    listener.wait_for("STOPPING=1")


def test_the_abstract_namespace_works_too(tmp_path):
    ear = Listener(tmp_path, abstract=True)
    try:
        assert Notifier.from_environ({"NOTIFY_SOCKET": ear.env_value}).send("READY=1")
        ear.wait_for("READY=1")
    finally:
        ear.close()


def test_outside_systemd_nothing_is_sent_and_nothing_fails():
    kiosk = build_kiosk({})
    assert kiosk.watchdog_period_s is None
    kiosk.started()
    kiosk.loop_turned(1.0)
    kiosk.stopping()
    assert kiosk.notifier.sent == 0


def test_a_vanished_socket_loses_the_message_not_the_app(tmp_path):
    notifier = Notifier(str(tmp_path / "gone"))
    assert notifier.send("WATCHDOG=1") is False


def test_the_watchdog_pings_four_times_per_interval_by_the_loops_timestamps(listener):
    dog = LoopWatchdog(Notifier(listener.env_value), 1.0)
    sent = [dog.tick(t / 100) for t in range(0, 101)]  # the loop turns every 10 ms for 1 s
    assert sum(sent) == 5  # at 0, 0.25, 0.5, 0.75, 1.0
    listener.wait_for("WATCHDOG=1", 5)


def test_a_hung_loop_stops_the_pings_and_they_come_back_when_it_runs(listener):
    """The watchdog's ping is a callback of a real Kivy clock turning in its own thread (as the
    UI loop turns the app's). A callback that blocks (a hung UI) stops the pings: systemd
    would kill and restart the app after WatchdogSec."""
    from kivy.clock import ClockBase

    clock = ClockBase()
    dog = LoopWatchdog(Notifier(listener.env_value), 0.2)  # a ping every 50 ms

    def turned(_dt):  # (a Kivy callback returning False is unscheduled: return nothing)
        dog.tick(time.monotonic())

    clock.schedule_interval(turned, dog.period_s)
    stop, hung, release = threading.Event(), threading.Event(), threading.Event()
    hang_window: list[float] = []

    def hang(_dt):
        hang_window.append(time.monotonic())
        hung.set()
        release.wait(10)
        hang_window.append(time.monotonic())

    def loop():
        while not stop.is_set():
            clock.tick()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        listener.wait_for("WATCHDOG=1", 3)
        clock.schedule_once(hang, 0)
        assert hung.wait(10)
        before = len(listener.times("WATCHDOG=1"))
        # while the loop is stuck for 0.6 s (three watchdog intervals), nothing arrives
        assert not stop.wait(0.6)
        release.set()
        listener.wait_for("WATCHDOG=1", before + 2)
    finally:
        release.set()
        stop.set()
        thread.join(5)
    start, end = hang_window
    during = [t for t in listener.times("WATCHDOG=1") if start + 0.01 < t < end]
    assert during == [], f"pings while the loop hung: {during}"
    assert end - start >= 0.6
    after = [t for t in listener.times("WATCHDOG=1") if t >= end]
    assert len(after) >= 2


# --- the backlight ------------------------------------------------------------------------------


def fake_sysfs(tmp_path: Path, brightness: int = 200, maximum: int = 255) -> Path:
    device = tmp_path / "backlight" / "10-0045"
    device.mkdir(parents=True)
    (device / "max_brightness").write_text(f"{maximum}\n")
    (device / "brightness").write_text(f"{brightness}\n")
    return device


def level(device: Path) -> int:
    return int((device / "brightness").read_text())


def test_the_screen_dims_at_rest_and_a_board_event_from_another_thread_wakes_it(tmp_path):
    device = fake_sysfs(tmp_path)
    kiosk = build_kiosk({"COMPANION_BACKLIGHT": str(device.parent), "COMPANION_DIM_AFTER": "60"})
    kiosk.tick(0, changed=True, busy=False)
    kiosk.tick(59_999, changed=False, busy=False)
    assert level(device) == 200
    kiosk.tick(60_000, changed=False, busy=False)
    assert level(device) == round(200 * DIM_LEVEL)
    woke = threading.Thread(target=kiosk.woken)  # the board's thread posts a sensor change
    woke.start()
    woke.join()
    kiosk.tick(61_000, changed=False, busy=False)
    assert level(device) == 200  # the owner's brightness, not the maximum
    kiosk.tick(100_000, changed=False, busy=False)
    assert level(device) == 200
    kiosk.touched(110_000)
    kiosk.tick(169_999, changed=False, busy=False)
    assert level(device) == 200


def test_nothing_dims_while_a_clock_runs_or_the_computer_thinks(tmp_path):
    device = fake_sysfs(tmp_path)
    dimmer = Dimmer(SysfsBacklight(device), 1000)
    dimmer.tick(0)
    for t in range(0, 10_000, 500):
        dimmer.tick(t, busy=True)
    assert level(device) == 200
    dimmer.tick(10_499)  # busy until 9,500
    assert level(device) == 200  # the rest counts from the end of the busy time
    dimmer.tick(10_500)
    assert level(device) < 200


def test_a_dark_screen_at_start_comes_back_at_full_and_a_dim_level_is_never_zero(tmp_path):
    device = fake_sysfs(tmp_path, brightness=0, maximum=5)
    light = SysfsBacklight(device)
    light.set_level(0.01)
    assert level(device) == 1
    light.set_level(1.0)
    assert level(device) == 5


def test_a_backlight_that_cannot_be_written_is_said_once_and_left_alone(tmp_path, caplog):
    device = fake_sysfs(tmp_path)
    light = SysfsBacklight(device)
    (device / "brightness").unlink()
    (device / "brightness").mkdir()  # writing now fails (root can write a read-only file)
    light.set_level(0.1)
    light.set_level(1.0)
    assert light.failed
    assert sum("cannot dim the screen" in r.message for r in caplog.records) == 1


def test_no_backlight_device_means_no_dimming_and_no_error(tmp_path):
    kiosk = build_kiosk({"COMPANION_BACKLIGHT": str(tmp_path / "none"), "COMPANION_DIM_AFTER": "1"})
    kiosk.tick(0, changed=True, busy=False)
    kiosk.tick(5000, changed=False, busy=False)
    assert kiosk.dimmer.dimmed  # the policy ran; there was simply nothing to write


@pytest.mark.parametrize("text", ["-1", "soon", "86401", "nan"])
def test_a_bad_dim_time_is_one_line(text):
    with pytest.raises(CompanionError, match="COMPANION_DIM_AFTER must be seconds from 0"):
        dim_after_ms({"COMPANION_DIM_AFTER": text})


def test_dim_time_zero_never_dims():
    assert dim_after_ms({"COMPANION_DIM_AFTER": "0"}) is None
    assert dim_after_ms({}) == 300_000


# --- the unit and the log caps --------------------------------------------------------------------


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(ROOT / "hardware" / "companion.service")
    return parser


def test_the_unit_restarts_a_hung_or_dead_app_and_never_gives_up():
    service = unit()["Service"]
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    assert int(service["WatchdogSec"]) >= 10
    assert service["Restart"] == "always"
    assert unit()["Unit"]["StartLimitIntervalSec"] == "0"
    assert service["LimitNOFILE"] == "1024"  # select() (pyserial) cannot watch a descriptor past 1023


def test_the_logs_are_capped_journal_and_kivy():
    service = unit()["Service"]
    assert "KIVY_NO_FILELOG=1" in service["Environment"] or any(
        line.strip() == "Environment=KIVY_NO_FILELOG=1"
        for line in (ROOT / "hardware" / "companion.service").read_text().splitlines())
    assert service["LogRateLimitIntervalSec"] and int(service["LogRateLimitBurst"]) > 0
    journald = configparser.ConfigParser()
    journald.read(ROOT / "hardware" / "journald-companion.conf")
    assert journald["Journal"]["SystemMaxUse"] == "64M"


def test_kivy_keeps_only_the_last_log_files(tmp_path, monkeypatch):
    """Kivy writes a log file per start and keeps 100 (and purges only when it logged before
    its purge): the app's logging set-up keeps the newest KIVY_LOG_FILES."""
    from companion.app.main import KIVY_LOG_FILES, configure_logging

    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(30):
        path = logs / f"kivy_{i:02}.txt"
        path.write_text("old\n")
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
    monkeypatch.setenv("KIVY_HOME", str(tmp_path))
    monkeypatch.delenv("KCFG_KIVY_LOG_MAXFILES", raising=False)  # (restored after the test)
    monkeypatch.delenv("KIVY_LOG_LEVEL", raising=False)
    monkeypatch.setenv("KCFG_KIVY_LOG_LEVEL", "warning")
    configure_logging()
    left = sorted(p.name for p in logs.iterdir())
    assert left == [f"kivy_{i:02}.txt" for i in range(30 - KIVY_LOG_FILES, 30)]
    assert os.environ["KCFG_KIVY_LOG_MAXFILES"] == str(KIVY_LOG_FILES)


@pytest.mark.ui
def test_the_real_app_says_ready_pings_from_its_loop_and_stops_pinging_when_frozen(tmp_path, listener):
    """The app as systemd starts it: READY=1, then WATCHDOG=1 from the UI loop; frozen
    (SIGSTOP, as a hung process looks from outside) no ping comes; thawed they come again."""
    import signal

    env = dict(os.environ, NOTIFY_SOCKET=listener.env_value, WATCHDOG_USEC="400000", COMPANION_DATA=str(tmp_path / "data"),
               KIVY_HOME=str(tmp_path / "kivy"), COMPANION_WINDOW="800x480")
    env.pop("WATCHDOG_PID", None)
    app = subprocess.Popen([sys.executable, "-m", "companion"], env=env, cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        listener.wait_for("READY=1", timeout=60)
        listener.wait_for("WATCHDOG=1", 3, timeout=30)
        app.send_signal(signal.SIGSTOP)
        frozen = time.monotonic()
        assert not threading.Event().wait(1.0)
        thawed = time.monotonic()
        app.send_signal(signal.SIGCONT)
        pings = listener.times("WATCHDOG=1")
        assert [t for t in pings if frozen + 0.05 < t < thawed] == []
        count = len(pings)
        listener.wait_for("WATCHDOG=1", count + 2, timeout=30)
    finally:
        app.send_signal(signal.SIGCONT)
        app.terminate()
        app.wait(10)


# --- what a move writes to the SD card (docs/deploy.md) -----------------------------------------------


def test_a_move_writes_one_short_line_and_one_fsync(tmp_path, monkeypatch):
    """A 40-ply game played by sensor events through the app's own flow (simulated board,
    real tracker, journal on disk): every write and fsync into the data folder counted."""
    from companion.broadcast.bench import GAME, _flow, _play

    data = tmp_path / "data"
    writes: list[int] = []
    syncs: list[str] = []
    real_write, real_fsync = os.write, os.fsync

    def where(fd: int) -> str:
        try:
            return os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return ""

    def write(fd, data_bytes):
        if where(fd).startswith(str(data)):
            writes.append(len(data_bytes))
        return real_write(fd, data_bytes)

    def fsync(fd):
        if where(fd).startswith(str(data)):
            syncs.append(where(fd))
        return real_fsync(fd)

    flow, sim, clock = _flow(data)
    from companion.journal import Journal

    for owner in (os, Journal):  # (the journal keeps its own handles on the calls, for fault tests)
        monkeypatch.setattr(owner, "write" if owner is os else "_write", write if owner is os else staticmethod(write))
        monkeypatch.setattr(owner, "fsync" if owner is os else "_fsync", fsync if owner is os else staticmethod(fsync))
    before = len(writes)
    _play(flow, sim, clock)
    monkeypatch.undo()
    flow.stop()
    per_move = writes[before:]
    assert len(per_move) == len(GAME)  # one journal line per move
    assert all(40 <= n <= 400 for n in per_move), per_move
    assert len(syncs) == len(GAME) and all(s.endswith("current.jsonl") for s in syncs)
