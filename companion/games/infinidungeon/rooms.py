"""Facing the room: what happens on entering, after a fight, at a crystal, pool or vault.

Each function takes a state and returns the next state and the events it caused.

Example:
    >>> from companion.resources import shipped_text
    >>> from companion.games.infinidungeon.setup import deck_from_toml
    >>> from companion.games.infinidungeon.state import DungeonState, Phase
    >>> deck = deck_from_toml("d", shipped_text("companion.games.infinidungeon",
    ...                                         "decks/default.toml"))
    >>> pool = DungeonState(deck, Phase.MOVE, dice=3, room=("spring", "basic"),
    ...                     pile=(("crypt", "basic"),))
    >>> state, events = face_room(pool)
    >>> state.dice, [e.kind for e in events]
    (4, ['die_regained'])
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.core import Event
from companion.games.infinidungeon.deck import ADVANCED, BASIC, FIGHT_KINDS
from companion.games.infinidungeon.movement import draw_room, open_directions
from companion.games.infinidungeon.rulebook import Termination
from companion.games.infinidungeon.state import MAX_DICE, DungeonState, Phase, Result

PLAYER = "player"
VAULT_DICE = 2
Step = tuple[DungeonState, list[Event]]


def lose_dice(state: DungeonState, count: int, why: str) -> Step:
    """Lose ``count`` dice; losing the last one loses the game at once.

    Example:
        >>> from companion.games.infinidungeon.deck import Deck
        >>> start = DungeonState(Deck("d", ()), Phase.MOVE, dice=1)
        >>> state, events = lose_dice(start, 1, "here")
        >>> state.result, [event.kind for event in events]
        (<Result.DEFEAT: 'defeat'>, ['die_lost', 'defeat'])
    """
    if count <= 0:
        return state, []
    dice = state.dice - count
    events = [Event("die_lost", {"count": count, "dice": dice})]
    if dice <= 0:
        detail = f"The last die was lost {why}."
        events.append(Event("defeat", {"losers": [PLAYER], "termination": Termination.LAST_DIE_LOST,
                                       "detail": detail}))
        return replace(state, dice=0, phase=Phase.OVER, result=Result.DEFEAT,
                       termination=Termination.LAST_DIE_LOST, detail=detail, rolled=(),
                       rerolling=()), events
    return replace(state, dice=dice), events


def regain_dice(state: DungeonState, count: int) -> Step:
    """Regain up to ``count`` lost dice (never more than five).

    Example:
        >>> from companion.games.infinidungeon.deck import Deck
        >>> state, events = regain_dice(DungeonState(Deck("d", ()), Phase.MOVE, dice=4), 2)
        >>> state.dice, events[0]["count"]
        (5, 1)
    """
    dice = min(MAX_DICE, state.dice + count)
    if dice == state.dice:
        return state, []
    return replace(state, dice=dice), [Event("die_regained", {"count": dice - state.dice,
                                                              "dice": dice})]


def await_move(state: DungeonState) -> Step:
    """The room is dealt with: the player chooses a doorway (or is shut in for good)."""
    state = replace(state, phase=Phase.MOVE, rolled=(), rerolling=(), heading="")
    if open_directions(state):
        return state, []
    name = state.deck.card(state.room[0]).name
    detail = (f"No room in the deck can be entered through any doorway of the {name}; "
              "the dungeon has closed around you.")
    ended = replace(state, phase=Phase.OVER, result=Result.DEFEAT,
                    termination=Termination.DEAD_END, detail=detail)
    return ended, [Event("defeat", {"losers": [PLAYER], "termination": Termination.DEAD_END,
                                    "detail": detail})]


def enter_room(state: DungeonState, direction: str) -> Step:
    """Draw the next room through ``direction`` and enter it.

    The old room goes on top of the deck with the side just seen facing down, unless it is
    a treasure vault whose monsters were defeated: that one is kept aside.
    """
    draw = draw_room(state, direction)
    old_card = state.deck.card(state.room[0])
    kept_vault = state.defeated and state.side.kind == "treasure_vault"
    pile = draw.pile if kept_vault else (*draw.pile, state.room)
    vaults = (*state.vaults, old_card.id) if kept_vault else state.vaults
    state = replace(state, room=draw.room, pile=pile, vaults=vaults, defeated=False,
                    heading="", rolled=(), rerolling=())
    if state.vaults and state.dice < MAX_DICE:
        return replace(state, phase=Phase.VAULT), []
    return face_room(state)


def use_vault(state: DungeonState, use: bool) -> Step:
    """Spend the oldest kept vault to recover up to two dice (or keep it), then face the room."""
    events: list[Event] = []
    if use:
        card = state.vaults[0]
        state = replace(state, vaults=state.vaults[1:], spent=(*state.spent, card))
        state, events = regain_dice(state, VAULT_DICE)
    following, more = face_room(state)
    return following, events + more


def face_room(state: DungeonState) -> Step:
    """Deal with the contents of the room that shows."""
    side = state.side
    if side.kind in FIGHT_KINDS and side.monsters:
        return replace(state, phase=Phase.FIGHT_ROLL, rolled=(), rerolling=()), []
    if side.kind == "healing_pool":
        healed, events = regain_dice(state, 1)
        following, more = await_move(healed)
        return following, events + more
    return await_move(state)


def monsters_defeated(state: DungeonState) -> Step:
    """Every monster has its dice: the boss wins the game, a crystal flips the room."""
    side = state.side
    card = state.deck.card(state.room[0])
    if any(monster.boss for monster in side.monsters):
        detail = f"The boss of the {card.name} is defeated: the dungeon is beaten!"
        return replace(state, phase=Phase.OVER, result=Result.VICTORY,
                       termination=Termination.BOSS_DEFEATED, detail=detail, rolled=(),
                       rerolling=(), defeated=True), [
            Event("victory", {"winners": [PLAYER], "termination": Termination.BOSS_DEFEATED,
                              "detail": detail})]
    if side.crystal and state.room[1] == BASIC and card.advanced is not None \
            and not state.flipping_over:
        crystals = state.crystals + 1
        state = replace(state, room=(card.id, ADVANCED), crystals=crystals, defeated=False,
                        rolled=(), rerolling=())
        events = [Event("room_flipped", {"card": card.id, "side": ADVANCED}),
                  Event("crystal", {"count": crystals})]
        if state.flipping_over:
            return replace(state, phase=Phase.RESHUFFLE), events
        following, more = face_room(state)
        return following, events + more
    return await_move(replace(state, defeated=True))


def reshuffled(state: DungeonState, order: tuple[str, ...]) -> Step:
    """The fourth crystal's shuffle: the whole deck now shows its Advanced sides."""
    pile = tuple((card, ADVANCED if state.deck.card(card).advanced is not None else BASIC)
                 for card in order)
    following, events = face_room(replace(state, pile=pile))
    return following, [Event("deck_reshuffled", {"cards": list(order)}), *events]
