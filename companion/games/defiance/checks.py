"""Small readers for TOML tables that raise :class:`SetupError` naming file, key and problem.

Built on the shared reader :class:`companion.games.datafile.Table`: every key a reader asks
for is recorded, and :meth:`TableReader.done` refuses any other key, naming it and the closest
valid one (a misspelt ``copise = 2`` is an error, not a card silently missing from a deck).

Example:
    >>> reader = TableReader("leaders.toml", "leader[0]", {"id": "ash", "trak_max": {}})
    >>> reader.text("id")
    'ash'
    >>> reader.has("track_max")
    False
    >>> try:
    ...     reader.done()
    ... except SetupError as error:
    ...     print(error.where, error.problem[:38])
    leader[0].trak_max unknown key; did you mean 'track_max'?
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from companion.games.core import SetupError, parse_setup_toml
from companion.games.datafile import Table

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.'-]*$")
"""Ids and player names: one word, so the notation can split on spaces."""


parse_toml = parse_setup_toml
"""Parse TOML text into a dict, naming the file and line of a syntax error."""


class TableReader:
    """Typed access to one TOML table; every refusal names ``source`` and the key path."""

    def __init__(self, source: str, where: str, table: Any) -> None:
        if not isinstance(table, Mapping):
            raise SetupError(source, where, "must be a table")
        self.source, self.where, self.table = source, where, table
        self._keys = Table(source, table, where)

    def has(self, key: str) -> bool:
        """Whether ``key`` is present (it counts as a known key for :meth:`done`)."""
        return self._keys.has(key)

    def names(self) -> list[str]:
        """Every key present, in file order (for tables whose keys are names, not fields)."""
        return self._keys.keys()

    def done(self) -> None:
        """Refuse the first key no getter asked for, naming it and the closest valid key.

        Raises:
            SetupError: naming the unknown key's path.
        """
        self._keys.done()

    def _path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def fail(self, key: str, problem: str) -> SetupError:
        """A :class:`SetupError` about ``key`` of this table."""
        return SetupError(self.source, self._path(key), problem)

    def raw(self, key: str, default: Any = None) -> Any:
        """The value of ``key``; missing keys without a default are an error."""
        if not self.has(key):
            if default is None:
                raise self.fail(key, "is missing")
            return default
        return self.table[key]

    def text(self, key: str, default: str | None = None, *, word: bool = False) -> str:
        """A string value; ``word`` requires a one-word id."""
        value = self.raw(key, default)
        if not isinstance(value, str) or not value:
            raise self.fail(key, "must be a non-empty string")
        if word and not NAME.match(value):
            raise self.fail(key, f"{value!r} must be one word of letters, digits, - _ . or '")
        return value

    def integer(self, key: str, low: int, high: int, default: int | None = None) -> int:
        """An integer within ``low..high``."""
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(key, f"must be a whole number from {low} to {high}, not {value!r}")
        return value

    def flag(self, key: str) -> bool:
        """A boolean (missing means false)."""
        value = self.table.get(key, False) if self.has(key) else False
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {value!r}")
        return value

    def choice(self, key: str, options: tuple[str, ...], default: str | None = None) -> str:
        """A string that must be one of ``options`` (case-insensitive, returned lowercase)."""
        value = self.text(key, default).lower()
        if value not in options:
            raise self.fail(key, f"{value!r} is not one of {', '.join(options)}")
        return value

    def texts(self, key: str, default: list[str] | None = None) -> list[str]:
        """A list of strings."""
        value = self.raw(key, default)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(key, "must be a list of strings")
        return list(value)

    def tables(self, key: str, *, required: bool = True) -> list[TableReader]:
        """An array of tables, each as a reader (``key[i]``)."""
        value = self.table.get(key, []) if self.has(key) else []
        if not isinstance(value, list) or (required and not value):
            raise self.fail(key, "must be a non-empty array of tables ([[...]])"
                            if required else "must be an array of tables ([[...]])")
        return [TableReader(self.source, f"{self._path(key)}[{i}]", item)
                for i, item in enumerate(value)]

    def sub(self, key: str) -> TableReader:
        """A sub-table (empty when missing)."""
        self.has(key)
        return TableReader(self.source, self._path(key), self.table.get(key, {}))


def unique_ids(readers: list[TableReader], ids: list[str], what: str) -> None:
    """Refuse a repeated id, naming the second one."""
    seen: set[str] = set()
    for reader, ident in zip(readers, ids, strict=True):
        if ident.lower() in seen:
            raise reader.fail("id", f"{what} {ident!r} is defined twice")
        seen.add(ident.lower())
