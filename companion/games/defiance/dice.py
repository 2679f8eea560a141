"""Action checks.

Four dice of one attribute, rerolls, conversions, the added die, locking and spending (rulebook
2.6.1 and 4).

Example:
    >>> from companion.games.defiance.state import Die
    >>> faces((Die("tide", "T"), Die("tide", "0")))
    'T 0'
"""

from __future__ import annotations

from companion.games.core import Event, RuleRef, refuse
from companion.games.defiance.actions import (
    GAMBIT_FACES,
    Check,
    Convert,
    Gambit,
    Lock,
    Reroll,
    Roll,
)
from companion.games.defiance.data import BLANK, attribute_of, die_faces, face_letter
from companion.games.defiance.rulebook import (
    ADD_DIE,
    CHECKS,
    CONVERT,
    CURRENT_HEALTH,
    DEFEAT,
    GAMBITS,
    REROLL,
    TURN,
    Refusal,
)
from companion.games.defiance.state import (
    Die,
    Due,
    Pending,
    State,
    Status,
    evolve,
    seat,
    track_level,
    with_seat,
)

CHECK_DICE = 4
REROLL_LEVEL = 2
ADD_DIE_LEVEL = 3
GAMBIT_TOP = 4


def faces(dice: tuple[Die, ...]) -> str:
    """The faces of a check as the notation writes them."""
    return " ".join(d.face for d in dice)


def declare_check(state: State, action: Check, events: list[Event]) -> State:
    """Choose the attribute of the action check; four dice are rolled (chance)."""
    attribute = action.attribute
    if state.turn.check:
        refuse(Refusal.ALREADY_ROLLED, "You make one action check per turn.", TURN)
    turn = evolve(state.turn, check=attribute)
    return evolve(state, turn=turn, pending=(*state.pending, Pending(Due.CHECK, action.actor)))


def roll(state: State, action: Roll, events: list[Event]) -> State:
    """The chance outcome of the pending check, reroll or gambit roll."""
    due = state.pending[0]
    state = evolve(state, pending=state.pending[1:])
    if due.kind == Due.CHECK:
        return _check_rolled(state, action)
    if due.kind == Due.REROLL:
        return _rerolled(state, action, due.die)
    return _gambit_rolled(state, action, due.who, events)


def _check_rolled(state: State, action: Roll) -> State:
    kind = state.turn.check
    if len(action.faces) != CHECK_DICE or any(f not in die_faces(kind) for f in action.faces):
        refuse(Refusal.BAD_ROLL, f"An action check rolls {CHECK_DICE} dice showing T, P, F or 0.",
               CHECKS)
    dice = tuple(Die(kind, face) for face in action.faces)
    player = seat(state, state.turn.leader)
    strong = state.rules.leader(player.leader).strong
    if track_level(state, player, strong) >= ADD_DIE_LEVEL:
        dice = (*dice, Die(strong, face_letter(strong), added=True))
    return evolve(state, turn=evolve(state.turn, dice=dice))


def _rerolled(state: State, action: Roll, index: int) -> State:
    die = state.turn.dice[index]
    if len(action.faces) != 1 or action.faces[0] not in die_faces(die.kind):
        refuse(Refusal.BAD_ROLL, "A reroll rolls one die showing T, P, F or 0.", REROLL)
    dice = list(state.turn.dice)
    dice[index] = evolve(die, face=action.faces[0], rerolled=True)
    return evolve(state, turn=evolve(state.turn, dice=tuple(dice)))


def _gambit_rolled(state: State, action: Roll, name: str, events: list[Event]) -> State:
    if len(action.faces) != 1 or action.faces[0] not in GAMBIT_FACES:
        refuse(Refusal.BAD_ROLL, "A gambit rolls one six-sided die: 1 to 6.", GAMBITS)
    player = seat(state, name)
    success = int(action.faces[0]) <= 3
    level = player.gambit + 1 if success else max(1, player.gambit - 1)
    return with_seat(state, evolve(player, gambit=level))


def _die(state: State, number: int) -> tuple[int, Die]:
    index = number - 1
    if not state.turn.dice or not 0 <= index < len(state.turn.dice):
        refuse(Refusal.NO_SUCH_DIE, f"There is no die {number} in this check.", CHECKS,
               die=str(number))
    return index, state.turn.dice[index]


def _unlocked(state: State) -> None:
    if not state.turn.dice:
        refuse(Refusal.NOT_ROLLED, "Make your action check first.", TURN)
    if state.turn.locked:
        refuse(Refusal.LOCKED, "The results are locked for the turn.", CHECKS)


