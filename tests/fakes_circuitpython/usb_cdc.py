"""Fake ``usb_cdc``: ``enable`` records its arguments; ``data`` is an in-memory serial whose
host side tests drive with ``host_write`` / ``host_read``."""


class Serial:
    def __init__(self):
        self.connected = True
        self.timeout = 1.0
        self.write_timeout = None
        self.to_board = bytearray()
        self.to_host = bytearray()

    # board side (usb_cdc.Serial API)
    @property
    def in_waiting(self):
        return len(self.to_board)

    def read(self, size=-1):
        if size < 0:
            size = len(self.to_board)
        data = bytes(self.to_board[:size])
        del self.to_board[:size]
        return data

    def write(self, data):
        self.to_host += data
        return len(data)

    def reset_input_buffer(self):
        self.to_board.clear()

    # host side (tests)
    def host_write(self, data):
        self.to_board += data

    def host_read(self):
        data = bytes(self.to_host)
        self.to_host.clear()
        return data


enabled = None
console = Serial()
data = Serial()


def enable(console=True, data=False):
    global enabled
    enabled = {"console": console, "data": data}
