r"""Readers and checkers of the data files: leaders, tiles, cards, Roles and chapters.

Each reader takes ``(source name, TOML text)`` and returns checked, frozen records, or raises
:class:`~companion.games.core.SetupError` naming the file, the key and the problem. The
formats are described in ``docs/defiance.md``.

Example:
    >>> roles = read_roles(("r.toml", '[[role]]\nid = "scout"\nname = "Scout"\n'
    ...                      'objective = "Discover 3 tiles."\nsteps = 3\n'), expect=1)
    >>> roles[0].steps
    3
"""

from __future__ import annotations

import re
from typing import Any

from companion.games.core import SetupError
from companion.games.datafile import Table, load_toml
from companion.games.defiance.data import (
    ATTRIBUTES,
    BLANK,
    CARD_KINDS,
    EVENT_TRIGGERS,
    TILE_TYPES,
    Card,
    Chapter,
    Conversion,
    GambitStep,
    Leader,
    Role,
    Tile,
    WinCondition,
    face_letter,
)

ROLES_IN_DECK = 18
"""The Roles deck holds 18 cards (rulebook 1.1)."""

FACES = (*(face_letter(a) for a in ATTRIBUTES), BLANK)
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.'-]*$")
"""Ids and player names: one word, so the notation can split on spaces."""


def word(table: Table, key: str) -> str:
    """A one-word id or name (see :data:`NAME`)."""
    value: str = table.text(key)
    if not NAME.match(value):
        raise table.error(key, f"{value!r} must be one word of letters, digits, - _ . or '")
    return value


def choice(table: Table, key: str, options: tuple[str, ...], default: Any = None) -> str:
    """A text that must be one of ``options`` (any case; returned in lower case)."""
    value = table.text(key) if default is None else table.text(key, default)
    if value.lower() not in options:
        raise table.error(key, f"{value!r} is not one of {', '.join(options)}")
    return str(value.lower())


def unique_ids(tables: list[Table], ids: list[str], what: str) -> None:
    """Refuse a repeated id, naming the second one."""
    seen: set[str] = set()
    for table, ident in zip(tables, ids, strict=True):
        if ident.lower() in seen:
            raise table.error("id", f"{what} {ident!r} is defined twice")
        seen.add(ident.lower())


def _records(source: tuple[str, str], key: str) -> list[Table]:
    """The ``[[key]]`` tables of a data file; any other top-level key is refused."""
    name, text = source
    with Table(name, load_toml(name, text)) as root:
        records: list[Table] = root.tables(key, [])
        if not records:
            raise root.error(key, "must be a non-empty array of tables ([[...]])")
    return records


def read_leaders(source: tuple[str, str]) -> tuple[Leader, ...]:
    """Read ``[[leader]]`` tables (rulebook 2.1 "Leader Playmat and Counters")."""
    readers = _records(source, "leader")
    leaders = [_leader(reader) for reader in readers]
    unique_ids(readers, [leader.id for leader in leaders], "leader")
    return tuple(leaders)


def _leader(reader: Table) -> Leader:
    strong = choice(reader, "strong", ATTRIBUTES)
    with reader.table("track_max", {}) as tracks:
        tide, power, fortitude = (tracks.whole(a, 6, minimum=3, maximum=10) for a in ATTRIBUTES)
    track_max = (tide, power, fortitude)
    conversions = []
    for conv in reader.tables("convert", []):
        with conv:
            track = choice(conv, "track", ATTRIBUTES)
            level = conv.whole("level", minimum=1, maximum=track_max[ATTRIBUTES.index(track)])
            src, dst = conv.text("from").upper(), conv.text("to").upper()
            for key, value in (("from", src), ("to", dst)):
                if value not in FACES:
                    raise conv.error(key, f"{value!r} is not a die face ({', '.join(FACES)})")
            if src == dst:
                raise conv.error("to", "must differ from 'from'")
        conversions.append(Conversion(track, level, src, dst))
    gambits = []
    for step in reader.tables("gambit"):
        with step:
            gambits.append(GambitStep(step.whole("level", minimum=1, maximum=3),
                                      step.text("condition"), step.text("reward")))
    if sorted(g.level for g in gambits) != [1, 2, 3]:
        raise reader.error("gambit", "must hold exactly one box for each of levels 1, 2 and 3")
    health = reader.whole("health", 5, minimum=5, maximum=5)
    leader = Leader(word(reader, "id"), reader.text("name"), word(reader, "faction"), strong,
                    track_max, tuple(conversions), reader.text("action"),
                    tuple(sorted(gambits, key=lambda g: g.level)), reader.text("empowerment"),
                    health)
    reader.done()
    return leader


