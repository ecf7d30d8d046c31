"""This board's hardware. Edit on the CIRCUITPY drive; the firmware checks every value at start
and prints what is wrong on the serial console (the REPL) instead of running.

Pin names are those of ``board`` on your microcontroller (``import board; dir(board)``).
Any setting left out takes its default (see SETTINGS in companion_fw.py); unknown names are errors.
"""

# Board size in squares. Key and LED counts follow from it.
WIDTH = 20
HEIGHT = 20

# How the reed switches are read.
#   "shift_register": 74HC165 chains, one input per square, no diodes (any size up to 20x20)
#   "matrix": a diode matrix on ROW_PINS x COLUMN_PINS (a Pico has pins for about 12x12)
SCANNER = "shift_register"
CLOCK_PIN = "GP2"
DATA_PIN = "GP3"
LATCH_PIN = "GP4"
VALUE_TO_LATCH = True  # 74HC165: True; CD4021: False
VALUE_WHEN_PRESSED = False  # reed switch pulls the input low when a piece stands on it
# KEY_COUNT = 400  # bits clocked in; defaults to WIDTH * HEIGHT (spare bits are ignored)

# For a matrix instead (ranks on rows, files on columns):
# SCANNER = "matrix"
# ROW_PINS = ("GP0", "GP1", "GP2", "GP3", "GP4", "GP5", "GP6", "GP7")
# COLUMN_PINS = ("GP8", "GP9", "GP10", "GP11", "GP12", "GP13", "GP14", "GP15")
# COLUMNS_TO_ANODES = True  # diode anodes on the column side

# Debouncing (done by the keypad module in C): scan every SCAN_INTERVAL_S, and report a change
# only after DEBOUNCE_SCANS equal scans (needs CircuitPython 9; older versions ignore it).
SCAN_INTERVAL_S = 0.01
DEBOUNCE_SCANS = 2
# MAX_EVENTS = 400  # keypad event queue, at least one per key (the default); an overflow
#                   # triggers a full resync, never a lost change

# Which square each key number is (key 0 = first bit clocked in / row 0 column 0):
#   "rows" (a1 b1 ... then a2 ...), "serpentine", "columns", "columns_serpentine"
KEY_ORDER = "rows"
KEY_FLIP_FILES = False
KEY_FLIP_RANKS = False

# NeoPixels: one per square. LED_PIN = None for a board without LEDs.
LED_PIN = "GP16"
LED_ORDER = "serpentine"  # the strip snakes: rank 1 left to right, rank 2 right to left, ...
LED_FLIP_FILES = False
LED_FLIP_RANKS = False
PIXEL_ORDER = "GRB"
BRIGHTNESS_CAP = 48  # 0..255: the host's full brightness is shown at most this bright
MAX_MILLIAMPS = 6000  # dim the whole frame when its estimated current exceeds this (0 = no limit)
MILLIAMPS_PER_CHANNEL = 20  # one colour channel at 255

# Onboard LED: steady while the Pi is connected, slow blink while waiting. None to disable.
STATUS_LED_PIN = "LED"

# Link timing. The host's HELLO overrides the heartbeat and timeout for its session.
SNAPSHOT_INTERVAL_MS = 1000
HEARTBEAT_MS = 500
HOST_TIMEOUT_MS = 3000
LED_HOLD_MS = 10000  # keep the last LED frame this long after the host went away

# Reset the board when the main loop stalls this long (1..8 s; 0 = off, handy while developing
# at the REPL: with the watchdog on, Ctrl-C stops it first).
WATCHDOG_S = 4
