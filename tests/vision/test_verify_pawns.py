"""Issue 12, section 2 "Play": where a pawn stands, the engine's legal moves as hypotheses.

The play check looks for a pawn's head where the camera model says it must appear over each
hypothesis block's top (``vision.readers.verify.locate_pawn``). Rules cited: infinifield.md
"Chase-and-capture" step 6 (a pawn moves to a block touching the one it stands on) and
"Build the field" (a block another one rests on is covered: no pawn stands on it).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.camera_model import Intrinsics
from vision.devtools.render_boxes import BoxBlock, BoxPawn, BoxScene, render_boxes
from vision.devtools.table3d_truth import DEFAULT_DIR, iter_scenes, pairs
from vision.layout import TableLayout
from vision.palette import default_palette
from vision.pose import TablePose, find_table_markers, solve_pose, table_pose
from vision.readers.table_views import TableViews, learn_palette
from vision.readers.verify import check_blocks, locate_pawn, pawn_shares

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from table3d_accuracy import intrinsics_of, truth_field


def _pose() -> TablePose:
    f = 320 / math.tan(math.radians(65 / 2))
    k = np.array([[f, 0, 320], [0, f, 240], [0, 0, 1]])
    cam = Intrinsics(k, np.array([-0.08, 0.0, 0.0, 0.0, 0.0]), (640, 480), "test", "calibrated")
    return TablePose.looking_down(cam, TableLayout(), 600.0, (2.0, -1.5, 1.0), (305.0, 220.0))


def _stack_scene(pose: TablePose, pawn_on: str) -> BoxScene:
    """W2, W1 and B1 in a row, with S1 (yellow) resting on B1: four blocks, one covered."""
    blocks = (BoxBlock("W2", "white", (219.0, 220.0)),
              BoxBlock("W1", "white", (260.0, 220.0)), BoxBlock("B1", "blue", (301.0, 220.0)),
              BoxBlock("S1", "yellow", (301.0, 220.0), 0.0, 2, ("B1",)))
    return BoxScene(blocks, (BoxPawn("green", pawn_on),), pose=pose, seed=2)


def test_a_pawn_on_a_stacked_block_is_there_and_not_on_the_covered_block_under_it() -> None:
    """infinifield.md step 6: the pawn moves to a touching block; S1 rests on B1 (they
    touch), so B1 is among the engine's neighbours, but covered: the head over S1 is seen
    over B1's footprint too, and must not be read as standing on B1."""
    pose = _pose()
    scene = _stack_scene(pose, "S1")
    frame = render_boxes(scene).image
    views = TableViews(frame, table_pose(frame, pose.intrinsics), default_palette())
    where = locate_pawn(views, scene.field(), "green", ["W1", "B1", "S1"])
    assert where.block == "S1"
    assert "B1" not in where.shares
    # once S1 is taken away, B1 carries pawns again
    where = locate_pawn(views, scene.field(), "green", ["W1", "B1"], removed=["S1"])
    assert "B1" in where.shares


def test_a_pawn_moved_to_a_neighbour_is_found_there_and_nowhere_else() -> None:
    """infinifield.md step 6, on the box renderer: a pawn on W1 is on W1, and its colour is
    found on no other hypothesis; a colour no pawn has is found nowhere."""
    pose = _pose()
    scene = _stack_scene(pose, "W1")
    frame = render_boxes(scene).image
    views = TableViews(frame, table_pose(frame, pose.intrinsics), default_palette())
    fld = scene.field()
    assert locate_pawn(views, fld, "green", ["W1", "S1"]).block == "W1"
    shares = pawn_shares(views, fld, ["W1", "S1"], "green")
    assert shares["W1"] > 0.5 and shares["S1"] == 0.0
    assert locate_pawn(views, fld, "magenta", ["W1", "S1"]).block is None


@pytest.fixture(scope="module")
def shipped() -> list:
    if not (DEFAULT_DIR / "split.json").is_file():
        pytest.skip(f"photoreal table set not available at {DEFAULT_DIR}")
    return list(iter_scenes(DEFAULT_DIR))


def _pose_of(scene):
    frame = scene.image()
    return frame, solve_pose(find_table_markers(frame, scene.layout), scene.camera.size,
                             intrinsics_of(scene, "true"), scene.layout)


