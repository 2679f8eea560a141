"""The flow of an Order: declaration, AROs, the dice, and the options left after it.

Flow of an Order (docs/infinity.md): the active player declares a Move, BS Attack or CC
Attack; the reactive player declares AROs (``aro ...``) and then ``pass``; the dice of the
declared rolls are one ``roll`` action (typed from physical d20s or drawn by the seeded
roller); ARM Rolls due are one ``arm`` action; then a successful Dodger may move 2 inches and
a trooper attacked from behind may turn to face. The Order pool holds one Order per trooper
in play; ``end`` passes the turn. :func:`apply_action` refuses, with the rule it breaks,
whatever does not fit the phase.

Example:
    >>> from companion.games.infinity import GAME
    >>> from companion.resources import shipped_sources
    >>> sources = shipped_sources("companion.games.infinity",
    ...     {"setup": "armies/example.toml", "profiles": "profiles/default.toml"})
    >>> state = GAME.initial_state(GAME.load_setup(sources, {}))
    >>> state, events = apply_action(state, GAME.parse_action(state, "move Ann Fusilier 4"))
    >>> state.phase, acting_player(state)
    (<Phase.ARO: 'aro'>, 'Ben')
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.core import CHANCE, Event, refuse

from .actions import Action, Aro, CloseCombat, EndTurn, Move, Pass, Roll, Score, Shoot, TurnToFace
from .attacks import check_aro, check_cc, check_move, check_shoot
from .choices import DODGE_MOVE
from .resolution import (
    MAX_OBJECTIVE_POINTS,
    close_order,
    complete_order,
    dice_due,
    next_turn,
    resolve_arm,
    resolve_rolls,
)
from .rolls import DIE_FACES
from .rulebook import ARMOR, DODGE, ROLLS, SUMMARY, Refusal
from .state import AfterKind, Phase, State

DICE_PHASES = (Phase.ROLL, Phase.ARM)
"""The phases in which dice are due (chance acts)."""


def acting_player(state: State) -> str | None:
    """The active player, the reactive player (AROs), chance, or None when the game is over."""
    if state.phase == Phase.OVER:
        return None
    if state.phase in DICE_PHASES:
        return CHANCE
    if state.phase == Phase.ARO:
        return state.reactive
    if state.phase == Phase.AFTER:
        return state.sheet(state.after[0].trooper).owner
    return state.active


def dice_word(state: State) -> str:
    """The verb of the dice due now: ``roll`` (declared rolls) or ``arm`` (ARM Rolls)."""
    return "arm" if state.phase == Phase.ARM else "roll"


def apply_action(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply one action or refuse it with the rule it breaks."""
    if state.phase == Phase.OVER:
        refuse(Refusal.GAME_OVER, "The game is over.", SUMMARY)
    if isinstance(action, Roll):
        return _roll(state, action)
    if state.phase in DICE_PHASES:
        word = dice_word(state)
        refuse(Refusal.DICE_DUE, f"The dice are due first: `{word}` followed by "
               f"{dice_due(state)} d20 results.", ROLLS, word=word, due=dice_due(state))
    actor = acting_player(state)
    if action.player != actor:
        refuse(Refusal.NOT_YOUR_TURN, f"It is {actor}'s turn to act, not {action.player}'s.",
               SUMMARY, player=action.player, turn=actor)
    if state.phase == Phase.ORDER:
        return _order(state, action)
    if state.phase == Phase.ARO:
        return _aro(state, action)
    return _after(state, action)


def _roll(state: State, action: Roll) -> tuple[State, list[Event]]:
    if state.phase not in DICE_PHASES:
        refuse(Refusal.NO_ROLL_DUE, "No roll is due now; declare an Order first.", ROLLS)
    word = dice_word(state)
    if action.kind != word:
        refuse(Refusal.WRONG_ROLL, f"The dice due now are `{word}` dice.", ROLLS, word=word)
    due = dice_due(state)
    if len(action.dice) != due or any(not 1 <= d <= DIE_FACES for d in action.dice):
        refuse(Refusal.WRONG_DICE, f"{due} d20 result(s) from 1 to 20 are due, in "
               f"declaration order.", ROLLS, due=due)
    if state.phase == Phase.ROLL:
        return resolve_rolls(state, action.dice)
    return resolve_arm(state, action.dice)