def reroll(state: State, action: Reroll, events: list[Event]) -> State:
    """Level 2 of a track: reroll one die of that colour, before conversions."""
    _unlocked(state)
    index, die = _die(state, action.die)
    player = seat(state, action.actor)
    if die.added:
        refuse(Refusal.ADDED_DIE,
               "The added die is set, not rolled; it cannot be rerolled.", ADD_DIE)
    if track_level(state, player, die.kind) < REROLL_LEVEL:
        refuse(Refusal.NO_REROLL,
               f"Rerolling a {die.kind} die needs level 2 of the {die.kind} track.",
               REROLL, attribute=die.kind)
    if die.kind in state.turn.rerolled:
        refuse(Refusal.REROLL_USED, f"You have rerolled your one {die.kind} die already.", REROLL)
    if any(d.converted for d in state.turn.dice):
        refuse(Refusal.REROLL_AFTER_CONVERT, "Rerolls come before conversions.", CONVERT)
    turn = evolve(state.turn, rerolled=(*state.turn.rerolled, die.kind))
    return evolve(state, turn=turn,
                   pending=(*state.pending, Pending(Due.REROLL, action.actor, index)))


def conversions_for(state: State, die: Die) -> list[str]:
    """Faces the die may be converted to with the leader's current track levels."""
    player = seat(state, state.turn.leader)
    leader = state.rules.leader(player.leader)
    level = track_level(state, player, die.kind)
    return sorted({c.target for c in leader.conversions
                   if c.track == die.kind and c.level <= level and c.source == die.face})


def convert(state: State, action: Convert, events: list[Event]) -> State:
    """A track's convert box: move one die from one result to another, once per die."""
    _unlocked(state)
    index, die = _die(state, action.die)
    target = action.face
    if die.converted:
        refuse(Refusal.CONVERTED, "A die may be converted only once.", CONVERT)
    if target not in conversions_for(state, die):
        refuse(Refusal.NO_CONVERSION,
               f"Your {die.kind} track gives no conversion of {die.face} into "
               f"{target} at its current level.", CONVERT,
               face=die.face, target=target)
    dice = list(state.turn.dice)
    dice[index] = evolve(die, face=target, converted=True)
    return evolve(state, turn=evolve(state.turn, dice=tuple(dice)))


def lock(state: State, action: Lock, events: list[Event]) -> State:
    """Lock the final results for the turn."""
    _unlocked(state)
    events.append(Event("dice_locked", {"leader": action.actor, "attribute": state.turn.check,
                                        "faces": [d.face for d in state.turn.dice]}))
    return evolve(state, turn=evolve(state.turn, locked=True))


def available(state: State, face: str) -> int:
    """Unspent locked dice showing ``face``."""
    if not state.turn.locked:
        return 0
    return sum(1 for d in state.turn.dice if d.face == face and not d.spent)


def spend(state: State, face: str, count: int, rule: RuleRef) -> State:
    """Spend ``count`` dice showing ``face``: never more dice than current Health."""
    if not state.turn.locked:
        refuse(Refusal.NOT_LOCKED, "Roll and lock your action check before spending dice.", TURN)
    name = attribute_of(face) if face != BLANK else "blank"
    if available(state, face) < count:
        refuse(Refusal.NO_DIE, f"You have {available(state, face)} unspent {name} result(s), "
               f"{count} needed.", rule, face=face, needed=count)
    health = seat(state, state.turn.leader).health
    if state.turn.spent + count > health:
        refuse(Refusal.HEALTH_LIMIT, f"You may spend only as many dice as your current Health "
               f"({health}); {state.turn.spent} spent.", CURRENT_HEALTH,
               health=health, spent=state.turn.spent)
    dice = list(state.turn.dice)
    left = count
    for index, die in enumerate(dice):
        if left and die.face == face and not die.spent:
            dice[index] = evolve(die, spent=True)
            left -= 1
    return evolve(state, turn=evolve(state.turn, dice=tuple(dice),
                                       spent=state.turn.spent + count))


def gambit(state: State, action: Gambit, events: list[Event]) -> State:
    """The condition of the gambit level occurred: roll a d6 (rulebook 2.6.2)."""
    player = seat(state, action.actor)
    if player.status != Status.ACTIVE:
        refuse(Refusal.OFF_BOARD, "A leader off the board cannot interact.", DEFEAT)
    if player.gambit >= GAMBIT_TOP:
        refuse(Refusal.GAMBIT_COMPLETE, "Level 4 of the gambit track is permanent.", GAMBITS)
    return evolve(state, pending=(*state.pending, Pending(Due.GAMBIT, action.actor)))
