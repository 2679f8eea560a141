"""Resolving an Order: dice, ARM Rolls, Wounds, and what follows.

The dice of the declared rolls, ARM Rolls, Wounds and removals, the options left after the
Order, and the turn, round and end of the game that follow.

Example:
    >>> roll_event("Fusilier", "BS", 15, [3, 15, 18], ["success", "critical", "failure"]).kind
    'roll'
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.core import Event

from .actions import Move
from .armour import arm_roll_passes
from .attacks import Roller, plan_contests
from .rolls import face_to_face
from .rulebook import Termination
from .state import AfterItem, AfterKind, ArmDue, Phase, State, victory_points

MAX_OBJECTIVE_POINTS = 10
"""Objective points a player can score in a game."""


def roll_event(trooper: str, attribute: str, target: int, dice: list[int],
               results: list[str]) -> Event:
    """The ``roll`` event (docs/events.md)."""
    return Event("roll", {"trooper": trooper, "attribute": attribute, "target": target,
                          "dice": dice, "results": results})


def dice_due(state: State) -> int:
    """How many d20s the pending ``roll`` (or ``arm``) action needs."""
    if state.phase == Phase.ARM:
        return len(state.arm_due)
    return sum(contest.dice for contest in plan_contests(state))


def _wound(state: State, trooper: str, events: list[Event]) -> State:
    status = state.trooper_status(trooper)
    if status.removed:
        return state
    left = status.wounds - 1
    events.append(Event("wound", {"trooper": trooper, "wounds_left": max(left, 0)}))
    if left > 0:
        return state.with_status(replace(status, wounds=left))
    sheet = state.sheet(trooper)
    events.append(Event("trooper_removed", {"trooper": trooper, "side": sheet.owner,
                                            "cost": sheet.cost,
                                            "lieutenant": sheet.lieutenant}))
    state = state.with_status(replace(status, wounds=0, removed=True, hidden=False))
    return replace(state, contacts=tuple(p for p in state.contacts if trooper not in p))


def _hits(roller: Roller, successes: tuple, events: list[Event], crits: list[str],
          arm_due: list[ArmDue]) -> None:
    if roller.damage is None or roller.victim is None:
        return
    for result in successes:
        events.append(Event("hit", {"attacker": roller.trooper, "target": roller.victim,
                                    "critical": result.critical}))
        if result.critical:
            events.append(Event("critical", {"trooper": roller.trooper}))
            crits.append(roller.victim)
        else:
            arm_due.append(ArmDue(roller.victim, roller.trooper, roller.damage,
                                  roller.victim_arm))


def resolve_rolls(state: State, dice: tuple[int, ...]) -> tuple[State, list[Event]]:
    """Apply the dice of the declared rolls: Face to Face or Normal Rolls, hits, Criticals."""
    events: list[Event] = []
    crits: list[str] = []
    arm_due: list[ArmDue] = []
    after: list[AfterItem] = []
    position = 0
    for contest in plan_contests(state):
        rollers = [r for r in (contest.active, contest.reactive) if r is not None]
        split = []
        for roller in rollers:
            split.append(list(dice[position:position + roller.dice]))
            position += roller.dice
        first, second = rollers[0], rollers[1] if len(rollers) > 1 else None
        result = face_to_face(first.target, split[0], second.target if second else None,
                              split[1] if second else [])
        standing = [result.active_successes, result.reactive_successes]
        judged = [result.active, result.reactive]
        for index, roller in enumerate(rollers):
            events.append(roll_event(roller.trooper, roller.attribute, roller.target,
                                     split[index], [r.label for r in judged[index]]))
        for index, roller in enumerate(rollers):
            _hits(roller, standing[index], events, crits, arm_due)
            if roller.damage is None and standing[index]:
                after.append(AfterItem(AfterKind.DODGE, roller.trooper))
            if roller.behind and roller.victim is not None:
                after.append(AfterItem(AfterKind.FACE, roller.victim))
    for victim in crits:
        state = _wound(state, victim, events)
    due = tuple(d for d in arm_due if not state.trooper_status(d.trooper).removed)
    state = replace(state, arm_due=due, after=tuple(after))
    if due:
        return replace(state, phase=Phase.ARM), events
    state, more = complete_order(state)
    return state, events + more


def resolve_arm(state: State, dice: tuple[int, ...]) -> tuple[State, list[Event]]:
    """Apply the ARM Rolls due, one die each, in order."""
    events: list[Event] = []
    for due, die in zip(state.arm_due, dice, strict=True):
        passed = arm_roll_passes(due.arm, due.damage, die)
        events.append(roll_event(due.trooper, "ARM", due.damage, [die],
                                 ["passed" if passed else "failed"]))
        if not passed:
            state = _wound(state, due.trooper, events)
    state, more = complete_order(replace(state, arm_due=()))
    return state, events + more


def complete_order(state: State) -> tuple[State, list[Event]]:
    """After the rolls: apply the Move's base contacts, then offer what is left to do."""
    order = state.order
    if isinstance(order, Move) and not state.trooper_status(order.trooper).removed:
        contacts = [p for p in state.contacts if order.trooper not in p]
        if order.contact is not None and not state.trooper_status(order.contact).removed:
            first, second = sorted((order.trooper, order.contact))
            contacts.append((first, second))
        state = replace(state, contacts=tuple(sorted(contacts)))
    after = []
    for item in state.after:
        if not state.trooper_status(item.trooper).removed and item not in after:
            after.append(item)
    state = replace(state, after=tuple(after))
    if after:
        return replace(state, phase=Phase.AFTER), []
    return close_order(state)


