"""Fake ``microcontroller``: reset reason, watchdog and reset()."""


class ResetReason:
    POWER_ON = "POWER_ON"
    BROWNOUT = "BROWNOUT"
    SOFTWARE = "SOFTWARE"
    DEEP_SLEEP_ALARM = "DEEP_SLEEP_ALARM"
    RESET_PIN = "RESET_PIN"
    WATCHDOG = "WATCHDOG"
    UNKNOWN = "UNKNOWN"
    RESCUE_DEBUG = "RESCUE_DEBUG"


class _Cpu:
    reset_reason = ResetReason.POWER_ON


class WatchDogTimer:
    def __init__(self):
        self.timeout = None
        self.mode = None
        self.feeds = 0
        self.deinited = False

    def feed(self):
        if self.mode is None:
            raise ValueError("WatchDogTimer is not initialized")
        self.feeds += 1

    def deinit(self):
        self.deinited = True
        self.mode = None


class ResetCalled(Exception):
    """microcontroller.reset() never returns on a board; the fake raises this instead."""


cpu = _Cpu()
watchdog = WatchDogTimer()
resets = 0


def reset():
    global resets
    resets += 1
    raise ResetCalled()
