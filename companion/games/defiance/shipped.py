"""Names of the example data shipped in this package.

Read by the CLI, app and tests with
:func:`companion.resources.shipped_sources`; the engine itself reads no files).

Example:
    >>> shipped_roles("data/games/quickplay.toml")["setup"]
    'data/games/quickplay.toml'
"""

from __future__ import annotations

PACKAGE = "companion.games.defiance"
DATA_FILES = {
    "leaders": "data/example/leaders.toml",
    "tiles": "data/example/tiles.toml",
    "cards": "data/example/cards.toml",
    "roles": "data/example/roles.toml",
    "chapters": "data/example/chapters.toml",
}
"""Role -> shipped data file of the example set (two settings: Ob'dija and Xilsen)."""
DEFAULT_SETUP = "data/games/quickplay.toml"


def shipped_roles(setup: str = DEFAULT_SETUP) -> dict[str, str]:
    """Source role -> shipped file name, for a shipped game setup."""
    return {"setup": setup, **DATA_FILES}