def close_order(state: State) -> tuple[State, list[Event]]:
    """The Order is spent: next Order, or the next turn, round, or the end of the game."""
    state = replace(state, phase=Phase.ORDER, order=None, aros=(), arm_due=(), after=(),
                    orders=max(state.orders - 1, 0))
    if any(not state.in_play(player) for player in state.players):
        return game_over(state)
    if state.orders == 0:
        return next_turn(state)
    return state, []


def next_turn(state: State) -> tuple[State, list[Event]]:
    """End the Active Turn: the other player's turn, or a new Game Round, or the end."""
    events: list[Event] = []
    state = replace(state, phase=Phase.ORDER, order=None, aros=(), arm_due=(), after=())
    if state.turn == 0:
        state = replace(state, turn=1)
    else:
        if state.round >= state.rounds:
            return game_over(state)
        state = replace(state, turn=0, round=state.round + 1)
        events.append(Event("round_changed", {"round": state.round}))
    state = replace(state, orders=len(state.in_play(state.active)))
    events.append(Event("turn_changed", {"player": state.active, "round": state.round}))
    return state, events


def winners(state: State) -> tuple[tuple[str, ...], Termination, str]:
    """Who won, how, and a sentence: objective points first, then Victory Points."""
    a, b = state.players
    op = dict(zip(state.players, state.objectives, strict=True))
    vp = {player: victory_points(state, player) for player in state.players}
    figures = f"{a} {op[a]} OP {vp[a]} VP, {b} {op[b]} OP {vp[b]} VP"
    if op[a] != op[b]:
        winner = a if op[a] > op[b] else b
        return ((winner,), Termination.OBJECTIVE_POINTS,
                f"{winner} wins on objective points ({figures}).")
    if vp[a] != vp[b]:
        winner = a if vp[a] > vp[b] else b
        return ((winner,), Termination.VICTORY_POINTS,
                f"{winner} wins on Victory Points ({figures}).")
    return (), Termination.DRAW, f"A draw ({figures})."


def game_over(state: State) -> tuple[State, list[Event]]:
    """The end of the game and the ``victory`` event."""
    state = replace(state, phase=Phase.OVER, order=None, aros=(), arm_due=(), after=(), orders=0)
    won, termination, detail = winners(state)
    return state, [Event("victory", {"winners": list(won), "termination": termination,
                                     "detail": detail})]
