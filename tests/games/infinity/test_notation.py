"""The notation: every action prints what reads back; bad text is invalid, not illegal."""

from __future__ import annotations

import pytest

from companion.games.core import NotationError
from companion.games.infinity import GAME
from companion.games.infinity.actions import Move, Shoot, Shot
from tests.games.infinity.helpers import new_state, play


def test_input_is_case_insensitive_and_printed_as_written_in_the_setup() -> None:
    """docs/infinity.md "Notation": names as written in the setup, input case-insensitive."""
    state = new_state()
    action = GAME.parse_action(state, "SHOOT ann FUSILIER Combi_Rifle grenzer@12.5+COVER")
    assert action == Shoot("Ann", "Fusilier", "combi_rifle",
                           (Shot("Grenzer", 12.5, 3, cover=True),))
    assert str(action) == "shoot Ann Fusilier combi_rifle Grenzer@12.5*3+cover"


def test_distances_from_a_camera_round_trip_exactly() -> None:
    """Issue 5 "Distances": a measured distance (any float) is kept exactly in the record."""
    state = new_state()
    action = Move("Ann", "Fusilier", (3.1415926535897931, 0.1 + 0.2))
    assert GAME.parse_action(state, str(action)) == action


@pytest.mark.parametrize(("text", "problem"), [
    ("fly Ann Fusilier", "unknown action"),
    ("move Ann Fusilier far", "not a distance"),
    ("move Ann Fusilier -3", "not a distance"),
    ("shoot Ann Fusilier combi_rifle Grenzer", "is not a target"),
    ("shoot Ann Fusilier combi_rifle Grenzer@12 Daturazi@10", "how many dice"),
    ("shoot Ann Fusilier combi_rifle Grenzer@12*1+smoke", "unknown flag"),
    ("move Ann Rambo 4", "no trooper called 'Rambo'"),
    ("end Cat", "no player called 'Cat'"),
    ("roll 3 x", "not a die result"),
    ("aro Ben Grenzer hide", "an ARO is"),
])
def test_text_that_is_not_an_action_says_what_is_wrong(text: str, problem: str) -> None:
    """docs/engine-contract.md: NotationError for text that is not an action."""
    with pytest.raises(NotationError) as error:
        GAME.parse_action(new_state(), text)
    assert problem in error.value.problem


def test_events_carry_the_fields_of_docs_events_md() -> None:
    """docs/events.md "Infinity": roll, hit, critical, wound, trooper_removed fields."""
    _, events = play(new_state(), "shoot Ann Iguana combi_rifle Grenzer@4", "pass Ben",
                     "roll 17 1 1")
    fields = {event.kind: set(event.data) for event in events}
    assert fields["roll"] == {"trooper", "attribute", "target", "dice", "results"}
    assert fields["hit"] == {"attacker", "target", "critical"}
    assert fields["critical"] == {"trooper"}
    assert fields["wound"] == {"trooper", "wounds_left"}
    assert {"trooper", "side"} <= fields["trooper_removed"]
    texts = [GAME.describe_event(event) for event in events]
    assert texts[:3] == ["Iguana BS 17: 17 critical, 1 success, 1 success",
                         "Iguana hits Grenzer (Critical)", "Critical by Iguana"]
