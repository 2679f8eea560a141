r"""Field files: TOML text read into a :class:`~.field.Field`, and a field written as one.

:func:`load_field_text` reads; :func:`field_toml_text` writes what it reads back.

The format is documented in ``docs/infinifield.md``. In short::

    [field]
    name = "Quick-start field"
    block_size = [40, 40]        # mm, default footprint of a block given by its centre
    # touching = [["W1", "Y1"]]  # optional: explicit touching pairs instead of geometry

    [match]                      # optional defaults for the match (options override)
    players = ["Ann", "Ben"]
    mode = "quickstart"

    [[blocks]]
    id = "W1"
    colour = "white"
    at = [0, 0]                  # centre in mm (or footprint = [[x, y], ...])

Every problem raises :class:`~companion.games.core.SetupError` naming the file, the key path
(blocks are counted from 1: ``blocks[3].colour``) or the TOML line, and what is wrong.

Example:
    >>> text = '[[blocks]]\nid = "W1"\ncolour = "white"\nat = [0, 0]\n'
    >>> load_field_text("mini.toml", text).field.whites()
    ('W1',)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from companion.games.core import SetupError
from companion.games.datafile import Table, check_number, load_toml
from companion.games.infinifield.field import (
    DEFAULT_BLOCK_HEIGHT_MM,
    DEFAULT_BLOCK_SIZE_MM,
    PAWN_DIAMETER_MM,
    Block,
    Field,
    FieldError,
    build_field,
)
from companion.games.infinifield.geometry import rectangle
from companion.games.infinifield.info import INFO

TABLE_FIRST_HINT = (" (top-level keys such as 'blocks = [...]' must come before the first "
                    "[table] header)")


@dataclass(frozen=True)
class FieldFile:
    """A parsed field file.

    Attributes:
        field: the field.
        match: the ``[match]`` table (players, builder, mode, scoring, rounds, target), as
            written; the game's setup validates it together with the options.
    """

    field: Field
    match: Mapping[str, Any] = dataclass_field(default_factory=dict)


def load_field_text(source: str, text: str) -> FieldFile:
    """Parse a field file.

    Args:
        source: the file name, for error messages.
        text: the TOML text.

    Raises:
        SetupError: naming ``source``, the key path or line, and the problem.
    """
    return load_field_data(source, load_toml(source, text))


def load_field_data(source: str, data: Any) -> FieldFile:
    """Read a field file already parsed (from TOML, or the JSON a ``rebuild`` action carries).

    Every table is read through :class:`~companion.games.datafile.Table`, which refuses the
    keys nobody read, naming the closest valid one.

    Raises:
        SetupError: naming ``source``, the key path, and the problem.
    """
    top = Table(source, data)
    head = top.table("field", {})
    match = top.table("match", {})
    raw_blocks = top.raw("blocks", None)
    top.done()
    size = _pair(head, "block_size", head.raw("block_size", DEFAULT_BLOCK_SIZE_MM))
    height = _positive(head, "block_height", head.raw("block_height", DEFAULT_BLOCK_HEIGHT_MM))
    pawn = _positive(head, "pawn_diameter", head.raw("pawn_diameter", PAWN_DIAMETER_MM))
    name = head.raw("name", "")
    touching = head.raw("touching", None)
    _done(head)
    options = {key: match.raw(key) for key in INFO.option_names() if match.has(key)}
    _done(match)
    if not isinstance(name, str):
        raise head.error("name", "must be a string")
    if not isinstance(raw_blocks, list) or not raw_blocks:
        raise SetupError(source, "blocks", "the field needs at least one [[blocks]] entry")
    blocks = [_block(Table(source, raw, f"blocks[{n}]"), size, height)
              for n, raw in enumerate(raw_blocks, start=1)]
    if touching is not None and (not isinstance(touching, list) or not all(
            isinstance(pair, list) and all(isinstance(i, str) for i in pair)
            for pair in touching)):
        raise head.error("touching", "must be a list of [id, id] pairs")
    try:
        built = build_field(blocks, touching, name=name, pawn_diameter=pawn)
    except FieldError as error:
        where = _where_block(raw_blocks, error.block) if error.block else "field.touching"
        raise SetupError(source, where, error.problem) from error
    return FieldFile(built, options)


def _done(table: Table) -> None:
    """:meth:`Table.done`, with a hint when ``blocks`` landed inside a table by mistake."""
    try:
        table.done()
    except SetupError as error:
        if error.where == table.path("blocks"):
            raise SetupError(error.source, error.where, error.problem + TABLE_FIRST_HINT) \
                from None
        raise


def field_file_data(field: Field) -> dict[str, Any]:
    r"""The field as the data of a field file: what :func:`load_field_data` reads back.

    Footprints are written as corners (exactly as built), heights and supports as given, and
    the touching pairs only when the field lists them instead of computing them.

    Example:
        >>> field = load_field_text("f.toml", '[[blocks]]\nid = "W1"\ncolour = "white"\n'
        ...                         'at = [0, 0]\n').field
        >>> data = field_file_data(field)
        >>> data["blocks"][0]["footprint"][0], load_field_data("again", data).field == field
        ([-20.0, -20.0], True)
    """
    head: dict[str, Any] = {"name": field.name, "pawn_diameter": field.pawn_diameter}
    if field.explicit:
        head["touching"] = [list(pair) for pair in field.touching]
    blocks = []
    for block in field.blocks:
        entry: dict[str, Any] = {"id": block.id, "colour": block.colour, "height": block.height}
        if block.footprint:
            entry["footprint"] = [list(point) for point in block.footprint]
        if block.rests_on:
            entry["rests_on"] = list(block.rests_on)
        blocks.append(entry)
    return {"field": head, "blocks": blocks}


def _where_block(raw_blocks: list[Any], block_id: str) -> str:
    for n, raw in enumerate(raw_blocks, start=1):
        if isinstance(raw, dict) and raw.get("id") == block_id:
            return f"blocks[{n}] ({block_id})"
    return f"block {block_id}"


def _number(table: Table, key: str, value: Any) -> float:
    return check_number(table, key, value)


def _positive(table: Table, key: str, value: Any) -> float:
    number = _number(table, key, value)
    if number <= 0:
        raise table.error(key, f"must be positive, got {value!r}")
    return number


def _pair(table: Table, key: str, value: Any) -> tuple[float, float]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise table.error(key, f"must be two numbers [x, y], got {value!r}")
    return (_number(table, key, value[0]), _number(table, key, value[1]))


def _block(table: Table, default_size: tuple[float, float], default_height: float) -> Block:
    """One ``[[blocks]]`` entry; its path names the block once its id is known."""
    block_id = table.raw("id", None)
    colour = table.raw("colour", None)
    color = table.raw("color", None)
    at, size, angle = table.raw("at", None), table.raw("size", None), table.raw("angle", None)
    corners = table.raw("footprint", None)
    height_given = table.raw("height", None)
    rests_on = table.raw("rests_on", [])
    table.done()
    if not isinstance(block_id, str) or not block_id:
        raise table.error("id", "every block needs an id (a string)")
    block = Table(table.source, {}, f"{table.where} ({block_id})")
    colour = colour if colour is not None else color
    if not isinstance(colour, str):
        raise block.error("colour", "missing: white, yellow, red or blue")
    if at is not None and corners is not None:
        raise SetupError(table.source, block.where,
                         "give either 'at' (centre) or 'footprint', not both")
    footprint: tuple[tuple[float, float], ...] = ()
    if at is not None:
        footprint = rectangle(_pair(block, "at", at),
                              _pair(block, "size", default_size if size is None else size),
                              _number(block, "angle", 0 if angle is None else angle))
    elif corners is not None:
        if not isinstance(corners, list):
            raise block.error("footprint", "must be a list of [x, y] corners")
        footprint = tuple(_pair(block, f"footprint[{n}]", corner)
                          for n, corner in enumerate(corners, start=1))
    height = _positive(block, "height", default_height if height_given is None else height_given)
    if isinstance(rests_on, str):
        rests_on = [rests_on]
    if not isinstance(rests_on, list) or not all(isinstance(s, str) for s in rests_on):
        raise block.error("rests_on", "must be a list of block ids")
    try:
        return Block(block_id, colour, footprint, height, tuple(rests_on))
    except FieldError as error:
        raise SetupError(table.source, block.where, error.problem) from error


def _value(value: Any) -> str:
    """A TOML value.

    Floats as ``repr`` (they read back to the same float), strings with JSON's escapes
    (which are TOML's).
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
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
        TOML text that ``load_field_text`` reads back to an equal field: the data of
        :func:`field_file_data`, footprints as corners at full float precision.

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> field = build_field([Block.square("W1", "white", (0, 0)),
        ...                      Block.square("R1", "red", (40.5, 0))], [("W1", "R1")],
        ...                     name="Two")
        >>> parsed = load_field_text("two.toml", field_toml_text(field, {"mode": "quickstart"}))
        >>> parsed.field == field, parsed.match["mode"]
        (True, 'quickstart')
    """
    data = field_file_data(field)
    lines = [f"# {line}" for line in comments]
    lines += ["[field]", *[f"{key} = {_value(value)}" for key, value in data["field"].items()]]
    if match:
        lines += ["", "[match]", *[f"{key} = {_value(value)}" for key, value in match.items()]]
    for block in data["blocks"]:
        lines += ["", "[[blocks]]", *[f"{key} = {_value(value)}" for key, value in block.items()]]
    return "\n".join(lines) + "\n"
