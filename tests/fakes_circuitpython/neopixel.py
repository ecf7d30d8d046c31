"""Fake ``neopixel``: a pixel buffer that records what was shown (brightness applied)."""

from companion.board.firmware_sim import SimPixels

RGB = "RGB"
GRB = "GRB"
RGBW = "RGBW"
GRBW = "GRBW"

created = []


class NeoPixel(SimPixels):
    def __init__(self, pin, n, *, bpp=3, brightness=1.0, auto_write=True, pixel_order=None):
        super().__init__(n, brightness=brightness, auto_write=auto_write, pixel_order=pixel_order or GRB)
        self.pin = pin
        created.append(self)
