"""Starting the game and the flow of turns and cards.

Quick Start: both stacks are shuffled (a chance action naming the new order), each side draws
4 face up, passives stay out, a coin flip (chance) picks who starts. Competitor's Start: each
side selects 8 ability cards and a passive, then 4 of them as its hand; the other 4 are
shuffled into its stack; Blue starts with only 1 action. A turn: at its start the side's cards
played last rotation return to the bottom of its stack (their effects end) and passives with
Effect Text are placed; at its end the side draws back up to 4 (``401-infinite.md``
"STARTING THE GAME", "CARD FLOW").

Example:
    >>> steps_for("quick")
    ('shuffle blue', 'shuffle red', 'flip')
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.infinite401.board import other_side
from companion.games.infinite401.state import (
    ACTIONS_PER_TURN,
    HAND_SIZE,
    FieldCard,
    SideCards,
    State,
)

COMPETITOR_STEPS = ("deck blue", "deck red", "hand blue", "hand red", "shuffle blue",
                    "shuffle red")
QUICK_STEPS = ("shuffle blue", "shuffle red", "flip")
DECK_SIZE = 8


def steps_for(start: str) -> tuple[str, ...]:
    """The starting steps of ``start`` (``quick`` or ``competitor``), in order."""
    return QUICK_STEPS if start == "quick" else COMPETITOR_STEPS


def after_step(state: State) -> State:
    """Drop the step just done; once none is left in Competitor's Start, Blue begins.

    Example:
        >>> from dataclasses import replace
        >>> from companion.games.infinite401.examples import example_state
        >>> replace(example_state(), steps=("flip",)).steps
        ('flip',)
        >>> after_step(replace(example_state(), steps=("flip",))).steps
        ()
    """
    state = replace(state, steps=state.steps[1:])
    if not state.steps and state.setup.start == "competitor":
        return start_turn(state, "blue", 1)
    return state


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
