"""The board firmware's logic: scan switches, report changes, light squares, keep the link.

Runs on CircuitPython 9 (the RP2040) and, unchanged, on CPython: tests and the simulator
(companion/board/firmware_sim.py) drive it with fakes. It never imports a CircuitPython module;
``wiring.py`` builds the real keypad, NeoPixels and USB serial and hands them in:

    Firmware(keys, pixels, serial, clock, config)

- ``keys``: a ``keypad.KeyMatrix`` / ``keypad.ShiftRegisterKeys`` (``events``, ``reset()``).
  keypad scans in the background in C and debounces (``interval``, ``debounce_threshold``);
  this module only drains its events.
- ``pixels``: a ``neopixel.NeoPixel`` with ``auto_write=False`` (or None: no LEDs).
- ``serial``: ``usb_cdc.data`` with ``timeout = 0`` (``in_waiting``, ``read``, ``write``,
  ``connected``).
- ``clock``: a callable giving milliseconds as an int (monotonic).

Call :meth:`Firmware.step` in a loop; each call does a bounded amount of work.
"""

try:  # on the Pi and in tests: the one codec in the companion package
    from companion.board import protocol
except ImportError:  # on the board: the same file, copied as CIRCUITPY/protocol.py
    import protocol

FIRMWARE_VERSION = (1, 1, 0)  # 1.1: STATS adds loops and scan_interval_us

ORDERS = ("rows", "serpentine", "columns", "columns_serpentine")


class ConfigError(ValueError):
    """config.py has a missing, unknown or impossible setting."""


# name: (default, kind). kind: "int", "bool", "float", "str", "pins", "pin", "pin?"
SETTINGS = {
    "WIDTH": (8, "int"),
    "HEIGHT": (8, "int"),
    "SCANNER": ("matrix", "str"),
    "ROW_PINS": ((), "pins"),
    "COLUMN_PINS": ((), "pins"),
    "COLUMNS_TO_ANODES": (True, "bool"),
    "CLOCK_PIN": (None, "pin?"),
    "DATA_PIN": (None, "pin?"),
    "LATCH_PIN": (None, "pin?"),
    "VALUE_TO_LATCH": (True, "bool"),
    "VALUE_WHEN_PRESSED": (False, "bool"),
    "KEY_COUNT": (0, "int"),
    "SCAN_INTERVAL_S": (0.01, "float"),
    "DEBOUNCE_SCANS": (2, "int"),
    "MAX_EVENTS": (0, "int"),
    "KEY_ORDER": ("rows", "str"),
    "KEY_FLIP_FILES": (False, "bool"),
    "KEY_FLIP_RANKS": (False, "bool"),
    "LED_PIN": ("GP16", "pin?"),
    "LED_ORDER": ("serpentine", "str"),
    "LED_FLIP_FILES": (False, "bool"),
    "LED_FLIP_RANKS": (False, "bool"),
    "PIXEL_ORDER": ("GRB", "str"),
    "BRIGHTNESS_CAP": (48, "int"),
    "MAX_MILLIAMPS": (0, "int"),
    "MILLIAMPS_PER_CHANNEL": (20, "int"),
    "STATUS_LED_PIN": ("LED", "pin?"),
    "SNAPSHOT_INTERVAL_MS": (1000, "int"),
    "HEARTBEAT_MS": (500, "int"),
    "HOST_TIMEOUT_MS": (3000, "int"),
    "LED_HOLD_MS": (10000, "int"),
    "WATCHDOG_S": (4.0, "float"),
}


def _check_kind(name, value, kind):
    where = "config.py: %s" % name
    if kind == "int":
        if type(value) is not int:
            raise ConfigError("%s must be a whole number, got %r" % (where, value))
    elif kind == "bool":
        if value is not True and value is not False:
            raise ConfigError("%s must be True or False, got %r" % (where, value))
    elif kind == "float":
        if type(value) not in (int, float) or value < 0:
            raise ConfigError("%s must be a number of seconds >= 0, got %r" % (where, value))
    elif kind == "str":
        if type(value) is not str:
            raise ConfigError("%s must be a string in quotes, got %r" % (where, value))
    elif kind == "pin?":
        if value is not None and type(value) is not str:
            raise ConfigError("%s must be a pin name like \"GP16\" (or None), got %r" % (where, value))
    elif kind == "pins":
        if type(value) not in (tuple, list):
            raise ConfigError("%s must be a list of pin names like (\"GP0\", \"GP1\"), got %r" % (where, value))
        for pin in value:
            if type(pin) is not str:
                raise ConfigError("%s must hold pin names like \"GP0\", got %r" % (where, pin))


