"""Fake ``digitalio``: enough for the status LED."""


class Direction:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"


class Pull:
    UP = "UP"
    DOWN = "DOWN"


class DigitalInOut:
    def __init__(self, pin):
        self.pin = pin
        self.direction = Direction.INPUT
        self.value = False
        self.history = []

    def __setattr__(self, name, value):
        if name == "value" and "history" in self.__dict__:
            if not self.history or self.history[-1] != value:
                self.history.append(value)
        object.__setattr__(self, name, value)

    def deinit(self):
        pass
