"""One reader for every data file: setup files, decks, boards, pin maps, settings.

Text is parsed with a size cap and a guard against nesting so deep that the parser itself
recurses out of stack, and every value is then read through a :class:`Table`, which records
the keys its reader asked for. Once a table has been read, :meth:`Table.done` refuses any key
nobody asked for, naming it and the closest valid key, so a misspelt ``copise = 2`` is an error
instead of a card silently missing from a deck. Numbers are refused when they are NaN or
infinite, booleans are never taken for numbers, and every error is a :class:`SetupError`
naming the file, the key path and what is wrong.

Example:
    >>> data = load_toml("deck.toml", 'name = "Tomb"' + chr(10) + 'copise = 2')
    >>> deck = Table("deck.toml", data)
    >>> deck.text("name")
    'Tomb'
    >>> deck.whole("copies", default=1)
    1
    >>> try:
    ...     deck.done()
    ... except SetupError as error:
    ...     print(error)
    deck.toml: copise: unknown key; did you mean 'copies'? (expected one of: copies, name)
"""

from __future__ import annotations

import difflib
import json
import math
import re
import tomllib
from collections.abc import Iterator, Mapping
from typing import Any, Final, TypeVar

from companion.games.errors import SetupError

MAX_DATA_BYTES: Final = 1_000_000
"""The largest data file read (1 MB): far above any real setup, far below a stalled reader."""

T = TypeVar("T")


class _Missing:
    """The marker for "no default: the key is required"."""

    def __repr__(self) -> str:
        return "<required>"


REQUIRED: Final = _Missing()


def _check_size(source: str, text: str) -> None:
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > MAX_DATA_BYTES:
        raise SetupError(source, "", f"the file is {size:,} bytes; data files are at most "
                                     f"{MAX_DATA_BYTES:,} bytes")


def load_toml(source: str, text: str) -> dict[str, Any]:
    r"""Parse TOML text, naming the file and line of a syntax error.

    Raises:
        SetupError: the text is too large, nested too deep, or not valid TOML.

    Example:
        >>> load_toml("field.toml", "blocks = 24")
        {'blocks': 24}
        >>> try:
        ...     load_toml("field.toml", "a = 1\nb = ")
        ... except SetupError as error:
        ...     print(error.source, error.where, error.problem[:14])
        field.toml line 2 not valid TOML
        >>> try:
        ...     load_toml("deep.toml", "a = " + "[" * 5000 + "]" * 5000)
        ... except SetupError as error:
        ...     print(error.problem)
        values are nested too deep to read
    """
    _check_size(source, text)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"line (\d+)", str(error))
        line = found.group(1) if found else len(text.rstrip("\n").split("\n"))
        raise SetupError(source, f"line {line}", f"not valid TOML ({error})") from None
    except RecursionError:
        raise SetupError(source, "", "values are nested too deep to read") from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a data file may hold")


def load_json(source: str, text: str) -> Any:
    """Parse JSON text, naming the file and line of a syntax error; NaN and Infinity refused.

    Raises:
        SetupError: the text is too large, nested too deep, or not valid JSON.

    Example:
        >>> load_json("settings.json", '{"language": "es"}')
        {'language': 'es'}
        >>> try:
        ...     load_json("settings.json", '{"volume": NaN}')
        ... except SetupError as error:
        ...     print(error)
        settings.json: line 1: not valid JSON (NaN is not a number a data file may hold)
    """
    _check_size(source, text)
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise SetupError(source, f"line {error.lineno}",
                         f"not valid JSON ({error.msg})") from None
    except ValueError as error:
        line = 1 + text.count("\n", 0, _first_constant(text))
        raise SetupError(source, f"line {line}", f"not valid JSON ({error})") from None
    except RecursionError:
        raise SetupError(source, "", "values are nested too deep to read") from None


def _first_constant(text: str) -> int:
    found = re.search(r"\b(NaN|-?Infinity)\b", text)
    return found.start() if found else 0


