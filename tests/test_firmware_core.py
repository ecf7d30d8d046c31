"""The firmware logic (firmware/companion_fw.py) under CPython, stepped with a fake clock.

The rig plays the host with the shared codec over an in-memory usb_cdc fake; switches and LEDs
are the simulator's keypad and pixel models."""

import importlib.util

import pytest
from fakes_circuitpython.usb_cdc import Serial

from companion.board import protocol as p
from companion.board.firmware_sim import FIRMWARE_DIR, SimKeys, SimPixels, load_firmware

fw = load_firmware()


class Clock:
    def __init__(self):
        self.now = 10_000

    def __call__(self):
        return self.now


class Dog:
    def __init__(self):
        self.feeds = 0

    def feed(self):
        self.feeds += 1


BASE = {
    "SCANNER": "shift_register",
    "CLOCK_PIN": "GP2",
    "DATA_PIN": "GP3",
    "LATCH_PIN": "GP4",
    "SCAN_INTERVAL_S": 0,
    "DEBOUNCE_SCANS": 1,
    "STATUS_LED_PIN": None,
}


class Rig:
    def __init__(self, width=8, height=8, leds=True, occupied=(), queue=None, **settings):
        self.clock = Clock()
        self.cfg = fw.load_config(dict(BASE, WIDTH=width, HEIGHT=height, **settings))
        self.keys = SimKeys(self.cfg.key_count, interval=0, max_events=queue or self.cfg.max_events, clock=self.clock)
        for sq in occupied:
            self.keys.press(sq)  # KEY_ORDER "rows": key n is square n
        self.pixels = SimPixels(self.cfg.square_count) if leds else None
        self.line = Serial()
        self.dog = Dog()
        self.fw = fw.Firmware(
            self.keys, self.pixels, self.line, self.clock, self.cfg, watchdog=self.dog, boot_id=0xBEEF,
            reset_reason=p.RESET_WATCHDOG,
        )  # fmt: skip
        self.host = p.Decoder()

    def send(self, *messages):
        self.line.host_write(b"".join(p.encode(m) for m in messages))

    def step(self, ms=0):
        self.clock.now += ms
        self.fw.step()
        return self.host.feed(self.line.host_read())

    def connect(self, heartbeat_ms=500, timeout_ms=3000):
        self.send(p.Hello(p.PROTOCOL_VERSION, heartbeat_ms, timeout_ms))
        return self.step()

    def leds(self):
        """Shown colour per square (undoing the chain order)."""
        return [self.pixels.shown[self.fw.pixel_map[sq]] for sq in range(self.cfg.square_count)]


def of(kind, messages):
    return [m for m in messages if isinstance(m, kind)]


# --- handshake and session -------------------------------------------------------------------------


def test_hello_is_answered_with_welcome_then_the_handshake_snapshot():
    rig = Rig(occupied=[0, 1, 12])
    rig.step()  # the keypad reports the closed switches
    welcome, snapshot = rig.connect()
    assert welcome == p.Welcome(
        p.PROTOCOL_VERSION, fw.FIRMWARE_VERSION, 8, 8, 64,
        p.CAP_LEDS | p.CAP_LED_DELTA | p.CAP_STATS | p.CAP_WATCHDOG, 0xBEEF, p.RESET_WATCHDOG,
        p.SCANNER_UNKNOWN,
    )  # fmt: skip
    assert snapshot.reason == p.SNAP_HANDSHAKE
    assert snapshot.occupied() == [0, 1, 12]


def test_the_board_says_nothing_until_a_host_says_hello():
    rig = Rig()
    rig.keys.press(5)
    for _ in range(5):
        assert rig.step(600) == []


def test_changes_made_without_a_session_arrive_in_the_handshake_snapshot_not_as_events():
    rig = Rig(occupied=[3])
    rig.step()
    rig.keys.release(3)
    rig.keys.press(20)
    rig.step()
    got = rig.connect()
    assert of(p.Events, got) == []
    assert of(p.Snapshot, got)[0].occupied() == [20]


