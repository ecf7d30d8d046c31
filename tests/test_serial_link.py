"""HostLink, the host's protocol state machine, driven with scripted board bytes and times."""

import pytest

from companion.board import protocol as p
from companion.board.ports import BoardConnected, BoardDisconnected, OccupancySnapshot, SquareChanged
from companion.board.serial_board import DISCONNECTED, HostLink, find_data_port


def wire(*messages):
    return b"".join(p.encode(m) for m in messages)


def welcome(width=8, height=8, boot_id=1, version=p.PROTOCOL_VERSION, caps=p.CAP_LEDS | p.CAP_LED_DELTA):
    return p.Welcome(version, (1, 0, 0), width, height, width * height, caps, boot_id, p.RESET_POWER_ON, 2)


def snapshot(squares, seq=0, reason=p.SNAP_HANDSHAKE, count=64):
    return p.Snapshot.from_squares(seq, reason, count, squares)


class Host:
    """A HostLink plus a decoder for what it sends."""

    def __init__(self, **kwargs):
        self.link = HostLink(8, 8, where="/dev/test", heartbeat_ms=500, timeout_ms=2000, **kwargs)
        self.sent = p.Decoder()
        self.now = 0

    def poll(self, advance=0):
        self.now += advance
        out, events, reopen = self.link.poll(self.now)
        return self.sent.feed(out), events, reopen

    def receive(self, *messages):
        return self.link.receive(wire(*messages), self.now)

    def connect(self, occupied=(), boot_id=1):
        self.link.opened(self.now)
        self.poll()
        return self.receive(welcome(boot_id=boot_id), snapshot(occupied))


def test_opening_the_port_sends_hello_with_the_hosts_timing():
    host = Host()
    host.link.opened(0)
    sent, events, reopen = host.poll()
    assert sent == [p.Hello(p.PROTOCOL_VERSION, 500, 3000)] and events == [] and not reopen


def test_hello_is_repeated_until_the_board_answers():
    host = Host()
    host.link.opened(0)
    host.poll()
    assert host.poll(100)[0] == []
    assert host.poll(200)[0] == [p.Hello(p.PROTOCOL_VERSION, 500, 3000)]


def test_the_handshake_delivers_the_snapshot_first_then_connected():
    host = Host()
    events = host.connect(occupied=[0, 1, 12])
    assert events == [
        OccupancySnapshot(frozenset({0, 1, 12}), 0),
        BoardConnected(host.link.info, 0),
    ]
    assert host.link.info["firmware"] == "1.0.0" and host.link.info["restarted"] is False
    assert host.link.phase == "up"


def test_events_become_square_changes_in_order():
    host = Host()
    host.connect(occupied=[12])
    events = host.receive(p.Events(1, [(12, False), (28, True)]))
    assert events == [SquareChanged(12, False, 0), SquareChanged(28, True, 0)]
    assert host.link.occupied == {28}


def test_a_sequence_gap_asks_for_a_snapshot_and_the_snapshot_repairs_the_state():
    host = Host()
    host.connect(occupied=[12])
    host.receive(p.Events(1, [(12, False)]))
    # events 2 (28 occupied) lost on the line
    assert host.receive(p.Events(3, [(40, True)])) == [SquareChanged(40, True, 0)]
    assert host.poll()[0][-1] == p.SnapshotRequest()
    events = host.receive(snapshot([28, 40], seq=3, reason=p.SNAP_REQUESTED))
    assert events == [OccupancySnapshot(frozenset({28, 40}), 0)]
    assert host.link.counters["sequence_gaps"] == 1 and host.link.counters["snapshots_repaired"] == 1


def test_a_heartbeat_reveals_a_lost_trailing_event():
    host = Host()
    host.connect()
    host.receive(p.Heartbeat(1000, 1))  # the board sent event 1; we never saw it
    assert p.SnapshotRequest() in host.poll()[0]


def test_an_equal_periodic_snapshot_is_not_delivered_but_a_differing_one_is():
    host = Host()
    host.connect(occupied=[5])
    assert host.receive(snapshot([5], reason=p.SNAP_PERIODIC)) == []
    assert host.receive(snapshot([6], reason=p.SNAP_PERIODIC)) == [OccupancySnapshot(frozenset({6}), 0)]


