"""Actions and their notation: ``verb actor args...``, one line each, one class per verb.

Every verb is a frozen dataclass with named, typed fields (a space is a ``(q, r)`` pair, a
die number or a rotation an ``int``); ``str(action)`` prints the line that
:func:`parse_action` reads back, so ``parse_action(names, str(a)) == a``. Names are
case-insensitive on input and printed as written in the setup; die faces are ``T P F 0``.
Text that is not an action (an unknown verb, a missing or extra word, ``north`` where a
space ``q,r`` belongs, ``banana`` where an attribute belongs) is a
:class:`~companion.games.core.NotationError`; what the rules refuse is decided by the
handlers. The verbs are listed in ``docs/defiance.md``.

Example:
    >>> str(Move("Ann", (1, 0), regroup=True))
    'move Ann 1,0 regroup'
    >>> parse_action("CHECK ann Tide", {"ann": "Ann"})
    Check(actor='Ann', attribute='tide')
    >>> parse_action("check Ann banana", {})
    Traceback (most recent call last):
    companion.games.errors.NotationError: cannot read 'check Ann banana': check needs tide, \
power or fortitude, not 'banana'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import ClassVar, Self, get_args, get_type_hints

from companion.games.core import NotationError
from companion.games.defiance.board import Pos, format_pos, parse_count, parse_pos
from companion.games.defiance.data import ATTRIBUTES, BLANK, EFFECTS, FACE_LETTERS
from companion.games.defiance.setup import Rules

FACES = (*FACE_LETTERS.values(), BLANK)
"""The faces of an action die as the notation writes them (rulebook 2.6.1)."""
GAMBIT_FACES = ("1", "2", "3", "4", "5", "6")
"""The faces of the gambit d6 (rulebook 2.6.2)."""
ADJUSTABLE = ("health", *ATTRIBUTES)
"""What ``adjust`` changes: a Health or one of the three attribute tracks."""
ASSET_EFFECTS = ("damage", "heal")
"""Effects that may name their asset when they are entered (the others choose per step)."""

KEYWORDS = ("timeline", "replace", "free", "to", "discover", "regroup", "push", "health", "tide",
            "power", "fortitude", "damage", "heal", "draw", "discard", "destroy", "steal",
            "move", "all")
"""Words of the notation itself, read in any case and printed in lower case."""


class DefianceAction:
    """What every action shares: its verb, its arity and its printed words.

    Attributes:
        verb: the first word of the notation.
        arity: (fewest, most) words after who acts (after the verb for chance actions).
    """

    verb: ClassVar[str]
    arity: ClassVar[tuple[int, int]]

    def _words(self) -> tuple[str, ...]:
        """The words after the verb, as printed.

        By default each field in order: a word for a text (an optional one left out when
        empty) and every word of a tuple of texts.
        """
        words: list[str] = []
        for item in fields(self):  # type: ignore[arg-type]  # every verb is a dataclass
            value = getattr(self, item.name)
            if isinstance(value, tuple):
                words.extend(value)
            elif value or item.default is MISSING:
                words.append(value)
        return tuple(words)

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Self:
        """The action of ``line`` (the words after who acts; ``actor`` "" for chance).

        By default the fields are read in order from their types: who acts first (when
        someone does), a text as the next word, an optional text (default "") as the next
        word if any, a tuple of texts as every word left. Verbs whose words need checking
        (faces, spaces, numbers, options) read them themselves.
        """
        hints = _field_kinds(cls)  # type: ignore[arg-type]  # a class is hashable
        values: list[object] = [actor] if actor else []
        for _name, kind, optional in hints[len(values):]:
            if kind == "texts":
                values.append(line.rest())
            else:
                values.append(line.optional() if optional else line.take())
        return cls(*values)

    def __str__(self) -> str:
        return " ".join((self.verb, *self._words()))


class _Line:
    """The words of one line after the verb, read left to right by the action classes."""

    def __init__(self, text: str, verb: str, words: list[str]) -> None:
        self.text, self.verb, self.words = text, verb, words

    def fail(self, problem: str) -> NotationError:
        """A :class:`NotationError` about this line."""
        return NotationError(self.text, problem)

    def take(self) -> str:
        """The next word (the arity check guarantees it is there)."""
        return self.words.pop(0)

    def optional(self) -> str:
        """The next word, or "" when the line has ended."""
        return self.words.pop(0) if self.words else ""

    def rest(self) -> tuple[str, ...]:
        """Every word left."""
        words, self.words = tuple(self.words), []
        return words

    def count(self, what: str) -> int:
        """A plain whole number (see :func:`~companion.games.defiance.board.parse_count`)."""
        number = parse_count(self.take())
        if number is None:
            raise self.fail(f"{self.verb} needs {what}")
        return number

    def pos(self) -> Pos:
        """A space written ``q,r``."""
        space = parse_pos(self.take())
        if space is None:
            raise self.fail(f"{self.verb} needs a space written q,r")
        return space

    def one_of(self, word: str, choices: tuple[str, ...], what: str) -> str:
        """``word`` (in any case) when it is one of ``choices``."""
        if word.lower() not in choices and word.upper() not in choices:
            raise self.fail(f"{self.verb} needs {what}, not {word!r}")
        return word.lower() if word.lower() in choices else word.upper()

    def options(self, flags: tuple[str, ...], valued: tuple[str, ...]) -> dict[str, str]:
        """Trailing options in any order: bare ``flags`` and ``key value`` pairs."""
        found: dict[str, str] = {}
        while self.words:
            word = self.take()
            if word not in flags and word not in valued:
                raise self.fail(f"{word!r} is not understood after {self.verb} "
                                f"(options: {', '.join((*flags, *valued))})")
            if word in found:
                raise self.fail(f"{self.verb} says {word!r} twice")
            if word in valued:
                if not self.words or self.words[0] in (*flags, *valued):
                    raise self.fail(f"{word} needs a name after it")
                found[word] = self.take()
            else:
                found[word] = ""
        return found


@functools.cache
def _field_kinds(cls: type) -> tuple[tuple[str, str, bool], ...]:
    """``(name, "text" | "texts", optional)`` of each field of a verb read by default.

    Raises:
        TypeError: a field of another type: that verb must read its words itself.
    """
    hints = get_type_hints(cls)
    kinds = []
    for item in fields(cls):
        hint = hints[item.name]
        if hint is str:
            kinds.append((item.name, "text", item.default == ""))
        elif hint == tuple[str, ...]:
            kinds.append((item.name, "texts", False))
        else:
            raise TypeError(f"{cls.__name__}.{item.name}: {hint} is not read by default")
    return tuple(kinds)


# -- chance --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Shuffle(DefianceAction):
    """A faction deck shuffled: its cards top first (setup step 2, 8.5)."""

    verb: ClassVar[str] = "shuffle"
    arity: ClassVar[tuple[int, int]] = (1, 999)
    faction: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Reveal(DefianceAction):
    """The Roles revealed from the Roles deck (rulebook 1.1, setup step 3b)."""

    verb: ClassVar[str] = "reveal"
    arity: ClassVar[tuple[int, int]] = (0, 99)
    roles: tuple[str, ...]


@dataclass(frozen=True)
class Roll(DefianceAction):
    """The dice of a check or reroll (``T P F 0``) or the gambit d6 (``1``-``6``)."""

    verb: ClassVar[str] = "roll"
    arity: ClassVar[tuple[int, int]] = (1, 9)
    faces: tuple[str, ...]


    @classmethod
    def _read(cls, actor: str, line: _Line) -> Roll:
        faces = tuple(line.one_of(word, (*FACES, *GAMBIT_FACES), "die faces T, P, F, 0 or 1-6")
                      for word in line.rest())
        return cls(faces)


# -- setup ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Place(DefianceAction):
    """A first tile placed next to the Rift with its rotation (setup step 5)."""

    verb: ClassVar[str] = "place"
    arity: ClassVar[tuple[int, int]] = (3, 3)
    actor: str
    tile: str
    space: Pos
    rotation: int

    def _words(self) -> tuple[str, ...]:
        return (self.actor, self.tile, format_pos(self.space), str(self.rotation))

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Place:
        tile, space, rotation = line.take(), parse_pos(line.take()), parse_count(line.take())
        if space is None or rotation is None:
            raise line.fail("place needs a tile, a space q,r and a rotation 0-5")
        return cls(actor, tile, space, rotation)


@dataclass(frozen=True)
class ChooseLeader(DefianceAction):
    """A leader playmat chosen (setup step 6)."""

    verb: ClassVar[str] = "leader"
    arity: ClassVar[tuple[int, int]] = (1, 1)
    actor: str
    leader: str


@dataclass(frozen=True)
class Mulligan(DefianceAction):
    """Once per deploy: discard these cards and draw back up to 5 (setup step 7)."""

    verb: ClassVar[str] = "mulligan"
    arity: ClassVar[tuple[int, int]] = (1, 5)
    actor: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Deploy(DefianceAction):
    """A unit played during a deploy with the deploy's 4 Tide (setup step 7)."""

    verb: ClassVar[str] = "deploy"
    arity: ClassVar[tuple[int, int]] = (1, 1)
    actor: str
    card: str