def test_a_message_without_a_session_gets_need_hello_at_most_every_200_ms():
    rig = Rig()
    rig.send(p.SnapshotRequest())
    assert rig.step() == [p.NeedHello()]
    rig.send(p.Heartbeat(1, 0))
    assert rig.step(50) == []
    rig.send(p.Heartbeat(2, 0))
    assert rig.step(200) == [p.NeedHello()]


def test_a_hello_with_another_protocol_version_gets_welcome_but_no_session():
    rig = Rig()
    rig.send(p.Hello(p.PROTOCOL_VERSION + 1, 500, 3000))
    (welcome,) = rig.step()
    assert welcome.version == p.PROTOCOL_VERSION
    rig.send(p.SnapshotRequest())
    assert rig.step(300) == [p.NeedHello()]


def test_the_session_ends_when_the_host_is_silent_past_its_timeout():
    rig = Rig()
    rig.connect(heartbeat_ms=100, timeout_ms=1000)
    assert of(p.Heartbeat, rig.step(900))
    rig.step(200)  # 1100 ms without a host frame
    rig.keys.press(9)
    assert rig.step(10) == []
    rig.send(p.SnapshotRequest())
    assert rig.step(10) == [p.NeedHello()]


def test_host_frames_keep_the_session_alive():
    rig = Rig()
    rig.connect(heartbeat_ms=100, timeout_ms=1000)
    for _ in range(5):
        rig.send(p.Heartbeat(0, 0))
        rig.step(600)
    rig.keys.press(9)
    assert of(p.Events, rig.step(10)) == [p.Events(1, [(9, True)])]


def test_closing_the_port_ends_the_session_at_once():
    rig = Rig()
    rig.connect()
    rig.line.connected = False
    rig.keys.press(4)
    rig.step()
    rig.line.connected = True
    rig.send(p.SnapshotRequest())
    assert rig.step() == [p.NeedHello()]


def test_a_reconnecting_host_gets_a_fresh_handshake_with_the_current_occupancy():
    rig = Rig()
    rig.connect()
    rig.line.connected = False
    rig.step()
    rig.keys.press(30)
    rig.step()
    rig.line.connected = True
    got = rig.connect()
    assert of(p.Snapshot, got)[0].occupied() == [30]
    assert of(p.Events, got) == []


def test_hello_timings_are_clamped_to_sane_values():
    rig = Rig()
    rig.connect(heartbeat_ms=1, timeout_ms=5)
    assert rig.fw.heartbeat_ms == 20 and rig.fw.timeout_ms == 100


# --- events, snapshots, heartbeats -----------------------------------------------------------------


def test_changes_are_sent_in_order_with_consecutive_sequence_numbers():
    rig = Rig(occupied=[12])
    rig.step()
    rig.connect()
    rig.keys.release(12)
    assert of(p.Events, rig.step()) == [p.Events(1, [(12, False)])]
    rig.keys.press(28)
    rig.keys.press(29)
    assert of(p.Events, rig.step()) == [p.Events(2, [(28, True), (29, True)])]


def test_more_than_255_changes_continue_the_sequence_across_frames():
    rig = Rig(20, 20)
    rig.connect()
    for sq in range(300):
        rig.keys.press(sq)
    events = of(p.Events, rig.step())
    assert [(e.first_seq, len(e.changes)) for e in events] == [(1, 255), (256, 45)]
    assert [c[0] for e in events for c in e.changes] == list(range(300))


def test_a_requested_snapshot_follows_pending_events_and_names_the_last_sequence():
    rig = Rig()
    rig.connect()
    rig.keys.press(7)
    rig.send(p.SnapshotRequest())
    events, snapshot = rig.step()
    assert events == p.Events(1, [(7, True)])
    assert (snapshot.seq, snapshot.reason, snapshot.occupied()) == (1, p.SNAP_REQUESTED, [7])


