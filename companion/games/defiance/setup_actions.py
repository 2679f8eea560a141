"""Setup actions: shuffles, Role reveal, first tiles, leader choice and deploys (rulebook 3).

Each handler takes ``(state, action, events)`` and returns the new state or refuses.

Example:
    >>> int("3")
    3
"""

from __future__ import annotations

from collections import Counter

from companion.games.core import Event, refuse
from companion.games.defiance.actions import (
    ChooseLeader,
    Deploy,
    Mulligan,
    Place,
    Ready,
    Reveal,
    Shuffle,
)
from companion.games.defiance.board import DIRECTIONS, world_walls
from companion.games.defiance.cardops import (
    discard_from_hand,
    draw,
    reshuffles_due,
    settle_owed,
    without_one,
)
from companion.games.defiance.flow import after_tiles, next_deploy, start_deploy
from companion.games.defiance.rulebook import (
    RESHUFFLE,
    SETUP_STEP_2,
    SETUP_STEP_5,
    SETUP_STEP_6,
    SETUP_STEP_7,
    SKIRMISH,
    UNIT_CARDS,
    WALLS,
    Refusal,
    detailed,
)
from companion.games.defiance.state import (
    GROUP_LIMIT,
    Phase,
    Placement,
    SetupStep,
    State,
    Unit,
    deck_of,
    evolve,
    placed_ids,
    seat,
    unit_name,
    with_deck,
    with_seat,
)


def shuffle(state: State, action: Shuffle, events: list[Event]) -> State:
    """A deck shuffled: the order is in the action, top card first (setup step 2, 8.5)."""
    due = state.pending[0]
    if action.faction != due.who:
        refuse(Refusal.WRONG_DECK, f"The {due.who} deck is the one to shuffle now.", SETUP_STEP_2)
    deck = deck_of(state, due.who)
    expected = Counter(deck.cards + deck.discard)
    if Counter(action.cards) != expected:
        refuse(Refusal.NOT_THIS_DECK, f"A shuffle of the {due.who} deck must list each of its "
               f"{sum(expected.values())} cards once, as many copies as the deck holds.",
               RESHUFFLE)
    state = with_deck(state, evolve(deck, cards=action.cards, discard=()))
    state = evolve(state, pending=state.pending[1:])
    return reshuffles_due(settle_owed(state))


def reveal(state: State, action: Reveal, events: list[Event]) -> State:
    """Roles revealed from the Roles deck (rulebook 1.1, setup step 3b)."""
    ids = {r.id for r in state.rules.roles}
    roles = action.roles
    if len(roles) != state.rules.reveal or len(set(roles)) != len(roles) or not set(roles) <= ids:
        refuse(Refusal.BAD_REVEAL, f"Reveal {state.rules.reveal} different Role cards of the Roles "
               "deck.", detailed(SKIRMISH, f"reveal {state.rules.reveal} Role cards"))
    return evolve(state, roles=roles, pending=state.pending[1:])


def place(state: State, action: Place, events: list[Event]) -> State:
    """Place a first tile (setup step 5).

    A tile from either setting next to the Rift, oriented with a clear path, and the player moves
    into it (tile events ignored).
    """
    tile_id, space, rotation = action.tile, action.space, action.rotation
    rules = state.rules
    if tile_id not in {t.id for t in rules.tiles[1:]}:
        refuse(Refusal.UNKNOWN_TILE, f"{tile_id} is not a setting tile of this game.", SETUP_STEP_5,
               tile=tile_id)
    if tile_id in placed_ids(state):
        refuse(Refusal.TILE_TAKEN,
               f"{tile_id} is already on the board.", SETUP_STEP_5, tile=tile_id)
    if rotation > 5:
        refuse(Refusal.BAD_ROTATION, "A rotation is 0 to 5 sixth-turns.", WALLS)
    if space not in DIRECTIONS or any(p.pos == space for p in state.board):
        refuse(Refusal.NOT_NEXT_TO_RIFT, "Place your tile in a free space adjacent to the Rift.",
               SETUP_STEP_5)
    direction = DIRECTIONS.index(space)
    rift = state.board[0]
    rift_walls = world_walls(rules.tile(rift.tile).walls, rift.rotation)
    new_walls = world_walls(rules.tile(tile_id).walls, rotation)
    if direction in rift_walls or (direction + 3) % 6 in new_walls:
        refuse(Refusal.NO_CLEAR_PATH, "Orient the tile so no wall stands between it and the Rift.",
               SETUP_STEP_5, tile=tile_id)
    placement = Placement(tile_id, space[0], space[1], rotation, False)
    state = evolve(state, board=(*state.board, placement))
    state = with_seat(state, evolve(seat(state, action.actor), pos=space))
    if state.index + 1 < len(state.seats):
        return evolve(state, index=state.index + 1)
    return after_tiles(state, events)