@dataclass(frozen=True)
class Ready(DefianceAction):
    """The deploy is complete."""

    verb: ClassVar[str] = "ready"
    arity: ClassVar[tuple[int, int]] = (0, 0)
    actor: str


# -- the action check ----------------------------------------------------------------------

@dataclass(frozen=True)
class Check(DefianceAction):
    """The turn's action check: four dice of one attribute (rulebook 2.6.1)."""

    verb: ClassVar[str] = "check"
    arity: ClassVar[tuple[int, int]] = (1, 1)
    actor: str
    attribute: str


    @classmethod
    def _read(cls, actor: str, line: _Line) -> Check:
        return cls(actor, line.one_of(line.take(), ATTRIBUTES, "tide, power or fortitude"))


@dataclass(frozen=True)
class Reroll(DefianceAction):
    """Reroll die ``die`` (1-based) of the check (rulebook 2.6.1, Reroll)."""

    verb: ClassVar[str] = "reroll"
    arity: ClassVar[tuple[int, int]] = (1, 1)
    actor: str
    die: int

    def _words(self) -> tuple[str, ...]:
        return (self.actor, str(self.die))

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Reroll:
        return cls(actor, line.count("a die number"))


@dataclass(frozen=True)
class Convert(DefianceAction):
    """Convert die ``die`` (1-based) to ``face`` with a track's box (2.6.1, Convert)."""

    verb: ClassVar[str] = "convert"
    arity: ClassVar[tuple[int, int]] = (2, 2)
    actor: str
    die: int
    face: str

    def _words(self) -> tuple[str, ...]:
        return (self.actor, str(self.die), self.face)

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Convert:
        die = line.count("a die number")
        return cls(actor, die, line.one_of(line.take(), FACES, "a die face T, P, F or 0"))