def test_a_snapshot_is_sent_every_snapshot_interval():
    rig = Rig(SNAPSHOT_INTERVAL_MS=1000)
    rig.connect(heartbeat_ms=5000, timeout_ms=60000)
    assert of(p.Snapshot, rig.step(999)) == []
    (snapshot,) = of(p.Snapshot, rig.step(1))
    assert snapshot.reason == p.SNAP_PERIODIC


def test_heartbeats_follow_the_hosts_interval_and_carry_the_last_sequence():
    rig = Rig()
    rig.connect(heartbeat_ms=200, timeout_ms=60000)
    rig.keys.press(1)
    rig.step()
    assert of(p.Heartbeat, rig.step(199)) == []
    (beat,) = of(p.Heartbeat, rig.step(1))
    assert beat.last_seq == 1


def test_a_keypad_overflow_resyncs_and_reports_only_real_differences():
    rig = Rig(queue=8, occupied=[0, 1])
    rig.step()
    rig.connect()
    for sq in (0, 1, 10, 11, 12, 13, 14, 15, 16):  # 9 changes in one scan overflow 8 slots
        rig.keys.set_pressed(sq, sq >= 10)
    got = rig.step()
    assert rig.fw.keypad_overflows == 1
    assert of(p.Events, got) == []  # nothing is reported from a queue known to be incomplete
    got = rig.step(100)  # past the resync window: the scanner has reported every key again
    changes = [c for e in of(p.Events, got) for c in e.changes]
    assert sorted(changes) == [(0, False), (1, False)] + [(sq, True) for sq in range(10, 17)]
    (snapshot,) = of(p.Snapshot, got)
    assert snapshot.reason == p.SNAP_RESYNC
    assert snapshot.occupied() == list(range(10, 17))
    assert snapshot.seq == of(p.Events, got)[-1].last_seq()


def test_keys_past_the_board_are_ignored():
    rig = Rig(KEY_COUNT=72)  # nine 8-bit shift registers for 64 squares
    rig.connect()
    rig.keys.press(70)
    assert of(p.Events, rig.step()) == []


def test_the_watchdog_is_fed_on_every_step():
    rig = Rig()
    for _ in range(3):
        rig.step()
    assert rig.dog.feeds == 3


# --- LEDs ----------------------------------------------------------------------------------------------


def full(frame_id, colors):
    return p.LedFrame.from_colors(frame_id, colors)


def test_a_full_frame_lights_each_square_through_the_serpentine_chain_and_is_acked():
    rig = Rig(BRIGHTNESS_CAP=255)
    rig.connect()
    colors = [(0, 0, 0)] * 64
    colors[8] = (255, 0, 0)  # a2: rank 2 runs right to left, so chain position 15
    rig.send(full(1, colors))
    assert of(p.LedAck, rig.step()) == [p.LedAck(1, p.ACK_OK)]
    assert rig.pixels.shown[15] == (255, 0, 0)
    assert rig.leds() == colors


def test_the_brightness_cap_scales_every_colour():
    rig = Rig(BRIGHTNESS_CAP=64)
    rig.connect()
    rig.send(full(1, [(255, 128, 0)] * 64))
    rig.step()
    assert rig.pixels.brightness == pytest.approx(64 / 255)
    assert rig.pixels.shown[0] == (63, 32, 0)  # pixelbuf scales in 8.8 fixed point


def test_a_bright_frame_is_dimmed_to_the_power_budget():
    rig = Rig(BRIGHTNESS_CAP=255, MAX_MILLIAMPS=1000, MILLIAMPS_PER_CHANNEL=20)
    rig.connect()
    rig.send(full(1, [(255, 255, 255)] * 64))  # 64 * 60 mA = 3840 mA at full brightness
    rig.step()
    assert 64 * 3 * 20 * rig.pixels.brightness == pytest.approx(1000)
    rig.send(full(2, [(255, 0, 0)] + [(0, 0, 0)] * 63))  # 20 mA: back to the cap
    rig.step()
    assert rig.pixels.brightness == 1.0


