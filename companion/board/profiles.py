"""Board profiles: the hardware of one board, as data (hardware/profiles/*.toml).

A profile says how big the physical board is, where the game map sits on it, how the reed
switches are reached (simulated, Pi GPIO or an RP2040 over USB serial), which pins, and how the
LEDs are chained, capped and powered. Loading is strict, like maps: an unknown key, a wrong
type, a pin used twice or too few LEDs is a ProfileError naming the file, the key and what is
expected. hardware/README.md documents every key; the shipped profiles are examples.

Units: pins are BCM GPIO numbers (``GPIO17`` is 17); ``brightness_cap`` is the highest PWM
level (0-255) any LED channel gets; ``supply_amps`` is what the LED power supply can give.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..bounds import MAX_DATA_FILE_BYTES, read_text_file
from ..core.geometry import MAX_SIZE, MIN_SIZE
from ..errors import ProfileError
from ..i18n import N_, _, ngettext
from ..toml_locations import parse_toml
from .palette import MIN_CAP

PROFILE_DIR = Path(__file__).resolve().parents[2] / "hardware" / "profiles"

LINKS = ("simulated", "gpio", "serial")
START_CORNERS = ("lower-left", "lower-right", "upper-left", "upper-right")
ROTATIONS = (0, 90, 180, 270)
PIXEL_ORDERS = ("GRB", "RGB")
#: GPIOs the NeoPixel driver can use on a Pi 4 (rpi_ws281x: SPI, PWM, PWM, PCM); on a Pi 5
#: any pin works, so these four are the portable choice.
NEOPIXEL_PINS = (10, 12, 18, 21)
#: BCM numbers on the 40-pin header free for general use (0 and 1 belong to the HAT EEPROM).
USABLE_PINS = range(2, 28)
#: Driving the LEDs from GPIO10 turns SPI0 on, and its driver claims these pins too.
SPI0_PINS = (7, 8, 9, 11)


@dataclass(frozen=True)
class Placement:
    """Where a ``map_width`` x ``map_height`` game map sits on the physical board: its a1 is
    board square (``file_offset``, ``rank_offset``). Squares outside the map stay dark and their
    switches are ignored."""

    board_width: int
    board_height: int
    map_width: int
    map_height: int
    file_offset: int = 0
    rank_offset: int = 0

    def __post_init__(self) -> None:
        if (
            min(self.map_width, self.map_height, self.file_offset + 1, self.rank_offset + 1) < 1
            or self.file_offset + self.map_width > self.board_width
            or self.rank_offset + self.map_height > self.board_height
        ):
            raise ValueError(
                _("a {map_width}x{map_height} map at offset [{file_offset}, {rank_offset}] does not fit on a "
                  "{board_width}x{board_height} board").format(
                    map_width=self.map_width, map_height=self.map_height, file_offset=self.file_offset,
                    rank_offset=self.rank_offset, board_width=self.board_width, board_height=self.board_height)
            )

    @classmethod
    def whole(cls, width: int, height: int) -> "Placement":
        return cls(width, height, width, height)

    @property
    def is_whole_board(self) -> bool:
        return (self.map_width, self.map_height) == (self.board_width, self.board_height)

    def to_board(self, square: int) -> int:
        """Map square -> physical board square."""
        if not 0 <= square < self.map_width * self.map_height:
            raise ValueError(f"square {square} is off the {self.map_width}x{self.map_height} map")
        file, rank = square % self.map_width, square // self.map_width
        return (rank + self.rank_offset) * self.board_width + file + self.file_offset

    def to_map(self, board_square: int) -> int | None:
        """Physical board square -> map square, or None when it lies outside the map."""
        file = board_square % self.board_width - self.file_offset
        rank = board_square // self.board_width - self.rank_offset
        if 0 <= file < self.map_width and 0 <= rank < self.map_height:
            return rank * self.map_width + file
        return None


@dataclass(frozen=True)
class MatrixWiring:
    rows: tuple[int, ...]  # one GPIO per rank, rank 1 first
    columns: tuple[int, ...]  # one GPIO per file, file a first


@dataclass(frozen=True)
class ShiftRegisterWiring:
    load: int
    clock: int
    data: int
    clock_enable: int | None = None


@dataclass(frozen=True)
class ScanSettings:
    interval_ms: int = 10
    debounce_scans: int = 3
    settle_us: int = 0


@dataclass(frozen=True)
class SerialSettings:
    port: str = "auto"  # "auto": find the RP2040's data port by its USB interface name
    baud: int = 115200


@dataclass(frozen=True)
class LedSettings:
    count: int
    brightness_cap: int
    supply_amps: float
    data_pin: int | None = None  # None: the RP2040 drives the LEDs
    pixel_order: str = "GRB"
    serpentine: bool = True
    start_corner: str = "lower-left"
    rotation: int = 0


@dataclass(frozen=True)
class Fixes:
    """Faults of the build corrected in software (written by ``companion board-check``):
    pairs of board squares whose LEDs trade places in the chain, and pairs whose switches read
    each other."""

    swap_leds: tuple[tuple[int, int], ...] = ()
    swap_switches: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class BoardProfile:
    name: str
    link: str
    width: int
    height: int
    map_offset: tuple[int, int] | str = (0, 0)  # or "center"
    matrix: MatrixWiring | None = None
    shift_register: ShiftRegisterWiring | None = None
    scan: ScanSettings | None = None
    serial: SerialSettings | None = None
    leds: LedSettings | None = None
    source: str = "<profile>"
    fixes: Fixes = Fixes()

    @property
    def size(self) -> int:
        return self.width * self.height

    def placement(self, map_width: int | None = None, map_height: int | None = None) -> Placement:
        """Where a map of this size sits on the board. Without a size the map fills the board
        from ``map_offset`` to the far edges."""
        if self.map_offset == "center":
            mw = self.width if map_width is None else map_width
            mh = self.height if map_height is None else map_height
            offset = ((self.width - mw) // 2, (self.height - mh) // 2)
        else:
            offset = self.map_offset  # type: ignore[assignment]
            mw = self.width - offset[0] if map_width is None else map_width
            mh = self.height - offset[1] if map_height is None else map_height
        try:
            return Placement(self.width, self.height, mw, mh, *offset)
        except ValueError as exc:
            raise ProfileError(_("{source}: [board] map_offset: {problem}").format(source=self.source, problem=exc)) from None


# --- loading ------------------------------------------------------------------------------------


def resolve_profile(name_or_path: str | Path) -> Path:
    """A path, or the name of a shipped profile ("gpio-8x8" -> hardware/profiles/gpio-8x8.toml)."""
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists() or len(path.parts) > 1:
        return path
    shipped = PROFILE_DIR / f"{name_or_path}.toml"
    if not shipped.exists():
        names = ", ".join(shipped_profiles()) or _("none found")
        raise ProfileError(_("no board profile named {name!r} (shipped: {names}; or give a .toml path)").format(
            name=str(name_or_path), names=names))
    return shipped


def shipped_profiles() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


def load_profile(name_or_path: str | Path) -> BoardProfile:
    """Read and validate a profile file (or a shipped profile by name)."""
    path = resolve_profile(name_or_path)
    try:
        text = read_text_file(path, MAX_DATA_FILE_BYTES, _("a board profile"), ProfileError)
    except OSError as exc:
        raise ProfileError(_("{path}: cannot read the board profile: {reason}").format(
            path=path, reason=exc.strerror or exc)) from None
    except UnicodeDecodeError as exc:
        raise ProfileError(_("{path}: not UTF-8 text (byte {byte}); save the profile as UTF-8").format(
            path=path, byte=exc.start)) from None
    return parse_profile(text, str(path))


def parse_profile(text: str, source: str = "<profile>") -> BoardProfile:
    return _ProfileReader(source).read(parse_toml(text, source, ProfileError))


_REQUIRED = object()


class _Table:
    """One TOML table being read: typed getters, and unknown keys reported at the end."""

    def __init__(self, source: str, name: str, data: dict[str, Any]) -> None:
        self.source, self.name, self.data = source, name, data
        self.read: set[str] = set()

    def where(self, key: str) -> str:
        return f"{self.source}: {key}" if not self.name else f"{self.source}: [{self.name}] {key}"

    def fail(self, key: str, expected: str, got: Any = _REQUIRED) -> ProfileError:
        if got is _REQUIRED:
            return ProfileError(_("{where} is missing: expected {expected}").format(where=self.where(key), expected=expected))
        shown = str(got).lower() if isinstance(got, bool) else repr(got)  # as TOML spells it
        return ProfileError(_("{where}: expected {expected}, got {value}").format(where=self.where(key), expected=expected,
                                                                                 value=shown))

    def get(self, key: str, expected: str, check: Callable[[Any], bool], default: Any = _REQUIRED) -> Any:
        self.read.add(key)
        if key not in self.data:
            if default is _REQUIRED:
                raise self.fail(key, expected)
            return default
        value = self.data[key]
        if not check(value):
            raise self.fail(key, expected, value)
        return value

    def int(self, key: str, lo: int, hi: int, default: Any = _REQUIRED, why: str = "") -> int:
        expected = _("an integer from {least} to {most}").format(least=lo, most=hi) + why
        return self.get(key, expected, lambda v: _is_int(v) and lo <= v <= hi, default)

    def number(self, key: str, lo: float, hi: float, default: Any = _REQUIRED) -> float:
        expected = _("a number from {least:g} to {most:g}").format(least=lo, most=hi)
        return float(self.get(key, expected, lambda v: (_is_int(v) or isinstance(v, float)) and lo <= v <= hi, default))

    def choice(self, key: str, choices: tuple, default: Any = _REQUIRED) -> Any:
        expected = _("one of {choices}").format(choices=", ".join(repr(c) for c in choices))
        return self.get(key, expected, lambda v: not isinstance(v, bool) and v in choices, default)

    def bool(self, key: str, default: Any = _REQUIRED) -> bool:
        return self.get(key, _("true or false"), lambda v: isinstance(v, bool), default)

    def text(self, key: str, default: Any = _REQUIRED) -> str:
        return self.get(key, _("a non-empty string"), lambda v: isinstance(v, str) and v.strip() != "", default)

    def pin(self, key: str, default: Any = _REQUIRED) -> int | None:
        return self.get(key, _(_PIN_EXPECTED), _is_pin, default)

    def pins(self, key: str, count: int, what: str) -> tuple[int, ...]:
        expected = ngettext("a list of {n} GPIO number ({what}), each from 2 to 27",
                            "a list of {n} GPIO numbers ({what}), each from 2 to 27", count).format(n=count, what=what)
        value = self.get(key, expected, lambda v: isinstance(v, list) and all(_is_pin(p) for p in v))
        if len(value) != count:
            raise self.fail(key, expected, value)
        return tuple(value)

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self.read)
        if unknown:
            allowed = ", ".join(sorted(self.read)) or _("none")
            where = f"[{self.name}]" if self.name else _("the top level")
            raise ProfileError(_("{source}: unknown key {key!r} in {where} (allowed here: {allowed})").format(
                source=self.source, key=unknown[0], where=where, allowed=allowed))


_PIN_EXPECTED = N_("a BCM GPIO number from 2 to 27 (0 and 1 are reserved for HAT EEPROMs)")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_pin(v: Any) -> bool:
    return _is_int(v) and v in USABLE_PINS


class _ProfileReader:
    def __init__(self, source: str) -> None:
        self.source = source

    def table(self, top: _Table, name: str, required: bool) -> _Table | None:
        top.read.add(name)
        if name not in top.data:
            if required:
                raise ProfileError(_("{source}: the [{name}] table is missing").format(source=self.source, name=name))
            return None
        value = top.data[name]
        if not isinstance(value, dict):
            raise ProfileError(_("{source}: {name} must be a table ([{name}]), got {value!r}").format(
                source=self.source, name=name, value=value))
        return _Table(self.source, name, value)

    def refuse(self, top: _Table, name: str, why: str) -> None:
        top.read.add(name)
        if name in top.data:
            raise ProfileError(_("{source}: [{name}] does not belong in this profile: {why}").format(
                source=self.source, name=name, why=why))

    def read(self, data: dict[str, Any]) -> BoardProfile:
        top = _Table(self.source, "", data)
        name = top.text("name")
        top.text("description", default="")
        link = top.choice("link", LINKS)

        board = self.table(top, "board", required=True)
        assert board is not None
        width = board.int("width", MIN_SIZE, MAX_SIZE)
        height = board.int("height", MIN_SIZE, MAX_SIZE)
        offset = self.map_offset(board, width, height)
        board.finish()

        matrix = shift = scan = serial = leds = None
        if link == "gpio":
            matrix, shift = self.sensors(top, width, height)
            scan = self.scan(top, matrix is not None)
            leds = self.leds(top, width * height, required=True, neopixel=True)
            self.refuse(top, "serial", _('it is for link = "serial" boards'))
            self.check_pins(matrix, shift, leds)
        elif link == "serial":
            serial = self.serial(top)
            leds = self.leds(top, width * height, required=True, neopixel=False)
            for t in ("matrix", "shift_register", "scan"):
                self.refuse(top, t, _("the RP2040 firmware scans the switches (see hardware/FIRMWARE.md)"))
        else:
            for t in ("matrix", "shift_register", "scan", "serial", "leds", "fixes"):
                self.refuse(top, t, _("a simulated board has no hardware to configure"))
        fixes = self.fixes(top, width, height)
        top.finish()
        return BoardProfile(
            name=name,
            link=link,
            width=width,
            height=height,
            map_offset=offset,
            matrix=matrix,
            shift_register=shift,
            scan=scan,
            serial=serial,
            leds=leds,
            source=self.source,
            fixes=fixes,
        )

    def fixes(self, top: _Table, width: int, height: int) -> Fixes:
        t = self.table(top, "fixes", required=False)
        if t is None:
            return Fixes()
        used: dict[int, str] = {}

        def pairs(key: str) -> tuple[tuple[int, int], ...]:
            from .bring_up import parse_square

            expected = _('a list of pairs of squares, e.g. [["d4", "e4"]]')
            value = t.get(key, expected, lambda v: isinstance(v, list) and all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in v), [])
            out = []
            used.clear()
            for a_text, b_text in value:
                try:
                    a, b = parse_square(a_text, width, height), parse_square(b_text, width, height)
                except ValueError as exc:
                    raise ProfileError(_("{where}: {problem}").format(where=t.where(key), problem=exc)) from None
                for sq, text in ((a, a_text), (b, b_text)):
                    if sq in used or a == b:
                        raise ProfileError(_("{where}: {text!r} is in more than one pair; each square is swapped once").format(
                            where=t.where(key), text=text))
                    used[sq] = text
                out.append((a, b))
            return tuple(out)

        fixes = Fixes(swap_leds=pairs("swap_leds"), swap_switches=pairs("swap_switches"))
        t.finish()
        return fixes

    def map_offset(self, board: _Table, width: int, height: int) -> tuple[int, int] | str:
        expected = _('"center" or [file, rank] with 0 <= file < {width} and 0 <= rank < {height}').format(
            width=width, height=height)

        def ok(v: Any) -> bool:
            if v == "center":
                return True
            return (
                isinstance(v, list)
                and len(v) == 2
                and all(_is_int(x) for x in v)
                and 0 <= v[0] < width
                and 0 <= v[1] < height
            )

        value = board.get("map_offset", expected, ok, default=[0, 0])
        return "center" if value == "center" else (value[0], value[1])

    def sensors(self, top: _Table, width: int, height: int) -> tuple[MatrixWiring | None, ShiftRegisterWiring | None]:
        m = self.table(top, "matrix", required=False)
        s = self.table(top, "shift_register", required=False)
        if (m is None) == (s is None):
            raise ProfileError(
                _("{source}: a gpio board needs exactly one of [matrix] (a diode matrix) or [shift_register] (a "
                  "74HC165 chain)").format(source=self.source)
            )
        if m is not None:
            wiring = MatrixWiring(
                rows=m.pins("rows", height, _("one per rank, rank 1 first; the board is {height} high").format(
                    height=height)),
                columns=m.pins("columns", width, _("one per file, file a first; the board is {width} wide").format(
                    width=width)),
            )
            m.finish()
            return wiring, None
        assert s is not None
        shift = ShiftRegisterWiring(
            load=s.pin("load"), clock=s.pin("clock"), data=s.pin("data"), clock_enable=s.pin("clock_enable", None)
        )
        s.finish()
        return None, shift

    def scan(self, top: _Table, is_matrix: bool) -> ScanSettings:
        t = self.table(top, "scan", required=False)
        if t is None:
            return ScanSettings()
        settings = ScanSettings(
            interval_ms=t.int("interval_ms", 1, 1000, 10),
            debounce_scans=t.int("debounce_scans", 1, 20, 3),
            settle_us=t.int("settle_us", 0, 1000, 0) if is_matrix else 0,
        )
        t.finish()
        return settings

    def serial(self, top: _Table) -> SerialSettings:
        t = self.table(top, "serial", required=False)
        if t is None:
            return SerialSettings()
        settings = SerialSettings(port=t.text("port", "auto"), baud=t.int("baud", 9600, 4_000_000, 115200))
        t.finish()
        return settings

    def leds(self, top: _Table, squares: int, *, required: bool, neopixel: bool) -> LedSettings | None:
        t = self.table(top, "leds", required=required)
        if t is None:
            return None
        count = t.int("count", squares, 4096, why=" " + _("(at least one LED per square: {squares})").format(squares=squares))
        cap = t.int("brightness_cap", MIN_CAP, 255, why=" " + _("(below {least} the dim colours merge)").format(least=MIN_CAP))
        amps = t.number("supply_amps", 0.1, 100.0)
        if not neopixel:
            unknown = sorted(set(t.data) - t.read)
            if unknown:
                raise ProfileError(
                    _("{source}: [leds] {key}: the RP2040 firmware drives the LEDs of a serial board; set the "
                      "chain there (hardware/FIRMWARE.md). Allowed here: brightness_cap, count, supply_amps").format(
                        source=self.source, key=unknown[0])
                )
            return LedSettings(count=count, brightness_cap=cap, supply_amps=amps)
        pins = ", ".join(map(str, NEOPIXEL_PINS))
        settings = LedSettings(
            count=count,
            brightness_cap=cap,
            supply_amps=amps,
            data_pin=t.get(
                "data_pin",
                _("one of GPIO {pins} (the pins the Pi 4 NeoPixel driver can use; 10 needs no root)").format(pins=pins),
                lambda v: _is_int(v) and v in NEOPIXEL_PINS,
            ),
            pixel_order=t.choice("pixel_order", PIXEL_ORDERS, "GRB"),
            serpentine=t.bool("serpentine", True),
            start_corner=t.choice("start_corner", START_CORNERS, "lower-left"),
            rotation=t.choice("rotation", ROTATIONS, 0),
        )
        t.finish()
        return settings

    def check_pins(
        self, matrix: MatrixWiring | None, shift: ShiftRegisterWiring | None, leds: LedSettings | None
    ) -> None:
        uses: list[tuple[int, str]] = []
        if matrix is not None:
            uses += [(p, _("[matrix] rows (rank {n})").format(n=i + 1)) for i, p in enumerate(matrix.rows)]
            uses += [(p, _("[matrix] columns (file {n})").format(n=i + 1)) for i, p in enumerate(matrix.columns)]
        if shift is not None:
            for key in ("load", "clock", "data", "clock_enable"):
                pin = getattr(shift, key)
                if pin is not None:
                    uses.append((pin, f"[shift_register] {key}"))
        if leds is not None and leds.data_pin is not None:
            uses.append((leds.data_pin, "[leds] data_pin"))
        seen: dict[int, str] = {}
        for pin, what in uses:
            if pin in seen:
                raise ProfileError(_("{source}: GPIO{pin} is used twice, by {first} and by {what}").format(
                    source=self.source, pin=pin, first=seen[pin], what=what))
            seen[pin] = what
        if leds is not None and leds.data_pin == 10:
            for pin, what in uses:
                if pin in SPI0_PINS:
                    raise ProfileError(
                        _("{source}: {what} uses GPIO{pin}, but [leds] data_pin = 10 drives the LEDs through SPI0, "
                          "which claims GPIO{pins} as well; move the switch wiring to other pins").format(
                            source=self.source, what=what, pin=pin, pins=', GPIO'.join(map(str, SPI0_PINS)))
                    )