def test_a_snapshot_the_app_asked_for_is_delivered_even_when_nothing_changed():
    host = Host()
    host.connect(occupied=[5])
    host.link.request_snapshot()
    assert p.SnapshotRequest() in host.poll()[0]
    assert host.receive(snapshot([5], reason=p.SNAP_REQUESTED)) == [OccupancySnapshot(frozenset({5}), 0)]


def test_silence_past_the_timeout_reports_disconnected_once_and_asks_to_reopen():
    host = Host()
    host.connect()
    assert host.poll(2000)[1:] == ([], False)
    sent, events, reopen = host.poll(1)
    assert events == [BoardDisconnected(DISCONNECTED, 2001)] and reopen
    assert host.link.closed(2002) == []  # said once


def test_the_host_sends_heartbeats_with_its_last_seen_sequence():
    host = Host()
    host.connect()
    host.receive(p.Events(1, [(3, True)]))
    assert p.Heartbeat(500, 1) in host.poll(500)[0]


def test_a_board_with_another_protocol_version_is_reported_and_not_used():
    host = Host()
    host.link.opened(0)
    events = host.receive(welcome(version=9))
    assert "protocol version 9" in events[0].reason and "update the firmware" in events[0].reason
    assert host.link.phase == "incompatible"
    assert host.receive(snapshot([])) == []


def test_a_board_of_another_size_is_reported_with_both_sizes():
    host = Host()
    host.link.opened(0)
    (event,) = host.receive(welcome(width=20, height=20))
    assert "20x20" in event.reason and "8x8" in event.reason


def test_no_answer_is_reported_once_and_the_port_is_reopened_later():
    host = Host()
    host.link.opened(0)
    host.poll()
    _, events, reopen = host.poll(2001)
    assert "no answer from the board at /dev/test" in events[0].reason and not reopen
    _, events, reopen = host.poll(4000)
    assert events == [] and reopen


def test_need_hello_restarts_the_handshake_and_a_new_boot_id_is_a_restart():
    host = Host()
    host.connect(boot_id=1)
    events = host.receive(p.NeedHello())
    assert [type(e) for e in events] == [BoardDisconnected]
    assert host.poll()[0] == [p.Hello(p.PROTOCOL_VERSION, 500, 3000)]
    events = host.receive(welcome(boot_id=2), snapshot([1]))
    assert events[1].info["restarted"] is True
    assert host.link.counters["restarts_seen"] == 1


def test_the_repl_console_is_recognised_and_left_alone():
    host = Host()
    host.link.opened(0)
    host.poll()
    (event,) = host.link.receive(b"soft reboot\r\n\r\nAuto-reload is on. Simply save files", 10)
    assert "/dev/test is the CircuitPython console (REPL), not the data port" in event.reason
    assert host.poll(1000)[0] == []  # no more HELLOs into the REPL


def test_messages_meant_for_the_board_are_counted_not_obeyed():
    host = Host()
    host.connect()
    assert host.receive(p.Hello(), p.LedFrame(1, b"")) == []
    assert host.link.counters["unexpected_messages"] == 2


def test_events_before_the_handshake_are_ignored():
    host = Host()
    host.link.opened(0)
    assert host.receive(p.Events(1, [(3, True)])) == []


# --- LEDs --------------------------------------------------------------------------------------------

BLACK = ((0, 0, 0),) * 64


def lit(*squares, color=(9, 9, 9)):
    return tuple(color if sq in squares else (0, 0, 0) for sq in range(64))


def test_the_first_frame_is_sent_full_then_changes_go_as_deltas():
    host = Host()
    host.connect()
    host.link.show(lit(3))
    (frame,) = [m for m in host.poll()[0] if isinstance(m, p.LedFrame)]
    host.receive(p.LedAck(frame.frame_id, p.ACK_OK))
    host.link.show(lit(3, 4))
    (delta,) = [m for m in host.poll()[0] if isinstance(m, p.LedDelta)]
    assert delta.base_id == frame.frame_id and delta.changes == [(4, 9, 9, 9)]


