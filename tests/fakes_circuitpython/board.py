"""Fake ``board``: the Raspberry Pi Pico's pin names."""


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"board.{self.name}"


for _n in range(29):
    globals()[f"GP{_n}"] = Pin(f"GP{_n}")
LED = Pin("LED")
VBUS_SENSE = Pin("VBUS_SENSE")
del _n