class Config:
    """Validated settings. Build with :func:`load_config` from the config.py module or a dict."""

    def __init__(self, values):
        for name in SETTINGS:
            setattr(self, name.lower(), values[name])

    @property
    def square_count(self):
        return self.width * self.height

    @property
    def scan_interval_ms(self):
        return int(self.scan_interval_s * 1000)


def load_config(source):
    """Check every setting and fill defaults. ``source`` is the config module or a dict.

    Raises ConfigError naming the setting and what is expected."""
    if type(source) is dict:
        given = dict(source)
    else:
        given = {}
        for name in dir(source):
            if name.isupper() and not name.startswith("_"):
                given[name] = getattr(source, name)
    unknown = [name for name in given if name not in SETTINGS]
    if unknown:
        unknown.sort()
        raise ConfigError(
            "config.py: unknown setting %s (known: %s)" % (", ".join(unknown), ", ".join(sorted(SETTINGS)))
        )
    values = {}
    for name in SETTINGS:
        default, kind = SETTINGS[name]
        value = given.get(name, default)
        _check_kind(name, value, kind)
        values[name] = value
    cfg = Config(values)
    if not 1 <= cfg.width <= 26 or not 1 <= cfg.height <= 26:
        raise ConfigError("config.py: WIDTH and HEIGHT must be 1..26, got %dx%d" % (cfg.width, cfg.height))
    if cfg.scanner not in ("matrix", "shift_register"):
        raise ConfigError("config.py: SCANNER must be \"matrix\" or \"shift_register\", got %r" % cfg.scanner)
    for name in ("KEY_ORDER", "LED_ORDER"):
        if values[name] not in ORDERS:
            raise ConfigError("config.py: %s must be one of %s, got %r" % (name, ", ".join(ORDERS), values[name]))
    if cfg.scanner == "matrix":
        keys = len(cfg.row_pins) * len(cfg.column_pins)
        if keys < cfg.square_count:
            raise ConfigError(
                "config.py: ROW_PINS x COLUMN_PINS give %d keys, a %dx%d board needs %d"
                % (keys, cfg.width, cfg.height, cfg.square_count)
            )
        cfg.key_count = keys
    else:
        for name in ("CLOCK_PIN", "DATA_PIN", "LATCH_PIN"):
            if values[name] is None:
                raise ConfigError("config.py: SCANNER = \"shift_register\" needs %s" % name)
        if cfg.key_count == 0:
            cfg.key_count = cfg.square_count
        if cfg.key_count < cfg.square_count:
            raise ConfigError(
                "config.py: KEY_COUNT %d is less than the %d squares of a %dx%d board"
                % (cfg.key_count, cfg.square_count, cfg.width, cfg.height)
            )
    if cfg.max_events == 0:
        cfg.max_events = cfg.key_count
    if cfg.max_events < cfg.key_count:
        # after an overflow the scanner is reset and reports every closed switch at once:
        # a shorter queue would overflow again, for ever
        raise ConfigError(
            "config.py: MAX_EVENTS %d is less than the %d keys; leave it out (it defaults to the key count)"
            % (cfg.max_events, cfg.key_count)
        )
    if not 0 <= cfg.brightness_cap <= 255:
        raise ConfigError("config.py: BRIGHTNESS_CAP must be 0..255, got %d" % cfg.brightness_cap)
    if cfg.pixel_order not in ("RGB", "GRB", "RGBW", "GRBW"):
        raise ConfigError("config.py: PIXEL_ORDER must be RGB, GRB, RGBW or GRBW, got %r" % cfg.pixel_order)
    for name in ("DEBOUNCE_SCANS", "SNAPSHOT_INTERVAL_MS", "HEARTBEAT_MS", "HOST_TIMEOUT_MS"):
        if values[name] < 1:
            raise ConfigError("config.py: %s must be at least 1, got %d" % (name, values[name]))
    if cfg.watchdog_s != 0 and not 1 <= cfg.watchdog_s <= 8:
        raise ConfigError("config.py: WATCHDOG_S must be 0 (off) or 1..8 seconds (the RP2040 limit), got %r" % cfg.watchdog_s)
    if cfg.max_milliamps < 0 or cfg.milliamps_per_channel < 1:
        raise ConfigError("config.py: MAX_MILLIAMPS must be >= 0 and MILLIAMPS_PER_CHANNEL >= 1")
    return cfg