def closest_key(key: str, known: Iterator[str] | list[str] | set[str] | frozenset[str]
                ) -> str | None:
    """The valid key a misspelt ``key`` most likely meant, or None.

    Example:
        >>> closest_key("trak_max", ["track_max", "health"])
        'track_max'
        >>> closest_key("zzz", ["health"]) is None
        True
    """
    lowered = {name.lower(): name for name in known}
    found = difflib.get_close_matches(key.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[found[0]] if found else None


def unknown_key_problem(key: str, known: Iterator[str] | list[str] | set[str] | frozenset[str]
                        ) -> str:
    """The sentence an unknown key gets: the closest valid key and the full list.

    Example:
        >>> unknown_key_problem("wals", {"walls", "tiles"})
        "unknown key; did you mean 'walls'? (expected one of: tiles, walls)"
    """
    names = sorted(known)
    guess = closest_key(key, names)
    hint = f"did you mean {guess!r}? " if guess else ""
    expected = f"expected one of: {', '.join(names)}" if names else "no keys are expected here"
    return f"unknown key; {hint}({expected})"


class Table:
    """One table (mapping) of a data file, read key by key.

    Every getter records the key it was asked for, present or not, so :meth:`done` can refuse
    the keys nobody asked for. Used as a context manager, :meth:`done` runs on a clean exit.

    Args:
        source: the file's name, as errors should show it.
        data: the parsed mapping.
        where: this table's key path in the file (``"blocks[3]"``), empty at the top.

    Raises:
        SetupError: ``data`` is not a mapping.
    """

    def __init__(self, source: str, data: Any, where: str = "") -> None:
        if not isinstance(data, Mapping):
            raise SetupError(source, where or "(top level)",
                             f"must be a table, got {_kind(data)}")
        self.source = source
        self.where = where
        self._data: Mapping[str, Any] = data
        self._asked: set[str] = set()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        if kind is None:
            self.done()

    def path(self, key: str | int) -> str:
        """The key path of ``key`` inside this table, as errors name it."""
        if isinstance(key, int):
            return f"{self.where}[{key}]"
        return f"{self.where}.{key}" if self.where else key

    def error(self, key: str | int, problem: str) -> SetupError:
        """A :class:`SetupError` naming this file and ``key``'s path (to raise)."""
        return SetupError(self.source, self.path(key), problem)

    def keys(self) -> list[str]:
        """Every key present, in file order (each counts as asked for)."""
        self._asked.update(self._data)
        return list(self._data)

    def has(self, key: str) -> bool:
        """Whether ``key`` is present (it counts as asked for)."""
        self._asked.add(key)
        return key in self._data

    def raw(self, key: str, default: Any = REQUIRED) -> Any:
        """The value of ``key`` as parsed, unchecked."""
        self._asked.add(key)
        if key in self._data:
            return self._data[key]
        if default is REQUIRED:
            raise self.error(key, "missing (this key is required)")
        return default

    def text(self, key: str, default: Any = REQUIRED, *, choices: Any = None,
            non_empty: bool = True) -> Any:
        """A text value; ``choices`` (any collection) limits what it may be."""
        value = self.raw(key, default)
        if value is default and key not in self._data:
            return value
        if not isinstance(value, str):
            raise self.error(key, f"must be text, got {_kind(value)}")
        if non_empty and not value.strip():
            raise self.error(key, "must not be empty")
        if choices is not None and value not in choices:
            raise self.error(key, f"{value!r} is not one of: {', '.join(map(str, choices))}")
        return value

    def flag(self, key: str, default: Any = REQUIRED) -> Any:
        """A true/false value (never a number or text)."""
        value = self.raw(key, default)
        if value is default and key not in self._data:
            return value
        if not isinstance(value, bool):
            raise self.error(key, f"must be true or false, got {_kind(value)}")
        return value

    def whole(self, key: str, default: Any = REQUIRED, *, minimum: int | None = None,
            maximum: int | None = None) -> Any:
        """A whole number, optionally within ``minimum``..``maximum``."""
        value = self.raw(key, default)
        if value is default and key not in self._data:
            return value
        return check_int(self, key, value, minimum, maximum)

    def number(self, key: str, default: Any = REQUIRED, *, minimum: float | None = None,
               maximum: float | None = None, positive: bool = False) -> Any:
        """A finite number (int or float) as a float; NaN and infinity are refused."""
        value = self.raw(key, default)
        if value is default and key not in self._data:
            return value
        return check_number(self, key, value, minimum, maximum, positive)

    def table(self, key: str, default: Any = REQUIRED) -> Any:
        """A nested table as a :class:`Table` (``default`` {} gives an empty one)."""
        value = self.raw(key, default)
        if value is default and key not in self._data and not isinstance(default, Mapping):
            return value
        return Table(self.source, value, self.path(key))

    def array(self, key: str, default: Any = REQUIRED, *, max_items: int | None = None) -> Any:
        """An array, as a list of raw values."""
        value = self.raw(key, default)
        if value is default and key not in self._data:
            return value
        if not isinstance(value, list):
            raise self.error(key, f"must be an array, got {_kind(value)}")
        if max_items is not None and len(value) > max_items:
            raise self.error(key, f"has {len(value)} items; at most {max_items} are allowed")
        return list(value)

    def texts(self, key: str, default: Any = REQUIRED) -> Any:
        """An array of non-empty texts."""
        values = self.array(key, default)
        if values is default and key not in self._data:
            return values
        for n, item in enumerate(values):
            if not isinstance(item, str) or not item.strip():
                raise SetupError(self.source, f"{self.path(key)}[{n}]",
                                 f"must be non-empty text, got {_kind(item)}")
        return values

    def tables(self, key: str, default: Any = REQUIRED) -> Any:
        """An array of tables (``[[key]]``), each as a :class:`Table`."""
        values = self.array(key, default)
        if values is default and key not in self._data:
            return values
        return [Table(self.source, item, f"{self.path(key)}[{n}]")
                for n, item in enumerate(values)]

    def done(self) -> None:
        """Refuse the first key nobody asked for, naming the closest valid one.

        Raises:
            SetupError: naming the unknown key's path.
        """
        for key in self._data:
            if key not in self._asked:
                raise self.error(key, unknown_key_problem(key, self._asked))


def check_number(table: Table, key: str | int, value: Any, minimum: float | None = None,
                 maximum: float | None = None, positive: bool = False) -> float:
    """``value`` as a finite float, or a :class:`SetupError` naming ``table``'s ``key``.

    Example:
        >>> check_number(Table("f.toml", {}), "at", 2)
        2.0
        >>> try:
        ...     check_number(Table("f.toml", {}, "blocks[1]"), "size", float("nan"))
        ... except SetupError as error:
        ...     print(error)
        f.toml: blocks[1].size: must be a finite number, got nan
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise table.error(key, f"must be a number, got {_kind(value)}")
    number = float(value)
    if not math.isfinite(number):
        raise table.error(key, f"must be a finite number, got {value!r}")
    if positive and number <= 0:
        raise table.error(key, f"must be greater than 0, got {value!r}")
    if minimum is not None and number < minimum:
        raise table.error(key, f"must be at least {minimum:g}, got {value!r}")
    if maximum is not None and number > maximum:
        raise table.error(key, f"must be at most {maximum:g}, got {value!r}")
    return number


def check_int(table: Table, key: str | int, value: Any, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """``value`` as an int, or a :class:`SetupError` naming ``table``'s ``key``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise table.error(key, f"must be a whole number, got {_kind(value)}")
    if minimum is not None and value < minimum:
        raise table.error(key, f"must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise table.error(key, f"must be at most {maximum}, got {value}")
    return value


def _kind(value: Any) -> str:
    """A short description of a parsed value for error sentences (never the whole value)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"text {shown!r}"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    if isinstance(value, Mapping):
        return "a table"
    return type(value).__name__
