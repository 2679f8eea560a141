"""Listing the legal actions of a position, sorted by their notation.

Candidates are generated from the position and kept when the engine accepts them, so the
list never disagrees with :meth:`DefianceGame.apply`. Moves into empty spaces (one per tile
and rotation) are checked directly, as they are many. Card texts (``effect``, ``adjust``)
and blocks are typed by the players and not listed.

The engine is asked through :class:`Referee` (who acts, whether an action is accepted), so
this module does not import ``engine.py``, which imports it.

Example:
    >>> subsets(("a", "b"))
    [('a',), ('a', 'b'), ('b',)]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Protocol

from companion.games.defiance.actions import (
    Action,
    Check,
    ChooseLeader,
    Claim,
    Concede,
    Convert,
    Cycle,
    Damage,
    Deploy,
    Destroy,
    End,
    Flip,
    Gambit,
    Lock,
    Move,
    Mulligan,
    Place,
    Play,
    PlayerAction,
    Prepare,
    Progress,
    Ready,
    Reroll,
    Resolved,
    Roll,
    Score,
    Step,
    Trim,
)
from companion.games.defiance.board import DIRECTIONS, format_pos, neighbour, world_walls
from companion.games.defiance.card_actions import in_reach
from companion.games.defiance.card_effects import COUNTED
from companion.games.defiance.data import ATTRIBUTES, die_faces
from companion.games.defiance.dice import available, conversions_for
from companion.games.defiance.movement import discoverable, push_spaces
from companion.games.defiance.state import (
    GROUP_LIMIT,
    Due,
    Phase,
    SetupStep,
    State,
    Status,
    board_view,
    occupied,
    over_limit,
    placed_ids,
    seat,
    timeline_limit,
)


class Referee(Protocol):
    """What listing needs of the engine (:class:`~companion.games.defiance.DefianceGame`)."""

    def current_actor(self, state: State) -> str | None:
        """Who acts next (see :meth:`companion.games.core.Game.current_actor`)."""

    def accepts(self, state: State, action: Action) -> bool:
        """Whether the rules accept ``action``."""


def subsets(cards: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Distinct non-empty sub-multisets of a sorted hand."""
    found = {combo for size in range(1, len(cards) + 1) for combo in combinations(cards, size)}
    return sorted(found)


def legal_actions(game: Referee, state: State) -> list[Action]:
    """Every action that may happen next, sorted by notation text.

    The current actor's actions, and what any player may do at any time during the turns
    (a gambit roll, completing a Role, claiming a condition, conceding at a turn's start).
    """
    if state.phase == Phase.OVER:
        return []
    if state.pending:
        due = state.pending[0]
        if due.kind == Due.REROLL:
            kind = state.turn.dice[due.die].kind
            return sorted({Roll((f,)) for f in die_faces(kind)}, key=str)
        if due.kind == Due.GAMBIT:
            return [Roll((str(n),)) for n in range(1, 7)]
        return []
    actor = game.current_actor(state)
    if actor is None:
        return []
    found: dict[str, Action] = {}
    for action in _candidates(state, actor):
        text = str(action)
        if text in found:
            continue
        if game.accepts(state, action):
            found[text] = action
    for action in _discoveries(state, actor):
        found.setdefault(str(action), action)
    return [found[text] for text in sorted(found)]


def _candidates(state: State, actor: str) -> Iterator[PlayerAction]:
    due = over_limit(state)
    if due is not None and due.name == actor:
        for card in sorted({p.card for p in due.timeline}):
            yield Trim(actor, card)
        return
    if state.phase == Phase.SETUP:
        yield from _setup_candidates(state, actor)
        return
    player = seat(state, actor)
    turn = state.turn
    if turn.deploying:
        yield from _deploy_candidates(state, actor)
        return
    yield End(actor)
    for other in state.seats:
        yield from _anyone_candidates(state, other.name)
    for owner, card in state.center:
        if owner == actor:
            yield Resolved(actor, card)
    if state.queue:
        yield from _step_candidates(state, actor)
    if not turn.check:
        for attribute in ATTRIBUTES:
            yield Check(actor, attribute)
        return
    if not turn.locked:
        yield Lock(actor)
        for number, die in enumerate(turn.dice, start=1):
            yield Reroll(actor, number)
            for face in conversions_for(state, die):
                yield Convert(actor, number, face)
        return
    yield from _spend_candidates(state, actor, player.hand)


