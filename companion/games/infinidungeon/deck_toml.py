"""Reading a room deck from TOML (the format is documented in ``docs/infinidungeon.md``).

Only the shape of the file is checked here (keys, types, faces 1-6, known directions, two
symbols per doorway); whether the deck agrees with the rulebook (four crystal rooms, a boss
reachable only by flipping...) is :mod:`companion.games.infinidungeon.deck_check`'s job.

Example:
    >>> text = '''
    ... [deck]
    ... name = "tiny"
    ... [[card]]
    ... id = "entrance"
    ... entrance = true
    ... basic = { symbol = "sun", room = "empty", doorways = { north = { symbols = ["sun", "moon"] } } }
    ... '''
    >>> deck_from_toml("tiny.toml", text).entrance.id
    'entrance'
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.core import SetupError, parse_setup_toml
from companion.games.datafile import unknown_key_problem
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

_CARD_KEYS = {"id", "name", "entrance", "basic", "advanced"}
_SIDE_KEYS = {"symbol", "room", "doorways", "monsters", "crystal"}
_MONSTER_KEYS = {"name", "faces", "pair", "boss"}
_DOORWAY_KEYS = {"symbols", "trap"}


def deck_from_toml(source: str, text: str) -> Deck:
    """Read a deck from TOML ``text``; ``source`` names the file in error messages.

    Raises:
        SetupError: naming the file, the line (TOML syntax) or key path, and the problem.
    """
    return deck_from_data(source, parse_setup_toml(source, text))


def deck_from_data(source: str, data: Mapping[str, Any]) -> Deck:
    """Build a deck from already-parsed TOML data (also the JSON of a saved state).

    Raises:
        SetupError: naming the key path and the problem.
    """
    reader = _Reader(source)
    _only_keys(reader, "", data, {"deck", "card"})
    header = data.get("deck", {})
    reader.require(isinstance(header, Mapping), "deck", "must be a table")
    _only_keys(reader, "deck", header, {"name"})
    name = header.get("name", source)
    reader.require(isinstance(name, str), "deck.name", "must be a string")
    cards_data = data.get("card", [])
    if not isinstance(cards_data, list) or not cards_data:
        raise SetupError(source, "card", "must be an array of tables ([[card]]) with at "
                                         "least one card")
    cards = tuple(_card(reader, f"card[{index}]", entry)
                  for index, entry in enumerate(cards_data))
    seen: dict[str, int] = {}
    for index, card in enumerate(cards):
        key = card.id.lower()
        reader.require(key not in seen, f"card[{index}].id",
                       f"{card.id!r} is already the id of card[{seen.get(key)}]")
        seen[key] = index
    entrances = [i for i, card in enumerate(cards) if card.entrance]
    reader.require(len(entrances) <= 1, f"card[{entrances[-1] if entrances else 0}].entrance",
                   "only one card can be the Entrance")
    return Deck(str(name), cards, source)


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def require(self, condition: bool, where: str, problem: str) -> None:
        if not condition:
            raise SetupError(self.source, where, problem)



def _only_keys(reader: _Reader, where: str, table: Mapping[str, Any], allowed: set[str]) -> None:
    for key in table:
        path = f"{where}.{key}" if where else key
        reader.require(key in allowed, path, unknown_key_problem(key, allowed))


def _card(reader: _Reader, where: str, entry: Any) -> Card:
    reader.require(isinstance(entry, Mapping), where, "must be a table")
    _only_keys(reader, where, entry, _CARD_KEYS)
    card_id = entry.get("id")
    reader.require(isinstance(card_id, str) and card_id.strip() != "" and
                   all(ch.isalnum() or ch in "-_" for ch in card_id), f"{where}.id",
                   "must be a word of letters, digits, '-' or '_'")
    name = entry.get("name", card_id)
    reader.require(isinstance(name, str), f"{where}.name", "must be a string")
    entrance = entry.get("entrance", False)
    reader.require(isinstance(entrance, bool), f"{where}.entrance", "must be true or false")
    reader.require("basic" in entry, f"{where}.basic", "missing: every card has a Basic side")
    basic = _side(reader, f"{where}.basic", entry["basic"])
    advanced = _side(reader, f"{where}.advanced", entry["advanced"]) \
        if "advanced" in entry else None
    return Card(str(card_id), str(name), basic, advanced, bool(entrance))


def _side(reader: _Reader, where: str, entry: Any) -> Side:
    reader.require(isinstance(entry, Mapping), where, "must be a table")
    _only_keys(reader, where, entry, _SIDE_KEYS)
    symbol = entry.get("symbol")
    reader.require(isinstance(symbol, str) and symbol.strip() != "", f"{where}.symbol",
                   "missing or not a string: the room symbol in the lower-left corner")
    kind = entry.get("room")
    reader.require(kind in ROOM_KINDS, f"{where}.room",
                   f"must be one of {', '.join(ROOM_KINDS)} (got {kind!r})")
    crystal = entry.get("crystal", False)
    reader.require(isinstance(crystal, bool), f"{where}.crystal", "must be true or false")
    doorways_data = entry.get("doorways", {})
    reader.require(isinstance(doorways_data, Mapping), f"{where}.doorways",
                   "must be a table of north/east/south/west")
    doorways = []
    for direction in DIRECTIONS:
        if direction in doorways_data:
            doorways.append((direction, _doorway(reader, f"{where}.doorways.{direction}",
                                                 doorways_data[direction])))
    _only_keys(reader, f"{where}.doorways", doorways_data, set(DIRECTIONS))
    monsters_data = entry.get("monsters", [])
    reader.require(isinstance(monsters_data, list), f"{where}.monsters",
                   "must be an array of monster tables")
    monsters = tuple(_monster(reader, f"{where}.monsters[{i}]", m)
                     for i, m in enumerate(monsters_data))
    names = [m.name.lower() for m in monsters]
    for index, name in enumerate(names):
        reader.require(name not in names[:index], f"{where}.monsters[{index}].name",
                       f"{monsters[index].name!r} is already a monster on this side; "
                       "names must differ so `assign` can name them")
    return Side(symbol.strip(), str(kind), tuple(doorways), monsters, bool(crystal))


def _doorway(reader: _Reader, where: str, entry: Any) -> Doorway:
    reader.require(isinstance(entry, Mapping), where, "must be a table with symbols (and trap)")
    _only_keys(reader, where, entry, _DOORWAY_KEYS)
    symbols = entry.get("symbols")
    reader.require(isinstance(symbols, list) and len(symbols) == 2 and
                   all(isinstance(s, str) and s.strip() for s in symbols), f"{where}.symbols",
                   "must list exactly two room symbols")
    trap = entry.get("trap")
    reader.require(trap is None or (isinstance(trap, int) and not isinstance(trap, bool)
                                    and trap in ALL_FACES), f"{where}.trap",
                   "must be the die face below the trap, 1-6")
    return Doorway(tuple(str(s).strip() for s in symbols), trap)


def _monster(reader: _Reader, where: str, entry: Any) -> Monster:
    reader.require(isinstance(entry, Mapping), where, "must be a table with a name")
    _only_keys(reader, where, entry, _MONSTER_KEYS)
    name = entry.get("name")
    reader.require(isinstance(name, str) and name.strip() != "" and ":" not in name
                   and " " not in name.strip(), f"{where}.name",
                   "must be one word without ':' (it is written in `assign 4:goblin`)")
    faces = entry.get("faces", list(ALL_FACES))
    reader.require(isinstance(faces, list) and len(faces) > 0 and
                   all(isinstance(f, int) and not isinstance(f, bool) and f in ALL_FACES
                       for f in faces), f"{where}.faces", "must list die faces from 1 to 6")
    pair = entry.get("pair", False)
    boss = entry.get("boss", False)
    reader.require(isinstance(pair, bool), f"{where}.pair", "must be true or false")
    reader.require(isinstance(boss, bool), f"{where}.boss", "must be true or false")
    reader.require(not (pair and boss), where, "a monster is either a pair or the boss")
    dice = 3 if boss else 2 if pair else 1
    return Monster(name.strip(), tuple(sorted(set(faces))), dice)
