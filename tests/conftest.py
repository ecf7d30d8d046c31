import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
# the app dims the screen's backlight at rest (companion/app/backlight.py): never a real one in tests
os.environ.setdefault("COMPANION_BACKLIGHT", str(ROOT / "tests" / "no-backlight-here"))

# Hypothesis keeps no example database (nothing is written into the repository or CI's
# checkout); a failure prints the blob that reproduces it (@reproduce_failure).
settings.register_profile("companion", database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "companion"))


@pytest.fixture
def chess_rules():
    from companion.games.chess import ChessRules

    return ChessRules()


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory as the pin factory for one test, reset afterwards (pins free)."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


def pytest_collection_modifyitems(config, items):
    """A test that opens a window (``ui``) is slow as well: ``-m "not slow"`` is the quick loop
    (under a minute on the development machine), the full suite runs both."""
    for item in items:
        if item.get_closest_marker("ui") is not None and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