def test_every_shipped_pawn_move_is_read_as_the_block_it_went_to(shipped) -> None:
    """infinifield.md step 6: the engine's hypotheses are where the pawn was and the blocks
    touching it; the photo chooses. Measured on the shipped photoreal pairs (far and dim
    cameras included, where a pawn's head is 8-10 px): 13 of 17 tuning moves before the
    head was looked for where it must appear (the others undecided), 17 of 17 after."""
    right = total = 0
    for before, after in pairs(shipped):
        action = after.action or {}
        if action.get("kind") != "move":
            continue
        bframe, bpose = _pose_of(before)
        palette = learn_palette(TableViews(bframe, bpose, default_palette()))
        frame, pose = _pose_of(after)
        fld = truth_field(before)
        hyps = [action["from"], *fld.neighbours(action["from"])]
        where = locate_pawn(TableViews(frame, pose, palette), fld, action["pawn"], hyps)
        total += 1
        right += where.block == action["to"]
        # and in the photo before, it still stands where it was
        bwhere = locate_pawn(TableViews(bframe, bpose, palette), fld, action["pawn"], hyps)
        assert bwhere.block in (action["from"], None), before.id
    if total == 0:
        pytest.skip("no pawn-move pair shipped")
    assert right / total >= 0.95


def test_a_pawn_colour_not_on_the_table_is_found_on_no_white_block(shipped) -> None:
    """infinifield.md "Start": a pawn of a colour no player has yet is placed on a white
    block; on the set-up photos, a colour no pawn has is found on none (the start the
    camera would otherwise propose). Tuning set-up photos: 0 of 76 colours found on any
    block with the head looked for at head height, 2 of 76 before."""
    false = checked = 0
    # every third set-up photo, to keep the suite quick (the bench reads them all)
    for scene in [s for s in shipped if s.role == "before"][::3]:
        frame, pose = _pose_of(scene)
        palette = learn_palette(TableViews(frame, pose, default_palette()))
        views = TableViews(frame, pose, palette)
        fld = truth_field(scene)
        whites = [b.id for b in fld.blocks if b.is_white]
        on_table = {p.colour for p in scene.pawns}
        for colour in ("green", "magenta", "cyan", "orange"):
            if colour in on_table:
                continue
            checked += 1
            false += locate_pawn(views, fld, colour, whites).block is not None
    if checked == 0:
        pytest.skip("no set-up photo shipped")
    assert false <= checked // 40


def test_a_pawn_steps_onto_a_block_uncovered_by_a_removal() -> None:
    """infinifield.md step 6 and step 7: once the block on top of B1 is removed, B1's top
    is free; a pawn moving onto it from a touching block is read as that move."""
    from dataclasses import replace

    from companion.games.registry import load_game
    from companion.session import Session
    from vision.readers.field3d import read_field
    from vision.tracker import candidate_actions_3d

    pose = _pose()
    stacked = render_boxes(_stack_scene(pose, "W1")).image
    cam = table_pose(stacked, pose.intrinsics)
    session = Session.new(load_game("infinifield"),
                          {"setup": ("camera.toml", read_field(stacked, cam).field_toml())},
                          {"players": ["Ann", "Ben"]}, seed=1)
    # the engine's field as built (B1 under S1), its pawn on W1, S1 taken away
    state = replace(session.state, field=_stack_scene(pose, "W1").field(), removed=("S1",),
                    pawns=(("Ann", "W1"),), phase="move", to_act="Ann")
    scene = _stack_scene(pose, "B1").without("S1")
    scene = scene.with_pawn("green", "B1")
    frame = render_boxes(scene).image
    views = TableViews(frame, table_pose(frame, pose.intrinsics), default_palette())
    candidates, _check = candidate_actions_3d(state, views, {"green": "Ann"})
    assert [c.text for c in candidates] == ["move Ann W1 B1"]


def test_a_block_a_pawn_stands_on_is_never_read_gone(shipped) -> None:
    """infinifield.md step 7: a block with a pawn on it cannot be removed, and it cannot be
    gone while a pawn stands on it. Tuning set-up photos: a white top in a tower's or a
    window's shadow with a pawn on it was read gone twice (f001 W3, f073 W2) by its colour;
    a clear pawn's head over it now says it is there. Photos with hard shadows only (a
    window or a lamp), to keep the suite quick."""
    gone = carrying = 0
    for scene in shipped:
        if (scene.role != "before" or scene.split != "tune" or not scene.pawns
                or scene.lighting not in ("window", "lamp")):
            continue
        frame, pose = _pose_of(scene)
        palette = learn_palette(TableViews(frame, pose, default_palette()))
        check = check_blocks(frame, pose, truth_field(scene), (), palette)
        for p in scene.pawns:
            carrying += 1
            gone += check.blocks[p.block].status == "gone"
    if carrying == 0:
        pytest.skip("no set-up photo with pawns shipped")
    assert gone == 0
