"""Ability cards and passives as data: the card file format, its loader and checker.

The rulebook's reference sheet is not in its text, so cards are data
(``docs/401-infinite.md`` "Card files"). An ability card has a type (attack, defense,
utility), a range shape drawn relative to its source (attack/defense) or a target colour and
count (utility), whether it is self-targetable, and a list of effects applied in order:

- ``{ damage = N }``, ``{ shield = N }``: HP effects on the target;
- ``{ status = "slowed" }`` (``on = "source"`` to affect the source): status effects;
- ``{ move = "target", to = "away", of = "source", spaces = N }``: positionals along a path
  (``away`` / ``toward``);
- ``{ place = "target", at = "in-front", of = "source" }``: placement (``in-front``,
  ``behind``, ``adjacent``), directly onto a space regardless of path.

Example:
    >>> cards = load_cards("c.toml", EXAMPLE_CARDS)
    >>> cards.ability("jab").effects
    (Effect(kind='damage', amount=1, who='target', to='', of=''),)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.core import SetupError
from companion.games.datafile import load_toml
from companion.games.infinite401.board import NAME_PATTERN, SIDES, read_keys

TYPES = ("attack", "defense", "utility")
STATUSES = ("grounded", "silenced", "slowed", "stunned", "untargetable")
MOVES = ("away", "toward")
PLACES = ("in-front", "behind", "adjacent")
COLOURS = ("opponent", "own")
WHO = ("target", "source")
RESERVED = frozenset({"passive", "->", *SIDES})


@dataclass(frozen=True)
class Effect:
    """One effect of a card, applied in the card's order.

    Attributes:
        kind: ``damage``, ``shield``, ``status``, ``move`` (away/toward) or ``place``.
        amount: HP for damage/shield, spaces for a move.
        status: the status effect for ``status`` (and ``who`` it lands on) or empty.
        who: the unit affected: ``target`` or ``source``.
        to: for ``move``: ``away``/``toward``; for ``place``: ``in-front``/``behind``/``adjacent``.
        of: the unit the position is taken relative to (``source`` or ``target``).
    """

    kind: str
    amount: int = 0
    who: str = "target"
    to: str = ""
    of: str = ""

    @property
    def status(self) -> str:
        """The status a ``status`` effect gives (stored in ``to``)."""
        return self.to if self.kind == "status" else ""

    @property
    def moves_a_unit(self) -> bool:
        """Whether this is a positional (move or placement)."""
        return self.kind in ("move", "place")


@dataclass(frozen=True)
class AbilityCard:
    """An ability card.

    Attributes:
        name: one word, unique in the card file.
        type: ``attack``, ``defense`` or ``utility``.
        decks: the sides whose ability cards include it.
        text: the description printed on the card.
        range: offsets ``(columns right, rows forward)`` from the source that are in range,
            drawn as the card's owner sees the board (forward = toward the opponent).
        self_targetable: whether the source may be its own target.
        target_colour: for utility cards, whose units it targets (``own``/``opponent``).
        targets: for utility cards, the most targets it takes (at least one).
        effects: what it does, in order.
    """

    name: str
    type: str
    decks: tuple[str, ...]
    text: str
    range: frozenset[tuple[int, int]]
    self_targetable: bool
    target_colour: str
    targets: int
    effects: tuple[Effect, ...]

    @property
    def hostile(self) -> bool:
        """Whether it targets the opponent's units."""
        return self.type == "attack" or (self.type == "utility" and
                                         self.target_colour == "opponent")

    @property
    def moves_source(self) -> bool:
        """Whether one of its positionals moves the source (a Grounded source cannot)."""
        return any(e.moves_a_unit and e.who == "source" for e in self.effects)


@dataclass(frozen=True)
class Passive:
    """A passive card: always in effect once the game starts.

    Attributes:
        name: one word, unique in the card file.
        decks: the sides whose passives include it.
        text: the card's text.
        movement_bonus: extra spaces for every Movement action (a rule-bending buff).
        token_bonus: extra HP when one of your units collects the HP token.
        effects: Effect Text: effects given at the start of each of your turns to your living
            unit with the fewest HP (the first in board order on a tie); they are placed on the
            Field like an ability and last one rotation.
    """

    name: str
    decks: tuple[str, ...]
    text: str
    movement_bonus: int = 0
    token_bonus: int = 0
    effects: tuple[Effect, ...] = ()

    @property
    def has_effect_text(self) -> bool:
        """Whether the passive directly affects units (it has Effect Text)."""
        return bool(self.effects)