def chain_order(width, height, order, flip_files=False, flip_ranks=False):
    """For each position along a chain (LED index or key number), the square it sits under.

    ``rows``: a1, b1, ... then a2, b2, ...; ``serpentine``: rank 1 left to right, rank 2 right
    to left, ...; ``columns`` / ``columns_serpentine``: the same running up the files. The flips
    mirror the board (start at the h-file / the top rank)."""
    result = []
    for p in range(width * height):
        if order in ("rows", "serpentine"):
            rank, file = p // width, p % width
            if order == "serpentine" and rank % 2:
                file = width - 1 - file
        else:
            file, rank = p // height, p % height
            if order == "columns_serpentine" and file % 2:
                rank = height - 1 - rank
        if flip_files:
            file = width - 1 - file
        if flip_ranks:
            rank = height - 1 - rank
        result.append(rank * width + file)
    return result


def key_to_square(cfg):
    """Key number -> square index, -1 for keys past the board (spare shift register bits)."""
    order = chain_order(cfg.width, cfg.height, cfg.key_order, cfg.key_flip_files, cfg.key_flip_ranks)
    return order + [-1] * (cfg.key_count - len(order))


def square_to_pixel(cfg):
    """Square index -> position on the LED chain."""
    order = chain_order(cfg.width, cfg.height, cfg.led_order, cfg.led_flip_files, cfg.led_flip_ranks)
    inverse = [0] * len(order)
    for pixel, square in enumerate(order):
        inverse[square] = pixel
    return inverse


