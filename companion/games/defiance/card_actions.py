"""Tide and Power actions.

Prepare, play, damage, destroy a timeline card, cycle (rulebook 4, 2.4 and 7).

Example:
    >>> slot_number("2")
    1
"""

from __future__ import annotations

from companion.games.core import Event, refuse
from companion.games.defiance.actions import Cycle, Damage, Destroy, Play, Prepare
from companion.games.defiance.board import parse_count
from companion.games.defiance.cardops import (
    destroy_timeline_card,
    destroy_unit,
    discard_from_hand,
    draw,
    without_one,
)
from companion.games.defiance.damage import group_damage
from companion.games.defiance.dice import spend
from companion.games.defiance.rulebook import (
    CARDS,
    DAMAGE,
    POWER_ACTIONS,
    THE_TIMELINE,
    TIDE_ACTIONS,
    UNIT_CARDS,
    Refusal,
)
from companion.games.defiance.state import (
    GROUP_LIMIT,
    LIMIT_READING,
    Prepared,
    Seat,
    State,
    Status,
    Unit,
    board_view,
    evolve,
    find_unit,
    occupied,
    seat,
    timeline_limit,
    track_level,
    unit_name,
    with_seat,
)


def slot_number(text: str) -> int:
    """A 1-based unit slot (left to right) as a 0-based index (``-1`` when not a number)."""
    number = parse_count(text)
    return number - 1 if number is not None else -1


def prepare(state: State, action: Prepare, events: list[Event]) -> State:
    """1 Tide.

    Put a hand card in your (or an ally's) timeline; when it is full, ``replace`` destroys one of
    its cards first.
    """
    card = action.card
    player = seat(state, action.actor)
    if card not in player.hand:
        refuse(Refusal.NOT_IN_HAND, f"{card} is not in your hand.", TIDE_ACTIONS, card=card)
    owner_name = action.to or action.actor
    if owner_name not in {s.name for s in state.seats}:
        refuse(Refusal.UNKNOWN_PLAYER, f"{owner_name} is not a player.", THE_TIMELINE,
               player=owner_name)
    owner = seat(state, owner_name)
    if owner_name != action.actor and (state.rules.team_of(owner_name)
                                       != state.rules.team_of(action.actor)
                                       or owner.status != Status.ACTIVE):
        refuse(Refusal.NOT_AN_ALLY, f"{owner_name} is not an active ally.", THE_TIMELINE,
               player=owner_name)
    full = len(owner.timeline) >= timeline_limit(state, owner)
    victim = action.replace or None
    if full and victim is None:
        refuse(Refusal.TIMELINE_FULL, f"The timeline holds 1 + Tide level = "
               f"{timeline_limit(state, owner)} cards ({LIMIT_READING}); name a card to "
               "replace.", THE_TIMELINE, limit=timeline_limit(state, owner))
    if victim is not None and not full:
        refuse(Refusal.TIMELINE_NOT_FULL, "Replace a timeline card only when the timeline is full.",
               THE_TIMELINE)
    if victim is not None and victim not in {p.card for p in owner.timeline}:
        refuse(Refusal.NOT_IN_TIMELINE,
               f"{victim} is not in that timeline.", THE_TIMELINE, card=victim)
    state = spend(state, "T", 1, TIDE_ACTIONS)
    if victim is not None:
        state = destroy_timeline_card(state, owner_name, victim, events, "replaced")
    player = seat(state, action.actor)
    state = with_seat(state, evolve(player, hand=without_one(player.hand, card)))
    owner = seat(state, owner_name)
    return with_seat(state, evolve(owner, timeline=(*owner.timeline,
                                                     Prepared(card, state.turn_no))))


def play(state: State, action: Play, events: list[Event]) -> State:
    """Play a card.

    From hand at its cost in Tide, or ``timeline`` for 1 Tide (not the turn it was prepared);
    ``free`` when a mechanic directs the play (no cost). A unit joins the group (``replace N``
    destroys unit N of a full group first); an ability goes to the centre until ``resolved``.
    """
    card_id = action.card
    player = seat(state, action.actor)
    card = state.rules.card(card_id) if state.rules.has_card(card_id) else None
    if card is None:
        refuse(Refusal.UNKNOWN_CARD, f"{card_id} is not a card of this game.", CARDS, card=card_id)
    if action.timeline:
        mine = [p for p in player.timeline if p.card == card_id]
        if not mine:
            refuse(Refusal.NOT_IN_TIMELINE,
                   f"{card_id} is not in your timeline.", THE_TIMELINE, card=card_id)
        ready = [p for p in mine if p.turn < state.turn_no]
        if not ready:
            refuse(Refusal.PREPARED_THIS_TURN,
                   "Cards cannot be played from the timeline in the same "
                   "turn they were added.", THE_TIMELINE, card=card_id)
        cost = 1
    else:
        if card_id not in player.hand:
            refuse(Refusal.NOT_IN_HAND, f"{card_id} is not in your hand.", TIDE_ACTIONS,
                   card=card_id)
        cost = card.cost
    slot = -1
    if card.kind == "unit":
        slot = _replace_slot(player, action.replace or None)
    elif action.replace:
        refuse(Refusal.BAD_OPTION, "Only a unit replaces a unit of a full group.", UNIT_CARDS)
    if action.free:
        cost = 0  # a mechanic directs the play: no cost (rulebook 4 "Tide Actions")
    state = spend(state, "T", cost, TIDE_ACTIONS) if cost else state
    if action.timeline:
        player = seat(state, action.actor)
        index = max(i for i, p in enumerate(player.timeline)
                    if p.card == card_id and p.turn < state.turn_no)
        state = with_seat(state, evolve(player, timeline=player.timeline[:index]
                                          + player.timeline[index + 1:]))
    else:
        player = seat(state, action.actor)
        state = with_seat(state, evolve(player, hand=without_one(player.hand, card_id)))
    if card.kind == "ability":
        return evolve(state, center=(*state.center, (action.actor, card_id)))
    if slot >= 0:
        state = destroy_unit(state, action.actor, slot, events, "replaced")
    player = seat(state, action.actor)
    unit = Unit(card_id, name=unit_name(player.group, card_id))
    return with_seat(state, evolve(player, group=(*player.group, unit)))


