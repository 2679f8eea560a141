"""A set-up reading says when the camera shows too little of a block to be relied on.

``vision.readers.detail``: a first-level top narrower than ``MIN_TOP_PX`` in the frame (a
webcam at 640x480 a metre up) reads levels and touching pairs unreliably (issue 12; the
figures are in the module). The reading carries a ``detail`` note saying how many pixels a
top shows, so the set-up screen can tell the players to lower the camera or give it a larger
picture (infinifield.md, "Build the field": the players confirm the field the camera read).
"""

from __future__ import annotations

import pytest

from tests.vision.table3d_reading import read_tune_scene, tune_scene_views
from vision.camera_model import Intrinsics
from vision.layout import TableLayout
from vision.pose import TablePose
from vision.readers.detail import MIN_TOP_PX, camera_detail
from vision.readers.notes import DETAIL, ReadingNote, detail_note


def test_a_top_shows_fewer_pixels_the_higher_the_camera() -> None:
    cam = Intrinsics.pinhole(532.0, (640, 480))
    layout = TableLayout()
    near, far = (camera_detail(TablePose.looking_down(cam, layout, h)) for h in (580.0, 1080.0))
    # a top 40 mm up: 540 and 1040 mm from the camera
    assert near.top_px == pytest.approx(532.0 * 40 / 540, rel=1e-3)
    assert far.top_px == pytest.approx(532.0 * 40 / 1040, rel=1e-3)
    assert near.enough and not far.enough
    # a level up adds its share of the distance: 40 / 500 of a top at 580 mm
    assert near.level_px == pytest.approx(532.0 * 40 / 500 - near.top_px, rel=1e-3)
    bigger = Intrinsics.pinhole(1064.0, (1280, 960))
    assert camera_detail(TablePose.looking_down(bigger, layout, 1080.0)).enough


def test_a_far_camera_s_reading_says_how_little_it_sees() -> None:
    # f172: a flat field seen from about a metre at 640x480, a top under 20 px across
    _, views = tune_scene_views("f172_before")
    detail = camera_detail(views.pose)
    assert detail.top_px < MIN_TOP_PX
    _, reading = read_tune_scene("f172_before")
    notes = [n for n in reading.notes if getattr(n, "kind", None) == DETAIL]
    assert len(notes) == 1
    note = notes[0]
    assert isinstance(note, ReadingNote)
    assert note.value == pytest.approx(detail.top_px)
    assert f"only {detail.top_px:.0f} px across" in note


def test_a_camera_near_enough_adds_no_such_note() -> None:
    # f002: 32 px a top at 640x480
    _, views = tune_scene_views("f002_before")
    assert camera_detail(views.pose).enough
    _, reading = read_tune_scene("f002_before")
    assert not [n for n in reading.notes if getattr(n, "kind", None) == DETAIL]


def test_the_note_survives_being_copied() -> None:
    import pickle

    note = detail_note(19.6, (300.0, 225.0), MIN_TOP_PX)
    again = pickle.loads(pickle.dumps(note))
    assert (again.kind, again.value, str(again)) == (DETAIL, 19.6, str(note))
