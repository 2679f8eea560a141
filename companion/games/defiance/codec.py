"""JSON round-trip of the engine's frozen dataclasses (state, rules, actions).

Every value in a Defiance state is a frozen dataclass, a tuple, a string, an int, a bool or
``None``; :func:`to_json` turns one into plain JSON data and :func:`from_json` rebuilds it from
the field type hints, so the state and its JSON stay in step without hand-written code.

Example:
    >>> from companion.games.defiance.board import Placement
    >>> p = Placement("rift", 0, 0, 0, False)
    >>> from_json(Placement, to_json(p)) == p
    True
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from typing import Any

_HINTS: dict[type, dict[str, Any]] = {}


def to_json(value: Any) -> Any:
    """Plain JSON data (dicts, lists, scalars) for a dataclass/tuple value.

    Example:
        >>> to_json((1, ("a", None)))
        [1, ['a', None]]
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple):
        return [to_json(item) for item in value]
    return value


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        module = sys.modules[cls.__module__]
        _HINTS[cls] = typing.get_type_hints(cls, vars(module))
    return _HINTS[cls]


def from_json(kind: Any, data: Any) -> Any:
    """Rebuild a value of type ``kind`` from :func:`to_json` output.

    Example:
        >>> from_json(tuple[int, ...], [1, 2])
        (1, 2)
    """
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        if data is None:
            return None
        options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        return from_json(options[0], data)
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], item) for item in data)
        return tuple(from_json(arg, item) for arg, item in zip(args, data, strict=True))
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(**{f.name: from_json(hints[f.name], data[f.name])
                       for f in dataclasses.fields(kind) if f.name in data
                       or (f.default is dataclasses.MISSING
                           and f.default_factory is dataclasses.MISSING)})
    return data