def _replace_slot(player: Seat, text: str | None) -> int:
    if len(player.group) < GROUP_LIMIT:
        if text is not None:
            refuse(Refusal.GROUP_NOT_FULL,
                   "Destroy a unit to make room only when the group is full.",
                   UNIT_CARDS)
        return -1
    if text is None:
        refuse(Refusal.GROUP_FULL, "Your group holds 4 units: name one to destroy (replace UNIT).",
               UNIT_CARDS)
    slot = find_unit(player.group, text)
    if not 0 <= slot < len(player.group):
        refuse(Refusal.NO_SUCH_UNIT, f"There is no unit {text} in your group.", UNIT_CARDS)
    return slot


def in_reach(state: State, name: str) -> dict[str, int]:
    """Leaders within ``name``'s reach.

    A clear path no longer than the Power level (rulebook 4 "Power Actions", 9 "Reach"), with the
    distance.
    """
    player = seat(state, name)
    if player.pos is None:
        return {}
    pawns = occupied(state)
    found = board_view(state).reach(player.pos, track_level(state, player, "power"), pawns)
    return {pawns[pos]: steps for pos, steps in found.items() if pos in pawns}


def _target(state: State, name: str, target: str, what: str) -> Seat:
    if target not in {s.name for s in state.seats}:
        refuse(Refusal.UNKNOWN_PLAYER, f"{target} is not a player.", POWER_ACTIONS, player=target)
    if target not in in_reach(state, name):
        refuse(Refusal.OUT_OF_REACH, f"{target} is not within your reach (a clear path of at most "
               f"your Power level in tiles).", POWER_ACTIONS, target=target)
    return seat(state, target)


def damage(state: State, action: Damage, events: list[Event]) -> State:
    """1 Power.

    1 damage to a target group in reach, dealt to a unit (``N``) before the leader (rulebook 8.1).
    """
    target = action.target
    if target == action.actor:
        refuse(Refusal.SELF_TARGET,
               "A damage action targets another leader's group.", POWER_ACTIONS)
    victim = _target(state, action.actor, target, "damage")
    slot = None
    if victim.group:
        if not action.unit:
            refuse(Refusal.UNITS_FIRST, "Group damage goes to a unit before the leader: name the "
                   f"unit ({', '.join(u.label for u in victim.group)}).", DAMAGE)
        slot = find_unit(victim.group, action.unit)
        if not 0 <= slot < len(victim.group):
            refuse(Refusal.NO_SUCH_UNIT, f"{target} has no unit {action.unit}.", DAMAGE)
    elif action.unit:
        refuse(Refusal.NO_SUCH_UNIT, f"{target} has no units; damage goes to the leader.",
               DAMAGE)
    state = spend(state, "P", 1, POWER_ACTIONS)
    return group_damage(state, target, events, slot)


def destroy(state: State, action: Destroy, events: list[Event]) -> State:
    """1 Power: destroy a timeline card of a leader within reach."""
    target, card = action.target, action.card
    victim = _target(state, action.actor, target, "destroy")
    if card not in {p.card for p in victim.timeline}:
        hint = (f" Power actions destroy timeline cards; for a card that destroys the unit "
                f"{card}, enter `effect {action.actor} SOURCE destroy 1 {target}` then "
                f"`step {action.actor} {card}`." if find_unit(victim.group, card) >= 0 else "")
        refuse(Refusal.NOT_IN_TIMELINE,
               f"{card} is not in {target}'s timeline.{hint}", POWER_ACTIONS, card=card)
    state = spend(state, "P", 1, POWER_ACTIONS)
    return destroy_timeline_card(state, target, card, events, "power")


def cycle(state: State, action: Cycle, events: list[Event]) -> State:
    """1 Power: discard a card then draw a card (rulebook 9 "Cycle")."""
    card = action.card
    if card not in seat(state, action.actor).hand:
        refuse(Refusal.NOT_IN_HAND, f"{card} is not in your hand.", POWER_ACTIONS, card=card)
    state = spend(state, "P", 1, POWER_ACTIONS)
    state = discard_from_hand(state, action.actor, card)
    return draw(state, action.actor, 1)
