"""Choosing gpiozero's pin factory: lgpio on a Raspberry Pi, mock pins elsewhere.

- ``GPIOZERO_PIN_FACTORY`` set: gpiozero's own choice is respected (``mock`` gets PWM-capable
  mock pins, which the pulsing LED needs).
- On a Raspberry Pi (any model, Pi 5 included): ``LGPIOFactory`` (``pip install .[pi]``);
  without lgpio, gpiozero's own :exc:`~gpiozero.BadPinFactory` (an ``ImportError``) says what
  to install.
- Anywhere else (a desktop, the tests): ``MockFactory(pin_class=MockPWMPin)``, so the app runs
  and shows what the lights would do.

Example:
    >>> factory = choose_pin_factory(environ={}, model_path="/nonexistent")
    >>> type(factory).__name__
    'MockFactory'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from gpiozero import BadPinFactory, Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

PI_MODEL_PATH = "/proc/device-tree/model"

PinFactoryError = BadPinFactory
"""The earlier name of the error :func:`choose_pin_factory` raises: gpiozero's own."""


def is_raspberry_pi(model_path: str = PI_MODEL_PATH) -> bool:
    """Whether this machine says it is a Raspberry Pi."""
    try:
        return "raspberry pi" in Path(model_path).read_text(errors="replace").lower()
    except OSError:
        return False


def mock_factory() -> MockFactory:
    """Mock pins that also do PWM (what tests and desktops use)."""
    return MockFactory(pin_class=MockPWMPin)


def choose_pin_factory(environ: Mapping[str, str] | None = None,
                       model_path: str = PI_MODEL_PATH) -> Factory | None:
    """The pin factory to pass to every device (``None``: let gpiozero decide from the env).

    Raises:
        gpiozero.BadPinFactory: on a Pi without the ``lgpio`` package (an ``ImportError``
            naming the package to install).
    """
    environ = os.environ if environ is None else environ
    requested = environ.get("GPIOZERO_PIN_FACTORY", "").strip().lower()
    if requested == "mock":
        return mock_factory()
    if requested:
        return None
    if is_raspberry_pi(model_path):
        try:
            from gpiozero.pins.lgpio import LGPIOFactory
            return LGPIOFactory()
        except ImportError as error:
            raise BadPinFactory("this is a Raspberry Pi but lgpio is not installed: "
                                "pip install '.[pi]' (or apt install python3-lgpio)"
                                ) from error
    return mock_factory()