@dataclass(frozen=True)
class Lock(DefianceAction):
    """Lock the check's results for the turn."""

    verb: ClassVar[str] = "lock"
    arity: ClassVar[tuple[int, int]] = (0, 0)
    actor: str


# -- Tide and Power ------------------------------------------------------------------------

@dataclass(frozen=True)
class Prepare(DefianceAction):
    """1 Tide: a hand card into your timeline, or an ally's (``to``), ``replace`` one."""

    verb: ClassVar[str] = "prepare"
    arity: ClassVar[tuple[int, int]] = (1, 5)
    actor: str
    card: str
    to: str = ""
    replace: str = ""

    def _words(self) -> tuple[str, ...]:
        return (self.actor, self.card, *(("to", self.to) if self.to else ()),
                *(("replace", self.replace) if self.replace else ()))

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Prepare:
        card = line.take()
        options = line.options((), ("to", "replace"))
        return cls(actor, card, options.get("to", ""), options.get("replace", ""))


@dataclass(frozen=True)
class Play(DefianceAction):
    """Play a card from hand, or from the ``timeline``; ``replace`` a unit; ``free``."""

    verb: ClassVar[str] = "play"
    arity: ClassVar[tuple[int, int]] = (1, 5)
    actor: str
    card: str
    timeline: bool = False
    replace: str = ""
    free: bool = False

    def _words(self) -> tuple[str, ...]:
        return (self.actor, self.card, *(("timeline",) if self.timeline else ()),
                *(("replace", self.replace) if self.replace else ()),
                *(("free",) if self.free else ()))

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Play:
        card = line.take()
        options = line.options(("timeline", "free"), ("replace",))
        return cls(actor, card, "timeline" in options, options.get("replace", ""),
                   "free" in options)


