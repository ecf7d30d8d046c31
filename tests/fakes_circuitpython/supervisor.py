"""Fake ``supervisor``."""

import time


def ticks_ms():
    return (time.monotonic_ns() // 1_000_000) & ((1 << 29) - 1)


class _Runtime:
    autoreload = True
    usb_connected = True
    serial_connected = True


runtime = _Runtime()
