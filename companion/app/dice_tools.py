"""The dice tray for any game: d6, d20, the three action dice and a coin.

These are the table's loose dice, for rolls the engine does not ask for (a house rule, a
tie-break, "low roll on 1 die" in Defiance of Fate). When the engine *is* waiting for a
roll, the game screen uses :meth:`companion.session.Session.roll` or the player's typed
physical dice instead, so the record stays exact.

The action dice follow ``infinities-defiance-of-fate.md`` "2.6.1 - Action checks": six
sides, three of the die's own attribute, one of each other attribute and one blank (0).
The rulebook names the colours green, blue and red and pairs blue with Tide; this app pairs
green with Fortitude and red with Power (documented in docs/app.md). Each face also shows a
letter (F, P, T, 0) so the colour is never the only cue.

Example:
    >>> import random
    >>> tray = DiceTray(random.Random(3))
    >>> tray.roll("d6", 2)
    ('2', '5')
    >>> DIE_KINDS["tide"].faces
    ('T', 'T', 'T', 'F', 'P', '0')
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from companion.games.core import RulesError


class UnknownDie(KeyError):
    """A die kind the tray does not have."""


@dataclass(frozen=True)
class DieKind:
    """One kind of die.

    Attributes:
        key: its name in the tray (``d6``).
        faces: what its sides show, as text.
        colour: RGB 0-1 of the die body.
        label_key: the i18n key of its name.
    """

    key: str
    faces: tuple[str, ...]
    colour: tuple[float, float, float]
    label_key: str


DIE_KINDS: dict[str, DieKind] = {
    "d6": DieKind("d6", tuple(str(n) for n in range(1, 7)), (0.93, 0.93, 0.90), "dice.d6"),
    "d20": DieKind("d20", tuple(str(n) for n in range(1, 21)), (0.98, 0.80, 0.25), "dice.d20"),
    "fortitude": DieKind("fortitude", ("F", "F", "F", "P", "T", "0"), (0.20, 0.65, 0.30),
                         "dice.fortitude"),
    "power": DieKind("power", ("P", "P", "P", "F", "T", "0"), (0.85, 0.20, 0.20), "dice.power"),
    "tide": DieKind("tide", ("T", "T", "T", "F", "P", "0"), (0.20, 0.40, 0.90), "dice.tide"),
    "coin": DieKind("coin", ("heads", "tails"), (0.80, 0.65, 0.30), "dice.coin"),
}


KEYPAD_KEYS = ("1", "2", "3", "F", "4", "5", "6", "P", "7", "8", "9", "T", "0", "space", "del",
               "enter", "cancel")
"""The keys of the physical-dice keypad when the die is not known, row by row (4 per row):
digits for numbered dice, F/P/T/0 for the action dice, a space between dice, delete, enter
and cancel."""

KEYPADS: dict[str, tuple[int, tuple[str, ...]]] = {
    "d6": (3, ("1", "2", "3", "4", "5", "6", "del", "cancel", "enter")),
    "numbered": (4, ("1", "2", "3", "del", "4", "5", "6", "space", "7", "8", "9", "0",
                     "cancel", "enter")),
    "action": (4, ("F", "P", "T", "0", "del", "cancel", "enter")),
    "any": (4, KEYPAD_KEYS),
}
"""Kind of dice -> (columns, keys row by row). A d6 face is one tap (the pad separates the
dice itself); numbered dice above 9 need "next die" between them."""

ONE_TAP_KINDS = frozenset({"d6", "action"})
"""Kinds whose every face is one key, so each tap is one die."""

WORD_KEYS = frozenset({"space", "del", "enter", "cancel"})
"""Keypad keys whose label is a word (translated)."""

ACTION_FACES = frozenset({"F", "P", "T", "0"})


def keypad_kind(game: Any, state: Any, samples: int = 40) -> str:
    """Which keypad the dice the engine waits for need, found from the engine itself.

    The pending chance action is drawn ``samples`` times with fixed seeds; the faces in
    its notation say the dice: all 1-6 is ``d6``, larger numbers ``numbered``, F/P/T/0
    ``action``; anything else (or no chance pending) ``any``.
    """
    faces: set[str] = set()
    for seed in range(samples):
        try:
            text = game.format_action(game.sample_chance(state, random.Random(seed)))
        except (RulesError, ValueError, TypeError):  # no chance pending
            return "any"
        words = text.split()[1:]
        if "->" in words:  # a reroll: positions, then the new faces
            words = words[words.index("->") + 1:]
        faces.update(words)
    if faces and all(face.isdigit() and 1 <= int(face) <= 6 for face in faces):
        return "d6"
    if faces and all(face.isdigit() for face in faces):
        return "numbered"
    if faces and faces <= ACTION_FACES:
        return "action"
    return "any"


class DiceTray:
    """Rolls loose dice with a generator it owns (seeded for tests)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def roll(self, kind: str, count: int = 1) -> tuple[str, ...]:
        """Roll ``count`` dice of ``kind``; return the faces shown.

        Raises:
            UnknownDie: naming the kinds there are.
            ValueError: ``count`` is not 1 to 10.
        """
        die = die_kind(kind)
        if not 1 <= count <= 10:
            raise ValueError(f"roll 1 to 10 dice at a time, not {count}")
        return tuple(self.rng.choice(die.faces) for _ in range(count))

    def tumble_frames(self, kind: str, frames: int = 6) -> list[str]:
        """Faces to flash during the roll animation (cosmetic, never a result)."""
        die = die_kind(kind)
        return [self.rng.choice(die.faces) for _ in range(frames)]


