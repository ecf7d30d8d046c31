"""CircuitPython runs this after boot.py. All wiring is in wiring.py, all logic in companion_fw.py."""

import wiring

wiring.main()