def test_a_frame_changing_most_squares_goes_full():
    host = Host()
    host.connect()
    host.link.show(BLACK)
    frame = [m for m in host.poll()[0] if isinstance(m, p.LedFrame)][0]
    host.receive(p.LedAck(frame.frame_id))
    host.link.show(lit(*range(50)))  # 50 * 5 + 6 > 64 * 3 + 4
    assert any(isinstance(m, p.LedFrame) for m in host.poll()[0])


def test_only_one_frame_is_in_flight_and_only_the_newest_waiting_frame_is_sent():
    host = Host()
    host.connect()
    host.link.show(lit(1))
    first = [m for m in host.poll()[0] if isinstance(m, p.LedFrame)][0]
    host.link.show(lit(2))
    host.link.show(lit(3))
    assert not [m for m in host.poll()[0] if isinstance(m, (p.LedFrame, p.LedDelta))]
    host.receive(p.LedAck(first.frame_id))
    (delta,) = [m for m in host.poll()[0] if isinstance(m, p.LedDelta)]
    assert sorted(delta.changes) == [(1, 0, 0, 0), (3, 9, 9, 9)]


def test_need_full_makes_the_next_frame_full():
    host = Host()
    host.connect()
    host.link.show(lit(1))
    first = [m for m in host.poll()[0] if isinstance(m, p.LedFrame)][0]
    host.receive(p.LedAck(first.frame_id))
    host.link.show(lit(2))
    delta = [m for m in host.poll()[0] if isinstance(m, p.LedDelta)][0]
    host.receive(p.LedAck(delta.frame_id, p.ACK_NEED_FULL))
    (again,) = [m for m in host.poll()[0] if isinstance(m, p.LedFrame)]
    assert again.rgb == p.LedFrame.from_colors(0, lit(2)).rgb


def test_a_missing_ack_times_out_and_the_frame_is_resent_full():
    host = Host()
    host.connect()
    host.link.show(lit(1))
    host.poll()
    host.receive(p.Heartbeat(0, 0))
    host.now = 1001
    host.receive(p.Heartbeat(0, 0))
    assert any(isinstance(m, p.LedFrame) for m in host.poll()[0])
    assert host.link.counters["led_ack_timeouts"] == 1


def test_a_rejected_frame_is_not_resent_in_a_loop():
    host = Host()
    host.connect()
    host.link.show(lit(1))
    frame = [m for m in host.poll()[0] if isinstance(m, p.LedFrame)][0]
    host.receive(p.LedAck(frame.frame_id, p.ACK_BAD_FRAME))
    assert not [m for m in host.poll(10)[0] if isinstance(m, p.LedFrame)]
    assert host.link.leds_settled()


def test_after_a_reconnect_the_shown_frame_is_sent_again_in_full():
    host = Host()
    host.connect()
    host.link.show(lit(1))
    frame = [m for m in host.poll()[0] if isinstance(m, p.LedFrame)][0]
    host.receive(p.LedAck(frame.frame_id))
    host.link.closed(10)
    host.connect()
    assert any(isinstance(m, p.LedFrame) for m in host.poll()[0])


def test_a_board_without_leds_gets_no_frames():
    host = Host()
    host.link.opened(0)
    host.poll()
    host.receive(welcome(caps=0), snapshot([]))
    host.link.show(lit(1))
    assert not [m for m in host.poll()[0] if isinstance(m, p.LedFrame)]
    assert host.link.leds_settled()


# --- finding the port ------------------------------------------------------------------------------


class PortInfo:
    def __init__(self, device, interface):
        self.device, self.interface = device, interface


@pytest.mark.parametrize("interface", ["CircuitPython CDC2 data", "CDC data", "circuitpython cdc2 data"])
def test_the_data_port_is_found_by_its_usb_interface_name(interface):
    ports = [PortInfo("/dev/ttyACM0", "CircuitPython CDC control"), PortInfo("/dev/ttyACM1", interface)]
    assert find_data_port(lambda: ports) == "/dev/ttyACM1"


def test_no_data_port_is_none():
    assert find_data_port(lambda: [PortInfo("/dev/ttyACM0", "CircuitPython CDC control"), PortInfo("/dev/ttyS0", None)]) is None