@dataclass(frozen=True)
class CardSet:
    """Every ability card and passive of a card file, in file order."""

    abilities: tuple[AbilityCard, ...]
    passives: tuple[Passive, ...]

    def ability(self, name: str) -> AbilityCard:
        """The ability card called ``name`` (case-insensitive).

        Raises:
            KeyError: no such card.
        """
        key = name.lower()
        for card in self.abilities:
            if card.name.lower() == key:
                return card
        raise KeyError(name)

    def passive(self, name: str) -> Passive:
        """The passive called ``name`` (case-insensitive).

        Raises:
            KeyError: no such passive.
        """
        key = name.lower()
        for passive in self.passives:
            if passive.name.lower() == key:
                return passive
        raise KeyError(name)

    def deck(self, side: str) -> tuple[str, ...]:
        """The names of ``side``'s ability cards, in file order."""
        return tuple(card.name for card in self.abilities if side in card.decks)

    def passives_of(self, side: str) -> tuple[str, ...]:
        """The names of ``side``'s passives, in file order."""
        return tuple(p.name for p in self.passives if side in p.decks)


def load_cards(source: str, text: str) -> CardSet:
    """Read and check a card file.

    Raises:
        SetupError: naming the file, the key (``abilities[2].effects[1]``) and the problem.

    Example:
        >>> [c.name for c in load_cards("c.toml", EXAMPLE_CARDS).abilities]
        ['Jab']
    """
    data = read_keys(source, "", load_toml(source, text), ("abilities", "passives"))
    raw_abilities = data.get("abilities")
    if not isinstance(raw_abilities, list) or not raw_abilities:
        raise SetupError(source, "abilities", "missing: at least one [[abilities]] card")
    names: set[str] = set()
    abilities = tuple(_ability(source, f"abilities[{i}]", raw, names)
                      for i, raw in enumerate(raw_abilities))
    raw_passives = data.get("passives", [])
    if not isinstance(raw_passives, list):
        raise SetupError(source, "passives", "must be an array of tables [[passives]]")
    passives = tuple(_passive(source, f"passives[{i}]", raw, names)
                     for i, raw in enumerate(raw_passives))
    return CardSet(abilities, passives)


def _common(source: str, where: str, raw: Any, names: set[str]) -> tuple[str, tuple[str, ...],
                                                                          str]:
    if not isinstance(raw, dict):
        raise SetupError(source, where, "must be a table")
    name = raw.get("name")
    if not isinstance(name, str) or not NAME_PATTERN.match(name) or name.lower() in RESERVED:
        raise SetupError(source, f"{where}.name", f"{name!r} is not a card name: one word of "
                         "letters and digits, not 'passive' or a side's name")
    if name.lower() in names:
        raise SetupError(source, f"{where}.name", f"{name} is already used by another card")
    names.add(name.lower())
    decks = raw.get("decks", list(SIDES))
    if not isinstance(decks, list) or not decks or any(d not in SIDES for d in decks):
        raise SetupError(source, f"{where}.decks", f"{decks!r}: list one or both of blue, red")
    card_text = raw.get("text", "")
    if not isinstance(card_text, str):
        raise SetupError(source, f"{where}.text", "must be a string")
    return name, tuple(d for d in SIDES if d in decks), card_text


ABILITY_KEYS = frozenset({"name", "decks", "text", "type", "self_targetable", "effects",
                          "range", "target_colour", "targets"})
PASSIVE_KEYS = frozenset({"name", "decks", "text", "movement_bonus", "token_bonus", "effects"})
EFFECT_KINDS = frozenset({"damage", "shield", "status", "move", "place"})


