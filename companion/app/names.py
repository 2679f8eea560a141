"""The names in the games' data files (rooms, monsters, symbols...) in the players' language.

A data file may have a translation file beside it, named after it with ``.names.toml``
(``decks/default.toml`` -> ``decks/default.names.toml``): one table per language, mapping a
name as the data file writes it to the name shown on screen::

    [es]
    Crypt = "Cripta"
    skeleton = "esqueleto"

    [ru]
    Crypt = "Склеп"

The engines never read these files (their readers refuse keys they do not know, and the
record keeps the data file's names), so a deck's author translates it without touching it.
Each file goes through the shared data-file reader: a language the app does not have, a
value that is not text, or a name that does not occur in the data file beside it is a
:class:`~companion.games.core.SetupError` naming the file and key.

The screens put a line through :func:`translate_line`, which replaces each whole word or
phrase found in the game's tables (longest first) and leaves everything else as it is.

Example:
    >>> translate_line("es", "infinidungeon", "Crypt (basic)  ·  monsters")
    'Cripta (básica)  ·  monstruos'
    >>> translate_line("en", "infinidungeon", "Crypt (basic)")
    'Crypt (basic)'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from companion.app.i18n import DEFAULT_LANGUAGE, LANGUAGES
from companion.games.core import SetupError
from companion.games.datafile import Table, load_toml

SUFFIX = ".names.toml"

GAME_PACKAGES: dict[str, str] = {
    "infinifield": "companion.games.infinifield",
    "infinidungeon": "companion.games.infinidungeon",
    "401": "companion.games.infinite401",
    "infinity": "companion.games.infinity",
    "defiance": "companion.games.defiance",
}
"""Game short name -> the package whose data files (and their ``.names.toml``) it ships."""


def _names_files(folder: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.is_dir() and not entry.name.startswith(("_", ".")):
            yield from _names_files(entry, f"{prefix}{entry.name}/")
        elif entry.name.endswith(SUFFIX):
            yield f"{prefix}{entry.name}", entry


def read_names(source: str, text: str, data_text: str | None) -> dict[str, dict[str, str]]:
    """Read one ``.names.toml``: language -> name in the data file -> name shown.

    Args:
        source: the file's name, as errors show it.
        text: its contents.
        data_text: the data file it translates (each name must occur there), or ``None``.

    Raises:
        SetupError: naming the file and key of an unknown language, a value that is not
            text, or a name the data file does not contain.

    Example:
        >>> read_names("d.names.toml", '[es]' + chr(10) + 'bat = "murciélago"', "name = 'bat'")
        {'es': {'bat': 'murciélago'}}
        >>> try:
        ...     read_names("d.names.toml", '[es]' + chr(10) + 'bta = "x"', "name = 'bat'")
        ... except SetupError as error:
        ...     print(error)
        d.names.toml: es.bta: does not occur in the data file beside it
    """
    tables: dict[str, dict[str, str]] = {}
    with Table(source, load_toml(source, text)) as top:
        for lang in LANGUAGES:
            if lang == DEFAULT_LANGUAGE or not top.has(lang):
                continue
            table = top.table(lang)
            names: dict[str, str] = {}
            present = table.keys()
            for name in present:
                names[name] = table.text(name)
                if data_text is not None and not re.search(rf"\b{re.escape(name)}\b",
                                                           data_text):
                    raise table.error(name, "does not occur in the data file beside it")
            tables[lang] = names
    return tables


@cache
def game_names(game: str) -> dict[str, dict[str, str]]:
    """Language -> name -> shown name, from every ``.names.toml`` of ``game``'s package.

    Raises:
        SetupError: a names file cannot be used (see :func:`read_names`).
    """
    package = GAME_PACKAGES.get(game)
    merged: dict[str, dict[str, str]] = {}
    if package is None:
        return merged
    root = resources.files(package)
    for relative, entry in _names_files(root):
        data_file = root.joinpath(relative[: -len(SUFFIX)] + ".toml")
        data_text = data_file.read_text("utf-8") if data_file.is_file() else None
        if data_text is None:
            raise SetupError(f"{package}/{relative}", "",
                             f"no data file {relative[: -len(SUFFIX)]}.toml beside it")
        for lang, names in read_names(f"{package}/{relative}", entry.read_text("utf-8"),
                                      data_text).items():
            merged.setdefault(lang, {}).update(names)
    return merged


@cache
def _pattern(game: str, lang: str) -> re.Pattern[str] | None:
    names = game_names(game).get(lang, {})
    if not names:
        return None
    alternatives = sorted(names, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, alternatives)) + r")(?![\w-])")


def translate_name(lang: str, game: str, name: str) -> str:
    """One data name in ``lang`` (as written when there is no translation).

    Example:
        >>> translate_name("ru", "infinidungeon", "goblin")
        'гоблин'
    """
    return game_names(game).get(lang, {}).get(name, name)


def translate_line(lang: str, game: str, line: str) -> str:
    """``line`` with every data name of ``game`` it contains shown in ``lang``."""
    pattern = _pattern(game, lang)
    if pattern is None:
        return line
    table = game_names(game)[lang]
    return pattern.sub(lambda match: table[match.group(1)], line)


def all_names() -> Iterator[tuple[str, str]]:
    """``(where, shown name)`` of every translation of every game (for the glyph test)."""
    for game in GAME_PACKAGES:
        for lang, names in game_names(game).items():
            for name, shown in names.items():
                yield f"{game} {lang} {name}", shown
