"""Damage, healing, defeat and respawn (rulebook 8.1, 8.4 and 8.6).

Example:
    >>> from companion.games.defiance.state import Unit
    >>> auto_target((Unit("a", 0), Unit("b", 1)), {"a": 3, "b": 3})
    1
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.core import Event
from companion.games.defiance.board import Pos, neighbour
from companion.games.defiance.cardops import destroy_unit, detach, discard_everything
from companion.games.defiance.state import (
    State,
    Status,
    Unit,
    board_view,
    evolve,
    occupied,
    seat,
    with_seat,
)

LEADER_HEALTH = 5


def auto_target(group: tuple[Unit, ...], health: Mapping[str, int]) -> int | None:
    """The unit taking the next point of group damage.

    Ascending current Health, then left to right (rulebook 8.1 and 8.4 "LTR Rule"); ``None`` when
    the group has no units.
    """
    if not group:
        return None
    left = [health[u.card] - u.damage for u in group]
    return min(range(len(group)), key=lambda i: (left[i], i))


def unit_health(state: State) -> dict[str, int]:
    """Printed Health of every unit card."""
    return {c.id: c.health for c in state.rules.cards if c.kind == "unit"}


def damage_unit(state: State, name: str, slot: int, events: list[Event]) -> State:
    """One damage to the unit in ``slot``; at 0 Health it is destroyed (tracks drop).

    The destruction is an event of its own (``unit_destroyed``), not only ``Health 1 -> 0``.
    """
    player = seat(state, name)
    unit = player.group[slot]
    printed = state.rules.card(unit.card).health
    old = printed - unit.damage
    events.append(Event("health_changed", {"unit": unit.label, "leader": name,
                                           "old": old, "new": old - 1}))
    if old - 1 <= 0:
        return destroy_unit(state, name, slot, events, "damage")
    group = (*player.group[:slot], evolve(unit, damage=unit.damage + 1),
             *player.group[slot + 1:])
    return with_seat(state, evolve(player, group=group))


def heal_unit(state: State, name: str, slot: int, amount: int, events: list[Event]) -> State:
    """Detach up to ``amount`` damage tokens from a unit.

    Rulebook 8.1: "You can heal damage by detaching damage token(s) from any asset". A unit
    without damage heals nothing, and says so (``nothing_healed``).
    """
    player = seat(state, name)
    unit = player.group[slot]
    printed = state.rules.card(unit.card).health
    healed = min(amount, unit.damage)
    if healed == 0:
        events.append(Event("nothing_healed", {"leader": name, "asset": unit.label,
                                               "health": printed}))
        return state
    old = printed - unit.damage
    events.append(Event("health_changed", {"unit": unit.label, "leader": name,
                                           "old": old, "new": old + healed}))
    group = (*player.group[:slot], evolve(unit, damage=unit.damage - healed),
             *player.group[slot + 1:])
    return with_seat(state, evolve(player, group=group))


def damage_leader(state: State, name: str, amount: int, events: list[Event]) -> State:
    """Lower a leader's Health by ``amount``; at 0 the leader is defeated."""
    player = seat(state, name)
    new = max(0, player.health - amount)
    events.append(Event("health_changed", {"leader": name, "old": player.health, "new": new}))
    state = with_seat(state, evolve(player, health=new))
    return defeat(state, name, events) if new == 0 else state


def group_damage(state: State, name: str, events: list[Event], slot: int | None = None) -> State:
    """One point of group damage to ``name``.

    The chosen unit, else the auto-allocated one, and the leader only when no unit is left (rulebook
    8.1).
    """
    player = seat(state, name)
    if slot is None:
        slot = auto_target(player.group, unit_health(state))
    if slot is None:
        return damage_leader(state, name, 1, events)
    return damage_unit(state, name, slot, events)


def heal_leader(state: State, name: str, amount: int, events: list[Event]) -> State:
    """Heal a leader (never above 5 Health).

    At full Health nothing is healed, and the ``nothing_healed`` event says so.
    """
    player = seat(state, name)
    new = min(LEADER_HEALTH, player.health + amount)
    if new == player.health:
        events.append(Event("nothing_healed", {"leader": name, "asset": name,
                                               "health": player.health}))
        return state
    events.append(Event("health_changed", {"leader": name, "old": player.health, "new": new}))
    return with_seat(state, evolve(player, health=new))


def defeat(state: State, name: str, events: list[Event], conceded: bool = False) -> State:
    """Defeat a leader.

    Pawn off the board, damage tokens removed, cards discarded, the next turn lost (rulebook 8.6); a
    conceding leader stays out until the game ends.
    """
    state, _ = detach(state, name, "")
    state = discard_everything(state, name)
    player = seat(state, name)
    state = with_seat(state, evolve(player, pos=None, health=LEADER_HEALTH,
                                     status=Status.CONCEDED if conceded else Status.DEFEATED,
                                     lose_turn=not conceded))
    events.append(Event("defeat", {"leader": name, "losers": [name],
                                   "termination": "conceded" if conceded else "health_zero",
                                   "detail": f"{name} "
                                             f"{'concedes' if conceded else 'is defeated'}."}))
    return state


def respawn_space(state: State) -> Pos | None:
    """Where a respawning pawn goes.

    The Rift, or if it is taken the adjacent unoccupied tile with the lowest Influence (ties by tile
    name, rulebook 8.4) (rulebook 8.6).
    """
    board = board_view(state)
    taken = occupied(state)
    rift = next((p for p in state.board if p.tile == state.rules.tiles[0].id), None)
    if rift is None:
        return None
    if rift.pos not in taken and board.active(rift.pos):
        return rift.pos
    spaces = [neighbour(rift.pos, d) for d in range(6)]
    free = [p for p in spaces if board.active(p) and p not in taken]
    if not free:
        return None
    tiles = {p: state.rules.tile(board.tiles[p]) for p in free}
    return min(free, key=lambda p: (tiles[p].influence, tiles[p].name))