def test_a_delta_on_the_shown_frame_changes_only_its_squares():
    rig = Rig(BRIGHTNESS_CAP=255)
    rig.connect()
    rig.send(full(1, [(1, 1, 1)] * 64))
    rig.step()
    rig.send(p.LedDelta(2, 1, [(5, 9, 9, 9)]))
    assert of(p.LedAck, rig.step()) == [p.LedAck(2, p.ACK_OK)]
    assert rig.leds() == [(1, 1, 1)] * 5 + [(9, 9, 9)] + [(1, 1, 1)] * 58


def test_a_delta_on_another_frame_asks_for_a_full_frame_and_changes_nothing():
    rig = Rig(BRIGHTNESS_CAP=255)
    rig.connect()
    rig.send(p.LedDelta(1, 0, [(5, 9, 9, 9)]))  # nothing shown yet
    assert of(p.LedAck, rig.step()) == [p.LedAck(1, p.ACK_NEED_FULL)]
    rig.send(full(2, [(1, 1, 1)] * 64))
    rig.step()
    rig.send(p.LedDelta(3, 1, [(5, 9, 9, 9)]))
    assert of(p.LedAck, rig.step()) == [p.LedAck(3, p.ACK_NEED_FULL)]
    assert rig.leds() == [(1, 1, 1)] * 64


def test_led_frames_of_the_wrong_size_or_off_board_squares_are_refused():
    rig = Rig()
    rig.connect()
    rig.send(full(1, [(1, 1, 1)] * 63))
    assert of(p.LedAck, rig.step()) == [p.LedAck(1, p.ACK_BAD_FRAME)]
    rig.send(full(2, [(1, 1, 1)] * 64), p.LedDelta(3, 2, [(64, 1, 1, 1)]))
    assert of(p.LedAck, rig.step()) == [p.LedAck(2, p.ACK_OK), p.LedAck(3, p.ACK_BAD_FRAME)]


def test_a_board_without_leds_says_so_in_welcome_and_acks():
    rig = Rig(leds=False, LED_PIN=None)
    welcome = rig.connect()[0]
    assert not welcome.capabilities & p.CAP_LEDS and welcome.led_count == 0
    rig.send(full(1, [(1, 1, 1)] * 64))
    assert of(p.LedAck, rig.step()) == [p.LedAck(1, p.ACK_NO_LEDS)]


def test_leds_stay_on_for_the_hold_time_after_the_host_goes_then_go_dark():
    rig = Rig(LED_HOLD_MS=5000, BRIGHTNESS_CAP=255)
    rig.connect()
    rig.send(full(1, [(7, 7, 7)] * 64))
    rig.step()
    rig.line.connected = False
    rig.step(10)
    rig.step(4990)
    assert rig.leds()[0] == (7, 7, 7)
    rig.step(11)
    assert rig.leds() == [(0, 0, 0)] * 64
    assert rig.fw.led_frame_id is None


# --- robustness ------------------------------------------------------------------------------------


def test_garbage_from_the_host_is_counted_and_the_session_goes_on():
    rig = Rig()
    rig.connect()
    rig.line.host_write(b"\x07garbage\x00\x01\x02\x03\x00" + p.encode_body(0x7F, b"x"))
    rig.send(p.StatsRequest())
    (stats,) = of(p.Stats, rig.step())
    counters = stats.as_dict()
    assert counters["rx_cobs_errors"] + counters["rx_crc_errors"] + counters["rx_short_frames"] >= 2
    assert counters["rx_unknown_types"] == 1
    assert counters["sessions"] == 1


def test_board_to_host_messages_arriving_at_the_board_are_counted_and_ignored():
    rig = Rig()
    rig.connect()
    rig.send(p.Events(1, [(3, True)]), p.LedAck(1, 0))
    assert rig.step() == []
    assert rig.fw.rx_unexpected == 2