def die_kind(kind: str) -> DieKind:
    """The die called ``kind``.

    Raises:
        UnknownDie: naming the kinds there are.
    """
    try:
        return DIE_KINDS[kind]
    except KeyError:
        raise UnknownDie(f"no die called {kind!r}; the tray has {', '.join(DIE_KINDS)}") \
            from None


def parse_physical(kind: str, text: str) -> tuple[str, ...]:
    """Read what physical dice show, typed as space-separated faces.

    Raises:
        ValueError: naming the face that the die does not have.

    Example:
        >>> parse_physical("d6", "3 5 6")
        ('3', '5', '6')
    """
    die = die_kind(kind)
    faces = tuple(text.split())
    if not faces:
        raise ValueError("type what the dice show, e.g. 3 5 6")
    for face in faces:
        if face not in die.faces:
            raise ValueError(f"{face!r} is not a face of a {kind} ({', '.join(die.faces)})")
    return faces


NUMBERED = frozenset({"d6", "d20"})
"""Dice whose faces add up to a total."""


def face_key(kind: str, face: str) -> str | None:
    """The catalogue key of a face shown as a word (a coin's ``heads``), else ``None``.

    Example:
        >>> face_key("coin", "heads"), face_key("d6", "4")
        ('dice.heads', None)
    """
    return f"dice.{face}" if kind == "coin" else None


def tally(kind: str, faces: tuple[str, ...] | list[str]) -> dict[str, int]:
    """What a roll adds up to: the total of numbered dice, else how many of each face.

    Example:
        >>> tally("d6", ["3", "5", "6"])
        {'total': 14}
        >>> tally("tide", ["T", "0", "T", "F"])
        {'T': 2, 'F': 1, '0': 1}
        >>> tally("coin", ["heads", "tails", "heads"])
        {'heads': 2, 'tails': 1}
    """
    die = die_kind(kind)
    if kind in NUMBERED:
        return {"total": sum(int(face) for face in faces)}
    counts = Counter(faces)
    return {face: counts[face] for face in dict.fromkeys(die.faces) if counts[face]}


DEFAULT_START = 10
MAX_TRACKERS = 12
TRACKER_LIMIT = 9999


@dataclass
class TrackedValue:
    """One tracker: what it counts, where it started and where it stands.

    Attributes:
        name: what is counted (a player, "Ogre HP").
        start: the value it starts at and resets to.
        value: the value now.
    """

    name: str
    start: int = DEFAULT_START
    value: int = DEFAULT_START


class TrackerBoard:
    """The trackers of one game (or of the table when no game is open).

    Like a life-counter app: a start value, steps of 1 or 5, reset and delete; saved
    beside the game's journal.

    Example:
        >>> board = TrackerBoard.for_players(["Ann", "Ben"], start=20)
        >>> board.change(0, -5); board.change(0, -1); board.trackers[0].value
        14
        >>> board.reset(0); board.trackers[0].value
        20
        >>> board.delete(1); [t.name for t in board.trackers]
        ['Ann']
    """

    def __init__(self, trackers: list[TrackedValue] | None = None,
                 path: Path | None = None) -> None:
        self.trackers = trackers or []
        self.path = path

    @classmethod
    def for_players(cls, players: list[str], start: int = DEFAULT_START,
                    path: Path | None = None) -> TrackerBoard:
        """One tracker per player, each at ``start``."""
        return cls([TrackedValue(name, start, start) for name in players], path)

    def add(self, name: str, start: int = DEFAULT_START) -> TrackedValue:
        """A new tracker at ``start``.

        Raises:
            ValueError: there are already :data:`MAX_TRACKERS`, or ``start`` is out of range.
        """
        if len(self.trackers) >= MAX_TRACKERS:
            raise ValueError(f"at most {MAX_TRACKERS} trackers")
        if not -TRACKER_LIMIT <= start <= TRACKER_LIMIT:
            raise ValueError(f"a tracker starts between -{TRACKER_LIMIT} and {TRACKER_LIMIT}")
        tracker = TrackedValue(name, start, start)
        self.trackers.append(tracker)
        return tracker

    def change(self, index: int, delta: int) -> None:
        """Move tracker ``index`` by ``delta`` (kept within +-9999)."""
        tracker = self.trackers[index]
        tracker.value = max(-TRACKER_LIMIT, min(TRACKER_LIMIT, tracker.value + delta))

    def reset(self, index: int) -> None:
        """Put tracker ``index`` back to its start value."""
        self.trackers[index].value = self.trackers[index].start

    def delete(self, index: int) -> None:
        """Remove tracker ``index``."""
        del self.trackers[index]

    def to_json(self) -> list[dict[str, Any]]:
        """The trackers as JSON data."""
        return [asdict(tracker) for tracker in self.trackers]

    def save(self) -> None:
        """Write the trackers to :attr:`path` (if the board has one)."""
        if self.path is None:
            return
        temporary = self.path.with_suffix(self.path.suffix + ".tmp")
        temporary.write_text(json.dumps(self.to_json()), "utf-8")
        temporary.replace(self.path)

    @classmethod
    def load(cls, path: Path) -> TrackerBoard | None:
        """The trackers saved at ``path``; ``None`` when there are none or they are unreadable."""
        try:
            data = json.loads(path.read_text("utf-8"))
            trackers = [TrackedValue(str(item["name"]), int(item["start"]), int(item["value"]))
                        for item in data]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return cls(trackers, path)


def trackers_path(journal: Path) -> Path:
    """Where the trackers of the game recorded in ``journal`` are kept.

    Example:
        >>> trackers_path(Path("/data/401-20260101-000000.journal")).name
        '401-20260101-000000.journal.trackers.json'
    """
    return journal.with_name(journal.name + ".trackers.json")
