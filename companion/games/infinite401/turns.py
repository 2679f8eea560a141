"""A side's turn: its actions, the flow of its cards, its start and its end.

A turn has up to 2 actions (Movement, an ability, or a Cycle); at its start the side's cards
played last rotation return to the bottom of its stack (their effects end) and passives with
Effect Text are placed; at its end the side draws back up to 4 (``401-infinite.md``
"TURNS / ACTIONS", "CARD FLOW").

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> state, events = apply_turn(example_state(), Cycle("blue", "Guard"))
    >>> state.actions_left, state.side_cards("blue").stack[-1]
    (1, 'Guard')
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.core import Event, refuse
from companion.games.infinite401 import rulebook
from companion.games.infinite401.actions import Action, Cycle, End, Move, Play, Score
from companion.games.infinite401.board import other_side
from companion.games.infinite401.effects import resolve
from companion.games.infinite401.hp import land
from companion.games.infinite401.movement import check_move
from companion.games.infinite401.rulebook import Refusal
from companion.games.infinite401.state import (
    ACTIONS_PER_TURN,
    HAND_SIZE,
    FieldCard,
    SideCards,
    State,
)


def apply_turn(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply a turn action (move, play, cycle or end) of the side to move.

    Raises:
        IllegalAction: not this side's turn, no actions left, or the action breaks a rule.
    """
    if isinstance(action, Score):
        refuse(Refusal.NO_RUNNER, "no unit is waiting on the opposing base to score.",
               rulebook.RUNNER)
    if not isinstance(action, Move | Play | Cycle | End):
        refuse(Refusal.NOT_NOW, f"'{action}' belongs to the start of the game.",
               rulebook.TURNS)
    if action.side != state.to_move:
        refuse(Refusal.NOT_YOUR_TURN, f"it is {state.to_move.capitalize()}'s turn.",
               rulebook.TURN_ORDER, side=state.to_move)
    if isinstance(action, End):
        return end_turn(state), []
    if not state.actions_left:
        refuse(Refusal.NO_ACTIONS_LEFT, "no actions are left this turn; end it.", rulebook.TURNS)
    spent = replace(state, actions_left=state.actions_left - 1)
    if isinstance(action, Move):
        unit = state.unit(action.unit)
        if unit.side != action.side:
            refuse(Refusal.NOT_YOUR_UNIT, f"{unit.name} is not one of your units.",
                   rulebook.MOVEMENT, unit=unit.name)
        path = check_move(state, action)
        return land(spent.with_unit(replace(unit, space=path[-1])), [unit.name])
    mine = state.side_cards(action.side)
    if action.card not in mine.hand:
        refuse(Refusal.NOT_IN_HAND, f"{action.card} is not in your hand.", rulebook.HAND,
               card=action.card)
    if isinstance(action, Cycle):
        return spent.with_side_cards(action.side, cycle(mine, action.card)), []
    card = state.setup.cards.ability(action.card)
    after, events, moved = resolve(spent, action, card)
    after = after.with_side_cards(action.side, replace(
        mine, hand=tuple(c for c in mine.hand if c != action.card)))
    if action.source:
        after = replace(after, sources_used=(*after.sources_used, action.source))
    after, landed = land(after, moved)
    return after, events + landed


def draw(cards: SideCards) -> SideCards:
    """Draw from the top of the stack until the hand holds 4 (or the stack is empty).

    Example:
        >>> draw(SideCards(hand=("A",), stack=("B", "C", "D", "E", "F"))).hand
        ('A', 'B', 'C', 'D')
    """
    need = max(0, HAND_SIZE - len(cards.hand))
    return replace(cards, hand=cards.hand + cards.stack[:need], stack=cards.stack[need:])


def cycle(cards: SideCards, card: str) -> SideCards:
    """Discard ``card`` to the bottom of the stack, then draw one from the top.

    Example:
        >>> cycle(SideCards(hand=("A", "B"), stack=("C",)), "A").hand
        ('B', 'C')
    """
    hand = tuple(c for c in cards.hand if c != card)
    stack = (*cards.stack, card)
    return replace(cards, hand=(*hand, stack[0]), stack=stack[1:])


def start_turn(state: State, side: str, actions: int = ACTIONS_PER_TURN) -> State:
    """Begin ``side``'s turn: return its cards from the Field, then place its passive.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> state = start_turn(example_state(), "red")
        >>> state.turn, state.to_move, state.actions_left
        (2, 'red', 2)
    """
    returned = tuple(entry.card for entry in state.field
                     if entry.side == side and not entry.passive)
    cards = state.side_cards(side)
    state = replace(state, field=tuple(e for e in state.field if e.side != side),
                    turn=state.turn + 1, to_move=side, actions_left=actions, sources_used=(),
                    token_taken=False)
    state = state.with_side_cards(side, replace(cards, stack=cards.stack + returned))
    return _place_passive(state, side)


def end_turn(state: State) -> State:
    """End the current turn: draw up to 4, then the other side's turn begins.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> end_turn(example_state()).to_move
        'red'
    """
    side = state.to_move
    state = state.with_side_cards(side, draw(state.side_cards(side)))
    return start_turn(state, other_side(side))


def _place_passive(state: State, side: str) -> State:
    name = state.side_cards(side).passive
    if not name:
        return state
    passive = state.setup.cards.passive(name)
    living = state.living(side)
    if not passive.effects or not living:
        return state
    weakest = min(living, key=lambda u: u.hp)
    statuses = tuple((weakest.name, e.status) for e in passive.effects if e.kind == "status")
    shields = tuple((weakest.name, e.amount) for e in passive.effects if e.kind == "shield")
    entry = FieldCard(passive.name, side, state.turn, "", (weakest.name,), passive=True,
                      statuses=statuses, shields=shields)
    return replace(state, field=(*state.field, entry))