@dataclass(frozen=True)
class Damage(DefianceAction):
    """1 Power: 1 damage to ``target``'s group, to ``unit`` before the leader (8.1)."""

    verb: ClassVar[str] = "damage"
    arity: ClassVar[tuple[int, int]] = (1, 2)
    actor: str
    target: str
    unit: str = ""


@dataclass(frozen=True)
class Destroy(DefianceAction):
    """1 Power: destroy ``card`` in ``target``'s timeline."""

    verb: ClassVar[str] = "destroy"
    arity: ClassVar[tuple[int, int]] = (2, 2)
    actor: str
    target: str
    card: str


@dataclass(frozen=True)
class Cycle(DefianceAction):
    """1 Power: discard ``card``, then draw one (rulebook 9 "Cycle")."""

    verb: ClassVar[str] = "cycle"
    arity: ClassVar[tuple[int, int]] = (1, 1)
    actor: str
    card: str


# -- Fortitude -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Move(DefianceAction):
    """1 Fortitude: one space; into an empty one ``discover`` a tile at a rotation; ``regroup``.

    Attributes:
        discover: the tile discovered (empty: the space holds a tile already).
        rotation: the discovered tile's rotation (0 when nothing is discovered).
    """

    verb: ClassVar[str] = "move"
    arity: ClassVar[tuple[int, int]] = (1, 5)
    actor: str
    space: Pos
    discover: str = ""
    rotation: int = 0
    regroup: bool = False

    def _words(self) -> tuple[str, ...]:
        return (self.actor, format_pos(self.space),
                *(("discover", self.discover, str(self.rotation)) if self.discover else ()),
                *(("regroup",) if self.regroup else ()))

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Move:
        space = line.pos()
        tile, rotation, regroup = "", 0, False
        while line.words:
            word = line.take()
            if word == "discover" and not tile and len(line.words) >= 2:
                tile = line.take()
                rotation = line.count("a rotation 0-5 after the tile it discovers")
            elif word == "regroup" and not regroup:
                regroup = True
            else:
                raise line.fail(f"{word!r} is not understood here; write "
                                "`move P q,r [discover TILE ROT] [regroup]`")
        return cls(actor, space, tile, rotation, regroup)


@dataclass(frozen=True)
class Flip(DefianceAction):
    """1 Fortitude: flip an adjacent tile, first pushing a leader in it to ``push``."""

    verb: ClassVar[str] = "flip"
    arity: ClassVar[tuple[int, int]] = (1, 3)
    actor: str
    space: Pos
    push: Pos | None = None

    def _words(self) -> tuple[str, ...]:
        return (self.actor, format_pos(self.space),
                *(("push", format_pos(self.push)) if self.push is not None else ()))

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Flip:
        space = line.pos()
        if not line.words:
            return cls(actor, space)
        if line.take() != "push" or len(line.words) != 1:
            raise line.fail("write `flip P q,r [push q,r]`")
        return cls(actor, space, line.pos())


# -- any player during the turns -----------------------------------------------------------

@dataclass(frozen=True)
class Gambit(DefianceAction):
    """The condition of the gambit level occurred: roll the d6 (rulebook 2.6.2)."""

    verb: ClassVar[str] = "gambit"
    arity: ClassVar[tuple[int, int]] = (0, 0)
    actor: str


@dataclass(frozen=True)
class Score(DefianceAction):
    """A revealed Role completed: 1 Point (rulebook 1.1)."""

    verb: ClassVar[str] = "score"
    arity: ClassVar[tuple[int, int]] = (1, 1)
    actor: str
    role: str


@dataclass(frozen=True)
class Progress(DefianceAction):
    """A step of a multi-step Role (one progress token)."""

    verb: ClassVar[str] = "progress"
    arity: ClassVar[tuple[int, int]] = (1, 1)
    actor: str
    role: str


@dataclass(frozen=True)
class Claim(DefianceAction):
    """An Adventure chapter's win condition met (rulebook 1.2.2)."""

    verb: ClassVar[str] = "claim"
    arity: ClassVar[tuple[int, int]] = (1, 1)
    actor: str
    condition: str


