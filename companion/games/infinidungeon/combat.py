"""Monsters against dice: which assignments are allowed and whether a roll can win.

Every die whose face some monster accepts is assigned, several dice may go to one monster,
and a monster has its dice when they include its mark: one die; two equal dice for the pair
mark; three equal dice for the boss. The monsters are defeated when every one of them has its
dice, and the room at once when the boss has its three (infinidungeon.md "Facing the Room").

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

from companion.games.core import refuse
from companion.games.infinidungeon.deck import Monster
from companion.games.infinidungeon.rulebook import BOSS_ROOM, MONSTER_ROOM, Refusal
from companion.games.infinidungeon.rulebook import dice as count_dice

MonstersKey = tuple[tuple[tuple[int, ...], int], ...]
"""The monsters as ``((faces, dice), ...)``: all the odds depend on."""

BOSS_DICE = 3
"""The boss's mark: three dice of equal value (the only monster that takes three)."""

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
    bosses = [entry for entry in key if entry[1] == BOSS_DICE]
    if bosses and any(_cover([boss], 0, counts) for boss in bosses):
        return True
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


def assignable(monsters: Sequence[Monster], face: int) -> bool:
    """Whether a die showing ``face`` can go to some monster present.

    Example:
        >>> assignable((Monster("bat", (6,)),), 6), assignable((Monster("bat", (6,)),), 2)
        (True, False)
    """
    return any(monster.accepts(face) for monster in monsters)


def assignments(monsters: Sequence[Monster], dice: Sequence[int]) -> list[Assignment]:
    """Every assignment the rules allow for ``dice`` (sorted, no repeats).

    infinidungeon.md "Facing the Room", Monster Room: "assign each dice to one of the monsters
    present, the dice face must match one of the dice faces directly below that monster".
    Every die whose face some monster accepts is assigned, and several dice may go to one
    monster; a die no monster accepts cannot be assigned and stays aside.

    Example:
        >>> [a for a in assignments((Monster("bat", (6,)), Monster("rat", (2, 6))), (6, 2))]
        [((2, 'rat'), (6, 'bat')), ((2, 'rat'), (6, 'rat'))]
    """
    choices = [[(face, monster.name) for monster in monsters if monster.accepts(face)]
               for face in sorted(dice)]
    found: set[Assignment] = set()

    def extend(index: int, chosen: list[tuple[int, str]]) -> None:
        if index == len(choices):
            found.add(canonical(chosen))
            return
        if not choices[index]:
            extend(index + 1, chosen)
        for pair in choices[index]:
            extend(index + 1, [*chosen, pair])

    extend(0, [])
    return sorted(found)


def canonical(pairs: Sequence[tuple[int, str]]) -> Assignment:
    """An assignment in its one written order (by face, then monster name).

    Example:
        >>> canonical([(5, "orc"), (1, "goblin")])
        ((1, 'goblin'), (5, 'orc'))
    """
    return tuple(sorted(pairs, key=lambda pair: (pair[0], pair[1].lower(), pair[1])))


def has_its_dice(monster: Monster, faces: Sequence[int]) -> bool:
    """Whether the dice assigned to ``monster`` meet its mark.

    One die; for the pair mark two dice of equal value; for the boss three of equal value
    (more dice do no harm).

    Example:
        >>> troll = Monster("troll", (5, 6), 2)
        >>> has_its_dice(troll, (5, 6)), has_its_dice(troll, (5, 6, 6))
        (False, True)
    """
    counts = Counter(faces)
    return any(count >= monster.dice for count in counts.values())


def defeated_by(monsters: Sequence[Monster], assignment: Assignment) -> bool:
    """Whether ``assignment`` defeats the room.

    Every monster has its dice, or the boss does ("if you do defeat it, you immediately win
    the game!", Boss Room: a guard beside the boss does not stop that).

    Example:
        >>> dragon, imp = Monster("dragon", (3,), 3), Monster("imp", (6,))
        >>> defeated_by((dragon, imp), ((3, "dragon"),) * 3)
        True
    """
    given: dict[str, list[int]] = {}
    for face, name in assignment:
        given.setdefault(name, []).append(face)
    done = [has_its_dice(monster, given.get(monster.name, ())) for monster in monsters]
    bosses = [ok for monster, ok in zip(monsters, done, strict=True) if monster.boss]
    return any(bosses) or all(done)


def check_assignment(monsters: Sequence[Monster], dice: Sequence[int],
                     assignment: Assignment) -> bool:
    """Check ``assignment`` against the rules; return whether it defeats the room.

    Example:
        >>> check_assignment((Monster("bat", (6,)), Monster("rat")), (6, 2),
        ...                  ((2, "rat"), (6, "rat")))
        False

    Raises:
        IllegalAction: a die not rolled or used twice, an unknown monster, a face the
            monster does not accept, or a die some monster accepts left unassigned.
    """
    by_name = {monster.name: monster for monster in monsters}
    for _, name in assignment:
        if name not in by_name:
            refuse(Refusal.NO_SUCH_MONSTER, f"There is no monster called {name} in this room "
                   f"(here: {', '.join(by_name)}).", MONSTER_ROOM, monster=name,
                   here=list(by_name))
    available = Counter(dice)
    used = Counter(face for face, _ in assignment)
    for face, count in sorted(used.items()):
        if count > available[face]:
            shown = available[face]
            refuse(Refusal.DIE_NOT_ROLLED, f"Only {count_dice(shown)} "
                   f"{'shows' if shown == 1 else 'show'} {face}, but {count} were assigned.",
                   MONSTER_ROOM, face=face, shown=shown, count=count)
    for face, name in assignment:
        monster = by_name[name]
        if not monster.accepts(face):
            refuse(Refusal.FACE_NOT_ACCEPTED, f"The {name} only accepts "
                   f"{', '.join(map(str, monster.faces))}, not {face}.",
                   BOSS_ROOM if monster.boss else MONSTER_ROOM,
                   monster=name, face=face, faces=list(monster.faces))
    for face in sorted(available):
        left = available[face] - used[face]
        takers = [monster.name for monster in monsters if monster.accepts(face)]
        if left and takers:
            refuse(Refusal.DIE_UNASSIGNED, f"Assign each die: {count_dice(left)} showing "
                   f"{face} {'is' if left == 1 else 'are'} not assigned, and {' or '.join(takers)} "
                   f"accept{'s' if len(takers) == 1 else ''} {face} (several dice may go to "
                   "one monster).", MONSTER_ROOM, face=face, count=left, monsters=takers)
    return defeated_by(monsters, assignment)

