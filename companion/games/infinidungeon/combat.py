"""Monsters against dice: which assignments are allowed and whether a roll can win.

A monster takes exactly its number of dice (one; two equal dice for the pair mark; three
equal dice for the boss), each showing a face printed below it. The monsters are defeated
when every one of them has its dice.

Example:
    >>> from companion.games.infinidungeon.deck import Monster
    >>> key = monsters_key((Monster("goblin", (1, 2, 3)), Monster("troll", (5, 6), 2)))
    >>> can_defeat(key, (1, 5, 5)), can_defeat(key, (1, 5, 6))
    (True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from companion.games.infinidungeon.deck import Monster
from companion.games.infinidungeon.rulebook import BOSS_ROOM, MONSTER_ROOM, refuse

MonstersKey = tuple[tuple[tuple[int, ...], int], ...]
"""The monsters as ``((faces, dice), ...)``: all the odds depend on."""

Assignment = tuple[tuple[int, str], ...]
"""``((face, monster name), ...)`` sorted by face then name: one die per entry."""


def monsters_key(monsters: Sequence[Monster]) -> MonstersKey:
    """The hashable summary of ``monsters`` used by :func:`can_defeat` and the advisor.

    Example:
        >>> monsters_key((Monster("bat", (6,)),))
        (((6,), 1),)
    """
    return tuple((monster.faces, monster.dice) for monster in monsters)


@lru_cache(maxsize=65536)
def can_defeat(key: MonstersKey, dice: tuple[int, ...]) -> bool:
    """Whether ``dice`` (a sorted tuple of faces) can be assigned to defeat every monster.

    Example:
        >>> can_defeat((((1, 2, 3, 4, 5, 6), 3),), (2, 2, 4, 2))
        True
    """
    counts = [0] * 7
    for face in dice:
        counts[face] += 1
    order = sorted(key, key=lambda entry: (len(entry[0]), -entry[1]))
    return _cover(order, 0, counts)


def _cover(order: list[tuple[tuple[int, ...], int]], index: int, counts: list[int]) -> bool:
    if index == len(order):
        return True
    faces, need = order[index]
    for face in faces:
        if counts[face] >= need:
            counts[face] -= need
            found = _cover(order, index + 1, counts)
            counts[face] += need
            if found:
                return True
    return False


def assignments(monsters: Sequence[Monster], dice: Sequence[int]) -> list[Assignment]:
    """Every assignment the rules allow for ``dice``, complete or not (sorted, no repeats).

    Example:
        >>> [a for a in assignments((Monster("bat", (6,)),), (6, 2))]
        [(), ((6, 'bat'),)]
    """
    counts = Counter(dice)
    found: set[Assignment] = set()

    def extend(index: int, chosen: list[tuple[int, str]]) -> None:
        if index == len(monsters):
            found.add(canonical(chosen))
            return
        extend(index + 1, chosen)
        monster = monsters[index]
        for face in monster.faces:
            if counts[face] >= monster.dice:
                counts[face] -= monster.dice
                extend(index + 1, chosen + [(face, monster.name)] * monster.dice)
                counts[face] += monster.dice

    extend(0, [])
    return sorted(found)


def canonical(pairs: Sequence[tuple[int, str]]) -> Assignment:
    """An assignment in its one written order (by face, then monster name).

    Example:
        >>> canonical([(5, "orc"), (1, "goblin")])
        ((1, 'goblin'), (5, 'orc'))
    """
    return tuple(sorted(pairs, key=lambda pair: (pair[0], pair[1].lower(), pair[1])))


def check_assignment(monsters: Sequence[Monster], dice: Sequence[int],
                     assignment: Assignment) -> bool:
    """Check ``assignment`` against the rules; return whether it defeats every monster.

    Example:
        >>> check_assignment((Monster("bat", (6,)), Monster("rat")), (6, 2), ((6, "bat"),))
        False

    Raises:
        IllegalAction: a die not rolled or used twice, an unknown monster, a face the
            monster does not accept, or the wrong number (or unequal) dice on a monster.
    """
    by_name = {monster.name: monster for monster in monsters}
    given: dict[str, list[int]] = {}
    for face, name in assignment:
        if name not in by_name:
            refuse("no_such_monster", f"There is no monster called {name} in this room "
                   f"(here: {', '.join(by_name)}).", MONSTER_ROOM, monster=name,
                   here=list(by_name))
        given.setdefault(name, []).append(face)
    available = Counter(dice)
    used = Counter(face for face, _ in assignment)
    for face, count in sorted(used.items()):
        if count > available[face]:
            shown = available[face]
            refuse("die_not_rolled", f"Only {shown} di{'e shows' if shown == 1 else 'ce show'} "
                   f"{face}, but {count} were assigned.", MONSTER_ROOM, face=face,
                   shown=shown, count=count)
    for name, faces in given.items():
        monster = by_name[name]
        rule = BOSS_ROOM if monster.boss else MONSTER_ROOM
        for face in faces:
            if not monster.accepts(face):
                refuse("face_not_accepted", f"The {name} only accepts "
                       f"{', '.join(map(str, monster.faces))}, not {face}.", rule,
                       monster=name, face=face, faces=list(monster.faces))
        if len(faces) != monster.dice:
            refuse(_count_code(monster), f"The {name} takes {_dice_words(monster)}, "
                   f"not {len(faces)}.", rule, monster=name, dice=len(faces),
                   needed=monster.dice)
        if len(set(faces)) != 1:
            refuse(_count_code(monster), f"The {name} needs {monster.dice} dice of equal value,"
                   f" not {' and '.join(map(str, faces))}.", rule, monster=name,
                   needed=monster.dice, faces=list(faces))
    return len(given) == len(monsters)


def _count_code(monster: Monster) -> str:
    return {1: "one_die_per_monster", 2: "pair_needs_two_equal_dice",
            3: "boss_needs_three_equal_dice"}[monster.dice]


def _dice_words(monster: Monster) -> str:
    return {1: "one die", 2: "two dice of equal value",
            3: "three dice of equal value"}[monster.dice]
