"""Setup steps, turn order, turns and rounds (rulebook 2.5, 3 and 4).

Example:
    >>> ROUND_START
    1
"""

from __future__ import annotations

from companion.games.core import Event
from companion.games.defiance.board import Placement
from companion.games.defiance.cardops import draw, new_deck, reshuffles_due
from companion.games.defiance.damage import respawn_space
from companion.games.defiance.rulebook import Termination
from companion.games.defiance.scoring import end_of_round, finish
from companion.games.defiance.setup import Rules
from companion.games.defiance.state import (
    Deck,
    Due,
    Pending,
    Phase,
    Seat,
    SetupStep,
    State,
    Status,
    Turn,
    evolve,
    placement_at,
    seat,
    with_seat,
)

ROUND_START = 1
DEPLOY_DRAW = 5
"""Setup step 7: draw 5 cards."""
DEPLOY_TIDE = 4
"""Setup step 7: spend 4 Tide to play units."""


def initial(rules: Rules) -> State:
    """The table before setup step 2: decks to shuffle, Roles to reveal, pawns in the Rift."""
    rift = rules.tiles[0]
    decks: list[Deck] = []
    for faction in rules.factions():
        cards = tuple(sorted(c.id for c in rules.cards if c.faction == faction
                             for _ in range(c.copies)))
        decks.append(new_deck(faction, cards))
    pending = tuple(Pending(Due.SHUFFLE, d.faction) for d in decks)
    if rules.reveal:
        pending = (*pending, Pending(Due.REVEAL))
    seats = tuple(Seat(name, pos=(0, 0)) for name in rules.players)
    return State(rules, Phase.SETUP, SetupStep.TILES, seats, (Placement(rift.id, 0, 0, 0, False),),
                 tuple(decks), pending=pending)


def turn_order(state: State) -> tuple[str, ...]:
    """This round's turn order (rulebook 3 step 5, 2.5, 8.4).

    Leaders on the board by their tile's Influence, highest first, ties by tile name in alphabetical
    order (rulebook 3 step 5, 2.5, 8.4); leaders off the board (defeated) follow alphabetically;
    conceded leaders are out.
    """
    on_board = []
    for s in state.seats:
        if s.status == Status.ACTIVE and s.pos is not None:
            placement = placement_at(state, s.pos)
            tile = state.rules.tile(placement.tile) if placement else None
            influence = tile.influence if tile and not placement.flipped else 0  # type: ignore[union-attr]
            on_board.append((-influence, tile.name if tile else "", s.name))
    off = sorted(s.name for s in state.seats if s.status == Status.DEFEATED)
    return (*(name for *_, name in sorted(on_board)), *off)


def announce_order(state: State, events: list[Event]) -> State:
    """Set this round's turn order and announce it."""
    order = turn_order(state)
    events.append(Event("turn_order", {"order": list(order)}))
    return evolve(state, order=order, index=0)


def start_deploy(state: State, name: str) -> State:
    """A leader's deploy begins: draw 5 cards (setup step 7)."""
    state = evolve(state, turn=Turn(name, deploying=True, deploy_tide=DEPLOY_TIDE))
    return reshuffles_due(draw(state, name, DEPLOY_DRAW))


def after_tiles(state: State, events: list[Event]) -> State:
    """Setup step 5 done: turn order, round counter at 1, then leader choice."""
    state = announce_order(evolve(state, round=ROUND_START), events)
    events.append(Event("round_changed", {"round": ROUND_START}))
    return evolve(state, step=SetupStep.LEADERS)


def next_deploy(state: State, events: list[Event]) -> State:
    """The next leader deploys, or the first turn begins (setup steps 7-8)."""
    index = state.index + 1
    if index < len(state.order):
        return start_deploy(evolve(state, index=index), state.order[index])
    state = evolve(state, phase=Phase.TURNS, step=SetupStep.NONE, index=0, turn=Turn())
    return start_turn(state, events)


def end_turn(state: State, events: list[Event]) -> State:
    """End the current turn and start the next one.

    Abilities still in the centre go to the discard pile, blocks lapse, and the next turn starts.
    """
    from companion.games.defiance.cardops import to_discard

    for _, card in state.center:
        state = to_discard(state, card)
    state = evolve(state, center=(), ignoring=(), queue=(), turn=Turn(),
                    index=state.index + 1)
    return start_turn(reshuffles_due(state), events)


def start_turn(state: State, events: list[Event]) -> State:
    """Start the turn at ``state.index`` (rulebook 4, 8.6, 1.1.1).

    Lost turns are skipped, returning leaders respawn, and finished rounds are closed.
    """
    for _ in range(len(state.seats) * (max(state.rules.round_limit, 1) + 2) + 2):
        if not state.order:
            return finish(state, (), Termination.ALL_CONCEDED, "none", "Every leader has conceded.",
                          events)
        if state.index >= len(state.order):
            state = end_of_round(state, events)
            if state.phase == Phase.OVER:
                return state
            state = evolve(state, round=state.round + 1)
            events.append(Event("round_changed", {"round": state.round}))
            state = announce_order(state, events)
            continue
        name = state.order[state.index]
        player = seat(state, name)
        if player.status == Status.CONCEDED or (player.status == Status.DEFEATED
                                                and player.lose_turn):
            if player.status == Status.DEFEATED:
                events.append(Event("turn_lost", {"leader": name, "round": state.round}))
            state = with_seat(state, evolve(player, lose_turn=False))
            state = evolve(state, index=state.index + 1)
            continue
        if player.status == Status.DEFEATED:
            space = respawn_space(state)
            if space is None:
                state = evolve(state, index=state.index + 1)
                continue
            state = with_seat(state, evolve(player, status=Status.ACTIVE, pos=space))
            tile = placement_at(state, space)
            events.append(Event("turn_changed", {"leader": name}))
            events.append(Event("respawn", {"leader": name,
                                            "tile": tile.tile if tile else ""}))
            state = evolve(state, turn_no=state.turn_no + 1)
            return start_deploy(state, name)
        events.append(Event("turn_changed", {"leader": name}))
        return evolve(state, turn=Turn(name), turn_no=state.turn_no + 1)
    return finish(state, (), Termination.NO_TURNS, "none", "No leader can take a turn.", events)
