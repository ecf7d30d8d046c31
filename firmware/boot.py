"""Runs once after a hard reset, before USB starts (CircuitPython reads only this file then).

Adds a second USB serial channel: ``usb_cdc.console`` stays the REPL and print() output,
``usb_cdc.data`` carries only our framed protocol, so debugging output can never corrupt a frame.
On the Pi the data channel is the port whose USB interface is named "CircuitPython CDC2 data"
(older CircuitPython: "CDC data"); companion finds it by that name. Changes here take effect
only after pressing reset or unplugging the board, not after a soft reload.
"""

import usb_cdc

usb_cdc.enable(console=True, data=True)
