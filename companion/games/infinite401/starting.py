"""Starting the game: the steps before the first turn and the actions that take them.

Quick Start: both stacks are shuffled (a chance action naming the new order), each side draws
4 face up, passives stay out, a coin flip (chance) picks who starts. Competitor's Start: each
side selects 8 ability cards and a passive, then 4 of them as its hand; the other 4 are
shuffled into its stack; Blue starts with only 1 action (``401-infinite.md``
"STARTING THE GAME").

Example:
    >>> [str(step) for step in steps_for(Start.QUICK)]
    ['shuffle blue', 'shuffle red', 'flip']
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.core import refuse
from companion.games.infinite401 import rulebook
from companion.games.infinite401.actions import Action, ChooseDeck, ChooseHand, Flip, Shuffle
from companion.games.infinite401.rulebook import Refusal
from companion.games.infinite401.setup import DECK_SIZE, Start
from companion.games.infinite401.state import HAND_SIZE, Phase, SideCards, State, Step
from companion.games.infinite401.turns import draw, start_turn

COMPETITOR_STEPS = (Step(Phase.DECK, "blue"), Step(Phase.DECK, "red"), Step(Phase.HAND, "blue"),
                    Step(Phase.HAND, "red"), Step(Phase.SHUFFLE, "blue"),
                    Step(Phase.SHUFFLE, "red"))
QUICK_STEPS = (Step(Phase.SHUFFLE, "blue"), Step(Phase.SHUFFLE, "red"), Step(Phase.FLIP))
STEP_ACTIONS: dict[Phase, type[Action]] = {Phase.SHUFFLE: Shuffle, Phase.FLIP: Flip,
                                           Phase.DECK: ChooseDeck, Phase.HAND: ChooseHand}
"""The action that takes each starting step."""


def steps_for(start: Start) -> tuple[Step, ...]:
    """The starting steps of ``start``, in order."""
    return QUICK_STEPS if start is Start.QUICK else COMPETITOR_STEPS


def after_step(state: State) -> State:
    """Drop the step just done; once none is left in Competitor's Start, Blue begins.

    Example:
        >>> from dataclasses import replace
        >>> from companion.games.infinite401.examples import example_state
        >>> state = replace(example_state(), steps=(Step(Phase.FLIP),))
        >>> after_step(state).steps
        ()
    """
    state = replace(state, steps=state.steps[1:])
    if not state.steps and state.setup.start is Start.COMPETITOR:
        return start_turn(state, "blue", 1)
    return state


def apply_step(state: State, action: Action) -> State:
    """Take the starting step due with ``action`` (a shuffle, the flip, a deck or a hand).

    Raises:
        IllegalAction: ``action`` is not the step due, or not a valid way to take it.
    """
    step = state.steps[0]
    rule = rulebook.QUICK_START if state.setup.start is Start.QUICK else rulebook.COMPETITOR
    if not isinstance(action, STEP_ACTIONS[step.phase]) or (
            step.phase is not Phase.FLIP and action.side != step.side):
        refuse(Refusal.SETUP_STEP_DUE, f"the game has not started: '{step}' comes first.",
               rule, step=str(step))
    if isinstance(action, Flip):
        return start_turn(replace(state, steps=()), action.side)
    mine = state.side_cards(action.side)
    if isinstance(action, Shuffle):
        if sorted(action.order) != sorted(mine.stack):
            refuse(Refusal.NOT_A_SHUFFLE, f"a shuffle of {action.side}'s stack must list each "
                   f"of its {len(mine.stack)} cards once.", rule, side=action.side,
                   count=len(mine.stack))
        mine = replace(mine, stack=action.order)
        if state.setup.start is Start.QUICK:
            mine = draw(mine)
    elif isinstance(action, ChooseDeck):
        cards = state.setup.cards
        if len(set(action.cards)) != DECK_SIZE or \
                any(c not in cards.deck(action.side) for c in action.cards):
            refuse(Refusal.DECK_SIZE, f"a deck is {DECK_SIZE} different {action.side} ability "
                   "cards.", rule, side=action.side, size=DECK_SIZE)
        if action.passive not in cards.passives_of(action.side):
            refuse(Refusal.NOT_YOUR_PASSIVE, f"{action.passive} is not a {action.side} "
                   "passive.", rule, passive=action.passive, side=action.side)
        mine = SideCards(deck=action.cards, stack=action.cards, passive=action.passive)
    elif isinstance(action, ChooseHand):
        if len(set(action.cards)) != HAND_SIZE or any(c not in mine.deck for c in action.cards):
            refuse(Refusal.HAND_SIZE, "the starting hand is 4 different cards of your deck.",
                   rule)
        mine = replace(mine, hand=action.cards,
                       stack=tuple(c for c in mine.deck if c not in action.cards))
    return after_step(state.with_side_cards(action.side, mine))
