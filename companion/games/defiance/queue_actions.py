"""Card texts, protection, the queue, manual adjustments, scoring and ending actions.

Rulebook 5, 8.2 and 8.3; the actions that score or end: Roles, Adventure claims,
concede, end of turn.

Card texts are not in the rulebook, so a card's effect is entered as it happens:
``effect P SOURCE KIND N TARGET [ASSET]`` puts a multi-step mechanic on the queue (the kinds
and ``step``, ``cancel``, ``attach`` and ``trim`` are in :mod:`.card_effects`),
``block P CARDS...`` blocks it, ``resolved P CARD`` sends a played ability to the discard
pile, and ``adjust P SOURCE health|tide|power|fortitude ±N [UNIT]`` logs any other change a
card makes.

Example:
    >>> block_cost.__name__
    'block_cost'
"""

from __future__ import annotations

from companion.games.core import Event, refuse
from companion.games.defiance import card_effects
from companion.games.defiance.actions import (
    Adjust,
    Block,
    Cancel,
    Claim,
    Concede,
    Effect,
    End,
    Progress,
    Resolved,
    Score,
    Spend,
    Step,
)
from companion.games.defiance.card_effects import check_asset, resolve_steps
from companion.games.defiance.cardops import discard_from_hand, to_discard, without_one
from companion.games.defiance.damage import (
    damage_leader,
    damage_unit,
    defeat,
    heal_leader,
    heal_unit,
)
from companion.games.defiance.data import ATTRIBUTES
from companion.games.defiance.dice import spend
from companion.games.defiance.flow import end_turn
from companion.games.defiance.rulebook import (
    ADVENTURE,
    CONCEDE,
    DAMAGE,
    DEFEAT,
    ORDER,
    PROTECTION,
    QUEUE,
    SKIRMISH,
    SPENDING_DICE,
    UNLOCKS,
    Refusal,
    condition_met,
)
from companion.games.defiance.scoring import finish, points
from companion.games.defiance.state import (
    Mechanic,
    Seat,
    State,
    Status,
    evolve,
    find_unit,
    seat,
    track_level,
    with_seat,
)


def in_play(state: State, owner: str, card: str) -> bool:
    """Whether ``card`` is active in ``owner``'s play space (a source that can resolve).

    The owner's leader (its id) is a source too while the leader is on the board: the
    mechanics of a leader action.
    """
    player = seat(state, owner)
    if card == player.leader:
        return player.status == Status.ACTIVE
    return ((owner, card) in state.center or any(u.card == card for u in player.group)
            or any(p.card == card for p in player.timeline)
            or any(a.owner == owner and a.card == card for a in state.attached))


def spend_for(state: State, action: Spend, events: list[Event]) -> State:
    """Spend action dice for a leader action or a card's dice cost (rulebook 2.1, 7).

    ``spend P SOURCE FACE...``: the leader's own action ("Leader Action") or an unlock or
    ability paid with action dice ("Unlocks"); the effect follows with ``effect``/``adjust``.
    """
    source, faces = action.source, action.faces
    if not in_play(state, action.actor, source):
        refuse(Refusal.SOURCE_NOT_IN_PLAY, f"{source} is neither your leader nor a card active in "
               "your play space.", UNLOCKS, card=source)
    for face in sorted(set(faces)):
        state = spend(state, face, faces.count(face), SPENDING_DICE)
    return state


def _known_player(state: State, name: str) -> Seat:
    if name not in {s.name for s in state.seats}:
        refuse(Refusal.UNKNOWN_PLAYER, f"{name} is not a player.", QUEUE, player=name)
    return seat(state, name)


def effect(state: State, action: Effect, events: list[Event]) -> State:
    """A card's text activates a mechanic: it cuts to the start of the queue (rulebook 8.3).

    ``effect P SOURCE KIND N TARGET [ASSET]``; ASSET (damage and heal only) is a unit of
    TARGET by name, or TARGET for the leader (see :func:`card_effects.check_asset`).
    """
    source, kind, count, target = action.source, action.effect, action.steps, action.target
    asset = action.asset
    if not in_play(state, action.actor, source):
        refuse(Refusal.SOURCE_NOT_IN_PLAY, f"{source} is neither your leader nor a card active in "
               "your play space.", QUEUE, card=source)
    if not 1 <= count <= 9:
        refuse(Refusal.BAD_COUNT, "An effect has 1 to 9 steps.", QUEUE)
    victim = _known_player(state, target)
    if victim.status != Status.ACTIVE:
        refuse(Refusal.OFF_BOARD, f"{target} is not on the board and cannot be targeted.",
               DEFEAT, player=target)
    stored = check_asset(state, action.actor, kind, victim, asset)
    mechanic = Mechanic(action.actor, source, kind, target, count, asset=stored)
    return evolve(state, queue=(mechanic, *state.queue))