def read_tiles(source: tuple[str, str]) -> tuple[Tile, ...]:
    """Read ``[[tile]]`` tables (rulebook 2.5); exactly one tile must be the Rift."""
    readers = _records(source, "tile")
    tiles = []
    for reader in readers:
        kind = choice(reader, "type", TILE_TYPES)
        setting = "rift" if kind == "rift" else word(reader, "setting")
        walls = reader.raw("walls", [])
        if not isinstance(walls, list) or any(isinstance(w, bool) or not isinstance(w, int)
                                              or not 0 <= w <= 5 for w in walls):
            raise reader.error("walls", "must be a list of edge numbers 0-5")
        if len(set(walls)) != len(walls):
            raise reader.error("walls", "lists an edge twice")
        if len(walls) == 6:
            raise reader.error("walls", "a tile walled on all six edges can never be entered")
        events = reader.table("events", {})
        written = events.keys()
        for key in written:
            if key not in EVENT_TRIGGERS:
                raise events.error(key, f"is not a trigger ({', '.join(EVENT_TRIGGERS)})")
        tiles.append(Tile(word(reader, "id"), reader.text("name"), setting, kind,
                          reader.whole("influence", minimum=1, maximum=5), tuple(sorted(walls)),
                          tuple((t, events.text(t)) for t in EVENT_TRIGGERS
                                if events.has(t))))
        events.done()
        reader.done()
    unique_ids(readers, [tile.id for tile in tiles], "tile")
    rifts = [tile for tile in tiles if tile.kind == "rift"]
    if len(rifts) != 1:
        raise SetupError(source[0], "tile", f"needs exactly one Rift tile, found {len(rifts)}")
    return (rifts[0], *[tile for tile in tiles if tile.kind != "rift"])


def read_cards(source: tuple[str, str]) -> tuple[Card, ...]:
    """Read ``[[card]]`` tables (rulebook 2.4 and 7)."""
    readers = _records(source, "card")
    cards = []
    for reader in readers:
        kind = choice(reader, "kind", CARD_KINDS)
        attributes: list[str] = []
        health = 0
        if kind == "unit":
            attributes = [a.lower() for a in reader.texts("attributes")]
            for value in attributes:
                if value not in ATTRIBUTES:
                    raise reader.error("attributes", f"{value!r} is not an attribute")
            health = reader.whole("health", minimum=1, maximum=20)
        elif reader.has("health") or reader.has("attributes"):
            raise reader.error("kind", "an ability card has no attributes or Health")
        cards.append(Card(word(reader, "id"), reader.text("name"), kind,
                          word(reader, "faction"), reader.whole("cost", minimum=0, maximum=9),
                          tuple(attributes), health,
                          reader.whole("copies", 1, minimum=1, maximum=63),
                          reader.flag("constant", False), reader.flag("unlock", False),
                          reader.flag("trigger", False), reader.flag("fated", False),
                          reader.text("text", "")))
        reader.done()
    unique_ids(readers, [card.id for card in cards], "card")
    return tuple(cards)


def read_roles(source: tuple[str, str], expect: int = ROLES_IN_DECK) -> tuple[Role, ...]:
    """Read ``[[role]]`` tables; the Roles deck must hold ``expect`` (18) cards."""
    readers = _records(source, "role")
    roles = tuple(Role(word(r, "id"), r.text("name"), r.text("objective"),
                       r.whole("steps", 1, minimum=1, maximum=9)) for r in readers)
    for reader in readers:
        reader.done()
    unique_ids(readers, [role.id for role in roles], "role")
    if len(roles) != expect:
        raise SetupError(source[0], "role",
                         f"the Roles deck must hold {expect} cards, found {len(roles)}")
    return roles


def read_chapters(source: tuple[str, str]) -> tuple[Chapter, ...]:
    """Read ``[[chapter]]`` tables of an Adventure Guide (rulebook 1.2)."""
    readers = _records(source, "chapter")
    chapters = []
    for reader in readers:
        conditions = []
        if not reader.tables("condition"):
            raise reader.error("condition", "must be a non-empty array of tables ([[...]])")
        for cond in reader.tables("condition"):
            scope = choice(cond, "scope", ("self", "faction"))
            faction = word(cond, "faction") if scope == "faction" else ""
            conditions.append(WinCondition(word(cond, "id"), scope, faction,
                                           cond.text("text")))
            cond.done()
        chapters.append(Chapter(word(reader, "id"), reader.text("name"),
                                reader.whole("round_limit", 0, minimum=0, maximum=99),
                                tuple(conditions)))
        reader.done()
    unique_ids(readers, [c.id for c in chapters], "chapter")
    return tuple(chapters)
