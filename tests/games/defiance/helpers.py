"""Defiance test helpers: the shared kit (tests/games/kit.py) bound to GAME, plus shipped
sources, quick setups and a scripted table."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from companion.games.core import Event
from companion.games.defiance import GAME
from companion.games.defiance.board import Placement
from companion.games.defiance.setup import Rules
from companion.games.defiance.shipped import PACKAGE, shipped_roles
from companion.games.defiance.state import Die, State, Turn, Unit, seat, with_seat
from companion.resources import shipped_sources
from tests.games import kit


def sources(setup: str = "data/games/quickplay.toml") -> dict[str, tuple[str, str]]:
    return shipped_sources(PACKAGE, shipped_roles(setup))


def rules(setup: str = "data/games/quickplay.toml", **options: Any) -> Rules:
    return GAME.load_setup(sources(setup), options)


def play(state: State, *lines: str) -> tuple[State, tuple[Event, ...]]:
    """Apply lines of notation (the shared kit's ``play``): the final state and the events,
    as a tuple like :attr:`Transition.events`."""
    final, events = kit.play(GAME, state, *lines)
    return final, tuple(events)


kinds = kit.kinds
refusal = partial(kit.refusal, GAME)
"""The :class:`IllegalAction` a line gets (the test fails when it is accepted)."""
notation_error = partial(kit.notation_error, GAME)


def play_state(state: State, *lines: str) -> State:
    """The state after ``lines`` (a builder for arranging a position)."""
    return play(state, *lines)[0]


def deck_order(state: State, faction: str) -> str:
    deck = next(d for d in state.decks if d.faction == faction)
    return " ".join(sorted(deck.cards + deck.discard))


def started(setup: str = "data/games/quickplay.toml") -> State:
    """A two-player Quickplay game through setup: decks in sorted order, Roles revealed,
    Ann on the Worldspine (Influence 5), Ben on Scrap Dunes (1); Ann leads Aster, Ben Kael;
    nobody mulligans or deploys. It is Ann's turn, before her action check."""
    state = GAME.initial_state(rules(setup))
    for faction in ("empire", "wardens"):
        state = play_state(state, f"shuffle {faction} {deck_order(state, faction)}")
    state = play_state(state, "reveal explorer assassin general seer",
                       "place Ann worldspine 1,0 0", "place Ben scrap-dunes -1,0 0",
                       "leader Ann aster", "leader Ben kael", "ready Ann", "ready Ben")
    return state


def locked(state: State, faces: str, attribute: str = "tide") -> State:
    """The current leader checks ``attribute``, rolls ``faces`` and locks."""
    leader = state.turn.leader
    return play_state(state, f"check {leader} {attribute}", f"roll {faces}", f"lock {leader}")


def give(state: State, name: str, *cards: str) -> State:
    """Put cards in a hand (test arrangement, as if drawn)."""
    player = seat(state, name)
    return with_seat(state, replace(player, hand=tuple(sorted((*player.hand, *cards)))))


def units(state: State, name: str, *cards: str) -> State:
    """Give a leader a group (test arrangement, as if played earlier)."""
    player = seat(state, name)
    return with_seat(state, replace(player, group=tuple(Unit(c) for c in cards)))


def board(state: State, *placements: tuple[str, int, int, int]) -> State:
    """Add tiles (id, q, r, rotation) to the board."""
    extra = tuple(Placement(t, q, r, rot, False) for t, q, r, rot in placements)
    return replace(state, board=state.board + extra)


def dice_state(state: State, faces: str, kind: str = "tide") -> State:
    """Lock given faces straight into the current turn (test arrangement)."""
    dice = tuple(Die(kind, f) for f in faces.split())
    return replace(state, turn=replace(state.turn, check=kind, dice=dice, locked=True))


__all__ = ["GAME", "Turn", "kinds", "notation_error", "play", "play_state", "refusal"]
