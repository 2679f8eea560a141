"""Data files shipped inside the packages (example fields, decks, boards, profiles).

Games are pure and never read files; this module reads the shipped data for the session,
the CLI and the app.

Example:
    >>> sources = shipped_sources("companion.games.infinifield",
    ...                           {"setup": "fields/quickstart.toml"})
    >>> sources["setup"][0]
    'companion.games.infinifield/fields/quickstart.toml'
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path


def shipped_text(package: str, name: str) -> str:
    """The text of the data file ``name`` shipped in ``package``.

    Raises:
        FileNotFoundError: naming the package and file.
    """
    resource = resources.files(package).joinpath(name)
    if not resource.is_file():
        raise FileNotFoundError(f"{package}/{name}: no such shipped data file")
    return resource.read_text(encoding="utf-8")


def shipped_sources(package: str, roles: Mapping[str, str]) -> dict[str, tuple[str, str]]:
    """``{role: (name, text)}`` for shipped data files, as :meth:`Game.load_setup` takes them."""
    return {role: (f"{package}/{name}", shipped_text(package, name))
            for role, name in roles.items()}


def shipped_names(package: str, folder: str, suffix: str = ".toml") -> list[str]:
    """The names (``folder/file``) of the shipped data files in ``folder``, sorted."""
    directory = resources.files(package).joinpath(folder)
    if not directory.is_dir():
        return []
    return sorted(f"{folder}/{entry.name}" for entry in directory.iterdir()
                  if entry.name.endswith(suffix))


def file_sources(roles: Mapping[str, Path]) -> dict[str, tuple[str, str]]:
    """``{role: (path, text)}`` for setup files on disk.

    Raises:
        OSError: a file cannot be read.
        UnicodeDecodeError: a file is not UTF-8 text.
    """
    return {role: (str(path), Path(path).read_text(encoding="utf-8"))
            for role, path in roles.items()}
