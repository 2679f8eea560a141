"""One type-driven JSON codec for every game's state (and any frozen value of an engine).

A state is built from frozen dataclasses, tuples, frozensets, mappings, enums and plain
scalars. :func:`to_json` turns such a value into plain JSON data; :func:`from_json` rebuilds
it from the type hints of the dataclass fields, so a state and its JSON stay in step without
hand-written code. This is the default of :meth:`companion.games.core.Game.state_to_json`
and :meth:`~companion.games.core.Game.state_from_json`.

The encoding:

- a dataclass is an object of its fields (in field order);
- a tuple or list is an array; a frozenset or set is a sorted array (sorted by its JSON
  text, so the output is canonical);
- a mapping is an object when every key is a string, else an array of ``[key, value]``
  pairs; it is rebuilt as a read-only ``MappingProxyType`` when the hint is ``Mapping``
  and as a ``dict`` when the hint is ``dict``;
- an enum is its value; ``None``, booleans, numbers and strings are themselves;
- a class of another kind takes part by defining ``to_json(self)`` and a classmethod
  ``from_json(cls, data)``.

Example:
    >>> from dataclasses import dataclass
    >>> from enum import StrEnum
    >>> class Phase(StrEnum):
    ...     PLAY = "play"
    >>> @dataclass(frozen=True)
    ... class Demo:
    ...     phase: Phase
    ...     seen: frozenset[str]
    ...     hp: Mapping[str, int]
    >>> data = to_json(Demo(Phase.PLAY, frozenset({"b", "a"}), {"Ann": 3}))
    >>> data
    {'phase': 'play', 'seen': ['a', 'b'], 'hp': {'Ann': 3}}
    >>> from_json(Demo, data, {"Demo": Demo, "Phase": Phase, "Mapping": Mapping}).phase
    <Phase.PLAY: 'play'>
"""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
import types
import typing
from collections.abc import Mapping
from typing import Any

_HINTS: dict[type, dict[str, Any]] = {}


class CodecError(ValueError):
    """JSON data that does not fit the type it should rebuild (a damaged saved state)."""


def to_json(value: Any) -> Any:
    """Plain JSON data (dicts, lists, scalars) for a value of an engine.

    Example:
        >>> to_json((1, ("a", None), frozenset({3, 2})))
        [1, ['a', None], [2, 3]]
    """
    if isinstance(value, enum.Enum):
        return value.value
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, frozenset | set):
        items = [to_json(item) for item in value]
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    if isinstance(value, Mapping):
        if all(isinstance(key, str) for key in value):
            return {str(key): to_json(item) for key, item in value.items()}
        return [[to_json(key), to_json(item)] for key, item in value.items()]
    custom = getattr(value, "to_json", None)
    if callable(custom):
        return custom()
    raise CodecError(f"cannot write a {type(value).__name__} as JSON")


def _hints(cls: type, namespace: Mapping[str, Any] | None) -> dict[str, Any]:
    if cls not in _HINTS or namespace is not None:
        module = sys.modules[cls.__module__]
        scope = {**vars(module), **(namespace or {})}
        hints = typing.get_type_hints(cls, scope)
        if namespace is not None:
            return hints
        _HINTS[cls] = hints
    return _HINTS[cls]


def _union(kind: Any, data: Any, namespace: Mapping[str, Any] | None) -> Any:
    options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
    if data is None and len(options) < len(typing.get_args(kind)):
        return None
    errors = []
    for option in options:
        try:
            return from_json(option, data, namespace)
        except (CodecError, TypeError, ValueError, KeyError) as error:
            errors.append(str(error))
    raise CodecError(f"{data!r} fits none of {kind}: {'; '.join(errors)}")


def _mapping(kind: Any, origin: Any, data: Any, namespace: Mapping[str, Any] | None) -> Any:
    args = typing.get_args(kind) or (Any, Any)
    pairs = data.items() if isinstance(data, Mapping) else data
    built = {from_json(args[0], key, namespace): from_json(args[1], item, namespace)
             for key, item in pairs}
    return built if origin is dict else types.MappingProxyType(built)


def from_json(kind: Any, data: Any, namespace: Mapping[str, Any] | None = None) -> Any:
    """Rebuild a value of type ``kind`` from :func:`to_json` output.

    Args:
        kind: the type to rebuild (a dataclass, ``tuple[int, ...]``, ``X | None``...).
        data: what :func:`to_json` wrote.
        namespace: names to resolve string annotations with, beyond the dataclass's module.

    Raises:
        CodecError: the data does not fit the type.

    Example:
        >>> from_json(tuple[int, ...], [1, 2])
        (1, 2)
        >>> from_json(frozenset[str], ["b", "a"]) == frozenset({"a", "b"})
        True
    """
    if kind is Any:
        return data
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        return _union(kind, data, namespace)
    if origin is typing.Literal:
        if data not in typing.get_args(kind):
            raise CodecError(f"{data!r} is not one of {typing.get_args(kind)}")
        return data
    if origin is tuple or kind is tuple:
        args = typing.get_args(kind)
        if not args or (len(args) == 2 and args[1] is Ellipsis):
            item_kind = args[0] if args else Any
            return tuple(from_json(item_kind, item, namespace) for item in data)
        return tuple(from_json(arg, item, namespace) for arg, item in zip(args, data, strict=True))
    if origin in (frozenset, set) or kind in (frozenset, set):
        args = typing.get_args(kind) or (Any,)
        items = (from_json(args[0], item, namespace) for item in data)
        return frozenset(items) if (origin or kind) is frozenset else set(items)
    if origin is list or kind is list:
        args = typing.get_args(kind) or (Any,)
        return [from_json(args[0], item, namespace) for item in data]
    if origin in (dict, Mapping) or kind in (dict, Mapping) or origin is typing.Mapping:
        return _mapping(kind, origin or kind, data, namespace)
    if isinstance(kind, type):
        return _from_class(kind, data, namespace)
    raise CodecError(f"cannot rebuild a value of type {kind!r}")


def _from_class(kind: type, data: Any, namespace: Mapping[str, Any] | None) -> Any:
    if issubclass(kind, enum.Enum):
        return kind(data)
    if dataclasses.is_dataclass(kind):
        if not isinstance(data, Mapping):
            raise CodecError(f"{kind.__name__}: expected an object, got {data!r}")
        hints = _hints(kind, namespace)
        values = {}
        for f in dataclasses.fields(kind):
            if f.name in data:
                values[f.name] = from_json(hints[f.name], data[f.name], namespace)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise CodecError(f"{kind.__name__}: {f.name} is missing")
        return kind(**values)
    custom = getattr(kind, "from_json", None)
    if callable(custom):
        return custom(data)
    if kind is float and isinstance(data, int) and not isinstance(data, bool):
        return float(data)
    if kind in (bool, int, float, str) and not isinstance(data, kind):
        raise CodecError(f"expected {kind.__name__}, got {data!r}")
    if kind is int and isinstance(data, bool):
        raise CodecError(f"expected int, got {data!r}")
    return data
