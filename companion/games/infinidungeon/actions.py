"""Infinidungeon's typed actions (one dataclass per verb) and their text notation.

=======================  ==========================================================
``shuffle crypt den ..``  the room deck's order, bottom (drawn first) to top (chance)
``go north``              leave through a doorway (``n``/``e``/``s``/``w`` also read)
``roll 3 5 6 1 2``        the dice as they lie, positions 1..n (chance)
``reroll 1 2``            choose dice to reroll; their values follow as ``roll 4 6``
``reroll 1 2 -> 4 6``     choose and give the new values at once (physical dice)
``reroll none``           keep the roll as it is
``assign 1:goblin 5:orc`` give dice (by the face they show) to monsters
``assign none``           assign no die
``use vault``             spend the kept treasure vault to recover up to 2 dice
``skip vault``            keep the vault for a later room
=======================  ==========================================================

Example:
    >>> str(parse_action(None, "REROLL 2 1 -> 6 4"))
    'reroll 1 2 -> 4 6'
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.core import NotationError
from companion.games.infinidungeon.combat import Assignment, canonical
from companion.games.infinidungeon.deck import DIRECTIONS
from companion.games.infinidungeon.rulebook import dice
from companion.games.infinidungeon.state import DungeonState

_DIRECTION_WORDS = {**{d: d for d in DIRECTIONS}, **{d[0]: d for d in DIRECTIONS}}


@dataclass(frozen=True)
class Go:
    """Leave the current room through the doorway towards ``direction``."""

    direction: str

    def __str__(self) -> str:
        return f"go {self.direction}"


@dataclass(frozen=True)
class Roll:
    """Dice values (a full roll, or the values of the dice being rerolled)."""

    values: tuple[int, ...]

    def __str__(self) -> str:
        return "roll " + " ".join(map(str, self.values))


@dataclass(frozen=True)
class Reroll:
    """Dice chosen for the one reroll (positions 1..n, ascending); ``values`` when known."""

    positions: tuple[int, ...]
    values: tuple[int, ...] | None = None

    def __str__(self) -> str:
        if not self.positions:
            return "reroll none"
        text = "reroll " + " ".join(map(str, self.positions))
        if self.values is not None:
            text += " -> " + " ".join(map(str, self.values))
        return text


@dataclass(frozen=True)
class Assign:
    """Dice (by face) given to monsters, in canonical order (see :func:`combat.canonical`)."""

    pairs: Assignment

    def __str__(self) -> str:
        if not self.pairs:
            return "assign none"
        return "assign " + " ".join(f"{face}:{name}" for face, name in self.pairs)


@dataclass(frozen=True)
class Shuffle:
    """The order of the shuffled room deck, bottom (drawn first) to top."""

    order: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(("shuffle", *self.order))


@dataclass(frozen=True)
class Vault:
    """Use the kept treasure vault (``use vault``) or keep it for later (``skip vault``)."""

    use: bool

    def __str__(self) -> str:
        return "use vault" if self.use else "skip vault"


Action = Go | Roll | Reroll | Assign | Shuffle | Vault


def parse_action(state: DungeonState | None, text: str) -> Action:
    """Read one action; names are matched case-insensitively against the deck in ``state``.

    Example:
        >>> parse_action(None, "assign 6:bat 1:Goblin")
        Assign(pairs=((1, 'goblin'), (6, 'bat')))

    Raises:
        NotationError: the text is not an Infinidungeon action.
    """
    words = text.split()
    if not words:
        raise NotationError(text, "empty action")
    verb, rest = words[0].lower(), words[1:]
    if verb == "go":
        return _go(text, rest)
    if verb == "roll":
        return Roll(_faces(text, rest, "roll needs the dice values, e.g. `roll 3 5 6 1 2`"))
    if verb == "reroll":
        return _reroll(text, rest)
    if verb == "assign":
        return _assign(state, text, rest)
    if verb == "shuffle":  # bare `shuffle`: an empty deck (the referee's word rolls instead)
        return Shuffle(tuple(_card_name(state, word) for word in rest))
    if verb in ("use", "skip") and [w.lower() for w in rest] == ["vault"]:
        return Vault(verb == "use")
    raise NotationError(text, "expected go, roll, reroll, assign, shuffle, use vault or "
                              "skip vault")


def _go(text: str, rest: list[str]) -> Go:
    if len(rest) != 1 or rest[0].lower() not in _DIRECTION_WORDS:
        raise NotationError(text, "go needs one direction: north, east, south or west")
    return Go(_DIRECTION_WORDS[rest[0].lower()])


def _faces(text: str, words: list[str], problem: str) -> tuple[int, ...]:
    if not words:
        raise NotationError(text, problem)
    faces = []
    for word in words:
        if not word.isdigit() or not 1 <= int(word) <= 6:
            raise NotationError(text, f"{word!r} is not a die face (1-6)")
        faces.append(int(word))
    return tuple(faces)


def _reroll(text: str, rest: list[str]) -> Reroll:
    if [w.lower() for w in rest] == ["none"]:
        return Reroll(())
    chosen, arrow, shown = _split_arrow(rest)
    if not chosen or not all(word.isdigit() and int(word) >= 1 for word in chosen):
        raise NotationError(text, "reroll needs die positions (1, 2...) or `none`")
    positions = [int(word) for word in chosen]
    if len(set(positions)) != len(positions):
        raise NotationError(text, "a die is named twice; each die is rerolled once")
    if not arrow:
        return Reroll(tuple(sorted(positions)))
    values = _faces(text, shown, "after `->` give the values the rerolled dice show")
    if len(values) != len(positions):
        raise NotationError(text, f"{dice(len(positions))} rerolled but {len(values)} "
                                  f"value{'' if len(values) == 1 else 's'} "
                                  "given")
    ordered = sorted(zip(positions, values, strict=True))
    return Reroll(tuple(p for p, _ in ordered), tuple(v for _, v in ordered))


def _split_arrow(words: list[str]) -> tuple[list[str], bool, list[str]]:
    joined = " ".join(words).replace("->", " -> ")
    parts = joined.split()
    if "->" not in parts:
        return parts, False, []
    at = parts.index("->")
    return parts[:at], True, parts[at + 1:]


def _assign(state: DungeonState | None, text: str, rest: list[str]) -> Assign:
    if [w.lower() for w in rest] == ["none"]:
        return Assign(())
    if not rest:
        raise NotationError(text, "assign needs face:monster pairs, e.g. `assign 4:goblin`, "
                                  "or `none`")
    pairs = []
    for word in rest:
        face, colon, name = word.partition(":")
        if not colon or not name or not face.isdigit() or not 1 <= int(face) <= 6:
            raise NotationError(text, f"{word!r} is not face:monster (e.g. 4:goblin)")
        pairs.append((int(face), _monster_name(state, name)))
    return Assign(canonical(pairs))


def _monster_name(state: DungeonState | None, name: str) -> str:
    if state is not None and state.room[0]:
        monster = state.side.monster(name)
        if monster is not None:
            return monster.name
    return name.lower()


def _card_name(state: DungeonState | None, word: str) -> str:
    if state is not None and state.deck.has_card(word):
        return state.deck.card(word).id
    return word.lower()