class Firmware:
    """One board: its switches, its LEDs and its session with the host.

    The host starts a session with HELLO; until then the board only answers NEED_HELLO. While
    no session is up the board keeps tracking occupancy (the SNAPSHOT after the next HELLO
    repairs the host's view) and, after LED_HOLD_MS, turns the LEDs off."""

    def __init__(
        self,
        keys,
        pixels,
        serial,
        clock,
        config,
        watchdog=None,
        status_led=None,
        boot_id=0,
        reset_reason=protocol.RESET_UNKNOWN,
        scanner=protocol.SCANNER_UNKNOWN,
        simulated=False,
    ):
        self.keys = keys
        self.pixels = pixels
        self.serial = serial
        self.clock = clock
        self.cfg = config
        self.watchdog = watchdog
        self.status_led = status_led
        self.boot_id = boot_id & 0xFFFF
        self.reset_reason = reset_reason
        self.scanner = scanner
        self.simulated = simulated

        n = config.square_count
        self.square_count = n
        self.key_map = key_to_square(config)
        self.pixel_map = square_to_pixel(config)
        self.decoder = protocol.Decoder()
        self.started_ms = clock()

        self.bitmap = bytearray((n + 7) // 8)
        self.seq = 0
        self.pending = []
        self.resync_until = None
        self.fresh = None

        self.in_session = False
        self.heartbeat_ms = config.heartbeat_ms
        self.timeout_ms = config.host_timeout_ms
        self.last_rx = 0
        self.next_heartbeat = 0
        self.next_snapshot = 0
        self.session_ended = self.started_ms
        self.last_need_hello = None
        self.tx_broken = False

        self.rgb = bytearray(3 * n)
        self.led_frame_id = None
        self.leds_lit = False
        self.brightness = None

        self.tx_frames = 0
        self.tx_dropped = 0
        self.events_sent = 0
        self.keypad_overflows = 0
        self.led_frames = 0
        self.sessions = 0
        self.rx_unexpected = 0
        self.loops = 0  # passes of the main loop (the host's board-check shows the rate)

        if pixels is not None:
            pixels.fill((0, 0, 0))
            self._show()

    # --- main loop ---------------------------------------------------------------------------

    def step(self):
        """One pass: feed the watchdog, read the host, drain the keypad, send what is due."""
        now = self.clock()
        self.loops += 1
        if self.watchdog is not None:
            self.watchdog.feed()
        self._scan(now)
        connected = self.serial.connected
        if self.in_session and not connected:
            self._end_session(now)
        if connected:
            waiting = self.serial.in_waiting
            if waiting:
                data = self.serial.read(waiting)
                if data:
                    for message in self.decoder.feed(data):
                        self._handle(message, now)
        if self.in_session:
            if now - self.last_rx > self.timeout_ms:
                self._end_session(now)
            else:
                self._flush_events()
                if now >= self.next_snapshot:
                    self._send_snapshot(protocol.SNAP_PERIODIC, now)
                if now >= self.next_heartbeat:
                    self._send(protocol.Heartbeat(now - self.started_ms, self.seq))
                    self.next_heartbeat = now + self.heartbeat_ms
        elif self.leds_lit and now - self.session_ended > self.cfg.led_hold_ms:
            self._blank_leds()
        if self.status_led is not None:
            # steady on in a session, a slow blink while waiting for the host
            self.status_led.value = self.in_session or (now // 500) % 2 == 0

    # --- host messages -------------------------------------------------------------------------

    def _handle(self, message, now):
        self.last_rx = now
        kind = message.TYPE
        if kind == protocol.HELLO:
            self._start_session(message, now)
            return
        if kind in (
            protocol.WELCOME,
            protocol.NEED_HELLO,
            protocol.EVENTS,
            protocol.SNAPSHOT,
            protocol.LED_ACK,
            protocol.STATS,
        ):
            self.rx_unexpected += 1  # a board-to-host message: an echoing line or a confused host
            return
        if not self.in_session:
            if self.last_need_hello is None or now - self.last_need_hello >= 200:
                self.last_need_hello = now
                self._send(protocol.NeedHello())
            return
        if kind == protocol.SNAPSHOT_REQUEST:
            self._flush_events()
            self._send_snapshot(protocol.SNAP_REQUESTED, now)
        elif kind == protocol.LED_FRAME:
            self._send(protocol.LedAck(message.frame_id, self._apply_frame(message)))
        elif kind == protocol.LED_DELTA:
            self._send(protocol.LedAck(message.frame_id, self._apply_delta(message)))
        elif kind == protocol.STATS_REQUEST:
            self._send(protocol.Stats(self.stats_values(now)))
        # HEARTBEAT: receiving it (last_rx) is all it is for

    def _start_session(self, hello, now):
        caps = protocol.CAP_STATS
        if self.watchdog is not None:
            caps |= protocol.CAP_WATCHDOG
        if self.pixels is not None:
            caps |= protocol.CAP_LEDS | protocol.CAP_LED_DELTA
        if self.simulated:
            caps |= protocol.CAP_SIMULATED
        welcome = protocol.Welcome(
            protocol.PROTOCOL_VERSION,
            FIRMWARE_VERSION,
            self.cfg.width,
            self.cfg.height,
            self.square_count if self.pixels is not None else 0,
            caps,
            self.boot_id,
            self.reset_reason,
            self.scanner,
        )
        if hello.version != protocol.PROTOCOL_VERSION:
            self._send(welcome)  # the host sees our version and gives up; no session
            self.in_session = False
            return
        self.in_session = True
        self.sessions += 1
        self.heartbeat_ms = min(max(hello.heartbeat_ms, 20), 60000)
        self.timeout_ms = min(max(hello.timeout_ms, 100), 600000)
        self.pending = []  # already in the snapshot below
        self.tx_broken = True  # start clean: a lone 0x00 ends any half frame the host holds
        self._send(welcome)
        self._send_snapshot(protocol.SNAP_HANDSHAKE, now)
        self.next_heartbeat = now + self.heartbeat_ms

    def _end_session(self, now):
        self.in_session = False
        self.pending = []
        self.session_ended = now

    # --- switches ------------------------------------------------------------------------------

    def _scan(self, now):
        events = self.keys.events
        if events.overflowed:
            # Some changes were lost: forget the scanner's state, rebuild occupancy from scratch
            # and report the differences once the scanner has seen every key again.
            self.keypad_overflows += 1
            events.clear()
            self.keys.reset()
            self.fresh = bytearray(len(self.bitmap))
            interval = self.cfg.scan_interval_ms
            self.resync_until = now + (self.cfg.debounce_scans + 2) * interval + 10
        while True:
            event = events.get()
            if event is None:
                break
            key = event.key_number
            square = self.key_map[key] if key < len(self.key_map) else -1
            if square >= 0:
                self._square_changed(square, event.pressed)
        if self.resync_until is not None and now >= self.resync_until:
            self._finish_resync(now)

    def _square_changed(self, square, occupied):
        byte, bit = square >> 3, 1 << (square & 7)
        if self.fresh is not None:
            if occupied:
                self.fresh[byte] |= bit
            else:
                self.fresh[byte] &= ~bit & 0xFF
            return
        was = bool(self.bitmap[byte] & bit)
        if was == occupied:
            return
        if occupied:
            self.bitmap[byte] |= bit
        else:
            self.bitmap[byte] &= ~bit & 0xFF
        if self.in_session:
            self.pending.append((square, occupied))

    def _finish_resync(self, now):
        fresh, old = self.fresh, self.bitmap
        self.fresh = None
        self.resync_until = None
        self.bitmap = fresh
        if not self.in_session:
            return
        for byte in range(len(fresh)):
            diff = fresh[byte] ^ old[byte]
            if diff:
                for bit in range(8):
                    if diff & (1 << bit):
                        self.pending.append(((byte << 3) + bit, bool(fresh[byte] & (1 << bit))))
        self._flush_events()
        self._send_snapshot(protocol.SNAP_RESYNC, now)

    def _flush_events(self):
        while self.pending:
            chunk = self.pending[:255]
            self.pending = self.pending[255:]
            self._send(protocol.Events((self.seq + 1) & 0xFFFF, chunk))
            self.seq = (self.seq + len(chunk)) & 0xFFFF
            self.events_sent += len(chunk)

    def _send_snapshot(self, reason, now):
        self._send(protocol.Snapshot(self.seq, reason, self.square_count, self.bitmap))
        self.next_snapshot = now + self.cfg.snapshot_interval_ms

    def occupied(self):
        """Occupied squares as the firmware sees them (for tests and the simulator)."""
        return protocol.squares_from_bitmap(self.bitmap, self.square_count)

    # --- LEDs ----------------------------------------------------------------------------------

    def _apply_frame(self, message):
        if self.pixels is None:
            return protocol.ACK_NO_LEDS
        if len(message.rgb) != 3 * self.square_count:
            return protocol.ACK_BAD_FRAME
        rgb = message.rgb
        pixels = self.pixels
        pixel_map = self.pixel_map
        for square in range(self.square_count):
            i = 3 * square
            pixels[pixel_map[square]] = (rgb[i], rgb[i + 1], rgb[i + 2])
        self.rgb = bytearray(rgb)
        return self._finish_frame(message.frame_id)

    def _apply_delta(self, message):
        if self.pixels is None:
            return protocol.ACK_NO_LEDS
        if self.led_frame_id is None or message.base_id != self.led_frame_id:
            return protocol.ACK_NEED_FULL
        n = self.square_count
        for change in message.changes:
            if change[0] >= n:
                return protocol.ACK_BAD_FRAME
        pixels = self.pixels
        for square, r, g, b in message.changes:
            pixels[self.pixel_map[square]] = (r, g, b)
            i = 3 * square
            self.rgb[i] = r
            self.rgb[i + 1] = g
            self.rgb[i + 2] = b
        return self._finish_frame(message.frame_id)

    def _finish_frame(self, frame_id):
        self.led_frame_id = frame_id
        self.led_frames += 1
        self._show()
        return protocol.ACK_OK

    def _show(self):
        """Show the buffer with the brightness cap, dimmed further to the power budget."""
        cap = self.cfg.brightness_cap
        brightness = cap / 255
        total = sum(self.rgb)
        self.leds_lit = total > 0
        if self.cfg.max_milliamps and total:
            milliamps = total * self.cfg.milliamps_per_channel * brightness / 255
            if milliamps > self.cfg.max_milliamps:
                brightness = brightness * self.cfg.max_milliamps / milliamps
        if brightness != self.brightness:
            self.pixels.brightness = brightness
            self.brightness = brightness
        self.pixels.show()

    def _blank_leds(self):
        if self.pixels is not None:
            self.pixels.fill((0, 0, 0))
            for i in range(len(self.rgb)):
                self.rgb[i] = 0
            self._show()
        self.led_frame_id = None
        self.leds_lit = False

    # --- output --------------------------------------------------------------------------------

    def _send(self, message):
        frame = protocol.encode(message)
        if self.tx_broken:
            frame = b"\x00" + frame
        if not self.serial.connected:
            self.tx_dropped += 1
            return
        written = self.serial.write(frame)
        if written is not None and written < len(frame):
            # The host holds a half frame now; a leading 0x00 on the next frame discards it.
            self.tx_dropped += 1
            self.tx_broken = True
        else:
            self.tx_frames += 1
            self.tx_broken = False

    def stats_values(self, now):
        d = self.decoder
        return [
            now - self.started_ms,
            d.frames,
            d.crc_errors,
            d.cobs_errors,
            d.short_frames,
            d.oversize,
            d.unknown_types,
            d.bad_payloads,
            self.tx_frames,
            self.tx_dropped,
            self.events_sent,
            self.keypad_overflows,
            self.led_frames,
            self.sessions,
            self.rx_unexpected,
            self.loops,
            int(self.cfg.scan_interval_s * 1000000),
        ]
