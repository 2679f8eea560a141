"""The actions of the game and their notation (``str(action)`` prints what :func:`parse` reads).

One action a line: a lowercase verb, who acts, then the arguments (docs/infinity.md)::

    move Ann Fusilier 4 4 contact:Grenzer   # Move twice (first then second MOV value)
    shoot Ann Fusilier combi_rifle Grenzer@12*2+cover Spektr@20*1
    cc Ann Fusilier knife Grenzer
    aro Ben Grenzer shoot combi_rifle Fusilier@12   # or: aro Ben Grenzer dodge
    pass Ben                                        # no more AROs / skip an option
    roll 3 17 8 12                                  # the dice of the declared rolls
    arm 14 2                                        # the ARM Rolls due
    turn Ben Grenzer        # face an attacker that shot from outside the front arc
    score Ann 2             # objective points, as the players declare them
    end Ann                 # end the Active Turn

Example:
    >>> names = Names(("Ann", "Ben"), ("Fusilier", "Grenzer"))
    >>> action = parse("SHOOT ann fusilier Combi_Rifle grenzer@12.5*3+cover", names)
    >>> str(action)
    'shoot Ann Fusilier combi_rifle Grenzer@12.5*3+cover'
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from companion.games.core import NotationError

if TYPE_CHECKING:  # pragma: no cover - typing only (the state holds actions)
    from .state import State

SHOT = re.compile(r"^(?P<target>[A-Za-z][A-Za-z0-9_-]*)@(?P<distance>[0-9.]+)"
                  r"(?:\*(?P<dice>\d+))?(?P<flags>(?:\+[A-Za-z]+)*)$")
FLAGS = ("cover", "behind")


def format_distance(inches: float) -> str:
    """A distance as the notation prints it (exactly what reads back).

    Example:
        >>> format_distance(12.0), format_distance(7.25)
        ('12', '7.25')
    """
    text = repr(float(inches))
    if "e" in text:  # very small or large: plain digits, still exact
        text = f"{float(inches):.40f}".rstrip("0").rstrip(".")
    return text[:-2] if text.endswith(".0") else text


@dataclass(frozen=True)
class Names:
    """The names an action may mention, as written in the setup (input is case-insensitive)."""

    players: tuple[str, ...]
    troopers: tuple[str, ...]

    def player(self, text: str, raw: str) -> str:
        """The player called ``text``."""
        return _lookup(text, self.players, "player", raw)

    def trooper(self, text: str, raw: str) -> str:
        """The trooper called ``text``."""
        return _lookup(text, self.troopers, "trooper", raw)


def _lookup(text: str, names: Sequence[str], kind: str, raw: str) -> str:
    for name in names:
        if name.lower() == text.lower():
            return name
    raise NotationError(raw, f"there is no {kind} called {text!r} (known: {', '.join(names)})")


@dataclass(frozen=True)
class Shot:
    """One target of a BS Attack (or of a shooting ARO) and the dice aimed at it.

    Attributes:
        target: the trooper shot at.
        distance: the measured distance in inches.
        dice: how many of the Burst's dice go to this target.
        cover: whether the target is in Partial Cover.
        behind: whether the shooter is outside the target's 180 degree front arc.
    """

    target: str
    distance: float
    dice: int
    cover: bool = False
    behind: bool = False

    def __str__(self) -> str:
        flags = "".join(f"+{flag}" for flag in FLAGS if getattr(self, flag))
        return f"{self.target}@{format_distance(self.distance)}*{self.dice}{flags}"


@dataclass(frozen=True)
class Move:
    """Move once or twice in one Order (``distances``), maybe ending in base contact."""

    player: str
    trooper: str
    distances: tuple[float, ...]
    contact: str | None = None

    def __str__(self) -> str:
        text = " ".join(["move", self.player, self.trooper,
                         *(format_distance(d) for d in self.distances)])
        return f"{text} contact:{self.contact}" if self.contact else text


@dataclass(frozen=True)
class Shoot:
    """A BS Attack with ``weapon``, its Burst split among ``shots`` in resolution order."""

    player: str
    trooper: str
    weapon: str
    shots: tuple[Shot, ...]

    def __str__(self) -> str:
        return " ".join(["shoot", self.player, self.trooper, self.weapon,
                         *(str(shot) for shot in self.shots)])


@dataclass(frozen=True)
class CloseCombat:
    """A CC Attack with ``weapon`` against a trooper in base contact."""

    player: str
    trooper: str
    weapon: str
    target: str
    behind: bool = False

    def __str__(self) -> str:
        text = f"cc {self.player} {self.trooper} {self.weapon} {self.target}"
        return text + "+behind" if self.behind else text


class AroSkill(StrEnum):
    """What an ARO declares (its word in the notation)."""

    SHOOT = "shoot"
    """A BS Attack back at the active trooper."""
    CC = "cc"
    """A CC Attack on the active trooper, in base to base contact."""
    DODGE = "dodge"
    """A Dodge (a PH Roll) against an attack."""


@dataclass(frozen=True)
class Aro:
    """An Automatic Reaction Order: ``shoot`` (with ``shot``), ``cc`` or ``dodge``."""

    player: str
    trooper: str
    skill: AroSkill
    weapon: str | None = None
    shot: Shot | None = None
    target: str | None = None
    behind: bool = False

    def __str__(self) -> str:
        text = f"aro {self.player} {self.trooper} {self.skill}"
        if self.skill == AroSkill.SHOOT and self.shot is not None:
            return f"{text} {self.weapon} {self.shot}"
        if self.skill == AroSkill.CC:
            return f"{text} {self.weapon} {self.target}" + ("+behind" if self.behind else "")
        return text


@dataclass(frozen=True)
class Pass:
    """The acting player declines: no (more) AROs, or no dodge move / turn to face."""

    player: str

    def __str__(self) -> str:
        return f"pass {self.player}"


@dataclass(frozen=True)
class TurnToFace:
    """A trooper that survived an attack from outside its front arc turns to face it."""

    player: str
    trooper: str

    def __str__(self) -> str:
        return f"turn {self.player} {self.trooper}"


@dataclass(frozen=True)
class Score:
    """The players declare objective points scored by ``player``."""

    player: str
    points: int

    def __str__(self) -> str:
        return f"score {self.player} {self.points}"


@dataclass(frozen=True)
class EndTurn:
    """The active player ends the Active Turn (unspent Orders are lost)."""

    player: str

    def __str__(self) -> str:
        return f"end {self.player}"


@dataclass(frozen=True)
class Roll:
    """The d20s of the declared rolls (``roll``) or of the ARM Rolls due (``arm``)."""

    kind: str
    dice: tuple[int, ...]

    def __str__(self) -> str:
        return " ".join([self.kind, *(str(die) for die in self.dice)])


Action = Move | Shoot | CloseCombat | Aro | Pass | TurnToFace | Score | EndTurn | Roll
"""Every action of the game."""

Order = Move | Shoot | CloseCombat
"""The Orders the active player declares and the reactive player answers with AROs."""


def _distance(text: str, raw: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise NotationError(raw, f"{text!r} is not a distance in inches") from None
    if not math.isfinite(value) or value < 0:
        raise NotationError(raw, f"{text!r} is not a distance in inches")
    return value


def _number(text: str, raw: str, what: str) -> int:
    if not text.isdigit():
        raise NotationError(raw, f"{text!r} is not {what}")
    return int(text)


def parse_shot(text: str, names: Names, raw: str, default_dice: int | None) -> Shot:
    """Read ``TARGET@INCHES[*DICE][+cover][+behind]``."""
    match = SHOT.match(text)
    if not match:
        raise NotationError(raw, f"{text!r} is not a target like Grenzer@12*2+cover")
    flags = [flag.lower() for flag in match.group("flags").split("+") if flag]
    for flag in flags:
        if flag not in FLAGS:
            raise NotationError(raw, f"unknown flag +{flag} (expected +cover or +behind)")
    if match.group("dice") is None and default_dice is None:
        raise NotationError(raw, f"{text!r}: say how many dice go to each target (*N)")
    dice = int(match.group("dice")) if match.group("dice") else int(default_dice or 1)
    return Shot(names.trooper(match.group("target"), raw),
                _distance(match.group("distance"), raw), dice, "cover" in flags,
                "behind" in flags)


def _target_with_flag(text: str, names: Names, raw: str) -> tuple[str, bool]:
    behind = text.lower().endswith("+behind")
    return names.trooper(text[:-7] if behind else text, raw), behind


def parse_action(state: State, text: str) -> Action:
    """Read one action of the game in ``state`` (its players, troopers and weapons' Bursts).

    Raises:
        NotationError: the text is not an action.
    """
    return parse(text, state.names, state.burst_table())


def parse(text: str, names: Names, burst_of: dict[tuple[str, str], int] | None = None
          ) -> Action:
    """Read one action.

    Args:
        text: the action as typed.
        names: the players and troopers of the game.
        burst_of: ``(trooper, weapon) -> Burst``, so a single target may omit ``*N``.

    Raises:
        NotationError: the text is not an action.
    """
    words = text.split()
    if not words:
        raise NotationError(text, "empty action")
    verb, args = words[0].lower(), words[1:]
    if verb in ("roll", "arm"):
        if not args:
            raise NotationError(text, f"{verb} needs the dice, e.g. `{verb} 3 15 7`")
        return Roll(verb, tuple(_number(a, text, "a die result") for a in args))
    if verb in ("pass", "end"):
        if len(args) != 1:
            raise NotationError(text, f"{verb} takes the player, e.g. `{verb} Ann`")
        player = names.player(args[0], text)
        return Pass(player) if verb == "pass" else EndTurn(player)
    if verb == "score":
        if len(args) != 2:
            raise NotationError(text, "score takes the player and points, e.g. `score Ann 2`")
        return Score(names.player(args[0], text), _number(args[1], text, "a number of points"))
    if len(args) < 2:
        raise NotationError(text, f"unknown or incomplete action {verb!r}")
    player, trooper = names.player(args[0], text), names.trooper(args[1], text)
    rest = args[2:]
    if verb == "turn" and not rest:
        return TurnToFace(player, trooper)
    if verb == "move":
        contact = None
        if rest and rest[-1].lower().startswith("contact:"):
            contact = names.trooper(rest.pop()[8:], text)
        if not 1 <= len(rest) <= 2:
            raise NotationError(text, "move takes one or two distances, e.g. `move Ann "
                                      "Fusilier 4 4`")
        return Move(player, trooper, tuple(_distance(d, text) for d in rest), contact)
    if verb == "shoot":
        if len(rest) < 2:
            raise NotationError(text, "shoot takes a weapon and targets, e.g. `shoot Ann "
                                      "Fusilier combi_rifle Grenzer@12*3`")
        weapon = rest[0].lower()
        burst = (burst_of or {}).get((trooper, weapon)) if len(rest) == 2 else None
        return Shoot(player, trooper, weapon,
                     tuple(parse_shot(s, names, text, burst) for s in rest[1:]))
    if verb == "cc":
        if len(rest) != 2:
            raise NotationError(text, "cc takes a weapon and a target, e.g. `cc Ann Fusilier "
                                      "knife Grenzer`")
        target, behind = _target_with_flag(rest[1], names, text)
        return CloseCombat(player, trooper, rest[0].lower(), target, behind)
    if verb == "aro":
        return _parse_aro(player, trooper, rest, names, text)
    raise NotationError(text, f"unknown action {verb!r} (move, shoot, cc, aro, pass, roll, "
                              f"arm, turn, score, end)")


def _parse_aro(player: str, trooper: str, rest: list[str], names: Names, text: str) -> Aro:
    skill = rest[0].lower() if rest else ""
    if skill == AroSkill.DODGE and len(rest) == 1:
        return Aro(player, trooper, AroSkill.DODGE)
    if skill == AroSkill.SHOOT and len(rest) == 3:
        return Aro(player, trooper, AroSkill.SHOOT, rest[1].lower(),
                   parse_shot(rest[2], names, text, 1))
    if skill == AroSkill.CC and len(rest) == 3:
        target, behind = _target_with_flag(rest[2], names, text)
        return Aro(player, trooper, AroSkill.CC, rest[1].lower(), target=target, behind=behind)
    raise NotationError(text, "an ARO is `aro P T dodge`, `aro P T shoot WEAPON TARGET@INCHES` "
                              "or `aro P T cc WEAPON TARGET`")
