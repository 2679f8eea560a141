"""Moving cards: draws (hand limit, reshuffle), discards, units and timeline cards.

Functions take a state, return the new state, and append any events to ``events``.

Example:
    >>> sorted_hand(("b", "a"), "c")
    ('a', 'b', 'c')
"""

from __future__ import annotations

from companion.games.core import Event
from companion.games.defiance.state import (
    HAND_LIMIT,
    Deck,
    Due,
    Pending,
    State,
    deck_of,
    evolve,
    faction_of,
    seat,
    timeline_limit,
    with_deck,
    with_seat,
)


def sorted_hand(hand: tuple[str, ...], *added: str) -> tuple[str, ...]:
    """A hand (kept sorted, as it is a set of cards) with ``added`` cards."""
    return tuple(sorted((*hand, *added)))


def without_one(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``cards`` with one copy of ``card`` taken out.

    Example:
        >>> without_one(("a", "b", "a"), "a")
        ('b', 'a')
    """
    index = cards.index(card)
    return cards[:index] + cards[index + 1:]


def draw(state: State, name: str, count: int) -> State:
    """``name`` draws ``count`` cards from their faction deck (rulebook 9 "Draw").

    With 10 cards in hand a draw does not happen. When the deck runs out, its discard pile
    is shuffled to reset it (rulebook 8.5): the remaining draws wait for that shuffle.
    """
    faction = faction_of(state, name)
    for drawn in range(count):
        player = seat(state, name)
        if len(player.hand) >= HAND_LIMIT:
            return state
        deck = deck_of(state, faction)
        if not deck.cards:
            if deck.discard:
                state = owe(state, name, count - drawn)
            return state
        state = with_deck(state, evolve(deck, cards=deck.cards[1:]))
        state = with_seat(state, evolve(player, hand=sorted_hand(player.hand, deck.cards[0])))
    return state


def owe(state: State, name: str, count: int) -> State:
    """Record ``count`` draws of ``name`` waiting for a reshuffle."""
    return evolve(state, owed=(*state.owed, (name, count)))


def reshuffles_due(state: State) -> State:
    """Queue a shuffle for every empty deck whose discard pile holds cards (rulebook 8.5)."""
    due = {p.who for p in state.pending if p.kind == Due.SHUFFLE}
    extra = tuple(Pending(Due.SHUFFLE, d.faction) for d in state.decks
                  if not d.cards and d.discard and d.faction not in due)
    return evolve(state, pending=state.pending + extra) if extra else state


def settle_owed(state: State) -> State:
    """Make the draws that waited for a reshuffle."""
    owed, state = state.owed, evolve(state, owed=())
    for name, count in owed:
        state = draw(state, name, count)
    return state


def to_discard(state: State, card: str) -> State:
    """Put ``card`` on its faction's discard pile."""
    deck = deck_of(state, state.rules.card(card).faction)
    return with_deck(state, evolve(deck, discard=(*deck.discard, card)))


def discard_from_hand(state: State, name: str, card: str) -> State:
    """``name`` discards one copy of ``card`` from hand."""
    player = seat(state, name)
    state = with_seat(state, evolve(player, hand=without_one(player.hand, card)))
    return to_discard(state, card)


def destroy_unit(state: State, name: str, slot: int, events: list[Event],
                 why: str = "destroyed") -> State:
    """Destroy the unit in ``slot`` (0-based) of ``name``'s group; tracks drop with it.

    The cards attached to it are destroyed too (rulebook 9 "Attach"). If the Tide it gave
    takes the timeline over its limit, the owner then chooses what to destroy (``trim``).
    ``why``: ``damage``, ``replaced`` (a full group made room) or ``destroyed`` (a card).
    """
    player = seat(state, name)
    unit = player.group[slot]
    state = with_seat(state, evolve(player, group=player.group[:slot] + player.group[slot + 1:]))
    state = to_discard(state, unit.card)
    state, attached = detach(state, name, unit.label)
    events.append(Event("unit_destroyed", {"leader": name, "unit": unit.label,
                                           "card": unit.card, "why": why,
                                           "attached": list(attached)}))
    return state


def detach(state: State, holder: str, asset: str) -> tuple[State, tuple[str, ...]]:
    """Destroy the cards attached to ``holder``'s ``asset`` ("" the leader): to the discard."""
    gone = tuple(a for a in state.attached if a.holder == holder and a.asset == asset)
    if not gone:
        return state, ()
    state = evolve(state, attached=tuple(a for a in state.attached if a not in gone))
    for attachment in gone:
        state = to_discard(state, attachment.card)
    return state, tuple(a.card for a in gone)


def destroy_timeline_card(state: State, name: str, card: str, events: list[Event],
                          why: str) -> State:
    """Destroy one copy of ``card`` from ``name``'s timeline (the rightmost copy).

    ``why``: ``power`` (a Power action), ``replaced`` (a full timeline made room),
    ``limit`` (the owner trimming to the limit) or ``destroyed`` (a card's text).
    """
    player = seat(state, name)
    for index in range(len(player.timeline) - 1, -1, -1):
        if player.timeline[index].card == card:
            timeline = player.timeline[:index] + player.timeline[index + 1:]
            state = with_seat(state, evolve(player, timeline=timeline))
            events.append(Event("timeline_card_destroyed", {
                "leader": name, "card": card, "why": why,
                "limit": timeline_limit(state, player), "left": len(timeline)}))
            return to_discard(state, card)
    raise KeyError(card)


def discard_everything(state: State, name: str) -> State:
    """Discard a defeated leader's hand, group, timeline and attached cards (rulebook 8.6).

    "Discard cards you own, cards in your play space": cards attached to this leader or its
    units, and cards it owns attached elsewhere, go too.
    """
    player = seat(state, name)
    cards = (*player.hand, *(u.card for u in player.group), *(p.card for p in player.timeline))
    cards = (*cards, *(card for owner, card in state.center if owner == name))
    attached = tuple(a for a in state.attached if a.holder == name or a.owner == name)
    cards = (*cards, *(a.card for a in attached))
    state = with_seat(state, evolve(player, hand=(), group=(), timeline=()))
    state = evolve(state, center=tuple(c for c in state.center if c[0] != name),
                   attached=tuple(a for a in state.attached if a not in attached))
    for card in cards:
        state = to_discard(state, card)
    return state


def new_deck(faction: str, cards: tuple[str, ...]) -> Deck:
    """A deck before its first shuffle."""
    return Deck(faction, cards)