def _step_candidates(state: State, actor: str) -> Iterator[PlayerAction]:
    """Resolving the head of the queue: one step, all of them, or each possible choice."""
    top = state.queue[0]
    if top.effect in COUNTED:
        yield Step(actor)
        if top.steps > 1:
            yield Step(actor, ("all",))
        return
    victim = seat(state, top.target)
    if top.effect == "discard":
        choices = sorted(set(victim.hand))
    elif top.effect == "move":
        choices = [format_pos(neighbour(victim.pos, d)) for d in range(6)] if victim.pos else []
    else:
        choices = [u.label for u in victim.group] + sorted({p.card for p in victim.timeline})
    for choice in choices:
        yield Step(actor, (choice,))


def _anyone_candidates(state: State, name: str) -> Iterator[PlayerAction]:
    """What any player may do during the turns: gambits, Roles, claims, conceding."""
    yield Gambit(name)
    yield Concede(name)
    for role in state.roles:
        yield Score(name, role)
        yield Progress(name, role)
    if state.rules.chapter:
        for cond in state.rules.chapter.conditions:
            yield Claim(name, cond.id)


def _setup_candidates(state: State, actor: str) -> Iterator[PlayerAction]:
    if state.step == SetupStep.TILES:
        taken = placed_ids(state)
        for tile in state.rules.tiles[1:]:
            if tile.id in taken:
                continue
            for space in DIRECTIONS:
                for rotation in range(6):
                    yield Place(actor, tile.id, space, rotation)
    elif state.step == SetupStep.LEADERS:
        for leader in state.rules.leaders:
            yield ChooseLeader(actor, leader.id)
    else:
        yield from _deploy_candidates(state, actor)


def _deploy_candidates(state: State, actor: str) -> Iterator[PlayerAction]:
    hand = seat(state, actor).hand
    yield Ready(actor)
    if not state.turn.mulliganed:
        for combo in subsets(hand):
            yield Mulligan(actor, combo)
    for card in sorted(set(hand)):
        yield Deploy(actor, card)


def _spend_candidates(state: State, actor: str, hand: tuple[str, ...]
                      ) -> Iterator[PlayerAction]:
    player = seat(state, actor)
    can = state.turn.spent < player.health
    if can and available(state, "T"):
        allies = [s for s in state.seats if s.status == Status.ACTIVE
                  and state.rules.team_of(s.name) == state.rules.team_of(actor)]
        for card in sorted(set(hand)):
            for ally in allies:
                to = "" if ally.name == actor else ally.name
                if len(ally.timeline) >= timeline_limit(state, ally):
                    for doomed in sorted({p.card for p in ally.timeline}):
                        yield Prepare(actor, card, to, doomed)
                else:
                    yield Prepare(actor, card, to)
            yield from _plays(state, actor, card, False)
        for card in sorted({p.card for p in player.timeline}):
            yield from _plays(state, actor, card, True)
    if can and available(state, "P"):
        for target, _ in sorted(in_reach(state, actor).items()):
            victim = seat(state, target)
            if target != actor:
                if victim.group:
                    for unit in victim.group:
                        yield Damage(actor, target, unit.label)
                else:
                    yield Damage(actor, target)
            for card in sorted({p.card for p in victim.timeline}):
                yield Destroy(actor, target, card)
        for card in sorted(set(hand)):
            yield Cycle(actor, card)
    if can and available(state, "F") and player.pos is not None:
        board = board_view(state)
        pawns = occupied(state)
        for direction in range(6):
            dest = neighbour(player.pos, direction)
            if board.active(dest):
                yield Move(actor, dest)
                yield Move(actor, dest, regroup=True)
                if dest in pawns:
                    for space in push_spaces(state, dest):
                        yield Flip(actor, dest, space)
                else:
                    yield Flip(actor, dest)


def _plays(state: State, actor: str, card: str, timeline: bool) -> Iterator[PlayerAction]:
    group = seat(state, actor).group
    if state.rules.card(card).kind == "unit" and len(group) >= GROUP_LIMIT:
        for unit in group:
            yield Play(actor, card, timeline, unit.label)
    else:
        yield Play(actor, card, timeline)