@dataclass(frozen=True)
class Effect(DefianceAction):
    """A card's text puts an ``steps``-step mechanic on the queue (rulebook 8.3).

    Attributes:
        source: the card (or leader) whose text it is.
        effect: one of :data:`~companion.games.defiance.data.EFFECTS`.
        asset: for damage and heal, the unit of ``target`` (or ``target`` for its leader).
    """

    verb: ClassVar[str] = "effect"
    arity: ClassVar[tuple[int, int]] = (4, 5)
    actor: str
    source: str
    effect: str
    steps: int
    target: str
    asset: str = ""

    def _words(self) -> tuple[str, ...]:
        return (self.actor, self.source, self.effect, str(self.steps), self.target,
                *((self.asset,) if self.asset else ()))

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Effect:
        source = line.take()
        effect = line.one_of(line.take(), EFFECTS, f"an effect ({', '.join(EFFECTS)}); log "
                                                   "other changes with adjust, cancel or attach")
        steps = line.count("a number of steps")
        target, asset = line.take(), line.optional()
        if asset and effect not in ASSET_EFFECTS:
            raise line.fail(f"{effect} names its choice at each step, not here")
        return cls(actor, source, effect, steps, target, asset)


@dataclass(frozen=True)
class Step(DefianceAction):
    """Resolve the head of the queue: one step, ``N``, ``all``, or one per choice."""

    verb: ClassVar[str] = "step"
    arity: ClassVar[tuple[int, int]] = (0, 9)
    actor: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Block(DefianceAction):
    """Block the ability at the head of the queue by discarding ``cards`` (rulebook 5)."""

    verb: ClassVar[str] = "block"
    arity: ClassVar[tuple[int, int]] = (1, 5)
    actor: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Resolved(DefianceAction):
    """A played ability is resolved: from the centre to the discard pile."""

    verb: ClassVar[str] = "resolved"
    arity: ClassVar[tuple[int, int]] = (1, 1)
    actor: str
    card: str


@dataclass(frozen=True)
class Adjust(DefianceAction):
    """A card's text changes Health or a track by ``change`` (a ``unit``'s Health)."""

    verb: ClassVar[str] = "adjust"
    arity: ClassVar[tuple[int, int]] = (3, 4)
    actor: str
    source: str
    what: str
    change: int
    unit: str = ""

    def _words(self) -> tuple[str, ...]:
        return (self.actor, self.source, self.what, f"{self.change:+d}",
                *((self.unit,) if self.unit else ()))

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Adjust:
        source = line.take()
        what = line.one_of(line.take(), ADJUSTABLE, "health, tide, power or fortitude")
        value = line.take()
        number = parse_count(value[1:]) if value[:1] in ("+", "-") else None
        if number is None:
            raise line.fail("adjust needs a signed change such as +1 or -2")
        unit = line.optional()
        if unit and what != "health":
            raise line.fail("only health is adjusted on a unit; tracks are the leader's")
        return cls(actor, source, what, -number if value[0] == "-" else number, unit)


@dataclass(frozen=True)
class End(DefianceAction):
    """The end of your turn."""

    verb: ClassVar[str] = "end"
    arity: ClassVar[tuple[int, int]] = (0, 0)
    actor: str


@dataclass(frozen=True)
class Concede(DefianceAction):
    """Concede at the beginning of a turn (rulebook 8.6)."""

    verb: ClassVar[str] = "concede"
    arity: ClassVar[tuple[int, int]] = (0, 0)
    actor: str


@dataclass(frozen=True)
class Spend(DefianceAction):
    """Spend dice showing ``faces`` for a leader action or a card's dice cost (2.1, 7)."""

    verb: ClassVar[str] = "spend"
    arity: ClassVar[tuple[int, int]] = (2, 6)
    actor: str
    source: str
    faces: tuple[str, ...]


    @classmethod
    def _read(cls, actor: str, line: _Line) -> Spend:
        source = line.take()
        return cls(actor, source, tuple(line.one_of(word, FACES, "die results T, P, F or 0")
                                        for word in line.rest()))


@dataclass(frozen=True)
class Cancel(DefianceAction):
    """Negate the head of the queue, or ``card`` as it is played (rulebook 5, 9)."""

    verb: ClassVar[str] = "cancel"
    arity: ClassVar[tuple[int, int]] = (1, 2)
    actor: str
    source: str
    card: str = ""


