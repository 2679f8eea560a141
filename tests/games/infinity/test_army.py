"""Army Points, Army Lists and Private Information."""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinity.state import public_view
from tests.games.infinity.helpers import DUEL, new_state, play


def _setup_error(text: str) -> SetupError:
    with pytest.raises(SetupError) as error:
        new_state(text)
    return error.value


def test_an_army_list_over_the_agreed_points_is_refused() -> None:
    """infinity-n3-intro.md "INFINITY: GAME SUMMARY": the total Cost of the troops chosen cannot
    exceed the Army Points agreed upon."""
    error = _setup_error(DUEL.replace("points = 100", "points = 50"))
    assert error.where == "armies[1].troopers"
    assert "58 points" in error.problem and "50" in error.problem


def test_each_army_needs_one_lieutenant() -> None:
    """infinity-n3-intro.md "OPEN AND PRIVATE INFORMATION": the identity of your Lieutenant (one per
    list)."""
    error = _setup_error(DUEL.replace(
        'profile = "grenzer", cost = 16, lieutenant = true', 'profile = "grenzer", cost = 16'))
    assert "exactly one Lieutenant" in error.problem


def test_an_unknown_profile_names_the_key() -> None:
    """Bad input gets a clear error naming the key."""
    error = _setup_error(DUEL.replace('profile = "iguana"', 'profile = "tohaa"'))
    assert error.where == "armies[0].troopers[1].profile"


def test_the_opponent_sees_no_cost_no_lieutenant_and_no_hidden_trooper() -> None:
    """infinity-n3-intro.md "OPEN AND PRIVATE INFORMATION": Cost, Lieutenant and Hidden Deployment
    are Private."""
    view = public_view(new_state(), "Ann")
    ben = [t for t in view["troopers"] if t["owner"] == "Ben"]
    assert [t["id"] for t in ben] == ["Grenzer", "Daturazi"]
    assert all("cost" not in t and "lieutenant" not in t for t in ben)
    own = [t for t in view["troopers"] if t["owner"] == "Ann"]
    assert own[0]["cost"] == 10 and own[0]["lieutenant"] is True


def test_private_information_opens_when_the_trooper_is_removed() -> None:
    """infinity-n3-intro.md "OPEN AND PRIVATE INFORMATION": Private Information about a trooper
    becomes Open when it is removed from play as a casualty."""
    state, events = play(new_state(), "shoot Ann Iguana combi_rifle Grenzer@4", "pass Ben",
                         "roll 17 1 1")  # BS 14+3 = 17: a Critical
    removed = next(e for e in events if e.kind == "trooper_removed")
    assert removed.data == {"trooper": "Grenzer", "side": "Ben", "cost": 16,
                            "lieutenant": True}
    grenzer = next(t for t in public_view(state, "Ann")["troopers"] if t["id"] == "Grenzer")
    assert grenzer["removed"] and grenzer["cost"] == 16 and grenzer["lieutenant"]


def test_a_hidden_trooper_appears_when_it_reacts() -> None:
    """infinity-n3-intro.md "OPEN AND PRIVATE INFORMATION": the presence of Hidden Deployment
    troopers is Private until a game event discloses it (here: it declares an ARO)."""
    state, _ = play(new_state(), "move Ann Fusilier 4", "aro Ben Spektr shoot combi_rifle "
                    "Fusilier@10")
    assert "Spektr" in [t["id"] for t in public_view(state, "Ann")["troopers"]]