def _discoveries(state: State, actor: str) -> Iterator[PlayerAction]:
    """Moves into empty or flipped spaces, checked as :func:`movement.move` checks them."""
    if state.phase != Phase.TURNS or state.turn.deploying or not state.turn.locked:
        return
    player = seat(state, actor)
    if player.pos is None or state.turn.spent >= player.health or not available(state, "F"):
        return
    board = board_view(state)
    pawns = occupied(state)
    stack: Sequence[str] | None = None
    for direction in range(6):
        dest = neighbour(player.pos, direction)
        if board.active(dest) or dest in pawns or board.walled(player.pos, direction):
            continue
        flipped = board.flipped.get(dest)
        if flipped is not None:
            tiles: Sequence[str] = (flipped,)
        else:
            stack = stack if stack is not None else discoverable(state, player.pos)
            tiles = stack
        for tile_id in tiles:
            printed = state.rules.tile(tile_id).walls
            for rotation in range(6):
                if (direction + 3) % 6 in world_walls(printed, rotation):
                    continue
                yield Move(actor, dest, tile_id, rotation)
                yield Move(actor, dest, tile_id, rotation, regroup=True)


def grouped_listing(texts: Sequence[str]) -> list[str]:
    """The legal actions grouped for reading at the table: verbs first, then arguments.

    The first line names the verbs; then one line per verb holds its argument lists,
    ``|`` between them. Lists that differ in one word share a line (``a/b``), and a
    trailing word that may be added or left out shows as ``[word]``.

    Example:
        >>> for line in grouped_listing(["end Ann", "check Ann power", "check Ann tide",
        ...                              "move Ann 0,0", "move Ann 0,0 regroup"]):
        ...     print(line)
        5 actions; verbs: check, end, move
        check Ann power/tide
        end Ann
        move Ann 0,0 [regroup]
    """
    by_verb: dict[str, list[tuple[str, ...]]] = {}
    for text in texts:
        verb, *words = text.split()
        by_verb.setdefault(verb, []).append(tuple(words))
    lines = [f"{len(texts)} actions; verbs: {', '.join(sorted(by_verb))}"]
    for verb in sorted(by_verb):
        items = _merged(by_verb[verb])
        lines.append(f"{verb} " + " | ".join(" ".join(_slot(s) for s in item)
                                             for item in items))
    return lines


Slots = tuple[tuple[str, ...], ...]


def _slot(alternatives: tuple[str, ...]) -> str:
    return "/".join(alternatives)


def _merged(words: list[tuple[str, ...]]) -> list[Slots]:
    """Merge argument lists: optional trailing words, then one differing word at a time."""
    present = set(words)
    items: list[Slots] = []
    for item in words:
        if item[:-1] in present and len(_extensions(item[:-1], present)) == 1:
            continue  # shown with its shorter twin, as [word]
        slots: Slots = tuple((word,) for word in item)
        longer = _extensions(item, present)
        if len(longer) == 1:
            slots = (*slots, (f"[{longer[0][-1]}]",))
        items.append(slots)
    changed = True
    while changed:
        changed = False
        for position in range(max((len(i) for i in items), default=0) - 1, -1, -1):
            items, merged_any = _merge_at(items, position)
            changed = changed or merged_any
    return items


def _merge_at(items: list[Slots], position: int) -> tuple[list[Slots], bool]:
    """Merge the argument lists that differ only at ``position`` (``a/b`` there)."""
    def key(slots: Slots) -> tuple[int, Slots]:
        return (len(slots), (*slots[:position], *slots[position + 1:]))

    groups: dict[tuple[int, Slots], list[Slots]] = {}
    for slots in items:
        if position < len(slots):
            groups.setdefault(key(slots), []).append(slots)
    if all(len(group) == 1 for group in groups.values()):
        return items, False
    merged: list[Slots] = []
    done: set[tuple[int, Slots]] = set()
    for slots in items:
        if position >= len(slots):
            merged.append(slots)
            continue
        if key(slots) in done:
            continue
        done.add(key(slots))
        choices = tuple(dict.fromkeys(w for g in groups[key(slots)] for w in g[position]))
        merged.append((*slots[:position], choices, *slots[position + 1:]))
    return merged, len(merged) != len(items)


def _extensions(item: tuple[str, ...], present: set[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The argument lists in ``present`` that are ``item`` plus one trailing word."""
    return [other for other in present if len(other) == len(item) + 1 and other[:-1] == item]
