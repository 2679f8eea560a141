"""Actions and their notation: ``verb actor args...``, one line each.

Every action is an :class:`Action` (verb, actor, arguments); ``str(action)`` prints the line
that :func:`parse_action` reads back. Names are case-insensitive on input and printed as
written in the setup; die faces are ``T P F 0``. The verbs are listed in ``docs/defiance.md``.

Example:
    >>> str(Action("move", "Ann", ("1,0", "regroup")))
    'move Ann 1,0 regroup'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.games.core import NotationError
from companion.games.defiance.board import parse_count, parse_pos

CHANCE_VERBS = frozenset({"shuffle", "reveal", "roll"})
"""Chance actions: their first word after the verb is not a player."""

ARITY: dict[str, tuple[int, int]] = {
    "shuffle": (1, 999), "reveal": (0, 99), "roll": (1, 9),
    "place": (3, 3), "leader": (1, 1), "mulligan": (1, 5), "deploy": (1, 1), "ready": (0, 0),
    "check": (1, 1), "reroll": (1, 1), "convert": (2, 2), "lock": (0, 0),
    "prepare": (1, 5), "play": (1, 4), "damage": (1, 2), "destroy": (2, 2), "cycle": (1, 1),
    "move": (1, 5), "flip": (1, 3), "gambit": (0, 0), "score": (1, 1), "progress": (1, 1),
    "claim": (1, 1), "effect": (4, 5), "step": (0, 9), "block": (1, 5), "resolved": (1, 1),
    "adjust": (3, 4), "end": (0, 0), "concede": (0, 0), "spend": (2, 6),
    "cancel": (1, 2), "attach": (2, 3), "trim": (1, 1),
}
"""Verb -> (fewest, most) arguments after the actor (after the verb for chance)."""

KEYWORDS = ("timeline", "replace", "free", "to", "discover", "regroup", "push", "health", "tide",
            "power", "fortitude", "damage", "heal", "draw", "discard", "destroy", "steal",
            "move", "all")


@dataclass(frozen=True, order=True)
class Action:
    """One action.

    ``verb``, who acts (a player, a faction for ``shuffle``, "" for ``reveal``/``roll``) and its
    arguments, all as the notation prints them.
    """

    verb: str
    actor: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join(word for word in (self.verb, self.actor, *self.args) if word)


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


def parse_line(text: str, names: dict[str, str]) -> Action:
    """Read one line of notation into an :class:`Action`, restoring names as written.

    Example:
        >>> parse_line("MOVE ann 1,0", {"ann": "Ann"})
        Action(verb='move', actor='Ann', args=('1,0',))
    """
    words = text.split()
    if not words:
        raise NotationError(text, "the line is empty")
    verb = words[0].lower()
    if verb not in ARITY:
        raise NotationError(text, f"{words[0]!r} is not a Defiance verb "
                                  f"({', '.join(sorted(ARITY))})")
    rest = [_canonical(word, names) for word in words[1:]]
    if verb in ("reveal", "roll"):
        actor, args = "", rest
        if verb == "roll":
            args = [word.upper() for word in rest]
    elif verb == "spend" and len(rest) > 2:
        actor, args = rest[0], [rest[1], *(word.upper() for word in rest[2:])]
    elif verb == "convert" and len(rest) == 3:
        actor, args = rest[0], [rest[1], rest[2].upper()]
    else:
        if not rest:
            raise NotationError(text, f"{verb} needs who acts")
        actor, args = rest[0], rest[1:]
    low, high = ARITY[verb]
    if not low <= len(args) <= high:
        count = f"{low}" if low == high else f"{low} to {high}"
        raise NotationError(text, f"{verb} takes {count} argument(s) after "
                                  f"{'the verb' if verb in ('reveal', 'roll') else 'who acts'}")
    _check_shapes(text, verb, args)
    return Action(verb, actor, tuple(args))


def _canonical(word: str, names: dict[str, str]) -> str:
    low = word.lower()
    if low in KEYWORDS:
        return low
    return names.get(low, word)


def _check_shapes(text: str, verb: str, args: list[str]) -> None:
    if verb == "place":
        if parse_pos(args[1]) is None or parse_count(args[2]) is None:
            raise NotationError(text, "place needs a tile, a space q,r and a rotation 0-5")
    elif verb in ("move", "flip"):
        if parse_pos(args[0]) is None:
            raise NotationError(text, f"{verb} needs a space written q,r")
    elif verb in ("reroll", "convert") and parse_count(args[0]) is None:
        raise NotationError(text, f"{verb} needs a die number")
    elif verb == "effect" and parse_count(args[2]) is None:
        raise NotationError(text, "effect needs a number of steps")
    elif verb == "adjust":
        value = args[2]
        if not (value[:1] in ("+", "-") and parse_count(value[1:]) is not None):
            raise NotationError(text, "adjust needs a signed change such as +1 or -2")
