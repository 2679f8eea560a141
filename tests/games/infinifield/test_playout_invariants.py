"""Whole rounds played at random keep the table in a state the rulebook allows.

Rulebook: infinifield.md "Chase-and-capture" steps 6-7 (pawns on blocks, the field never split
by a removal, a removal every fifth move) and "Select starting positions" step 4 (counter).
"""

from __future__ import annotations

import random

import pytest

from companion.games.infinifield import GAME
from companion.games.infinifield.actions import Move, Remove
from companion.games.infinifield.state import State
from tests.games.infinifield.helpers import shipped


def _pieces_left(state: State) -> int:
    graph = state.field.graph
    gone = {graph.index[b] for b in state.removed}
    left = [i for i in range(len(graph.ids)) if i not in gone]
    seen = {left[0]}
    stack = [left[0]]
    while stack:
        for j in graph.adjacency[stack.pop()]:
            if j not in gone and j not in seen:
                seen.add(j)
                stack.append(j)
    return 1 if len(seen) == len(left) else 2


@pytest.mark.parametrize(("field", "players"), [
    ("official", ["Ann", "Ben", "Cat", "Dan"]),
    ("castle3d", ["Ann", "Ben", "Cat"]),
])
def test_random_rounds_never_split_the_field_and_remove_every_fifth_move(
        field: str, players: list[str]) -> None:
    """infinifield.md "Chase-and-capture" step 7: every fifth move (counter on X) brings one
    removal or the remover's elimination; a removal never splits the field, never takes a block
    with a pawn or a block on it; pawns always stand on distinct blocks still on the field."""
    setup = GAME.load_setup(shipped(field), {"players": players, "rounds": 2})
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.initial_state(setup)
        moves_in_round = 0
        while GAME.outcome(state) is None:
            action = rng.choice(list(GAME.legal_actions(state)))
            before = state
            transition = GAME.apply(state, action)
            state = transition.state
            events = {event.kind: event for event in transition.events}
            if isinstance(action, Move):
                moves_in_round += 1
                position = events["counter_advanced"]["position"]
                assert position == (moves_in_round % 5 or "X")
                if "removal_due" in events:
                    assert position == "X"
                    assert state.phase == "remove" or (
                        events["eliminated"]["why"] == "no_legal_removal")
                elif position == "X":
                    assert "round_over" in events, "X without a removal only ends a round"
            if isinstance(action, Remove):
                assert before.pawn_on(action.block) is None
                assert not [b for b in before.field.resting_on(action.block)
                            if b not in before.removed]
            if state.phase == "rebuild":
                moves_in_round = 0
                continue
            if state.phase in ("move", "remove") and state.pawns:
                assert _pieces_left(state) == 1
                blocks = [b for _, b in state.pawns]
                assert len(set(blocks)) == len(blocks)
                assert all(state.present(b) for b in blocks)
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.termination == "rounds_played"
