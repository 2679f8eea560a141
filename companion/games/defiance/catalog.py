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

from companion.games.core import SetupError
from companion.games.defiance.checks import TableReader, parse_toml, unique_ids
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


def _root(source: tuple[str, str]) -> TableReader:
    name, text = source
    return TableReader(name, "", parse_toml(name, text))


def _records(source: tuple[str, str], key: str) -> list[TableReader]:
    """The ``[[key]]`` tables of a data file; any other top-level key is refused."""
    root = _root(source)
    readers = root.tables(key)
    root.done()
    return readers


def read_leaders(source: tuple[str, str]) -> tuple[Leader, ...]:
    """Read ``[[leader]]`` tables (rulebook 2.1 "Leader Playmat and Counters")."""
    readers = _records(source, "leader")
    leaders = [_leader(reader) for reader in readers]
    unique_ids(readers, [leader.id for leader in leaders], "leader")
    return tuple(leaders)


def _leader(reader: TableReader) -> Leader:
    strong = reader.choice("strong", ATTRIBUTES)
    tracks = reader.sub("track_max")
    track_max = tuple(tracks.integer(a, 3, 10, 6) for a in ATTRIBUTES)
    tracks.done()
    conversions = []
    for conv in reader.tables("convert", required=False):
        track = conv.choice("track", ATTRIBUTES)
        level = conv.integer("level", 1, track_max[ATTRIBUTES.index(track)])
        src, dst = conv.text("from").upper(), conv.text("to").upper()
        for key, value in (("from", src), ("to", dst)):
            if value not in FACES:
                raise conv.fail(key, f"{value!r} is not a die face ({', '.join(FACES)})")
        if src == dst:
            raise conv.fail("to", "must differ from 'from'")
        conv.done()
        conversions.append(Conversion(track, level, src, dst))
    steps = reader.tables("gambit")
    gambits = tuple(GambitStep(step.integer("level", 1, 3), step.text("condition"),
                               step.text("reward")) for step in steps)
    for step in steps:
        step.done()
    if sorted(g.level for g in gambits) != [1, 2, 3]:
        raise reader.fail("gambit", "must hold exactly one box for each of levels 1, 2 and 3")
    health = reader.integer("health", 5, 5, 5)
    leader = Leader(reader.text("id", word=True), reader.text("name"),
                    reader.text("faction", word=True), strong, track_max,  # type: ignore[arg-type]
                    tuple(conversions), reader.text("action"),
                    tuple(sorted(gambits, key=lambda g: g.level)), reader.text("empowerment"),
                    health)
    reader.done()
    return leader


def read_tiles(source: tuple[str, str]) -> tuple[Tile, ...]:
    """Read ``[[tile]]`` tables (rulebook 2.5); exactly one tile must be the Rift."""
    readers = _records(source, "tile")
    tiles = []
    for reader in readers:
        kind = reader.choice("type", TILE_TYPES)
        setting = "rift" if kind == "rift" else reader.text("setting", word=True)
        walls = reader.raw("walls", [])
        if not isinstance(walls, list) or any(isinstance(w, bool) or not isinstance(w, int)
                                              or not 0 <= w <= 5 for w in walls):
            raise reader.fail("walls", "must be a list of edge numbers 0-5")
        if len(set(walls)) != len(walls):
            raise reader.fail("walls", "lists an edge twice")
        if len(walls) == 6:
            raise reader.fail("walls", "a tile walled on all six edges can never be entered")
        events = reader.sub("events")
        for key in events.table:
            if key not in EVENT_TRIGGERS:
                raise events.fail(key, f"is not a trigger ({', '.join(EVENT_TRIGGERS)})")
        tiles.append(Tile(reader.text("id", word=True), reader.text("name"), setting, kind,
                          reader.integer("influence", 1, 5), tuple(sorted(walls)),
                          tuple((t, events.text(t)) for t in EVENT_TRIGGERS
                                if t in events.table)))
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
        kind = reader.choice("kind", CARD_KINDS)
        attributes: list[str] = []
        health = 0
        if kind == "unit":
            attributes = [a.lower() for a in reader.texts("attributes")]
            for value in attributes:
                if value not in ATTRIBUTES:
                    raise reader.fail("attributes", f"{value!r} is not an attribute")
            health = reader.integer("health", 1, 20)
        elif reader.has("health") or reader.has("attributes"):
            raise reader.fail("kind", "an ability card has no attributes or Health")
        cards.append(Card(reader.text("id", word=True), reader.text("name"), kind,
                          reader.text("faction", word=True), reader.integer("cost", 0, 9),
                          tuple(attributes), health, reader.integer("copies", 1, 63, 1),
                          reader.flag("constant"), reader.flag("unlock"),
                          reader.flag("trigger"), reader.flag("fated"),
                          reader.text("text") if reader.has("text") else ""))
        reader.done()
    unique_ids(readers, [card.id for card in cards], "card")
    return tuple(cards)


def read_roles(source: tuple[str, str], expect: int = ROLES_IN_DECK) -> tuple[Role, ...]:
    """Read ``[[role]]`` tables; the Roles deck must hold ``expect`` (18) cards."""
    readers = _records(source, "role")
    roles = tuple(Role(r.text("id", word=True), r.text("name"), r.text("objective"),
                       r.integer("steps", 1, 9, 1)) for r in readers)
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
        for cond in reader.tables("condition"):
            scope = cond.choice("scope", ("self", "faction"))
            faction = cond.text("faction", word=True) if scope == "faction" else ""
            conditions.append(WinCondition(cond.text("id", word=True), scope, faction,
                                           cond.text("text")))
            cond.done()
        chapters.append(Chapter(reader.text("id", word=True), reader.text("name"),
                                reader.integer("round_limit", 0, 99, 0), tuple(conditions)))
        reader.done()
    unique_ids(readers, [c.id for c in chapters], "chapter")
    return tuple(chapters)