def choose_leader(state: State, action: ChooseLeader, events: list[Event]) -> State:
    """Setup step 6: in turn order each player chooses a leader playmat."""
    leader_id = action.leader
    if leader_id not in {lead.id for lead in state.rules.leaders}:
        refuse(Refusal.UNKNOWN_LEADER, f"{leader_id} is not a leader of the factions in play.",
               SETUP_STEP_6, leader=leader_id)
    if any(s.leader == leader_id for s in state.seats):
        refuse(Refusal.LEADER_TAKEN, f"{leader_id} has already been chosen.", SETUP_STEP_6,
               leader=leader_id)
    state = with_seat(state, evolve(seat(state, action.actor), leader=leader_id))
    if state.index + 1 < len(state.order):
        return evolve(state, index=state.index + 1)
    state = evolve(state, step=SetupStep.DEPLOY, index=0)
    return start_deploy(state, state.order[0])


def mulligan(state: State, action: Mulligan, events: list[Event]) -> State:
    """Setup step 7: once, discard up to all 5 cards and draw back up to 5."""
    if state.turn.mulliganed:
        refuse(Refusal.MULLIGAN_USED, "You may mulligan only once, before playing units.",
               SETUP_STEP_7)
    hand = seat(state, action.actor).hand
    left = hand
    for card in action.cards:
        if card not in left:
            refuse(Refusal.NOT_IN_HAND, f"{card} is not in your hand.", SETUP_STEP_7, card=card)
        left = without_one(left, card)
    for card in action.cards:
        state = discard_from_hand(state, action.actor, card)
    state = draw(state, action.actor, len(action.cards))
    return reshuffles_due(evolve(state, turn=evolve(state.turn, mulliganed=True)))


def deploy_unit(state: State, action: Deploy, events: list[Event]) -> State:
    """Setup step 7: spend up to 4 Tide playing units; no abilities during setup."""
    card_id = action.card
    player = seat(state, action.actor)
    if card_id not in player.hand:
        refuse(Refusal.NOT_IN_HAND, f"{card_id} is not in your hand.", SETUP_STEP_7, card=card_id)
    card = state.rules.card(card_id)
    if card.kind != "unit":
        refuse(Refusal.NO_ABILITIES_IN_SETUP,
               "During setup you may not play or activate abilities.",
               SETUP_STEP_7)
    if card.cost > state.turn.deploy_tide:
        refuse(Refusal.NOT_ENOUGH_TIDE, f"{card_id} costs {card.cost} Tide and only "
               f"{state.turn.deploy_tide} of the deploy's 4 Tide are left.", SETUP_STEP_7,
               cost=card.cost, left=state.turn.deploy_tide)
    if len(player.group) >= GROUP_LIMIT:
        refuse(Refusal.GROUP_FULL, "A group holds at most 4 units.", UNIT_CARDS)
    state = with_seat(state, evolve(player, hand=without_one(player.hand, card_id),
                                     group=(*player.group, Unit(
                                         card_id, name=unit_name(player.group, card_id)))))
    turn = evolve(state.turn, deploy_tide=state.turn.deploy_tide - card.cost, mulliganed=True)
    return evolve(state, turn=turn)


def ready(state: State, action: Ready, events: list[Event]) -> State:
    """The deploy is complete.

    The next leader deploys, or (after a respawn) the turn goes on with its action check.
    """
    if state.phase == Phase.SETUP:
        return next_deploy(state, events)
    return evolve(state, turn=evolve(state.turn, deploying=False, mulliganed=True))
