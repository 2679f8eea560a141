"""Files and options in, a room deck out: reading a deck file (``docs/infinidungeon.md``).

Every table of the file is read through :class:`companion.games.datafile.Table`, which
refuses a key nobody reads, naming the closest valid one; the options are checked by
:meth:`GameInfo.check_options <companion.games.info.GameInfo.check_options>` (the game takes
none: the deck decides everything). Only the shape of the file is checked here (keys, types,
faces 1-6, known directions, two symbols per doorway); whether the deck agrees with the
rulebook (four crystal rooms, a boss reachable only by flipping...) is
:mod:`companion.games.infinidungeon.deck_check`'s job.

Example:
    >>> text = '''
    ... [deck]
    ... name = "tiny"
    ... [[card]]
    ... id = "entrance"
    ... entrance = true
    ... basic = { symbol = "sun", room = "empty", doorways = { north = { symbols = ["sun", "moon"] } } }
    ... '''
    >>> load_setup({"deck": ("tiny.toml", text)}, {}).entrance.id
    'entrance'
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.core import SetupError
from companion.games.datafile import Table, load_toml
from companion.games.infinidungeon.deck import (
    ALL_FACES,
    DIRECTIONS,
    ROOM_KINDS,
    Card,
    Deck,
    Doorway,
    Monster,
    Side,
)
from companion.games.infinidungeon.info import INFO


def load_setup(sources: Mapping[str, tuple[str, str]], options: Mapping[str, Any]) -> Deck:
    """Read the room deck from ``sources["deck"]`` (TOML); the game takes no options.

    Raises:
        SetupError: an option given, no deck given, or the deck file is malformed.
    """
    INFO.check_options(options)
    if "deck" not in sources:
        raise SetupError("sources", "deck", "an Infinidungeon game needs a room deck")
    name, text = sources["deck"]
    return deck_from_toml(name, text)


def deck_from_toml(source: str, text: str) -> Deck:
    """Read a deck from TOML ``text``; ``source`` names the file in error messages.

    Raises:
        SetupError: naming the file, the line (TOML syntax) or key path, and the problem.
    """
    top = Table(source, load_toml(source, text))
    header_data = top.raw("deck", {})
    cards_data = top.raw("card", [])
    top.done()
    header = _table(top, "deck", header_data, "must be a table")
    with header:
        name = header.raw("name", source)
        _require(header, isinstance(name, str), "name", "must be a string")
    if not isinstance(cards_data, list) or not cards_data:
        raise top.error("card", "must be an array of tables ([[card]]) with at least one card")
    cards = tuple(_card(_item(top, "card", index, entry, "must be a table"))
                  for index, entry in enumerate(cards_data))
    seen: dict[str, int] = {}
    for index, card in enumerate(cards):
        key = card.id.lower()
        if key in seen:
            raise SetupError(source, f"card[{index}].id",
                             f"{card.id!r} is already the id of card[{seen[key]}]")
        seen[key] = index
    entrances = [i for i, card in enumerate(cards) if card.entrance]
    if len(entrances) > 1:
        raise SetupError(source, f"card[{entrances[-1]}].entrance",
                         "only one card can be the Entrance")
    return Deck(str(name), cards, source)


def _require(table: Table, condition: bool, key: str, problem: str) -> None:
    if not condition:
        raise table.error(key, problem)


def _table(parent: Table, key: str, value: Any, problem: str) -> Table:
    """``value``, the table under ``parent``'s ``key``, or ``problem`` naming its path."""
    if not isinstance(value, Mapping):
        raise parent.error(key, problem)
    return Table(parent.source, value, parent.path(key))


def _item(parent: Table, key: str, index: int, value: Any, problem: str) -> Table:
    """``value``, item ``index`` of the array under ``parent``'s ``key``, as a table."""
    where = f"{parent.path(key)}[{index}]"
    if not isinstance(value, Mapping):
        raise SetupError(parent.source, where, problem)
    return Table(parent.source, value, where)


