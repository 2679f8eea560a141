"""The pin map: which GPIO drives each LED and the buzzer, read from a TOML file.

The shipped ``hardware/pins.toml`` holds the defaults and documents every key; a user file
only needs the keys that differ.

Example:
    >>> pins = load_pins()
    >>> pins.ring["x"], pins.buzzer, pins.status
    ('GPIO26', 'GPIO12', 'GPIO16')
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from gpiozero import GPIOZeroError

from companion.games.core import SetupError
from companion.games.datafile import Table, load_toml

RING_KEYS = ("one", "two", "three", "four", "x")
_PIN_NAME = re.compile(r"^(GPIO\d{1,2}|BOARD\d{1,2}|\d{1,2})$")
USER_PINS = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) \
    / "infinite-table" / "pins.toml"
"""Where the companion looks for the user's pin map when none is named."""


class PinMapError(GPIOZeroError, ValueError):
    """A pin map file that cannot be used; names the file, the key and the problem.

    A ``ValueError`` and, like every error of the table's outputs, a gpiozero
    :exc:`~gpiozero.GPIOZeroError` (the pin factory's is gpiozero's ``BadPinFactory``).
    """


@dataclass(frozen=True)
class PinMap:
    """Where each output is wired.

    Attributes:
        ring: the five counter LEDs by position (``one`` ... ``four``, ``x``).
        buzzer: the buzzer's pin.
        buzzer_active_high: whether the buzzer sounds when its pin is high.
        status: the status LED's pin.
        source: the file the map came from (``"defaults"`` for the shipped one).
    """

    ring: dict[str, str]
    buzzer: str
    buzzer_active_high: bool
    status: str
    source: str = "defaults"


def _defaults() -> dict[str, Any]:
    text = resources.files("hardware").joinpath("pins.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _pin(source: str, key: str, value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = f"GPIO{value}"
    if not isinstance(value, str) or not _PIN_NAME.match(value.strip().upper()):
        raise PinMapError(f"{source}: {key}: {value!r} is not a pin name like \"GPIO17\" or "
                          f"\"BOARD11\"")
    return value.strip().upper()


def pins_from_text(text: str, source: str) -> PinMap:
    """Read a pin map's TOML text over the defaults.

    Raises:
        PinMapError: naming ``source``, the key and what is wrong.

    Example:
        >>> pins_from_text('[buzzer]' + chr(10) + 'pin = 18', "mine.toml").buzzer
        'GPIO18'
    """
    data = _defaults()
    try:  # one reader for every data file: unknown keys name the closest valid one
        with Table(source, load_toml(source, text)) as user:
            for section, defaults in data.items():
                with user.table(section, {}) as values:
                    for key in defaults:
                        if values.has(key):
                            defaults[key] = values.raw(key)
    except SetupError as error:  # not TOML, too large, too deep, or an unknown key
        raise PinMapError(str(error)) from None
    ring = {key: _pin(source, f"ring.{key}", data["ring"][key]) for key in RING_KEYS}
    buzzer = _pin(source, "buzzer.pin", data["buzzer"]["pin"])
    status = _pin(source, "status.pin", data["status"]["pin"])
    active_high = data["buzzer"]["active_high"]
    if not isinstance(active_high, bool):
        raise PinMapError(f"{source}: buzzer.active_high: expected true or false, "
                          f"not {active_high!r}")
    used: dict[str, str] = {}
    for key, pin in [*((f"ring.{k}", p) for k, p in ring.items()), ("buzzer.pin", buzzer),
                     ("status.pin", status)]:
        if pin in used:
            raise PinMapError(f"{source}: {key}: {pin} is already used by {used[pin]}")
        used[pin] = key
    return PinMap(ring, buzzer, active_high, status, source)


def load_pins(path: Path | str | None = None) -> PinMap:
    """The pin map from ``path``, else from :data:`USER_PINS` if it exists, else the defaults.

    Raises:
        PinMapError: the file cannot be read or used.
    """
    if path is None:
        if not USER_PINS.exists():
            return pins_from_text("", "defaults")
        path = USER_PINS
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PinMapError(f"{path}: cannot read: {error}") from None
    return pins_from_text(text, str(path))