@dataclass(frozen=True)
class Attach(DefianceAction):
    """An ability being played goes onto ``target``'s leader or unit ``asset`` (9)."""

    verb: ClassVar[str] = "attach"
    arity: ClassVar[tuple[int, int]] = (2, 3)
    actor: str
    card: str
    target: str
    asset: str = ""


@dataclass(frozen=True)
class Trim(DefianceAction):
    """While your timeline is over its limit: destroy ``card`` of it (rulebook 7)."""

    verb: ClassVar[str] = "trim"
    arity: ClassVar[tuple[int, int]] = (1, 1)
    actor: str
    card: str

    def _words(self) -> tuple[str, ...]:
        return (self.actor, self.card)

    @classmethod
    def _read(cls, actor: str, line: _Line) -> Trim:
        return cls(actor, line.take())


ChanceAction = Shuffle | Reveal | Roll
"""What chance does: shuffles, Role reveals and rolls."""
PlayerAction = (Place | ChooseLeader | Mulligan | Deploy | Ready | Check | Reroll | Convert
                | Lock | Prepare | Play | Damage | Destroy | Cycle | Move | Flip | Gambit
                | Score | Progress | Claim | Effect | Step | Block | Resolved | Adjust | End
                | Concede | Spend | Cancel | Attach | Trim)
"""What a player does (every one has an ``actor``)."""
Action = ChanceAction | PlayerAction
"""Any Defiance action."""

CHANCE_TYPES = (Shuffle, Reveal, Roll)
PLAYER_TYPES: tuple[type[PlayerAction], ...] = get_args(PlayerAction)
VERBS: Mapping[str, type[Action]] = {kind.verb: kind for kind in (*CHANCE_TYPES, *PLAYER_TYPES)}
"""Verb -> its action class (a new verb: its class, then its place in one union above)."""


def canonical_names(names: Iterable[str]) -> dict[str, str]:
    """Lower-case lookup of the names as written (first writing wins).

    Example:
        >>> canonical_names(["Ann", "rift"])["ann"]
        'Ann'
    """
    table: dict[str, str] = {}
    for name in names:
        table.setdefault(name.lower(), name)
    return table


def parse_action(text: str, names: Mapping[str, str]) -> Action:
    """Read one line of notation into its action, restoring names as written.

    Raises:
        NotationError: the line is not an action: an unknown verb, too few or too many
            words, or a word of the wrong shape, naming the problem.

    Example:
        >>> parse_action("MOVE ann 1,0 discover Forge 2", {"ann": "Ann"})
        Move(actor='Ann', space=(1, 0), discover='Forge', rotation=2, regroup=False)
    """
    words = text.split()
    if not words:
        raise NotationError(text, "the line is empty")
    verb = words[0].lower()
    kind = VERBS.get(verb)
    if kind is None:
        raise NotationError(text, f"{words[0]!r} is not a Defiance verb "
                                  f"({', '.join(sorted(VERBS))})")
    rest = [_canonical(word, names) for word in words[1:]]
    chance_only = kind in (Reveal, Roll)
    actor = ""
    if not chance_only:
        if not rest:
            raise NotationError(text, f"{verb} needs who acts")
        actor = rest.pop(0)
    low, high = kind.arity
    if not low <= len(rest) <= high:
        count = f"{low}" if low == high else f"{low} to {high}"
        raise NotationError(text, f"{verb} takes {count} argument(s) after "
                                  f"{'the verb' if chance_only else 'who acts'}")
    return kind._read(actor, _Line(text, verb, rest))


def _canonical(word: str, names: Mapping[str, str]) -> str:
    low = word.lower()
    if low in KEYWORDS:
        return low
    return names.get(low, word)


_NAME_CACHE: list[tuple[Rules, dict[str, str]]] = []


def setup_names(rules: Rules) -> dict[str, str]:
    """Lower-case lookup of every name of the setup (cached for the last setup seen)."""
    if _NAME_CACHE and _NAME_CACHE[0][0] is rules:
        return _NAME_CACHE[0][1]
    names = [*rules.players, *(c.id for c in rules.cards), *(t.id for t in rules.tiles),
             *(r.id for r in rules.roles), *(lead.id for lead in rules.leaders),
             *rules.factions()]
    if rules.chapter:
        names.extend(c.id for c in rules.chapter.conditions)
    table = canonical_names(names)
    _NAME_CACHE[:] = [(rules, table)]
    return table
