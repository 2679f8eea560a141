r"""Reading a field file (TOML text) into a :class:`~companion.games.infinifield.field.Field`.

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

import math
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from companion.games.core import SetupError, parse_setup_toml
from companion.games.datafile import unknown_key_problem
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

FIELD_KEYS = frozenset({"name", "block_size", "block_height", "pawn_diameter", "touching"})
MATCH_KEYS = frozenset({"players", "builder", "mode", "scoring", "rounds", "target"})
BLOCK_KEYS = frozenset({"id", "colour", "color", "at", "size", "angle", "footprint", "height",
                        "rests_on"})


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
    return load_field_data(source, parse_setup_toml(source, text))


def load_field_data(source: str, data: Any) -> FieldFile:
    """Read a field file already parsed (from TOML, or the JSON a ``rebuild`` action carries).

    Raises:
        SetupError: naming ``source``, the key path, and the problem.
    """
    if not isinstance(data, dict):
        raise SetupError(source, "", "a field must be a table of [field], [match] and blocks")
    _unknown_keys(source, "", data, frozenset({"field", "match", "blocks"}))
    head = _table(source, data, "field")
    match = _table(source, data, "match")
    _unknown_keys(source, "field.", head, FIELD_KEYS)
    _unknown_keys(source, "match.", match, MATCH_KEYS)
    size = _pair(source, "field.block_size", head.get("block_size", DEFAULT_BLOCK_SIZE_MM))
    height = _positive(source, "field.block_height",
                       head.get("block_height", DEFAULT_BLOCK_HEIGHT_MM))
    pawn = _positive(source, "field.pawn_diameter", head.get("pawn_diameter", PAWN_DIAMETER_MM))
    name = head.get("name", "")
    if not isinstance(name, str):
        raise SetupError(source, "field.name", "must be a string")
    raw_blocks = data.get("blocks")
    if not isinstance(raw_blocks, list) or not raw_blocks:
        raise SetupError(source, "blocks", "the field needs at least one [[blocks]] entry")
    blocks = [_block(source, f"blocks[{n}]", raw, size, height)
              for n, raw in enumerate(raw_blocks, start=1)]
    touching = head.get("touching")
    if touching is not None and (not isinstance(touching, list) or not all(
            isinstance(pair, list) and all(isinstance(i, str) for i in pair)
            for pair in touching)):
        raise SetupError(source, "field.touching", "must be a list of [id, id] pairs")
    try:
        built = build_field(blocks, touching, name=name, pawn_diameter=pawn)
    except FieldError as error:
        where = _where_block(raw_blocks, error.block) if error.block else "field.touching"
        raise SetupError(source, where, error.problem) from error
    return FieldFile(built, match)


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


def _table(source: str, data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise SetupError(source, key, "must be a table")
    return value


def _unknown_keys(source: str, prefix: str, table: Mapping[str, Any],
                  known: frozenset[str]) -> None:
    for key in table:
        if key not in known:
            hint = (" (top-level keys such as 'blocks = [...]' must come before the first "
                    "[table] header)" if prefix and key == "blocks" else "")
            raise SetupError(source, f"{prefix}{key}", unknown_key_problem(key, known) + hint)


def _number(source: str, where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SetupError(source, where, f"must be a number, got {value!r}")
    if not math.isfinite(value):
        raise SetupError(source, where, f"must be a finite number, got {value!r}")
    return float(value)


def _positive(source: str, where: str, value: Any) -> float:
    number = _number(source, where, value)
    if number <= 0:
        raise SetupError(source, where, f"must be positive, got {value!r}")
    return number


def _pair(source: str, where: str, value: Any) -> tuple[float, float]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise SetupError(source, where, f"must be two numbers [x, y], got {value!r}")
    return (_number(source, where, value[0]), _number(source, where, value[1]))


def _block(source: str, where: str, raw: Any, default_size: tuple[float, float],
           default_height: float) -> Block:
    if not isinstance(raw, dict):
        raise SetupError(source, where, "must be a table")
    _unknown_keys(source, f"{where}.", raw, BLOCK_KEYS)
    block_id = raw.get("id")
    if not isinstance(block_id, str) or not block_id:
        raise SetupError(source, f"{where}.id", "every block needs an id (a string)")
    where = f"{where} ({block_id})"
    colour = raw.get("colour", raw.get("color"))
    if not isinstance(colour, str):
        raise SetupError(source, f"{where}.colour", "missing: white, yellow, red or blue")
    if "at" in raw and "footprint" in raw:
        raise SetupError(source, where, "give either 'at' (centre) or 'footprint', not both")
    footprint: tuple[tuple[float, float], ...] = ()
    if "at" in raw:
        centre = _pair(source, f"{where}.at", raw["at"])
        size = _pair(source, f"{where}.size", raw.get("size", default_size))
        angle = _number(source, f"{where}.angle", raw.get("angle", 0))
        footprint = rectangle(centre, size, angle)
    elif "footprint" in raw:
        corners = raw["footprint"]
        if not isinstance(corners, list):
            raise SetupError(source, f"{where}.footprint", "must be a list of [x, y] corners")
        footprint = tuple(_pair(source, f"{where}.footprint[{n}]", corner)
                          for n, corner in enumerate(corners, start=1))
    height = _positive(source, f"{where}.height", raw.get("height", default_height))
    rests_on = raw.get("rests_on", [])
    if isinstance(rests_on, str):
        rests_on = [rests_on]
    if not isinstance(rests_on, list) or not all(isinstance(s, str) for s in rests_on):
        raise SetupError(source, f"{where}.rests_on", "must be a list of block ids")
    try:
        return Block(block_id, colour, footprint, height, tuple(rests_on))
    except FieldError as error:
        raise SetupError(source, where, error.problem) from error
