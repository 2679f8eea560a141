"""What a card's text does to what the referee tracks, step by step (rulebook 8.1, 8.3, 9).

The rulebook prints no card texts, so players enter each change a card makes. Every kind of
change to the tracked table has a form in the notation (``docs/defiance.md``):

- ``effect P SOURCE KIND N TARGET [ASSET]`` puts an N-step mechanic on the queue (8.3), KIND
  one of :data:`EFFECTS`. ``damage`` and ``heal`` may name the asset (a unit of TARGET by its
  stable name, or TARGET itself for the leader); the other kinds name their choice at each
  step.
- ``step P [N|all|CHOICE...]`` resolves the mechanic at the head of the queue: one step,
  N steps or all of them for damage, heal and draw; for discard, destroy, steal and move one
  step per choice (a card in hand, a unit or timeline card, a space ``q,r``).
- ``cancel P SOURCE [CARD]`` negates the mechanic at the head of the queue, or an ability
  being played (it goes straight to the discard pile) (5 "Protection", 9 "Cancel").
- ``attach P CARD TARGET [ASSET]`` attaches an ability you played onto an asset (9 "Attach").
- ``trim P CARD`` destroys a timeline card of your choice while your timeline is over its
  limit (7 "The Timeline").

Example:
    >>> EFFECTS
    ('damage', 'destroy', 'discard', 'draw', 'heal', 'move', 'steal')
"""

from __future__ import annotations

from companion.games.core import Event, refuse
from companion.games.defiance.actions import Attach, Cancel, Step, Trim
from companion.games.defiance.board import Pos, direction_to, format_pos, parse_count, parse_pos
from companion.games.defiance.cardops import (
    destroy_timeline_card,
    destroy_unit,
    discard_from_hand,
    draw,
    to_discard,
)
from companion.games.defiance.damage import (
    auto_target,
    damage_leader,
    damage_unit,
    heal_leader,
    heal_unit,
    unit_health,
)
from companion.games.defiance.data import EFFECTS
from companion.games.defiance.rulebook import (
    BASIC_RULES,
    DAMAGE,
    DEFEAT,
    FORCED_MOVEMENT,
    ORDER,
    PROTECTION,
    QUEUE,
    SELF_TARGETED,
    THE_TIMELINE,
    UNIT_CARDS,
    Refusal,
)
from companion.games.defiance.state import (
    GROUP_LIMIT,
    LIMIT_READING,
    Attachment,
    Mechanic,
    Seat,
    State,
    Status,
    board_view,
    evolve,
    find_unit,
    occupied,
    over_limit,
    seat,
    timeline_limit,
    unit_name,
    with_seat,
)

COUNTED = ("damage", "draw", "heal")
"""Kinds whose steps need no choice: ``step`` resolves one, N or ``all`` of them."""
CHOSEN = ("destroy", "discard", "move", "steal")
"""Kinds whose every step names its choice."""
SELF = "self-targeted"


def is_leader(player: Seat, text: str) -> bool:
    """Whether ``text`` names ``player``'s leader (the player's name or the leader's id)."""
    return text.lower() in (player.name.lower(), player.leader.lower())


def check_asset(state: State, actor: str, kind: str, victim: Seat, asset: str) -> str:
    """The asset a damage or heal mechanic goes to, as stored (see :class:`Mechanic`).

    Group damage goes to units before the leader, "except when the damage is
    self-targeted" (rulebook 8.1): a leader damaging its own group chooses the asset, and
    must name it while it has units.
    """
    self_targeted = victim.name == actor
    if not asset:
        if kind == "damage" and self_targeted and victim.group:
            refuse(Refusal.SELF_DAMAGE_ASSET,
                   "Self-targeted damage is exempt from units first: name "
                   f"the asset it goes to ({victim.name} or "
                   f"{', '.join(u.label for u in victim.group)}).", SELF_TARGETED,
                   leader=victim.name)
        return ""
    if is_leader(victim, asset):
        if kind == "damage" and victim.group and not self_targeted:
            refuse(Refusal.UNITS_FIRST, "Group damage goes to a unit before the leader: name the "
                   f"unit ({', '.join(u.label for u in victim.group)}).", DAMAGE)
        return victim.name
    slot = find_unit(victim.group, asset)
    if slot < 0:
        refuse(Refusal.NO_SUCH_UNIT, f"{victim.name} has no unit {asset}.", DAMAGE, unit=asset)
    return victim.group[slot].label


