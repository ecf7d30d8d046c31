"""Builds the firmware from the real CircuitPython modules and runs its loop (code.py calls main).

Kept apart from companion_fw.py so the logic never imports a hardware module; tests import this
file with fakes for ``board``, ``keypad``, ``neopixel``, ``usb_cdc``, ``digitalio``,
``microcontroller`` and ``watchdog`` in ``sys.modules``.
"""

import time

import companion_fw

protocol = companion_fw.protocol

# microcontroller.ResetReason names -> the codes WELCOME carries
RESET_REASONS = (
    ("POWER_ON", protocol.RESET_POWER_ON),
    ("BROWNOUT", protocol.RESET_BROWNOUT),
    ("SOFTWARE", protocol.RESET_SOFTWARE),
    ("DEEP_SLEEP_ALARM", protocol.RESET_DEEP_SLEEP_ALARM),
    ("RESET_PIN", protocol.RESET_RESET_PIN),
    ("WATCHDOG", protocol.RESET_WATCHDOG),
    ("RESCUE_DEBUG", protocol.RESET_RESCUE_DEBUG),
)

# usb_cdc.data.write waits at most this long for the host to take bytes (None would block
# forever when the Pi stops reading; 0 would cut every frame longer than the USB buffer).
WRITE_TIMEOUT_S = 0.1


def pin(board, name, setting):
    """The ``board`` pin called ``name``; a ConfigError naming the setting when there is none."""
    found = getattr(board, name, None)
    if found is None:
        raise companion_fw.ConfigError(
            "config.py: %s = %r is not a pin of this board (at the REPL: import board; dir(board))"
            % (setting, name)
        )
    return found


def reset_reason(microcontroller):
    reason = microcontroller.cpu.reset_reason
    for name, code in RESET_REASONS:
        if reason == getattr(microcontroller.ResetReason, name, None):
            return code
    return protocol.RESET_UNKNOWN


def make_keys(cfg, board, keypad):
    """A KeyMatrix or ShiftRegisterKeys scanning in the background, debounced in C."""
    common = {"interval": cfg.scan_interval_s, "max_events": cfg.max_events}
    if cfg.debounce_scans > 1:
        common["debounce_threshold"] = cfg.debounce_scans
    if cfg.scanner == "matrix":
        rows = [pin(board, name, "ROW_PINS") for name in cfg.row_pins]
        cols = [pin(board, name, "COLUMN_PINS") for name in cfg.column_pins]

        def make(kwargs):
            return keypad.KeyMatrix(
                row_pins=rows, column_pins=cols, columns_to_anodes=cfg.columns_to_anodes, **kwargs
            )

        kind = protocol.SCANNER_KEY_MATRIX
    else:
        clock = pin(board, cfg.clock_pin, "CLOCK_PIN")
        data = pin(board, cfg.data_pin, "DATA_PIN")
        latch = pin(board, cfg.latch_pin, "LATCH_PIN")

        def make(kwargs):
            return keypad.ShiftRegisterKeys(
                clock=clock,
                data=data,
                latch=latch,
                value_to_latch=cfg.value_to_latch,
                key_count=cfg.key_count,
                value_when_pressed=cfg.value_when_pressed,
                **kwargs
            )

        kind = protocol.SCANNER_SHIFT_REGISTER
    try:
        return make(common), kind
    except TypeError:
        # CircuitPython before 9 has no debounce_threshold: interval alone debounces then
        common.pop("debounce_threshold", None)
        return make(common), kind


def build(cfg):
    """The Firmware object wired to this board's hardware, watchdog armed when configured."""
    import os

    import board
    import digitalio
    import keypad
    import microcontroller
    import neopixel
    import usb_cdc

    serial = usb_cdc.data
    if serial is None:
        raise RuntimeError(
            "usb_cdc.data does not exist: copy firmware/boot.py to CIRCUITPY and press the reset "
            "button (boot.py runs only after a hard reset)"
        )
    serial.timeout = 0
    serial.write_timeout = WRITE_TIMEOUT_S

    keys, scanner = make_keys(cfg, board, keypad)

    pixels = None
    if cfg.led_pin is not None:
        pixels = neopixel.NeoPixel(
            pin(board, cfg.led_pin, "LED_PIN"),
            cfg.square_count,
            brightness=cfg.brightness_cap / 255,
            auto_write=False,
            pixel_order=getattr(neopixel, cfg.pixel_order),
        )

    status_led = None
    if cfg.status_led_pin is not None:
        status_led = digitalio.DigitalInOut(pin(board, cfg.status_led_pin, "STATUS_LED_PIN"))
        status_led.direction = digitalio.Direction.OUTPUT

    watchdog = None
    if cfg.watchdog_s:
        from watchdog import WatchDogMode

        watchdog = microcontroller.watchdog
        watchdog.timeout = cfg.watchdog_s
        watchdog.mode = WatchDogMode.RESET
        watchdog.feed()

    return companion_fw.Firmware(
        keys,
        pixels,
        serial,
        lambda: time.monotonic_ns() // 1000000,
        cfg,
        watchdog=watchdog,
        status_led=status_led,
        boot_id=int.from_bytes(os.urandom(2), "little"),
        reset_reason=reset_reason(microcontroller),
        scanner=scanner,
    )


def main(config_module=None, max_steps=None, sleep=time.sleep):
    """Run forever (``max_steps`` bounds it in tests).

    A bad config.py is printed on the console every few seconds (no reset loop); a crash in the
    loop is printed and the board resets itself; a stalled loop is reset by the watchdog."""
    import microcontroller

    if config_module is None:
        import config as config_module
    try:
        fw = build(companion_fw.load_config(config_module))
    except (companion_fw.ConfigError, RuntimeError, ValueError) as err:
        while True:
            print("companion firmware cannot start:", err)
            if max_steps is not None:
                return err
            sleep(5)
    steps = 0
    try:
        while max_steps is None or steps < max_steps:
            fw.step()
            steps += 1
            sleep(0.001)
    except KeyboardInterrupt:
        # Ctrl-C at the REPL: stop the watchdog so the developer is not reset under their feet
        if fw.watchdog is not None:
            try:
                fw.watchdog.deinit()
            except Exception:
                pass
        raise
    except Exception as err:
        print("companion firmware crashed, resetting:", repr(err))
        try:
            import traceback

            traceback.print_exception(err)
        except Exception:
            pass
        sleep(1)
        microcontroller.reset()
    return fw
