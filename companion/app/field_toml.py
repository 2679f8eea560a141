r"""Writing an Infinifield field as field-file TOML text (what ``load_field_text`` reads back).

A field confirmed on the set-up screen starts the match as this text (the session's
``setup`` source), so the journal holds it and a resumed game rebuilds the same field.
Footprints are written as their corners, at full float precision, so the text reads back to
an equal :class:`~companion.games.infinifield.Field`; touching pairs are written only when the
field lists them (``explicit``), as fields read by the camera do.

Example:
    >>> from companion.games.infinifield import Block, build_field, load_field_text
    >>> field = build_field([Block.square("W1", "white", (0, 0)),
    ...                      Block.square("R1", "red", (40.5, 0))], [("W1", "R1")], name="Two")
    >>> text = field_toml_text(field, {"mode": "quickstart"})
    >>> parsed = load_field_text("two.toml", text)
    >>> parsed.field == field, parsed.match["mode"]
    (True, 'quickstart')
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.infinifield import Field


def _string(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def _number(value: float) -> str:
    """A float written so that it reads back to the same float."""
    return repr(float(value))


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, Sequence):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} in a field file")


def field_toml_text(field: Field, match: Mapping[str, Any] | None = None,
                    comments: Sequence[str] = ()) -> str:
    """The field as a field file.

    Args:
        field: the field (as built by ``build_field`` or read from a file).
        match: the ``[match]`` table to write (``mode``, ``players``...), if any.
        comments: lines written first, each as a ``#`` comment.

    Returns:
        TOML text that ``load_field_text`` reads back to an equal field.
    """
    lines = [f"# {line}" for line in comments]
    lines += ["[field]", f"name = {_string(field.name)}",
              f"pawn_diameter = {_number(field.pawn_diameter)}"]
    if field.explicit:
        lines.append("touching = [" + ", ".join(f"[{_string(a)}, {_string(b)}]"
                                                for a, b in field.touching) + "]")
    if match:
        lines += ["", "[match]", *[f"{key} = {_value(value)}" for key, value in match.items()]]
    for block in field.blocks:
        lines += ["", "[[blocks]]", f"id = {_string(block.id)}",
                  f"colour = {_string(block.colour)}", f"height = {_number(block.height)}"]
        if block.footprint:
            lines.append("footprint = [" + ", ".join(
                f"[{_number(x)}, {_number(y)}]" for x, y in block.footprint) + "]")
        if block.rests_on:
            lines.append(f"rests_on = {_value(list(block.rests_on))}")
    return "\n".join(lines) + "\n"
