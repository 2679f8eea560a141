"""The turn order: what each phase awaits, what may be done, and the step each action takes.

infinidungeon.md "Turn Order": move to a room, face it, repeat. Each ``step`` function takes
a state and one action of its kind and returns the next state and the events; a wrong
action for the phase is refused citing "Turn Order" (:func:`expect`).

Example:
    >>> from companion.games.core import IllegalAction
    >>> from companion.games.infinidungeon.actions import Go
    >>> from companion.games.infinidungeon.deck import Card, Deck, Side
    >>> deck = Deck("x", (Card("hall", "Hall", Side("sun", "empty", ()), entrance=True),))
    >>> state = DungeonState(deck, Phase.SHUFFLE, room=("hall", "basic"))
    >>> try:
    ...     go(state, Go("north"))
    ... except IllegalAction as error:
    ...     print(error.code, error.rule)
    out_of_turn infinidungeon: "Turn Order"
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING

from companion.games.core import Event, refuse
from companion.games.infinidungeon import rooms
from companion.games.infinidungeon.actions import (
    Action,
    Assign,
    Go,
    Reroll,
    Roll,
    Shuffle,
    Vault,
)
from companion.games.infinidungeon.combat import assignments, check_assignment
from companion.games.infinidungeon.deck import BASIC
from companion.games.infinidungeon.movement import check_direction, open_directions, trap_losses
from companion.games.infinidungeon.rulebook import (
    FLIPPING,
    INTRODUCTION,
    MONSTER_ROOM,
    MOVING_TRAP,
    TURN_ORDER,
    WINNING,
    Refusal,
    dice,
)
from companion.games.infinidungeon.state import TRAP_PHASES, DungeonState, Phase

if TYPE_CHECKING:  # pragma: no cover
    import random

AWAITING = {
    Phase.SHUFFLE: "the room deck to be shuffled (`shuffle ...` or `roll`)",
    Phase.MOVE: "a doorway to be chosen (`go north`...)",
    Phase.TRAP_ROLL: "the trap's roll of every die (`roll ...`)",
    Phase.TRAP_REROLL: "the choice of dice to reroll at the trap (`reroll 1 2` or "
                       "`reroll none`)",
    Phase.TRAP_REROLLING: "the values of the rerolled dice (`roll ...`)",
    Phase.VAULT: "the choice to use the treasure vault (`use vault` or `skip vault`)",
    Phase.FIGHT_ROLL: "the roll of every die against the monsters (`roll ...`)",
    Phase.FIGHT_REROLL: "the choice of dice to reroll (`reroll 1 2` or `reroll none`)",
    Phase.FIGHT_REROLLING: "the values of the rerolled dice (`roll ...`)",
    Phase.ASSIGN: "dice to be assigned to the monsters (`assign 4:goblin ...`)",
    Phase.RESHUFFLE: "the flipped room deck to be shuffled (`shuffle ...` or `roll`)",
}
"""What the game waits for in each phase but the last, in the words of a refusal."""

_ROLLS = (Phase.TRAP_ROLL, Phase.FIGHT_ROLL)
_REROLLS = (Phase.TRAP_REROLL, Phase.FIGHT_REROLL)
_REROLLINGS = (Phase.TRAP_REROLLING, Phase.FIGHT_REROLLING)


def not_over(state: DungeonState) -> None:
    """Refuse any action once the game has ended ("Winning or Losing")."""
    if state.phase == Phase.OVER:
        refuse(Refusal.GAME_OVER, f"The game is over: {state.detail}", WINNING)


def expect(state: DungeonState, phases: tuple[Phase, ...], action: Action) -> None:
    """Refuse ``action`` unless the game is in one of ``phases`` ("Turn Order")."""
    if state.phase not in phases:
        refuse(Refusal.OUT_OF_TURN, f"`{action}` is not possible now: the game is waiting "
               f"for {AWAITING[state.phase]}.", TURN_ORDER, phase=state.phase)


def legal_actions(state: DungeonState) -> list[Action]:
    """The player's choices, sorted by notation; empty at rolls and shuffles."""
    actions: list[Action] = []
    if state.phase == Phase.MOVE:
        actions = [Go(direction) for direction in open_directions(state)]
    elif state.phase in _REROLLS:
        positions = range(1, len(state.rolled) + 1)
        actions = [Reroll(())]
        actions += [Reroll(chosen) for size in positions
                    for chosen in combinations(positions, size)]
    elif state.phase == Phase.ASSIGN:
        actions = [Assign(pairs) for pairs in assignments(state.side.monsters, state.rolled)]
    elif state.phase == Phase.VAULT:
        actions = [Vault(True), Vault(False)]
    return sorted(actions, key=str)


def chance_action(state: DungeonState, rng: random.Random) -> Action | None:
    """The shuffle or roll awaited, drawn with ``rng``; ``None`` when none is awaited."""
    if state.phase in (Phase.SHUFFLE, Phase.RESHUFFLE):
        cards = [card.id for card in state.deck.rooms] if state.phase == Phase.SHUFFLE \
            else [card for card, _ in state.pile]
        rng.shuffle(cards)
        return Shuffle(tuple(cards))
    if state.phase in _ROLLS:
        return Roll(tuple(rng.randint(1, 6) for _ in range(state.dice)))
    if state.phase in _REROLLINGS:
        return Roll(tuple(rng.randint(1, 6) for _ in state.rerolling))
    return None


