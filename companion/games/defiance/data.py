"""The game's printed data: leaders, setting tiles, cards, Roles and Adventure chapters.

These are the contents of the data files described in ``docs/defiance.md`` once read and
checked by :mod:`companion.games.defiance.catalog`. They never change during a game.

Example:
    >>> face_letter("tide"), attribute_of("P")
    ('T', 'power')
"""

from __future__ import annotations

from dataclasses import dataclass

ATTRIBUTES = ("tide", "power", "fortitude")
"""The three attributes, as the tracks and action dice are named (rulebook 2.1)."""

FACE_LETTERS = {"tide": "T", "power": "P", "fortitude": "F"}
BLANK = "0"
"""The blank face of an action die (rulebook 2.6.1: "a side of 0")."""

TILE_TYPES = ("stealth", "city", "sacred", "wild", "travel", "rift")
EVENT_TRIGGERS = ("discovery", "entry", "exit", "start", "end", "passive")
CARD_KINDS = ("unit", "ability")
MODES = ("skirmish", "quickplay", "adventure")
EFFECTS = ("damage", "destroy", "discard", "draw", "heal", "move", "steal")
"""The kinds of multi-step mechanic a card's text can put on the queue (rulebook 8.3)."""


def face_letter(attribute: str) -> str:
    """The die-face letter of an attribute.

    Example:
        >>> face_letter("fortitude")
        'F'
    """
    return FACE_LETTERS[attribute]


def attribute_of(letter: str) -> str:
    """The attribute a die-face letter stands for (``"0"`` has none: ``""``).

    Example:
        >>> attribute_of("T")
        'tide'
    """
    for attribute, face in FACE_LETTERS.items():
        if face == letter:
            return attribute
    return ""


def die_faces(attribute: str) -> tuple[str, ...]:
    """The six faces of an action die: three of its attribute, one of each other, one blank.

    Example:
        >>> die_faces("power")
        ('P', 'P', 'P', 'T', 'F', '0')
    """
    own = face_letter(attribute)
    others = tuple(face_letter(a) for a in ATTRIBUTES if a != attribute)
    return (own, own, own, *others, BLANK)


@dataclass(frozen=True)
class Conversion:
    """A track box allowing ``source`` results on ``track`` dice to become ``target``.

    Attributes:
        track: the attribute track (and die colour) it belongs to.
        level: the track level from which it is available (bonuses are cumulative).
        source: face letter converted from.
        target: face letter converted to.
    """

    track: str
    level: int
    source: str
    target: str


@dataclass(frozen=True)
class GambitStep:
    """One box of a gambit track: the italic condition and the reward for a success."""

    level: int
    condition: str
    reward: str


@dataclass(frozen=True)
class Leader:
    """A leader playmat (rulebook 2.1).

    Attributes:
        id: short name used in the notation.
        name: the printed name.
        faction: the faction (and so the deck) the leader belongs to.
        strong: the strong attribute.
        track_max: highest level of the tide, power and fortitude tracks.
        conversions: the convert boxes of the three tracks.
        action: the leader action's text.
        gambits: the gambit track's boxes for levels 1-3.
        empowerment: the permanent level-4 bonus.
        health: always 5 (rulebook 2.1 "Health").
    """

    id: str
    name: str
    faction: str
    strong: str
    track_max: tuple[int, int, int]
    conversions: tuple[Conversion, ...]
    action: str
    gambits: tuple[GambitStep, ...]
    empowerment: str
    health: int = 5


@dataclass(frozen=True)
class Tile:
    """A setting tile (rulebook 2.5).

    Attributes:
        id: short name used in the notation.
        name: the printed name (alphabetical tie-breaks use it).
        setting: the setting stack it belongs to (``"rift"`` for the Rift tile).
        kind: the tile type.
        influence: 1-5.
        walls: edges with a wall, as tile-local directions 0-5 (0 = the printed "east" edge,
            counting counter-clockwise).
        events: (trigger, text) pairs.
    """

    id: str
    name: str
    setting: str
    kind: str
    influence: int
    walls: tuple[int, ...]
    events: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Card:
    """A faction card (rulebook 2.4 and 7).

    Attributes:
        id: short name used in the notation (copies share it).
        name: the printed name.
        kind: ``"unit"`` or ``"ability"``.
        faction: the faction deck it belongs to.
        cost: Tide actions to play it.
        attributes: attribute icons (units only; one tick each on the tracks).
        health: the unit's Health (0 for abilities).
        copies: how many copies the deck holds.
        constant: has the Constant keyword (secondary ability while in the timeline).
        unlock: has an unlock cost.
        trigger: has a trigger condition.
        fated: is Fated (cannot be blocked or canceled).
        text: the ability text (refereed by hand, logged with ``adjust``/``effect``).
    """

    id: str
    name: str
    kind: str
    faction: str
    cost: int
    attributes: tuple[str, ...]
    health: int
    copies: int
    constant: bool
    unlock: bool
    trigger: bool
    fated: bool
    text: str


@dataclass(frozen=True)
class Role:
    """A Role card of the 18-card Roles deck (rulebook 1.1).

    Attributes:
        id: short name used in the notation.
        name: the printed name.
        objective: the objective's text.
        steps: how many progress tokens a multi-step objective needs (1 when single-step).
    """

    id: str
    name: str
    objective: str
    steps: int


@dataclass(frozen=True)
class WinCondition:
    """An Adventure chapter's win condition (rulebook 1.2.2): ``self`` or ``faction``."""

    id: str
    scope: str
    faction: str
    text: str


@dataclass(frozen=True)
class Chapter:
    """An Adventure Guide chapter: its win conditions and an optional round limit."""

    id: str
    name: str
    round_limit: int
    conditions: tuple[WinCondition, ...]