def _card(entry: Table) -> Card:
    with entry:
        card_id = entry.raw("id", None)
        _require(entry, isinstance(card_id, str) and card_id.strip() != "" and
                 all(ch.isalnum() or ch in "-_" for ch in card_id), "id",
                 "must be a word of letters, digits, '-' or '_'")
        name = entry.raw("name", card_id)
        _require(entry, isinstance(name, str), "name", "must be a string")
        entrance = entry.raw("entrance", False)
        _require(entry, isinstance(entrance, bool), "entrance", "must be true or false")
        _require(entry, entry.has("basic"), "basic", "missing: every card has a Basic side")
        basic = _side(_table(entry, "basic", entry.raw("basic"), "must be a table"))
        advanced = _side(_table(entry, "advanced", entry.raw("advanced"), "must be a table")) \
            if entry.has("advanced") else None
    return Card(str(card_id), str(name), basic, advanced, bool(entrance))


def _side(entry: Table) -> Side:
    with entry:
        symbol = entry.raw("symbol", None)
        _require(entry, isinstance(symbol, str) and symbol.strip() != "", "symbol",
                 "missing or not a string: the room symbol in the lower-left corner")
        kind = entry.raw("room", None)
        _require(entry, kind in ROOM_KINDS, "room",
                 f"must be one of {', '.join(ROOM_KINDS)} (got {kind!r})")
        crystal = entry.raw("crystal", False)
        _require(entry, isinstance(crystal, bool), "crystal", "must be true or false")
        doorways = _doorways(_table(entry, "doorways", entry.raw("doorways", {}),
                                    "must be a table of north/east/south/west"))
        monsters_data = entry.raw("monsters", [])
        _require(entry, isinstance(monsters_data, list), "monsters",
                 "must be an array of monster tables")
        monsters = tuple(_monster(_item(entry, "monsters", index, item,
                                        "must be a table with a name"))
                         for index, item in enumerate(monsters_data))
        names = [monster.name.lower() for monster in monsters]
        for index, name in enumerate(names):
            if name in names[:index]:
                raise SetupError(entry.source, f"{entry.path('monsters')}[{index}].name",
                                 f"{monsters[index].name!r} is already a monster on this side; "
                                 "names must differ so `assign` can name them")
    return Side(str(symbol).strip(), str(kind), doorways, monsters, bool(crystal))


def _doorways(entry: Table) -> tuple[tuple[str, Doorway], ...]:
    with entry:
        return tuple((direction, _doorway(_table(entry, direction, entry.raw(direction),
                                                 "must be a table with symbols (and trap)")))
                     for direction in DIRECTIONS if entry.has(direction))


def _doorway(entry: Table) -> Doorway:
    with entry:
        symbols = entry.raw("symbols", None)
        _require(entry, isinstance(symbols, list) and len(symbols) == 2 and
                 all(isinstance(s, str) and s.strip() for s in symbols), "symbols",
                 "must list exactly two room symbols")
        trap = entry.raw("trap", None)
        _require(entry, trap is None or (isinstance(trap, int) and not isinstance(trap, bool)
                                         and trap in ALL_FACES), "trap",
                 "must be the die face below the trap, 1-6")
    return Doorway(tuple(str(s).strip() for s in symbols), trap)


def _monster(entry: Table) -> Monster:
    with entry:
        name = entry.raw("name", None)
        _require(entry, isinstance(name, str) and name.strip() != "" and ":" not in name
                 and " " not in name.strip(), "name",
                 "must be one word without ':' (it is written in `assign 4:goblin`)")
        faces = entry.raw("faces", list(ALL_FACES))
        _require(entry, isinstance(faces, list) and len(faces) > 0 and
                 all(isinstance(f, int) and not isinstance(f, bool) and f in ALL_FACES
                     for f in faces), "faces", "must list die faces from 1 to 6")
        pair = entry.raw("pair", False)
        boss = entry.raw("boss", False)
        _require(entry, isinstance(pair, bool), "pair", "must be true or false")
        _require(entry, isinstance(boss, bool), "boss", "must be true or false")
        if pair and boss:
            raise SetupError(entry.source, entry.where, "a monster is either a pair or the boss")
    dice = 3 if boss else 2 if pair else 1
    return Monster(str(name).strip(), tuple(sorted(set(faces))), dice)
