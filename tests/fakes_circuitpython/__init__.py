"""Fakes of the CircuitPython modules the firmware wiring imports, for CPython tests.

:func:`install` puts them into ``sys.modules`` with pytest's monkeypatch (so Blinka's own
top-level ``board``/``keypad``/``neopixel`` can never shadow them) and returns them by name.
The keypad and pixel behaviour is the simulator's (companion.board.firmware_sim), so tests and
``companion firmware-sim`` exercise one model of the hardware.
"""

import importlib
import sys
from pathlib import Path

NAMES = ("board", "digitalio", "keypad", "neopixel", "usb_cdc", "microcontroller", "watchdog", "supervisor")

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"


def install(monkeypatch):
    """Fresh fakes in sys.modules (state reset per test) plus firmware/ on sys.path."""
    modules = {}
    for name in NAMES:
        module = importlib.import_module(f"{__name__}.{name}")
        module = importlib.reload(module)
        monkeypatch.setitem(sys.modules, name, module)
        modules[name] = module
    monkeypatch.syspath_prepend(str(FIRMWARE_DIR))
    # firmware modules other than the shared companion_fw are re-imported per test
    for name in ("wiring", "config", "code", "boot"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return modules