def shuffle(state: DungeonState, action: Shuffle) -> rooms.Step:
    """The opening shuffle ("Introduction") or the fourth crystal's ("Flipping Rooms")."""
    expect(state, (Phase.SHUFFLE, Phase.RESHUFFLE), action)
    expected = sorted(card.id for card in state.deck.rooms) if state.phase == Phase.SHUFFLE \
        else sorted(card for card, _ in state.pile)
    if sorted(action.order) != expected:
        rule = INTRODUCTION if state.phase == Phase.SHUFFLE else FLIPPING
        refuse(Refusal.WRONG_CARDS, "The shuffle must list each card of the room deck once: "
               f"{' '.join(expected)}.", rule, cards=expected)
    if state.phase == Phase.RESHUFFLE:
        return rooms.reshuffled(state, action.order)
    pile = tuple((card, BASIC) for card in action.order)
    return rooms.face_room(replace(state, pile=pile))


def roll(state: DungeonState, action: Roll) -> rooms.Step:
    """Every die rolled (at a trap or against monsters), or the values of the rerolled dice."""
    expect(state, (*_ROLLS, *_REROLLINGS), action)
    rule = MOVING_TRAP if state.phase in TRAP_PHASES else MONSTER_ROOM
    if state.phase in _ROLLS:
        if len(action.values) != state.dice:
            refuse(Refusal.WRONG_DICE_COUNT, f"Roll all of your available dice: {state.dice}, "
                   f"not {len(action.values)}.", rule, dice=state.dice,
                   given=len(action.values))
        phase = Phase.TRAP_REROLL if state.phase == Phase.TRAP_ROLL else Phase.FIGHT_REROLL
        return replace(state, phase=phase, rolled=action.values), []
    if len(action.values) != len(state.rerolling):
        refuse(Refusal.WRONG_DICE_COUNT, f"{dice(len(state.rerolling))} "
               f"{'is' if len(state.rerolling) == 1 else 'are'} being rerolled, "
               f"not {len(action.values)}.", rule, dice=len(state.rerolling),
               given=len(action.values))
    return _rerolled(state, state.rerolling, action.values)


def go(state: DungeonState, action: Go) -> rooms.Step:
    """Leave through a doorway ("Moving Room"): straight in, or a trap's roll first."""
    expect(state, (Phase.MOVE,), action)
    doorway = check_direction(state, action.direction)
    if doorway.trap is None:
        return rooms.enter_room(state, action.direction)
    event = Event("trap_sprung", {"room": state.room[0], "doorway": action.direction,
                                  "face": doorway.trap})
    return replace(state, phase=Phase.TRAP_ROLL, heading=action.direction), [event]


def reroll(state: DungeonState, action: Reroll) -> rooms.Step:
    """The one reroll: the dice chosen (and their values, when given at once)."""
    if state.phase == Phase.ASSIGN:
        refuse(Refusal.ALREADY_REROLLED, "The dice were already rerolled once; assign them "
               "now.", MONSTER_ROOM)
    expect(state, _REROLLS, action)
    rule = MOVING_TRAP if state.phase == Phase.TRAP_REROLL else MONSTER_ROOM
    for position in action.positions:
        if position > len(state.rolled):
            refuse(Refusal.NO_SUCH_DIE, f"There is no die {position}: {len(state.rolled)} "
                   "dice were rolled.", rule, position=position, rolled=len(state.rolled))
    if not action.positions:
        return _rerolled(state, (), ())
    if action.values is None:
        phase = Phase.TRAP_REROLLING if state.phase == Phase.TRAP_REROLL \
            else Phase.FIGHT_REROLLING
        return replace(state, phase=phase, rerolling=action.positions), []
    return _rerolled(state, action.positions, action.values)


def _rerolled(state: DungeonState, positions: tuple[int, ...],
              values: tuple[int, ...]) -> rooms.Step:
    dice_now = list(state.rolled)
    for position, value in zip(positions, values, strict=True):
        dice_now[position - 1] = value
    state = replace(state, rolled=tuple(dice_now), rerolling=())
    if state.phase in (Phase.FIGHT_REROLL, Phase.FIGHT_REROLLING):
        return replace(state, phase=Phase.ASSIGN), []
    doorway = state.side.doorway(state.heading)
    assert doorway is not None and doorway.trap is not None
    lost = trap_losses(state.rolled, doorway.trap)
    state, events = rooms.lose_dice(state, lost, "at a trap")
    following, more = rooms.enter_room(state, state.heading)
    return following, events + more


def assign(state: DungeonState, action: Assign) -> rooms.Step:
    """Dice given to the monsters: the room is defeated, or one die is lost."""
    expect(state, (Phase.ASSIGN,), action)
    if check_assignment(state.side.monsters, state.rolled, action.pairs):
        return rooms.monsters_defeated(state)
    state, events = rooms.lose_dice(state, 1, "to the monsters")
    if state.phase == Phase.OVER:
        return state, events
    following, more = rooms.await_move(state)
    return following, events + more


def vault(state: DungeonState, action: Vault) -> rooms.Step:
    """Use the kept treasure vault, or keep it for a later room ("Treasure Vault")."""
    expect(state, (Phase.VAULT,), action)
    return rooms.use_vault(state, action.use)
