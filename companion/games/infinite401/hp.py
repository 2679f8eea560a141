"""Units' HP and the HP indicators, damage and shields, the HP token and landing.

A unit indicator turns 90° clockwise per HP added. Its four edges carry a white and a black
number each; from a unit's owner's seat the top white number is the HP, and from the
opponent's seat (the opposite edge of the table) the top black number is the HP
(``401-infinite.md`` "UNITS AND HP").

Example:
    >>> read_indicator(180, "owner"), read_indicator(180, "opponent")
    (IndicatorView(white=2, black=0), IndicatorView(white=0, black=2))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.games.core import Event
from companion.games.infinite401.board import other_side, space_name
from companion.games.infinite401.state import MAX_HP, State

WHITE = (0, 3, 2, 1)
"""White numbers printed on the indicator's edges: top, right, bottom, left at 0°."""
BLACK = (2, 1, 0, 3)
"""Black numbers printed on the indicator's edges: top, right, bottom, left at 0°."""
QUARTER = 90


@dataclass(frozen=True)
class IndicatorView:
    """The numbers on the top edge of an indicator as one player sees it."""

    white: int
    black: int


def indicator_rotation(hp: int) -> int:
    """The indicator's rotation, clockwise degrees from its 0 HP position, for ``hp``.

    Example:
        >>> indicator_rotation(3)
        270
    """
    return (hp * QUARTER) % 360


def read_indicator(rotation: int, seat: str) -> IndicatorView:
    """What a player reads on the top edge of an indicator turned ``rotation`` degrees.

    Args:
        rotation: clockwise degrees from the 0 HP position (a multiple of 90).
        seat: ``owner`` (the unit's side) or ``opponent`` (sitting across the table).

    Example:
        >>> read_indicator(90, "owner").white, read_indicator(90, "opponent").black
        (1, 1)
    """
    turns = (rotation // QUARTER) % 4
    top_edge = (-turns) % 4  # clockwise turns bring the left edge to the top
    edge = top_edge if seat == "owner" else (top_edge + 2) % 4
    return IndicatorView(WHITE[edge], BLACK[edge])


def set_hp(state: State, name: str, new: int) -> tuple[State, list[Event]]:
    """Give the unit ``new`` HP (clamped to 0..3); at 0 it is eliminated and leaves the board.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> set_hp(example_state(), "B1", 3)[1][0].data["rotation"]
        90
    """
    unit = state.unit(name)
    new = max(0, min(MAX_HP, new))
    if new == unit.hp:
        return state, []
    events = [Event("hp_changed", {
        "unit": name, "side": unit.side, "old": unit.hp, "new": new,
        "rotation": (new - unit.hp) * QUARTER, "indicator": indicator_rotation(new),
        "owner_reads_white": read_indicator(indicator_rotation(new), "owner").white,
        "opponent_reads_black": read_indicator(indicator_rotation(new), "opponent").black})]
    if new == 0:
        state = state.with_unit(replace(unit, hp=0, space=None))
        state = replace(state, runners=tuple(r for r in state.runners if r != name))
        events.append(Event("unit_eliminated", {"unit": name, "side": unit.side}))
    else:
        state = state.with_unit(replace(unit, hp=new))
    return state, events


def deal_damage(state: State, name: str, amount: int,
                ignore_effects: bool = False) -> tuple[State, list[Event]]:
    """Damage a unit: shields on the Field absorb first (unless ``ignore_effects``).

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> deal_damage(example_state(), "B1", 1)[0].unit("B1").hp
        1
    """
    if not ignore_effects:
        entries = []
        for entry in state.field:
            shields = []
            for unit, points in entry.shields:
                if unit == name and amount:
                    absorbed = min(points, amount)
                    amount -= absorbed
                    points -= absorbed
                if points:
                    shields.append((unit, points))
            entries.append(replace(entry, shields=tuple(shields)))
        state = replace(state, field=tuple(entries))
    if not amount:
        return state, []
    return set_hp(state, name, state.unit(name).hp - amount)


def land(state: State, moved: list[str]) -> tuple[State, list[Event]]:
    """What happens to units that landed on a new space: Runner's Rule, then the HP token.

    A unit on the opposing base waits in :attr:`State.runners` for its player's ``score``.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> land(example_state(), [])[1]
        []
    """
    events: list[Event] = []
    board = state.setup.board
    for name in moved:
        unit = state.unit(name)
        if unit.space is None:
            continue
        if unit.space in board.bases[other_side(unit.side)]:
            if name not in state.runners:
                state = replace(state, runners=(*state.runners, name))
            continue
        if unit.space == state.token and not state.token_taken:
            state, collected = collect_token(state, name)
            events.extend(collected)
    return state, events


def collect_token(state: State, name: str) -> tuple[State, list[Event]]:
    """The unit ``name`` collects the HP token under it (+1 HP, max 3, plus passives).

    The token moves to the other spawner, or leaves the game if that spawner is occupied
    (Deadlock). It cannot be collected again this turn.

    Example:
        >>> from dataclasses import replace
        >>> from companion.games.infinite401.examples import example_state
        >>> state = example_state()
        >>> state = state.with_unit(replace(state.unit("B1"), space=(0, 2)))
        >>> after, events = collect_token(state, "B1")
        >>> after.unit("B1").hp, after.token, [e.kind for e in events]
        (3, (4, 2), ['hp_token_collected', 'hp_changed'])
    """
    unit = state.unit(name)
    spawner = state.token
    assert spawner is not None and unit.space == spawner
    board = state.setup.board
    events = [Event("hp_token_collected", {"unit": name, "spawner": space_name(spawner)})]
    passive = state.side_cards(unit.side).passive
    bonus = state.setup.cards.passive(passive).token_bonus if passive else 0
    state, changed = set_hp(state, name, unit.hp + 1 + bonus)
    events.extend(changed)
    other = board.spawners[1] if spawner == board.spawners[0] else board.spawners[0]
    if state.occupant(other) is not None:
        state = replace(state, token=None, token_taken=True)
        events.append(Event("hp_token_removed", {"reason": "deadlock",
                                                 "spawner": space_name(other)}))
    else:
        state = replace(state, token=other, token_taken=True)
    return state, events

