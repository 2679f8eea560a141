"""The simulated player (``tests/app/field_setup_player.py``) clears the way as a player does
(issue 12, set-up).

Tuning photos only (families whose number % 4 is not 3)."""

from __future__ import annotations

from pathlib import Path

from companion.app.field_capture import Capture, capture_field
from companion.app.field_view import SetupView
from tests.app.field_setup_player import (
    PICTURE,
    correct,
    equal_to_truth,
    intrinsics_of,
    match,
    truth_verdict,
)
from vision.devtools.table3d_truth import SceneTruth, load_scene

DATA = Path(__file__).resolve().parents[1] / "data" / "table3d"


def _capture(stem: str) -> tuple[SceneTruth, Capture]:
    scene = load_scene(DATA / f"{stem}.json")
    assert scene.split == "tune", "these checks run on tuning photos only"
    return scene, capture_field(scene.image(), intrinsics_of(scene, "true"))


def _copy(capture: Capture) -> Capture:
    import copy
    import dataclasses

    return dataclasses.replace(capture, draft=copy.deepcopy(capture.draft))


def test_a_tower_base_read_beside_its_place_is_moved_onto_it_before_anything_is_added(
        ) -> None:
    """f026: Y4 stands under W7, whose top hides all of Y4's; the camera read a blue block
    21 mm beside it (matched to no true block). Dropping that block and tapping Y4's place
    cannot work (no bare table shows there), so the player moves the block read beside it
    onto Y4's place first (move mode, its mark, the arrows), then colours it: the field is
    the true one, with the true field's verdict. The player without move mode still cannot."""
    scene, read = _capture("f026_before")
    assert "Y4" not in match(read.draft, scene) and scene.blocks["Y4"].level == 1
    capture = _copy(read)
    taps, why = correct(capture, scene, SetupView(capture, *PICTURE), "quickstart")
    assert why == ""
    assert equal_to_truth(capture.draft, scene)
    assert sorted(v.code for v in capture.draft.problems("quickstart", 0)) == \
        truth_verdict(scene, "quickstart")
    assert taps <= 60
    capture = _copy(read)
    _taps, why = correct(capture, scene, SetupView(capture, *PICTURE), "quickstart", False)
    assert why == "a missed block shows no bare spot to tap"