def test_after_a_cut_write_the_next_frame_starts_with_a_delimiter():
    rig = Rig()
    rig.connect()
    writes = []
    rig.line.write = lambda data: writes.append(bytes(data)) or len(data) // 2  # the USB buffer was full
    rig.keys.press(1)
    rig.step()
    rig.line.write = lambda data: writes.append(bytes(data)) or len(data)
    rig.keys.press(2)
    rig.step()
    assert writes[1][0] == 0 and writes[1][1] != 0
    host = p.Decoder()
    assert host.feed(writes[0][: len(writes[0]) // 2] + writes[1]) == [p.Events(2, [(2, True)])]
    assert rig.fw.tx_dropped == 1


# --- config --------------------------------------------------------------------------------------------


def test_the_shipped_config_file_is_valid():
    spec = importlib.util.spec_from_file_location("shipped_config", FIRMWARE_DIR / "config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cfg = fw.load_config(module)
    assert (cfg.width, cfg.height, cfg.key_count) == (20, 20, 400)


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"SCANNER": "matrix"}, "ROW_PINS x COLUMN_PINS give 0 keys, a 8x8 board needs 64"),
        ({"SCANNER": "wires"}, 'SCANNER must be "matrix" or "shift_register"'),
        ({"CLOCK_PIN": None}, "needs CLOCK_PIN"),
        ({"KEY_COUNT": 60}, "KEY_COUNT 60 is less than the 64 squares"),
        ({"WIDTH": 30}, "WIDTH and HEIGHT must be 1..26"),
        ({"WIDTH": "8"}, "WIDTH must be a whole number"),
        ({"BRIGHTNESS_CAP": 300}, "BRIGHTNESS_CAP must be 0..255"),
        ({"LED_ORDER": "zigzag"}, "LED_ORDER must be one of"),
        ({"WATCHDOG_S": 20}, "WATCHDOG_S must be 0 (off) or 1..8"),
        ({"KEY_FLIP_FILES": 1}, "KEY_FLIP_FILES must be True or False"),
        ({"ROW_PINS": "GP0"}, "ROW_PINS must be a list of pin names"),
        ({"BRIGHTNES_CAP": 10}, "unknown setting BRIGHTNES_CAP"),
        ({"HEARTBEAT_MS": 0}, "HEARTBEAT_MS must be at least 1"),
        ({"PIXEL_ORDER": "BGR"}, "PIXEL_ORDER must be"),
        ({"MAX_EVENTS": 32}, "MAX_EVENTS 32 is less than the 64 keys"),
    ],
)
def test_a_bad_config_names_the_setting_and_what_is_expected(settings, message):
    with pytest.raises(fw.ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        fw.load_config({**BASE, "WIDTH": 8, "HEIGHT": 8, **settings})


def test_a_matrix_config_counts_rows_times_columns():
    cfg = fw.load_config({"SCANNER": "matrix", "ROW_PINS": ["GP%d" % i for i in range(8)],
                          "COLUMN_PINS": ["GP%d" % i for i in range(8, 17)]})  # fmt: skip
    assert cfg.key_count == 72


def test_chain_orders_on_a_3x2_board():
    assert fw.chain_order(3, 2, "rows") == [0, 1, 2, 3, 4, 5]
    assert fw.chain_order(3, 2, "serpentine") == [0, 1, 2, 5, 4, 3]
    assert fw.chain_order(3, 2, "columns") == [0, 3, 1, 4, 2, 5]
    assert fw.chain_order(3, 2, "columns_serpentine") == [0, 3, 4, 1, 2, 5]
    assert fw.chain_order(3, 2, "rows", flip_files=True) == [2, 1, 0, 5, 4, 3]
    assert fw.chain_order(3, 2, "rows", flip_ranks=True) == [3, 4, 5, 0, 1, 2]


@pytest.mark.parametrize("order", fw.ORDERS)
@pytest.mark.parametrize("flips", [(False, False), (True, False), (False, True), (True, True)])
def test_every_chain_order_is_a_permutation_of_the_squares(order, flips):
    assert sorted(fw.chain_order(7, 5, order, *flips)) == list(range(35))
