"""Resolving an ability's effects: HP effects, status effects, positionals and placement.

Effects apply in the card's order. Positionals (``docs/401-infinite.md`` "Positionals"):

- ``move ... to = "away" | "toward"``: the unit moves N spaces one at a time along the
  direction from the reference unit to it (away) or from it to the reference (toward); walls
  and opposing units block the way, own units do not;
- ``place ... at = "in-front" | "behind" | "adjacent"``: the unit is put directly on the space
  in front of / behind the reference unit (its side's forward), or next to the reference unit
  on the side the moved unit comes from.

If a unit would end on an unavailable space (off the board, a wall, another unit, or the
guarded opposing base) the ability is unplayable (``401-infinite.md`` "One Object One Space").

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> from companion.games.infinite401.actions import Play
    >>> state = example_state()
    >>> card = state.setup.cards.ability("Guard")
    >>> after, events, moved = resolve(state, Play("blue", "Guard", "B1", ("B1",)), card)
    >>> after.shield("B1")
    2
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.core import Event, refuse
from companion.games.infinite401 import rulebook
from companion.games.infinite401.actions import Play
from companion.games.infinite401.board import Space, space_name
from companion.games.infinite401.cardset import AbilityCard, Effect
from companion.games.infinite401.geometry import direction
from companion.games.infinite401.hp import deal_damage
from companion.games.infinite401.movement import forbidden_base
from companion.games.infinite401.rulebook import Refusal
from companion.games.infinite401.state import FieldCard, State, Unit
from companion.games.infinite401.targeting import check_targets


def resolve(state: State, play: Play, card: AbilityCard) -> tuple[State, list[Event], list[str]]:
    """Apply ``card``'s effects for a checked ``play`` and place it on the Field.

    Returns:
        The next state, the events, and the units that landed (moved, in order, and not back
        on the space they started the action on).

    Raises:
        IllegalAction: the targets are invalid or a unit would land on an unavailable space.
    """
    source, targets = check_targets(state, play, card)
    before = {unit.name: unit.space for unit in state.units}
    events: list[Event] = []
    moved: list[str] = []
    statuses: list[tuple[str, str]] = []
    shields: list[tuple[str, int]] = []
    for target in targets:
        for effect in card.effects:
            subject = source if effect.who == "source" and source else target
            if not state.unit(subject.name).alive:
                continue
            if effect.kind == "damage":
                state, dealt = deal_damage(state, subject.name, effect.amount)
                events.extend(dealt)
            elif effect.kind == "shield":
                shields.append((subject.name, effect.amount))
            elif effect.kind == "status":
                statuses.append((subject.name, effect.status))
            else:
                reference = source if effect.of == "source" and source else target
                state, did_move = _position(state, effect, subject.name, reference.name)
                if did_move and subject.name not in moved:
                    moved.append(subject.name)
    entry = FieldCard(card.name, play.side, state.turn, play.source, play.targets,
                      statuses=tuple(statuses), shields=tuple(shields))
    landed = [name for name in moved if state.unit(name).space != before[name]]
    return replace(state, field=(*state.field, entry)), events, landed


def _position(state: State, effect: Effect, name: str, reference: str) -> tuple[State, bool]:
    unit, anchor = state.unit(name), state.unit(reference)
    if unit.space is None or anchor.space is None:
        return state, False
    if effect.kind == "place":
        dest = _placement(state, effect, unit, anchor)
        if dest == unit.space:
            return state, False
        _check_available(state, unit, dest, effect)
    else:
        dest = _slide(state, effect, unit, anchor)
    return state.with_unit(replace(unit, space=dest)), True


def _placement(state: State, effect: Effect, unit: Unit, anchor: Unit) -> Space:
    assert unit.space is not None and anchor.space is not None
    c, r = anchor.space
    if effect.to in ("in-front", "behind"):
        forward = state.setup.board.forward(anchor.side)
        step = forward if effect.to == "in-front" else -forward
        return c, r + step
    dc, dr = direction(anchor.space, unit.space)
    return c + dc, r + dr


def _slide(state: State, effect: Effect, unit: Unit, anchor: Unit) -> Space:
    assert unit.space is not None and anchor.space is not None
    if effect.to == "away":
        dc, dr = direction(anchor.space, unit.space)
    else:
        dc, dr = direction(unit.space, anchor.space)
    here = unit.space
    board = state.setup.board
    guarded = forbidden_base(state, unit.side)
    for count in range(1, effect.amount + 1):
        step = (here[0] + dc, here[1] + dr)
        last = count == effect.amount
        occupant = state.occupant(step)
        if last or not board.on_board(step) or step in board.walls or step in guarded or \
                (occupant is not None and occupant.side != unit.side):
            _check_available(state, unit, step, effect)
        here = step
    return here


def _check_available(state: State, unit: Unit, dest: Space, effect: Effect) -> None:
    board = state.setup.board
    where = space_name(dest) if board.on_board(dest) else "off the board"
    what = f"{effect.to} {effect.amount} space(s)" if effect.kind == "move" else effect.to
    if not board.on_board(dest) or dest in board.walls:
        refuse(Refusal.PLACEMENT_UNAVAILABLE, f"the ability would move {unit.name} "
               f"({what}) onto {where}, which is not an open space.",
               rulebook.ONE_OBJECT, unit=unit.name, space=where)
    occupant = state.occupant(dest)
    if occupant is not None and occupant.name != unit.name:
        refuse(Refusal.PLACEMENT_UNAVAILABLE, f"the ability would move {unit.name} "
               f"({what}) onto {where}, occupied by {occupant.name}.",
               rulebook.ONE_OBJECT, unit=unit.name, space=where)
    if dest in forbidden_base(state, unit.side):
        refuse(Refusal.BASE_GUARDED, f"the ability would move {unit.name} onto the "
               f"opposing base ({where}) while an opposing unit occupies it.",
               rulebook.RUNNER, unit=unit.name, space=where)