def still_active(state: State, top: Mechanic) -> bool:
    """Whether a queued mechanic may resolve its next step (rulebook 8.3 "multi-step").

    Its source is still in play, its target did not block it, and its target is on the board.
    """
    return (in_play(state, top.owner, top.source)
            and (top.target, top.source) not in state.ignoring
            and seat(state, top.target).status == Status.ACTIVE)


def step(state: State, action: Step, events: list[Event]) -> State:
    """Resolve the most recently activated mechanic: one step, N, ``all``, or one per choice.

    It stops when its source has left play or the target blocked it (rulebook 8.3 "multi-step").
    """
    if not state.queue:
        refuse(Refusal.QUEUE_EMPTY, "Nothing is waiting in the queue.", QUEUE)
    return resolve_steps(state, action, events, still_active)


def cancel(state: State, action: Cancel, events: list[Event]) -> State:
    """``cancel P SOURCE [CARD]`` (rulebook 5, 9 "Cancel"): see :func:`card_effects.cancel`."""
    return card_effects.cancel(state, action, events, in_play)


def block_cost(state: State, s: Seat) -> int:
    """Cards discarded to block: 5 minus the Fortitude level, at least 1 (rulebook 5)."""
    return max(1, 5 - track_level(state, s, "fortitude"))


def block(state: State, action: Block, events: list[Event]) -> State:
    """Block the ability at the start of the queue that targets you, before it resolves."""
    if not state.queue:
        refuse(Refusal.NOTHING_TO_BLOCK,
               "Only abilities can be blocked; actions from rules, leaders "
               "and chapters cannot.", PROTECTION)
    top = state.queue[0]
    if top.target != action.actor:
        refuse(Refusal.NOT_TARGETED, "You can block only an ability that targets you.", PROTECTION)
    if top.started:
        refuse(Refusal.ALREADY_RESOLVING, "Once a mechanic begins resolving it cannot be blocked.",
               ORDER)
    if top.source == seat(state, top.owner).leader:
        refuse(Refusal.ACTION_UNBLOCKABLE,
               "Actions from rules, leaders and Adventure chapters which "
               "require dice spending cannot be blocked.", PROTECTION)
    if state.rules.card(top.source).fated:
        refuse(Refusal.FATED, "Fated mechanics cannot be blocked or canceled.", PROTECTION)
    player = seat(state, action.actor)
    need = block_cost(state, player)
    if len(action.cards) != need:
        refuse(Refusal.BLOCK_COST,
               f"Blocking costs {need} card(s) (5 minus your Fortitude level, at "
               "least 1).", PROTECTION, need=need)
    hand = player.hand
    for card in action.cards:
        if card not in hand:
            refuse(Refusal.NOT_IN_HAND, f"{card} is not in your hand.", PROTECTION, card=card)
        hand = without_one(hand, card)
    for card in action.cards:
        state = discard_from_hand(state, action.actor, card)
    return evolve(state, queue=state.queue[1:],
                   ignoring=(*state.ignoring, (action.actor, top.source)))


def resolved(state: State, action: Resolved, events: list[Event]) -> State:
    """A played ability is resolved: it goes from the centre to the discard pile."""
    card = action.card
    if (action.actor, card) not in state.center:
        refuse(Refusal.NOT_RESOLVING, f"{card} is not an ability of yours being resolved.", QUEUE)
    index = state.center.index((action.actor, card))
    state = evolve(state, center=state.center[:index] + state.center[index + 1:])
    return to_discard(state, card)


def adjust(state: State, action: Adjust, events: list[Event]) -> State:
    """Log a change a card's own text makes: health or a track, by a signed amount.

    ``adjust P SOURCE health ±N UNIT`` changes a unit's Health: damage destroys it at 0, a
    heal detaches damage tokens (rulebook 8.1: heal "from any asset").
    """
    source, what, delta, unit = action.source, action.what, action.change, action.unit
    names = {c.id for c in state.rules.cards} | {t.id for t in state.rules.tiles} \
        | {lead.id for lead in state.rules.leaders}
    if source not in names:
        refuse(Refusal.UNKNOWN_SOURCE,
               f"{source} is not a card, tile or leader of this game.", QUEUE,
               source=source)
    player = seat(state, action.actor)
    if what == "health":
        if player.status != Status.ACTIVE:
            refuse(Refusal.OFF_BOARD, "A leader off the board has no Health to change.",
                   DEFEAT)
        if unit:
            return _adjust_unit(state, player, unit, delta, events)
        if delta < 0:
            return damage_leader(state, action.actor, -delta, events)
        return heal_leader(state, action.actor, delta, events)
    index = ATTRIBUTES.index(what)
    change = list(player.track_adjust)
    change[index] += delta
    return with_seat(state, evolve(player, track_adjust=(change[0], change[1], change[2])))


