"""The simulated player (``tests/app/field_setup_player.py``) clears the way as a player does,
and a long press adds a missed block whose place shows no bare table (issue 12, set-up).

Tuning photos only (families whose number % 4 is not 3)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from companion.app.field_capture import Capture, capture_field
from companion.app.field_view import SetupView
from tests.app.field_setup_player import (
    PICTURE,
    correct,
    corrected_to_truth,
    intrinsics_of,
    match,
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
    taps = corrected_to_truth(capture, scene, SetupView(capture, *PICTURE))
    assert taps <= 60
    capture = _copy(read)
    _taps, why = correct(capture, scene, SetupView(capture, *PICTURE), "quickstart", False)
    assert why == "a missed block shows no bare spot to tap"


def test_a_missed_block_under_a_bridge_is_added_by_a_long_press_where_its_top_is() -> None:
    """f206: Y5 was missed under W5, which bridges it and R1; W5's top covers Y5's place on
    the picture but for a sliver near a mark, and no block was read beside it to move. A
    tap there hits W5; a long press there adds Y5 (then coloured, W5's supports put right
    in move mode): the field is the true one. Without long presses it cannot be."""
    scene, read = _capture("f206_before")
    assert "Y5" not in match(read.draft, scene)
    capture = _copy(read)
    view = SetupView(capture, *PICTURE)
    corrected_to_truth(capture, scene, view)
    assert view.smallest_target_px() >= 48
    capture = _copy(read)
    _taps, why = correct(capture, scene, SetupView(capture, *PICTURE), "quickstart",
                         holds=False)
    assert why == "a missed block shows no bare spot to tap"


def test_a_long_press_adds_at_level_1_where_a_tap_hits_the_top_covering_the_place() -> None:
    """SetupView.hold in blocks mode, on f206 as read: where Y5's top is, a tap hits the
    bridge over it, a long press adds a block at level 1 there (at Y5's place); on a block
    standing on the table it adds nothing; in touching mode it does what a tap does."""
    scene, read = _capture("f206_before")
    capture = _copy(read)
    view = SetupView(capture, *PICTURE)
    draft = capture.draft
    hidden = scene.blocks["Y5"]
    x, y = view.to_screen(capture.pose.project([[hidden.centre_mm[0], hidden.centre_mm[1],
                                                 hidden.top_mm]]))[0]
    assert view.hit(x, y).kind == "block"
    on_table = next(b for b in draft.present() if b.level == 1)
    assert view.hold(*view.anchor(on_table.key)).kind == "none", "a block stands there"
    before = len(draft.present())
    hit = view.hold(x, y)
    assert hit.kind == "add" and len(draft.present()) == before + 1
    added = draft.blocks[hit.key]
    assert added.level == 1
    assert math.dist(added.centre, hidden.centre_mm) < 15
    mark = view.mark(on_table.key)
    assert view.hold_hit(*mark, "touching") == view.hit(*mark, "touching")


@pytest.mark.parametrize("mode", ["levels", "move"])
def test_a_long_press_in_the_other_modes_means_what_a_tap_means(mode: str) -> None:
    """Levels and move mode have no long press of their own: it is a tap."""
    _scene, read = _capture("f026_before")
    view = SetupView(_copy(read), *PICTURE)
    for key in list(view.capture.draft.blocks)[:3]:
        assert view.hold_hit(*view.mark(key), mode) == view.hit(*view.mark(key), mode)
