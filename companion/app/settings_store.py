"""The app's own settings (language, frame rate, sound), kept as JSON in the data directory.

A settings file that cannot be used (cut short by a power cut, garbled, a wrong value) never
stops the app: :meth:`AppSettings.load_or_reset` moves it aside to
``settings.json.bad-<UTC time>``, starts with the defaults, and says so in
:attr:`AppSettings.reset` for the screen to show.

Example:
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "settings.json"
    >>> settings = AppSettings.load(path)
    >>> settings.language
    'en'
    >>> settings.language = "ru"; settings.save()
    True
    >>> AppSettings.load(path).language
    'ru'
    >>> _ = path.write_text('{"language": "r')
    >>> reset = AppSettings.load_or_reset(path)
    >>> reset.language, reset.reset.kept.name.startswith("settings.json.bad-")
    ('en', True)
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.app.i18n import LANGUAGES
from companion.games.core import SetupError
from companion.games.datafile import load_json, unknown_key_problem

log = logging.getLogger(__name__)


class SettingsError(ValueError):
    """A settings file that cannot be used (names the file, the key and the problem)."""


@dataclass(frozen=True)
class SettingsReset:
    """Why the settings were reset to the defaults, and where the bad file went.

    Attributes:
        problem: what was wrong with the file (naming it).
        kept: where the bad file is now (moved aside, or left in place if it could not be).
        moved: whether it was moved aside (if not, the settings are not saved over it).
    """

    problem: str
    kept: Path
    moved: bool


@dataclass
class AppSettings:
    """What the settings screen changes.

    Attributes:
        language: ``en``, ``es`` or ``ru``.
        sound: whether the (simulated or real) buzzer sounds.
        show_simulation: whether the simulated hardware panel is offered.
        path: where the settings are saved (not saved itself).
        reset: set when the file could not be used and the defaults were taken instead.
    """

    language: str = "en"
    sound: bool = True
    show_simulation: bool = True
    path: Path | None = field(default=None, compare=False, repr=False)
    reset: SettingsReset | None = field(default=None, compare=False, repr=False)

    @classmethod
    def load(cls, path: Path) -> AppSettings:
        """Read the settings at ``path`` (defaults if there is no file yet).

        Raises:
            SettingsError: the file cannot be read, is not valid JSON or holds a wrong value.
        """
        settings = cls(path=path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return settings
        except OSError as error:
            raise SettingsError(f"{path}: cannot read the settings "
                                f"({error.strerror or error})") from error
        try:
            data = load_json(str(path), raw.decode("utf-8"))
        except UnicodeDecodeError as error:
            line = 1 + raw.count(b"\n", 0, error.start)
            raise SettingsError(f"{path}: line {line}: not UTF-8 text") from None
        except SetupError as error:
            raise SettingsError(str(error)) from None
        if not isinstance(data, dict):
            raise SettingsError(f"{path}: expected a JSON object")
        known = {f.name: f for f in fields(cls) if f.name not in ("path", "reset")}
        for key, value in data.items():
            if key not in known:
                raise SettingsError(f"{path}: unknown key {key!r}; "
                                    f"{unknown_key_problem(key, set(known)).split('; ', 1)[1]}")
            default = getattr(settings, key)
            if type(value) is not type(default):
                shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
                raise SettingsError(f"{path}: {key} must be a {type(default).__name__}, "
                                    f"not {shown}")
            setattr(settings, key, value)
        if settings.language not in LANGUAGES:
            raise SettingsError(f"{path}: language {settings.language!r} is not one of "
                                f"{', '.join(LANGUAGES)}")
        return settings

    @classmethod
    def load_or_reset(cls, path: Path) -> AppSettings:
        """The settings at ``path``, or the defaults if the file cannot be used.

        A bad file is moved aside to ``<name>.bad-<UTC time>`` (never over another file) and
        :attr:`reset` says what was wrong and where it went. If it cannot be moved, it is
        left in place and these settings are never saved over it.
        """
        try:
            return cls.load(path)
        except SettingsError as error:
            problem = str(error)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        target = path.with_name(f"{path.name}.bad-{stamp}")
        counter = 1
        while target.exists():
            counter += 1
            target = path.with_name(f"{path.name}.bad-{stamp}-{counter}")
        try:
            os.rename(path, target)
            moved = True
        except OSError as error:
            log.warning("cannot move the bad settings file %s aside: %s", path, error)
            target, moved = path, False
        log.warning("settings reset to the defaults: %s (kept as %s)", problem, target)
        settings = cls(path=path if moved else None)
        settings.reset = SettingsReset(problem, target, moved)
        return settings

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON data."""
        data = asdict(self)
        data.pop("path")
        data.pop("reset")
        return data

    def save(self) -> bool:
        """Write the settings atomically (a temporary file renamed over the old one).

        Returns whether they were saved; a failure (disk full, read-only) is logged and the
        old file is left as it was.
        """
        if self.path is None:
            return False
        temporary = self.path.with_suffix(".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps(self.to_json(), indent=2), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as error:
            log.warning("cannot save the settings to %s: %s", self.path, error)
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)
            return False
        return True