def _reveal(state: State, trooper: str) -> State:
    status = state.trooper_status(trooper)
    return state.with_status(replace(status, hidden=False)) if status.hidden else state


def _order(state: State, action: Action) -> tuple[State, list[Event]]:
    if isinstance(action, EndTurn):
        return next_turn(state)
    if isinstance(action, Score):
        total = state.objectives[state.turn] + action.points
        if action.points < 1 or total > MAX_OBJECTIVE_POINTS:
            refuse(Refusal.OBJECTIVE_POINTS, f"Objective points go from 1 up to a total "
                   f"of {MAX_OBJECTIVE_POINTS} a game.", SUMMARY, most=MAX_OBJECTIVE_POINTS)
        points = list(state.objectives)
        points[state.turn] = total
        return replace(state, objectives=(points[0], points[1])), []
    if isinstance(action, Move):
        check_move(state, action)
    elif isinstance(action, Shoot):
        check_shoot(state, action)
    elif isinstance(action, CloseCombat):
        check_cc(state, action)
    else:
        refuse(Refusal.NOT_AN_ORDER, "The active player declares an Order (move, shoot, "
               "cc), scores, or ends the turn.", SUMMARY)
    state = replace(_reveal(state, action.trooper), phase=Phase.ARO, order=action, aros=())
    if not state.in_play(state.reactive):
        return _resolve(state)
    return state, []


def _aro(state: State, action: Action) -> tuple[State, list[Event]]:
    if isinstance(action, Pass):
        return _resolve(state)
    if not isinstance(action, Aro):
        refuse(Refusal.ARO_EXPECTED, "The reactive player declares AROs (aro ...) or "
               "passes.", SUMMARY)
    check_aro(state, action)
    return replace(_reveal(state, action.trooper), aros=(*state.aros, action)), []


def _resolve(state: State) -> tuple[State, list[Event]]:
    state = replace(state, phase=Phase.ROLL)
    if dice_due(state):
        return state, []
    return complete_order(state)


def _after(state: State, action: Action) -> tuple[State, list[Event]]:
    item = state.after[0]
    if isinstance(action, TurnToFace) and item.kind == AfterKind.FACE \
            and action.trooper == item.trooper:
        pass
    elif isinstance(action, Move) and item.kind == AfterKind.DODGE \
            and action.trooper == item.trooper:
        if action.contact is not None:
            refuse(Refusal.DODGE_CONTACT, "A Dodge movement cannot enter base to base "
                   "contact with an enemy.", DODGE)
        if len(action.distances) > 1 or action.distances[0] > DODGE_MOVE:
            moved = sum(action.distances)
            refuse(Refusal.DODGE_TOO_FAR, f"{action.trooper} may move up to "
                   f"{DODGE_MOVE:g} inches after its successful Dodge, not "
                   f"{moved:g} (one movement, in its Reactive Turn).", DODGE,
                   trooper=action.trooper, distance=moved, inches=DODGE_MOVE)
        check_move(state, action, (DODGE_MOVE,))
        contacts = tuple(p for p in state.contacts if action.trooper not in p)
        state = replace(state, contacts=contacts)
    elif not isinstance(action, Pass):
        what = "turn to face the attacker" if item.kind == AfterKind.FACE else \
            f"move up to {DODGE_MOVE:g} inches after its successful Dodge"
        refuse(Refusal.AFTER_ORDER, f"{item.trooper} may {what} now, or pass.",
               DODGE if item.kind == AfterKind.DODGE else ARMOR, trooper=item.trooper,
               kind=item.kind, inches=DODGE_MOVE)
    state = replace(state, after=state.after[1:])
    if state.after:
        return state, []
    return close_order(state)
