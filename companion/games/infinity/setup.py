"""Files and options in, a setup out: the profile data and the armies of a game.

``sources["profiles"]`` holds the troop profiles and weapons (:mod:`.profile_loading`),
``sources["setup"]`` the armies (:mod:`.army`); the game takes no options (:data:`.info.INFO`
checks them). Every problem is a :class:`~companion.games.core.SetupError` naming the file,
the key and what is wrong.

Example:
    >>> from companion.resources import shipped_sources
    >>> sources = shipped_sources("companion.games.infinity",
    ...     {"setup": "armies/example.toml", "profiles": "profiles/default.toml"})
    >>> load_setup(sources, {}).players
    ('Ann', 'Ben')
    >>> try:
    ...     load_setup(sources, {"rounds": 2})
    ... except SetupError as error:
    ...     print(error.where)
    rounds
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.core import SetupError

from .army import ArmySetup, load_armies
from .info import INFO
from .profile_loading import load_catalogue


def load_setup(sources: Mapping[str, tuple[str, str]], options: Mapping[str, Any]
               ) -> ArmySetup:
    """Read ``sources["profiles"]`` (profile data) and ``sources["setup"]`` (armies).

    Raises:
        SetupError: a file is missing or wrong, or an option is given (there are none).
    """
    INFO.check_options(options)
    for role in ("setup", "profiles"):
        if role not in sources:
            raise SetupError(role, "", f"no {role} file was given")
    catalogue = load_catalogue(*sources["profiles"])
    return load_armies(*sources["setup"], catalogue)