def resolve_steps(state: State, action: Step, events: list[Event],
                  still_active: object) -> State:
    """``step P [N|all|CHOICE...]``: resolve the mechanic at the head of the queue.

    ``still_active(state, mechanic)`` says whether it may still resolve (its source in play,
    not blocked, its target on the board); when it may not, it is dropped (rulebook 8.3).
    """
    top = state.queue[0]
    args = action.choices
    if top.effect in COUNTED:
        if len(args) > 1:
            refuse(Refusal.STEP_COUNT, "Write `step P`, `step P N` or `step P all`.", QUEUE)
        count = 1
        if args:
            number = parse_count(args[0])
            count = top.steps if args[0] == "all" else (number or 0)
            if not 1 <= count <= top.steps:
                refuse(Refusal.STEP_COUNT, f"The mechanic has {top.steps} step(s) left.", QUEUE,
                       steps=top.steps)
        for _ in range(count):
            if not state.queue or not _same(state.queue[0], top):
                break
            if not still_active(state, state.queue[0]):  # type: ignore[operator]
                return evolve(state, queue=state.queue[1:])
            state = _one_step(state, events)
        return state
    if not args:
        refuse(Refusal.STEP_NEEDS_CHOICE, f"Each step of {top.effect} names its choice: "
               f"{_choice_hint(top.effect)}.", QUEUE, effect=top.effect)
    if len(args) > top.steps:
        refuse(Refusal.STEP_COUNT, f"The mechanic has {top.steps} step(s) left.", QUEUE,
               steps=top.steps)
    for choice in args:
        if not still_active(state, state.queue[0]):  # type: ignore[operator]
            return evolve(state, queue=state.queue[1:])
        state = _chosen_step(state, choice, events)
        if not state.queue or not _same(state.queue[0], top):
            break
    return state


def _same(a: Mechanic, b: Mechanic) -> bool:
    return (a.owner, a.source, a.effect, a.target) == (b.owner, b.source, b.effect, b.target)


def _advance(state: State) -> tuple[State, Mechanic]:
    top = state.queue[0]
    left = top.steps - 1
    moved = evolve(top, steps=left, started=True)
    return evolve(state, queue=((moved,) if left else ()) + state.queue[1:]), moved


def _one_step(state: State, events: list[Event]) -> State:
    """One step of a damage, heal or draw mechanic.

    Damage goes to the named asset while it is in play; without one (or once the named unit
    is gone) it is allocated as taken damage: ascending Health, then left to right (8.1, 8.4).
    """
    top = state.queue[0]
    state, _ = _advance(state)
    victim = seat(state, top.target)
    if top.effect == "draw":
        return draw(state, top.target, 1)
    slot = find_unit(victim.group, top.asset) if top.asset and top.asset != victim.name else -1
    if top.effect == "heal":
        if slot >= 0:
            return heal_unit(state, top.target, slot, 1, events)
        if top.asset and top.asset != victim.name:
            events.append(Event("nothing_healed", {"leader": victim.name, "asset": top.asset,
                                                   "health": 0}))
            return state
        return heal_leader(state, top.target, 1, events)
    if top.asset == victim.name:
        return damage_leader(state, top.target, 1, events)
    if slot < 0:
        auto = auto_target(victim.group, unit_health(state))
        slot = -1 if auto is None else auto
    if slot < 0:
        return damage_leader(state, top.target, 1, events)
    return damage_unit(state, top.target, slot, events)


def _choice_hint(effect: str) -> str:
    return {"discard": "a card in the target's hand",
            "destroy": "a unit or timeline card of the target",
            "steal": "a unit or timeline card of the target",
            "move": "an adjacent space q,r"}[effect]


def _chosen_step(state: State, choice: str, events: list[Event]) -> State:
    top = state.queue[0]
    victim = seat(state, top.target)
    if top.effect == "discard":
        if choice not in victim.hand:
            refuse(Refusal.NOT_IN_HAND, f"{choice} is not in {victim.name}'s hand.", QUEUE,
                   card=choice)
        state, _ = _advance(state)
        events.append(Event("card_discarded", {"leader": victim.name, "card": choice,
                                               "source": top.source}))
        return discard_from_hand(state, victim.name, choice)
    if top.effect == "move":
        return _forced_move(state, victim, choice, events)
    slot = find_unit(victim.group, choice)
    in_timeline = any(p.card == choice for p in victim.timeline)
    if slot < 0 and not in_timeline:
        refuse(Refusal.NOT_AN_ASSET, f"{choice} is neither a unit nor a timeline card of "
               f"{victim.name}.", QUEUE, card=choice, leader=victim.name)
    if top.effect == "destroy":
        state, _ = _advance(state)
        if slot >= 0:
            return destroy_unit(state, victim.name, slot, events, "destroyed")
        return destroy_timeline_card(state, victim.name, choice, events, "destroyed")
    return _steal(state, top, victim, slot, choice, events)