def _ability(source: str, where: str, raw: Any, names: set[str]) -> AbilityCard:
    if isinstance(raw, dict):
        raw = read_keys(source, where, raw, ABILITY_KEYS)
    name, decks, card_text = _common(source, where, raw, names)
    kind = raw.get("type")
    if kind not in TYPES:
        raise SetupError(source, f"{where}.type", f"{kind!r} is not attack, defense or utility")
    self_targetable = raw.get("self_targetable", False)
    if not isinstance(self_targetable, bool) or (self_targetable and kind != "defense"):
        raise SetupError(source, f"{where}.self_targetable",
                         "must be true or false, and only a defense card can target its source")
    effects = _effects(source, where, raw.get("effects"), kind)
    if kind == "utility":
        if "range" in raw:
            raise SetupError(source, f"{where}.range", "utility cards have no range")
        colour = raw.get("target_colour")
        if colour not in COLOURS:
            raise SetupError(source, f"{where}.target_colour",
                             f"{colour!r} is not 'own' or 'opponent'")
        count = raw.get("targets", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 3:
            raise SetupError(source, f"{where}.targets", "must be a whole number from 1 to 3")
        return AbilityCard(name, kind, decks, card_text, frozenset(), False, colour, count,
                           effects)
    if "target_colour" in raw or "targets" in raw:
        raise SetupError(source, where, "target_colour and targets belong to utility cards")
    shape = _range(source, f"{where}.range", raw.get("range"))
    return AbilityCard(name, kind, decks, card_text, shape, self_targetable,
                       "opponent" if kind == "attack" else "own", 1, effects)


def _range(source: str, where: str, raw: Any) -> frozenset[tuple[int, int]]:
    if not isinstance(raw, str):
        raise SetupError(source, where, "missing: a range map with one 'S' for the source")
    lines = [line.replace(" ", "") for line in raw.strip("\n").splitlines()]
    lines = [line for line in lines if line]
    found = [(c, r) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "S"]
    if len(found) != 1:
        raise SetupError(source, where, f"needs exactly one 'S' (the source), found {len(found)}")
    sc, sr = found[0]
    offsets: set[tuple[int, int]] = set()
    for number, line in enumerate(lines, start=1):
        for c, ch in enumerate(line):
            if ch not in ".xS":
                raise SetupError(source, f"{where} line {number}",
                                 f"unknown character {ch!r}; use . x S")
            if ch == "x":
                offsets.add((c - sc, sr - (number - 1)))
    if not offsets:
        raise SetupError(source, where, "no space is in range: mark them with 'x'")
    return frozenset(offsets)


def _effects(source: str, where: str, raw: Any, kind: str,
             passive: bool = False) -> tuple[Effect, ...]:
    if not isinstance(raw, list) or not raw:
        raise SetupError(source, f"{where}.effects", "missing: a list of effects")
    return tuple(_effect(source, f"{where}.effects[{i}]", item, kind, passive)
                 for i, item in enumerate(raw))


def _effect(source: str, where: str, raw: Any, kind: str, passive: bool) -> Effect:
    if not isinstance(raw, dict):
        raise SetupError(source, where, "must be an inline table such as { damage = 1 }")
    for hp in ("damage", "shield"):
        if hp in raw:
            amount = read_keys(source, where, raw, (hp,))[hp]
            if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 3:
                raise SetupError(source, where, f"{{ {hp} = N }} takes a whole N from 1 to 3 "
                                 "and no other key")
            if passive and hp == "damage":
                raise SetupError(source, where, "a passive cannot deal damage")
            return Effect(hp, amount)
    if "status" in raw:
        read_keys(source, where, raw, ("status", "on"))
        status, who = raw["status"], raw.get("on", "target")
        if status not in STATUSES or who not in WHO:
            raise SetupError(source, where, f"{{ status = S, on = W }}: S one of "
                             f"{', '.join(STATUSES)}; W target or source")
        if who == "source" and (kind == "utility" or passive):
            raise SetupError(source, where, "this card has no source unit")
        return Effect("status", 0, who, status)
    if passive or kind == "utility":
        raise SetupError(source, where, "only damage, shield and status effects are allowed "
                         "here (positionals need a source)")
    if "move" in raw:
        return _positional(source, where, raw, "move", "to", MOVES)
    if "place" in raw:
        return _positional(source, where, raw, "place", "at", PLACES)
    read_keys(source, where, raw, EFFECT_KINDS)
    raise SetupError(source, where, "unknown effect: use damage, shield, status, move or place")


def _positional(source: str, where: str, raw: Mapping[str, Any], kind: str, to_key: str,
                allowed: tuple[str, ...]) -> Effect:
    who, to, of = raw[kind], raw.get(to_key), raw.get("of", "source")
    spaces = raw.get("spaces", 1)
    expected = {kind, to_key, "of"} | ({"spaces"} if kind == "move" else set())
    read_keys(source, where, raw, frozenset(expected))
    if who not in WHO or of not in WHO or to not in allowed:
        raise SetupError(source, where, f"{{ {kind} = W, {to_key} = P, of = O }}: W and O are "
                         f"target or source, P one of {', '.join(allowed)}")
    if who == of and to not in ("in-front", "behind"):
        raise SetupError(source, where, f"a unit cannot be placed {to} of itself")
    if not isinstance(spaces, int) or isinstance(spaces, bool) or not 1 <= spaces <= 4:
        raise SetupError(source, f"{where}.spaces", "must be a whole number from 1 to 4")
    return Effect(kind, spaces if kind == "move" else 0, who, to, of)


def _passive(source: str, where: str, raw: Any, names: set[str]) -> Passive:
    if isinstance(raw, dict):
        raw = read_keys(source, where, raw, PASSIVE_KEYS)
    name, decks, card_text = _common(source, where, raw, names)
    bonuses = []
    for key in ("movement_bonus", "token_bonus"):
        value = raw.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 2:
            raise SetupError(source, f"{where}.{key}", "must be a whole number from 0 to 2")
        bonuses.append(value)
    effects = _effects(source, where, raw["effects"], "passive", True) if "effects" in raw \
        else ()
    if not any(bonuses) and not effects:
        raise SetupError(source, where, "a passive needs movement_bonus, token_bonus or effects")
    return Passive(name, decks, card_text, bonuses[0], bonuses[1], effects)


EXAMPLE_CARDS = """
[[abilities]]
name = "Jab"
type = "attack"
range = '''
x
S
'''
effects = [{ damage = 1 }]
"""
"""A one-card file used in docstring examples."""
