"""401 Infinite: notation without spaces, the Runner's Rule without a choice, the line tested.

Rulebook: 401-infinite.md "TECHNICALITIES" (Runner's Rule; Straight Line To Target) and
docs/401-infinite.md "Notation" and "Straight lines" (the reading this referee takes).
"""

from __future__ import annotations

from companion.games.infinite401 import GAME
from companion.games.infinite401.targeting import drawn_line
from tests.games.infinite401.helpers import kinds, place, play, refusal, started


def test_an_arrow_without_spaces_is_read() -> None:
    """docs/401-infinite.md "Notation": ``B1->R1`` reads as ``B1 -> R1`` (issue 17)."""
    state = place(started(first="red"), R1="d5", B1="d3")
    tight = GAME.parse_action(state, "play red Serration R1->B1")
    assert tight == GAME.parse_action(state, "play red Serration R1 -> B1")
    assert play(state, "play red Serration R1->B1")[0].unit("B1").hp == 1


def test_a_runner_with_no_choice_scores_at_once() -> None:
    """401-infinite.md "TECHNICALITIES" Runner's Rule: the unit "is immediately placed back at
    your own Base, and you can subtract 1 HP from any opponent Unit". One free base space (c1)
    and one opposing unit (R3) leave nothing to choose: the referee scores it."""
    state = place(started(), R1=None, R2=None, R3="f6", B1="c5")
    after, events = play(state, "move blue B1 c7")
    assert kinds(events) == ["runner_scored", "hp_changed"]
    assert events[0].to_json() == {"kind": "runner_scored", "unit": "B1", "target": "R3",
                                   "space": "c1", "automatic": True}
    assert after.runners == () and after.unit("B1").space == (2, 0)
    assert after.unit("R3").hp == 1 and GAME.current_actor(after) == "blue"
    assert "scored by the referee" in GAME.describe_event(events[0])


def test_a_runner_with_a_choice_still_waits_for_score() -> None:
    """401-infinite.md "TECHNICALITIES" Runner's Rule: "any opponent Unit" is the player's
    choice when there are several."""
    state = place(started(), R1="a6", R2="b6", R3="f6", B1="c5")
    after, events = play(state, "move blue B1 c7")
    assert events == [] and after.runners == ("B1",)
    _, scored = play(after, "score blue B1 c1 R2")
    assert scored[0]["automatic"] is False


def test_a_blocked_line_carries_the_line_it_tested() -> None:
    """401-infinite.md "TECHNICALITIES" Straight Line To Target: the refusal names the wall hit
    and carries the line drawn (centre of c2 to centre of c5, crossing c3 and c4) so the board
    can show it."""
    error = refusal(place(started(blue=("Chainbind", "Guard", "Hex", "Escort")), B1="c2",
                          R1="c5"), "play blue Chainbind B1 -> R1")
    assert error.code == "line_hits_wall"
    assert error.params == {"space": "c4", "line": ["c2", "c5"], "line_spaces": ["c3", "c4"]}
    assert "joins the centres of c2 to c5" in error.reason


def test_the_line_is_drawn_between_space_centres() -> None:
    """docs/401-infinite.md "Straight lines": the reading is the centre-to-centre segment, so a1
    to c2 crosses b1 and b2 (a wall on b2 blocks it, though a line through b1 and c1 would
    pass); grazing a corner does not count (a1 to c3 crosses only b2)."""
    assert drawn_line((0, 0), (2, 1)) == {"line": ["a1", "c2"], "line_spaces": ["b1", "b2"]}
    assert drawn_line((0, 0), (2, 2))["line_spaces"] == ["b2"]