def _steal(state: State, top: Mechanic, victim: Seat, slot: int, choice: str,
           events: list[Event]) -> State:
    """Steal a unit or timeline card, with whatever is attached to it.

    Rulebook 9 "Steal": "Take a card and anything attached to it from another player and
    move it to your group or timeline. You now own all moved items."
    """
    thief = seat(state, top.owner)
    if victim.name == thief.name:
        refuse(Refusal.STEAL_OWN, "You steal from another player.", QUEUE)
    if slot >= 0 and len(thief.group) >= GROUP_LIMIT:
        refuse(Refusal.STEAL_GROUP_FULL, "Your group holds 4 units: make room before stealing a "
               "unit.", UNIT_CARDS)
    state, _ = _advance(state)
    if slot >= 0:
        unit = victim.group[slot]
        name = unit_name(thief.group, unit.card)
        state = with_seat(state, evolve(victim, group=victim.group[:slot]
                                        + victim.group[slot + 1:]))
        thief = seat(state, top.owner)
        state = with_seat(state, evolve(thief, group=(*thief.group, evolve(unit, name=name))))
        moved = tuple(evolve(a, owner=top.owner, holder=top.owner, asset=name)
                      if a.holder == victim.name and a.asset == unit.label else a
                      for a in state.attached)
        state = evolve(state, attached=moved)
        card = unit.card
        what = name
    else:
        index = max(i for i, p in enumerate(victim.timeline) if p.card == choice)
        prepared = victim.timeline[index]
        state = with_seat(state, evolve(victim, timeline=victim.timeline[:index]
                                        + victim.timeline[index + 1:]))
        thief = seat(state, top.owner)
        state = with_seat(state, evolve(thief, timeline=(*thief.timeline, prepared)))
        card = what = choice
    events.append(Event("card_stolen", {"leader": top.owner, "from": victim.name,
                                        "card": card, "as": what}))
    return state


def _forced_move(state: State, victim: Seat, choice: str, events: list[Event]) -> State:
    """Force-move a leader one space.

    Rulebook 6 "Forced Movement": most normal movement rules apply (one adjacent space, a
    clear path: no wall, no pawn), but not regroup; the referee moves only onto face-up tiles
    (a discovery is the mover's own choice).
    """
    dest = parse_pos(choice)
    if victim.pos is None:
        refuse(Refusal.OFF_BOARD, f"{victim.name} is not on the board.", DEFEAT,
               player=victim.name)
    if dest is None or direction_to(victim.pos, dest) is None:
        refuse(Refusal.NOT_ADJACENT, f"Force-move {victim.name} one space, to an adjacent space "
               "(q,r).", FORCED_MOVEMENT)
    direction = direction_to(victim.pos, dest)
    assert direction is not None
    board = board_view(state)
    if dest in occupied(state):
        refuse(Refusal.OCCUPIED, "Only one pawn may occupy a space.", BASIC_RULES)
    if not board.active(dest):
        refuse(Refusal.FORCED_ONTO_TILE, "A forced move goes onto a face-up tile.", FORCED_MOVEMENT)
    if board.walled(victim.pos, direction) or board.walled(dest, (direction + 3) % 6):
        refuse(Refusal.WALL, "A wall blocks that path.", BASIC_RULES)
    state, _ = _advance(state)
    events.append(Event("forced_move", {"leader": victim.name, "from": format_pos(victim.pos),
                                        "to": format_pos(dest)}))
    return with_seat(state, evolve(seat(state, victim.name), pos=dest))


