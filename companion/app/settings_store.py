"""The app's own settings (language, frame rate, sound), kept as JSON in the data directory.

Example:
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "settings.json"
    >>> settings = AppSettings.load(path)
    >>> settings.language
    'en'
    >>> settings.language = "ru"; settings.save()
    >>> AppSettings.load(path).language
    'ru'
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.app.i18n import LANGUAGES


class SettingsError(ValueError):
    """A settings file that cannot be used (names the file, the key and the problem)."""


@dataclass
class AppSettings:
    """What the settings screen changes.

    Attributes:
        language: ``en``, ``es`` or ``ru``.
        sound: whether the (simulated or real) buzzer sounds.
        show_simulation: whether the simulated hardware panel is offered.
        path: where the settings are saved (not saved itself).
    """

    language: str = "en"
    sound: bool = True
    show_simulation: bool = True
    path: Path | None = field(default=None, compare=False, repr=False)

    @classmethod
    def load(cls, path: Path) -> AppSettings:
        """Read the settings at ``path`` (defaults if there is no file yet).

        Raises:
            SettingsError: the file is not valid JSON or holds a wrong value.
        """
        settings = cls(path=path)
        if not path.exists():
            return settings
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise SettingsError(f"{path}: cannot read the settings ({error})") from error
        if not isinstance(data, dict):
            raise SettingsError(f"{path}: expected a JSON object")
        known = {f.name: f for f in fields(cls) if f.name != "path"}
        for key, value in data.items():
            if key not in known:
                raise SettingsError(f"{path}: unknown key {key!r}")
            default = getattr(settings, key)
            if type(value) is not type(default):
                raise SettingsError(f"{path}: {key} must be a {type(default).__name__}, "
                                    f"not {value!r}")
            setattr(settings, key, value)
        if settings.language not in LANGUAGES:
            raise SettingsError(f"{path}: language {settings.language!r} is not one of "
                                f"{', '.join(LANGUAGES)}")
        return settings

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON data."""
        data = asdict(self)
        data.pop("path")
        return data

    def save(self) -> None:
        """Write the settings atomically (a temporary file renamed over the old one)."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(self.to_json(), indent=2), encoding="utf-8")
        os.replace(temporary, self.path)