def _adjust_unit(state: State, player: Seat, unit: str, delta: int,
                 events: list[Event]) -> State:
    slot = find_unit(player.group, unit)
    if slot < 0:
        refuse(Refusal.NO_SUCH_UNIT, f"{player.name} has no unit {unit}.", DAMAGE, unit=unit)
    if delta >= 0:
        return heal_unit(state, player.name, slot, delta, events)
    label = player.group[slot].label
    for _ in range(-delta):
        state = damage_unit(state, player.name, slot, events)
        if find_unit(seat(state, player.name).group, label) != slot:
            break
    return state


def _role(state: State, role_id: str) -> int:
    if role_id not in state.roles:
        refuse(Refusal.ROLE_NOT_REVEALED, f"{role_id} is not one of the revealed Roles.", SKIRMISH,
               role=role_id)
    return next(r.steps for r in state.rules.roles if r.id == role_id)


def score(state: State, action: Score, events: list[Event]) -> State:
    """A Role completed: 1 Point (rulebook 1.1); its progress tokens become the Point."""
    role = action.role
    _role(state, role)
    player = seat(state, action.actor)
    if role in player.roles:
        refuse(Refusal.ROLE_DONE, f"You have completed {role} already.", SKIRMISH, role=role)
    player = evolve(player, roles=tuple(sorted((*player.roles, role))),
                     progress=tuple(p for p in player.progress if p[0] != role))
    events.append(Event("points_scored", {"leader": action.actor, "points": 1,
                                          "total": points(player)}))
    return with_seat(state, player)


def progress(state: State, action: Progress, events: list[Event]) -> State:
    """A step of a multi-step Role: one number token below the Role card."""
    role = action.role
    steps = _role(state, role)
    player = seat(state, action.actor)
    done = dict(player.progress).get(role, 0)
    if role in player.roles or done + 1 >= steps:
        refuse(Refusal.ROLE_PROGRESS, f"{role} needs {steps} step(s): score it when complete.",
               SKIRMISH)
    table = dict(player.progress)
    table[role] = done + 1
    return with_seat(state, evolve(player, progress=tuple(sorted(table.items()))))


def claim(state: State, action: Claim, events: list[Event]) -> State:
    """An Adventure win condition is met (rulebook 1.2.2).

    The game ends; every active player meeting it (the whole faction for a faction condition) wins
    (rulebook 1.2.2).
    """
    chapter = state.rules.chapter
    conditions = {c.id: c for c in chapter.conditions} if chapter else {}
    if action.condition not in conditions:
        refuse(Refusal.UNKNOWN_CONDITION,
               f"{action.condition} is not a win condition of this chapter.",
               ADVENTURE)
    condition = conditions[action.condition]
    player = seat(state, action.actor)
    if player.status != Status.ACTIVE:
        refuse(Refusal.OFF_BOARD, "Only active players meet a win condition.", ADVENTURE)
    if condition.scope == "faction":
        if state.rules.leader(player.leader).faction != condition.faction:
            refuse(Refusal.WRONG_FACTION, f"{condition.id} is a {condition.faction} condition.",
                   ADVENTURE)
        names = tuple(s.name for s in state.seats if s.status == Status.ACTIVE and s.leader
                      and state.rules.leader(s.leader).faction == condition.faction)
    else:
        names = (action.actor,)
    return finish(state, names, condition_met(condition.id), "none",
                  f"{', '.join(names)} meet{'s' if len(names) == 1 else ''} "
                  f"{condition.id}: {condition.text}", events)


def concede(state: State, action: Concede, events: list[Event]) -> State:
    """At the beginning of any player's turn: defeat yourself and stay out (rulebook 8.6)."""
    turn = state.turn
    if turn.check or turn.deploying or state.queue or state.center:
        refuse(Refusal.NOT_TURN_START, "You may concede only at the beginning of a player's turn.",
               CONCEDE)
    player = seat(state, action.actor)
    if player.status == Status.CONCEDED:
        refuse(Refusal.CONCEDED, "You have conceded already.", DEFEAT)
    state = defeat(state, action.actor, events, conceded=True)
    state = evolve(state, order=tuple(n for n in state.order if n != action.actor),
                    index=state.index - (1 if action.actor in state.order[:state.index] else 0))
    if action.actor == turn.leader:
        state = evolve(state, index=state.index - 1)
        return end_turn(state, events)
    return state


def end(state: State, action: End, events: list[Event]) -> State:
    """Declare the end of your turn (the queue must be empty)."""
    if state.queue:
        refuse(Refusal.QUEUE_PENDING, "Resolve the queue before ending your turn.", QUEUE)
    if state.turn.deploying:
        refuse(Refusal.DEPLOYING, "Complete your deploy first (ready).", DEFEAT)
    return end_turn(state, events)
