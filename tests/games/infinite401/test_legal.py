"""The fast legal-action listing equals generate-and-test over every conceivable action."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.infinite401 import GAME
from companion.games.infinite401.geometry import crosses_interior, line_cells
from companion.games.infinite401.state import State
from tests.games.infinite401.helpers import DEFAULT_SOURCES, started, with_status
from tests.games.infinite401.reference import reference_legal_actions


def positions(start: str, seed: int, every: int) -> list[State]:
    """Positions along one seeded random playout (turn actions only)."""
    rng = random.Random(seed)
    setup = GAME.load_setup(DEFAULT_SOURCES, {"start": start, "turn_limit": 60})
    state = GAME.initial_state(setup)
    found: list[State] = []
    step = 0
    while GAME.outcome(state) is None:
        if GAME.is_chance(state):
            action = GAME.sample_chance(state, rng)
        else:
            legal = GAME.legal_actions(state)
            if not state.steps:
                step += 1
                if step % every == 0 or state.runners:
                    found.append(state)
            action = rng.choice(legal)
        state = GAME.apply(state, action).state
    return found


@pytest.mark.parametrize(("start", "seed"), [("quick", 1), ("competitor", 2)])
def test_listed_actions_are_exactly_the_accepted_ones(start: str, seed: int) -> None:
    """docs/engine-contract.md: legal_actions lists what may happen next. 401-infinite.md
    "TURNS / ACTIONS", "PLAYING ABILITIES", "TECHNICALITIES": every move, play, cycle, end and
    score the referee accepts is listed, and nothing else."""
    checked = 0
    for state in positions(start, seed, every=9)[:14]:
        fast = [str(a) for a in GAME.legal_actions(state)]
        assert fast == [str(a) for a in reference_legal_actions(state)]
        checked += 1
    assert checked >= 8


def test_line_table_matches_brute_force_clipping_on_the_whole_board() -> None:
    """401-infinite.md "TECHNICALITIES" Straight Line To Target: the cached line table names
    exactly the spaces whose interior the centre-to-centre line crosses."""
    spaces = [(c, r) for c in range(7) for r in range(9)]
    for a in spaces[::3]:
        for b in spaces:
            brute = {s for s in spaces if s not in (a, b) and crosses_interior(a, b, s)}
            assert set(line_cells(a, b)) == brute


def test_a_diagonal_line_grazing_a_corner_is_not_blocked() -> None:
    """docs/401-infinite.md "Straight lines": touching a corner is not hitting a wall."""
    assert line_cells((0, 0), (2, 2)) == ((1, 1),)
    assert line_cells((0, 0), (1, 2)) == ((0, 1), (1, 1))


CARDS = ["Serration", "Chainbind", "Strike", "Shockwave", "Lunge", "Guard", "Escort",
         "Fallback", "Hex", "Snare", "Smokescreen"]
STATUSES = ["grounded", "silenced", "slowed", "stunned", "untargetable"]


@settings(max_examples=25, deadline=None, derandomize=True)
@given(data=st.data())
def test_listing_matches_generate_and_test_on_arbitrary_positions(data: st.DataObject) -> None:
    """401-infinite.md "PLAYING ABILITIES", "TECHNICALITIES": on arbitrary placements, hands
    and status effects the listed actions are exactly the accepted ones."""
    state = started(blue=tuple(data.draw(st.permutations(CARDS))[:4]),
                    red=tuple(data.draw(st.permutations(CARDS))[:4]),
                    first=data.draw(st.sampled_from(["blue", "red"])))
    board = state.setup.board
    spots = data.draw(st.permutations(board.spaces()))[:6]
    state = replace(state, units=tuple(replace(u, space=spot)
                                       for u, spot in zip(state.units, spots, strict=True)))
    for unit in state.units:
        if data.draw(st.booleans()):
            state = with_status(state, unit.name, data.draw(st.sampled_from(STATUSES)))
    fast = [str(a) for a in GAME.legal_actions(state)]
    assert fast == [str(a) for a in reference_legal_actions(state)]