def cancel(state: State, action: Cancel, events: list[Event], source_in_play: object) -> State:
    """``cancel P SOURCE [CARD]``: negate a mechanic, or an ability as it is played.

    Rulebook 5: "Abilities which cancel a mechanic negate it and act as though it never
    existed or occurred"; 9 "Cancel": an ability being played goes to the discard pile
    "immediately after it is attempted to be played"; 8.2: once a mechanic begins resolving,
    it can no longer be canceled; 5: Fated mechanics cannot be canceled.
    """
    source = action.source
    if not source_in_play(state, action.actor, source):  # type: ignore[operator]
        refuse(Refusal.SOURCE_NOT_IN_PLAY, f"{source} is neither your leader nor a card active in "
               "your play space.", PROTECTION, card=source)
    if action.card:
        card = action.card
        played = [owner for owner, c in state.center if c == card]
        if not played:
            refuse(Refusal.NOT_RESOLVING, f"{card} is not an ability being played.", PROTECTION)
        owner = played[-1]
        if state.rules.card(card).fated:
            refuse(Refusal.FATED, "Fated mechanics cannot be blocked or canceled.", PROTECTION)
        index = max(i for i, entry in enumerate(state.center) if entry == (owner, card))
        state = evolve(state, center=state.center[:index] + state.center[index + 1:],
                       queue=tuple(m for m in state.queue
                                   if not (m.owner == owner and m.source == card)))
        events.append(Event("canceled", {"leader": action.actor, "card": card,
                                         "owner": owner, "effect": "play"}))
        return to_discard(state, card)
    if not state.queue:
        refuse(Refusal.QUEUE_EMPTY, "Nothing is waiting in the queue.", QUEUE)
    top = state.queue[0]
    if top.started:
        refuse(Refusal.ALREADY_RESOLVING, "Once a mechanic begins resolving it cannot be canceled.",
               ORDER)
    if state.rules.has_card(top.source) and state.rules.card(top.source).fated:
        refuse(Refusal.FATED, "Fated mechanics cannot be blocked or canceled.", PROTECTION)
    events.append(Event("canceled", {"leader": action.actor, "card": top.source,
                                     "owner": top.owner, "effect": top.effect}))
    return evolve(state, queue=state.queue[1:])


def attach(state: State, action: Attach, events: list[Event]) -> State:
    """``attach P CARD TARGET [ASSET]``: an ability you are playing goes onto an asset.

    Rulebook 9 "Attach": "Play one asset onto another asset. If the asset leaves play,
    destroy the attached asset." The card comes from the centre (played with ``play``).
    """
    card, target, asset = action.card, action.target, action.asset
    if (action.actor, card) not in state.center:
        refuse(Refusal.NOT_RESOLVING, f"{card} is not an ability of yours being played: play it, "
               "then attach it.", QUEUE)
    if target not in {s.name for s in state.seats}:
        refuse(Refusal.UNKNOWN_PLAYER, f"{target} is not a player.", QUEUE, player=target)
    holder = seat(state, target)
    if holder.status != Status.ACTIVE:
        refuse(Refusal.OFF_BOARD, f"{target} is not on the board and cannot be targeted.",
               DEFEAT, player=target)
    name = ""
    if asset and not is_leader(holder, asset):
        slot = find_unit(holder.group, asset)
        if slot < 0:
            refuse(Refusal.NO_SUCH_UNIT, f"{target} has no unit {asset}.", DAMAGE, unit=asset)
        name = holder.group[slot].label
    index = state.center.index((action.actor, card))
    state = evolve(state, center=state.center[:index] + state.center[index + 1:],
                   attached=(*state.attached, Attachment(action.actor, card, target, name)))
    events.append(Event("card_attached", {"leader": action.actor, "card": card,
                                          "holder": target, "asset": name or target}))
    return state


def trim(state: State, action: Trim, events: list[Event]) -> State:
    """``trim P CARD``: the owner destroys a timeline card of their choice while over the limit.

    Rulebook 7 "The Timeline": "If your timeline limit falls below the number of timeline
    cards you have on the table, you must destroy them until you are compliant."
    """
    player = seat(state, action.actor)
    due = over_limit(state)
    if due is None or due.name != action.actor:
        refuse(Refusal.TIMELINE_COMPLIANT, f"Your timeline is within its limit ({LIMIT_READING}): "
               "there is nothing to destroy.", THE_TIMELINE)
    card = action.card
    if card not in {p.card for p in player.timeline}:
        refuse(Refusal.NOT_IN_TIMELINE, f"{card} is not in your timeline.", THE_TIMELINE, card=card)
    return destroy_timeline_card(state, action.actor, card, events, "limit")


def over_limit_event(state: State, before: State, events: list[Event]) -> None:
    """Announce a timeline that has just gone over its limit (the owner must choose)."""
    due = over_limit(state)
    if due is None:
        return
    was = over_limit(before)
    if was is not None and was.name == due.name:
        return
    limit = timeline_limit(state, due)
    events.append(Event("timeline_over_limit", {
        "leader": due.name, "limit": limit, "cards": len(due.timeline),
        "destroy": len(due.timeline) - limit,
        "detail": f"{due.name} must destroy {len(due.timeline) - limit} timeline card(s): "
                  f"the limit is 1 + Tide level = {limit} (rulebook 7 and the glossary; "
                  "section 4 says Tide level)"}))


__all__ = ["EFFECTS", "Pos", "attach", "cancel", "check_asset", "resolve_steps", "trim"]
