"""Reading a stacked field on its first level, photographed before the stacking (issue 12).

infinifield.md "Build the field": the builder arranges the blocks, stacked ones included, and
every block of the field counts (its colour decides what it touches and who may start on
it). From one photo a block under a bridge shows nothing and its colour is a guess; the
first level's photo (tests/data/table3d_ground, the same camera and light before the
stacking) saw it. Tuning families only.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.table3d_reading import (
    assert_read_whole,
    load_tune_scene,
    read_on_first_level,
    read_tune_scene,
    tune_scene_views,
)
from vision.camera_model import Intrinsics
from vision.devtools.table3d_truth import SceneTruth
from vision.geometry import square
from vision.readers.added3d import FirstLevelPhoto
from vision.readers.field3d import FieldReading, SeenBlock3D, read_field
from vision.readers.ground3d import first_level, ground_block, stands_on_ground
from vision.readers.table_views import TableViews

DATA = Path(__file__).resolve().parents[1] / "data"


STACKS = DATA / "table3d_stacks"
"""Stacked fields built as the official rules ask (families from 700, before and ground)."""


def _ground(family: str, folder: Path = DATA / "table3d_ground"
            ) -> tuple[SceneTruth, list[SeenBlock3D]]:
    scene, reading = read_tune_scene(f"{family}_ground", folder)
    return scene, first_level(reading.blocks)


def _on(reading: FieldReading, scene: SceneTruth, block_id: str) -> int | None:
    truth = scene.blocks[block_id]
    for i, b in enumerate(reading.blocks):
        if (b.level == truth.level and b.colour == truth.colour
                and math.hypot(b.centre[0] - truth.centre_mm[0],
                               b.centre[1] - truth.centre_mm[1]) < 6.0):
            return i
    return None


def test_a_block_hidden_under_a_bridge_keeps_the_colour_its_first_level_photo_saw() -> None:
    """f036: the yellow bridge Y4 hides W1. Alone, the set-up photo cannot say W1's colour
    (it is assumed, and a note says so); read on its first level, W1 is white, Y4 stands on
    W1 and Y3, and every block is where it stands."""
    ground_scene, ground = _ground("f036")
    scene, views = tune_scene_views("f036_before")
    frame, pose, palette = views.frame, views.pose, views.palette
    alone = read_field(frame, pose, palette, views=views)
    assert any(b.seen == "assumed" for b in alone.blocks)
    assert len(ground) == len(ground_scene.blocks) == 13
    reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                         ground=ground)
    assert not any(b.seen == "assumed" for b in reading.blocks)
    assert not any(getattr(n, "kind", "") == "hidden" for n in reading.notes)
    found = {bid: _on(reading, scene, bid) for bid in scene.blocks}
    assert None not in found.values(), found
    bridge = reading.blocks[found["Y4"]]
    assert set(bridge.rests_on) == {found["W1"], found["Y3"]}
    assert_read_whole(scene, reading)


def test_a_top_over_a_first_level_block_of_another_colour_stands_on_it() -> None:
    """A top read on the table where the first level has a block of another colour is on
    that block; over one of its own colour only as a top a level up is (the parallax runs
    away from the camera's nadir), not as a stray part of a top between two of them."""
    w = ground_block("white", (100.0, 100.0), 0.0, 40.0)
    y = ground_block("yellow", (140.0, 100.0), 0.0, 40.0)
    assert stands_on_ground(square((104.0, 101.0), 40.0, 0.0), "red", [w, y], 40.0)
    assert not stands_on_ground(square((101.0, 100.0), 40.0, 0.0), "white", [w, y], 40.0)
    # its own colour: raised nearer the block's centre than read on the table
    stray = square((112.0, 100.0), 40.0, 0.0)
    assert not stands_on_ground(stray, "white", [w], 40.0, square((118.0, 100.0), 40.0, 0.0))
    assert stands_on_ground(stray, "white", [w], 40.0, square((103.0, 100.0), 40.0, 0.0))
    # a bridge a level up over two blocks of its colour
    v = ground_block("white", (140.0, 100.0), 0.0, 40.0)
    assert stands_on_ground(square((124.0, 100.0), 40.0, 0.0), "white", [w, v], 40.0,
                            square((120.0, 100.0), 40.0, 0.0))
    assert np.allclose(w.outline.mean(axis=0), w.centre)


def test_the_read_command_reads_a_stacked_photo_on_its_first_level(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``infinite-vision read STACKED --first-level FIRST``: f036 read on its first level
    says so, gives W1 (hidden under the bridge) its colour with no note to check it, and
    its field file holds the bridge on W1 and Y3; a first-level photo that is no photo is a
    clear error naming it."""
    import json

    from vision.cli import main

    scene, _views = tune_scene_views("f036_before")
    first = DATA / "table3d_ground" / "f036_ground.jpg"
    cam = tmp_path / "cam.toml"
    cam.write_text(Intrinsics(np.asarray(scene.camera.K, float),
                              np.asarray(scene.camera.dist, float), scene.camera.size,
                              "f036", "calibrated").to_toml(), encoding="utf-8")
    photo = str(scene.image_path)
    assert main(["read", photo, "--camera", str(cam), "--first-level", str(first),
                 "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["first_level"]["blocks"] == 13
    assert not any(b["seen"] == "assumed" for b in summary["blocks"])
    bridge = next(b for b in summary["blocks"] if b["level"] == 2)
    under = {b["id"]: b["colour"] for b in summary["blocks"] if b["id"] in bridge["on"]}
    assert sorted(under.values()) == ["white", "yellow"]
    assert main(["read", photo, "--camera", str(cam), "--first-level", str(first)]) == 0
    text = capsys.readouterr().out
    assert "read on the first level of" in text and "(13 blocks)" in text
    assert "is hidden: assumed" not in text
    assert main(["read", photo, "--camera", str(cam)]) == 0
    assert "is hidden: assumed" in capsys.readouterr().out
    missing = tmp_path / "no-such.jpg"
    assert main(["read", photo, "--first-level", str(missing)]) == 2
    assert "no-such.jpg" in capsys.readouterr().err


def test_a_block_taken_away_after_the_first_level_was_kept_is_not_put_back() -> None:
    """f036 read on its first level, plus one block the first photo saw on bare table that
    the builder then took away (none stands there in the stacked photo): hidden blocks are
    put back where the first photo saw them, that one is not."""
    _ground_scene, ground = _ground("f036")
    scene, views = tune_scene_views("f036_before")
    xs = [b.centre_mm[0] for b in scene.blocks.values()]
    ys = [b.centre_mm[1] for b in scene.blocks.values()]
    away = (min(xs) - 90.0, max(ys) + 90.0)        # bare table beside the field
    assert all(math.hypot(b.centre_mm[0] - away[0], b.centre_mm[1] - away[1]) > 80
               for b in scene.blocks.values())
    taken = ground_block("red", away, 0.0, scene.layout.block_mm)
    reading = read_field(views.frame, views.pose, views.palette,
                         views=TableViews(views.frame, views.pose, views.palette),
                         ground=[*ground, taken])
    assert not any(math.hypot(b.centre[0] - away[0], b.centre[1] - away[1]) < 20
                   for b in reading.blocks)
    assert_read_whole(scene, reading)


def _read_on_first_level(family: str, folder: Path = STACKS, ground_folder: Path | None = None
                         ) -> tuple[SceneTruth, FieldReading]:
    _ground_scene, ground = _ground(family, ground_folder or folder)
    scene, views = tune_scene_views(f"{family}_before", folder)
    return scene, read_field(views.frame, views.pose, views.palette,
                             views=TableViews(views.frame, views.pose, views.palette),
                             ground=ground)


def test_a_bridge_on_a_block_of_its_own_colour_is_not_taken_for_that_block() -> None:
    """f741 (built as the official rules ask): the yellow Y6 bridges the red R2 and the
    yellow Y4. Its top and the part of Y4 beside it show as one yellow top that, read on
    the table, falls on Y4's place; R2's top is not read (half of it is under Y6). Read on
    its first level, Y6 stands a level up on both (the part of a bridge over R2 shows
    yellow where R2's own top would show without it) and Y4 keeps its place."""
    scene, reading = _read_on_first_level("f741")
    found = {bid: _on(reading, scene, bid) for bid in ("Y6", "R2", "Y4")}
    assert None not in found.values(), found
    assert set(reading.blocks[found["Y6"]].rests_on) == {found["R2"], found["Y4"]}


@pytest.mark.parametrize("family", ["f713", "f761"])
def test_a_hidden_block_beside_one_of_another_colour_is_no_bridge(family: str) -> None:
    """f713: a pawn stands on R1, beside W2; f761: one on W4, beside R4. A pawn hides the
    middle of a top, and a level up over such a block the ray runs on toward the block
    beside it: the colour seen there a level up is no bridge's unless the block's own top
    would show there without one. Neither field gets a block that is not there: each is
    read whole on its first level."""
    scene, reading = _read_on_first_level(family)
    assert_read_whole(scene, reading)


def test_a_colour_over_a_hidden_block_that_shows_beyond_a_bridge_s_half_makes_no_bridge() -> None:
    """f188 (shipped tuning set, a lamp): the yellow Y8 bridges the red R4 and the yellow
    Y7, and is read off its place, on Y7 alone. Beside R4 stands the yellow Y6: a yellow
    bridge over Y6 and R4 would show yellow over R4's half next to Y6, and it does (Y8's
    top is there), but so does the rest of R4's top: the yellow is Y8's, and no second
    block is read a level up over Y6 and R4."""
    scene, reading = _read_on_first_level("f188", DATA / "table3d", DATA / "table3d_ground")
    y6, r4 = scene.blocks["Y6"].centre_mm, scene.blocks["R4"].centre_mm
    between = ((y6[0] + r4[0]) / 2, (y6[1] + r4[1]) / 2)
    assert [b for b in reading.blocks if b.level == 2 and b.colour == "yellow"
            and math.hypot(b.centre[0] - between[0], b.centre[1] - between[1]) < 12.0] == []


def test_a_bridge_near_the_nadir_over_two_of_other_colours_is_read_a_level_up() -> None:
    """f741: the red R6 bridges the white W2 and the yellow Y3, 35 mm from the point under
    the camera (91 cm up): a level up its top shows barely larger and no farther out, so it
    is read on the table, where it overlaps Y3's top (half of it in view). Two tops of one
    level cannot overlap, and the first level's photo saw Y3 there and R6 on neither: R6 is
    read a level up, resting on W2 and Y3 (a "little 3D castle", rulebook "Build the field"
    step 1), not dropped as a second top there."""
    scene, reading = _read_on_first_level("f741")
    found = {bid: _on(reading, scene, bid) for bid in ("R6", "W2", "Y3")}
    assert None not in found.values(), found
    assert reading.blocks[found["R6"]].level == 2
    assert set(reading.blocks[found["R6"]].rests_on) == {found["W2"], found["Y3"]}


@pytest.mark.parametrize("family", ["f718", "f736"])
def test_a_block_of_one_colour_read_off_its_place_is_no_bridge_over_it(family: str) -> None:
    """f718: the part of the red R2 that the red bridge R5 leaves in view is read as a top of
    its own, 10 mm off R2's place; f736: a cyan pawn on the yellow Y3 hides part of its top,
    read 9 mm off its place. Raised a level, each rests on its own block and, by a fifth to
    a third, on a neighbour: not half on each, as a bridge rests on two ("Build the field"),
    and its colour over the neighbour is that neighbour's. Neither field gets a block that
    is not there; each is read whole on its first level."""
    scene, reading = _read_on_first_level(family)
    assert_read_whole(scene, reading)


def test_a_bridge_over_one_of_its_colour_and_another_half_on_each_stays_a_bridge() -> None:
    """f776: the blue B2 bridges the blue B1 and the yellow Y3, read on the table 11 mm from
    B1's place: raised, it rests about half on each (0.55 and 0.41), as a bridge does, and
    is read a level up on both; the field is read whole on its first level."""
    scene, reading = _read_on_first_level("f776")
    assert_read_whole(scene, reading)


@pytest.mark.parametrize("family", ["f706", "f793"])
def test_no_block_is_read_where_the_first_level_saw_the_table_and_no_clean_top_shows(
        family: str) -> None:
    """f706 (a window and an orange lamp): the sun's shadow of a tower falls on the mat and
    the lamp lights it orange, yellowish-brown as a yellow top in shade; f793 (a window):
    the mat in the window's light reads as white. Each grows regions read as tops of no clean shape,
    where the first level's photo saw only the table: no block is read there, and every
    block read is one of the field's (a block set down since would show a clean top)."""
    from table3d_accuracy import match

    scene, reading = _read_on_first_level(family)
    assert len(match(reading, scene)) == len(reading.blocks) == len(scene.blocks)


def test_a_bridge_over_two_of_its_own_colour_stands_on_them() -> None:
    """f788: the yellow Y7 bridges the yellow Y3 and Y5. Its top shows no colour but its own
    under it, and by its size it is read three levels up over a column of yellow side
    faces. The first level's photo saw Y3 and Y5 where, a level up, it rests half on each:
    it is read on the second level, resting on both (rulebook "Build the field" step 1, a
    "little 3D castle"), and the field is read whole."""
    scene, reading = _read_on_first_level("f788")
    assert_read_whole(scene, reading)


def test_a_top_between_two_of_its_colour_is_a_bridge_only_resting_half_on_each() -> None:
    """f016 (shipped tuning set): a red top is read on the table between the red R1 and R2,
    10 mm from R2's place and 31 from R1's. A level up it would rest on both, but a bridge
    rests about half on each, and over two of its own colour nothing else tells a bridge
    from a part of one of them: no block is read there, and every block read is one of the
    field's."""
    from table3d_accuracy import match

    scene, reading = _read_on_first_level("f016", DATA / "table3d", DATA / "table3d_ground")
    assert len(match(reading, scene)) == len(reading.blocks) == len(scene.blocks)


def test_a_block_that_may_carry_one_of_its_colour_is_asked_about() -> None:
    """f773: the white W5 stands on the white W2, 7 cm from the point under the camera
    (95 cm up). No other colour shows between them, and read on the table W5's top falls
    on W2's place: it is read as W2. Against the first level's photo of W2 it shows
    farther out and larger, as a top a level up does there, so the reading asks the
    players about W2 (a "little 3D castle", rulebook "Build the field" step 1): a
    ``tower_unsure`` note at W2, and none at a block with nothing on it."""
    from vision.readers.notes import TOWER_UNSURE

    scene, reading = _read_on_first_level("f773")
    asks = [n for n in reading.notes if getattr(n, "kind", None) == TOWER_UNSURE]
    w2 = scene.blocks["W2"].centre_mm
    assert [(n.colour, n.level) for n in asks] == [("white", 1)]
    assert math.hypot(asks[0].at[0] - w2[0], asks[0].at[1] - w2[1]) < 6.0
    _scene, plain = _read_on_first_level("f701")
    assert not [n for n in plain.notes if getattr(n, "kind", None) == TOWER_UNSURE]


def _photo(family: str, folder: Path = DATA / "table3d_ground") -> FirstLevelPhoto:
    _scene, views = tune_scene_views(f"{family}_ground", folder)
    return FirstLevelPhoto(views.frame, views.pose)


def test_a_bridge_over_a_block_of_its_colour_is_read_where_the_two_photos_differ() -> None:
    """infinifield.md "Build the field": f078's yellow Y6 bridges yellow Y4 and red R3 (86 cm
    up). Its top and the strip of Y4's top beside it show as one yellow region, and with the
    first level's blocks alone no block is read a level up there. Against the first level's
    photo, where R3's red top and the table beside it showed, the stacked photo is yellow
    now: Y6 is read a level up, resting on R3 and Y4, and exactly the field's blocks stand
    a level up (the false top the blocks alone read over Y2 and Y3 goes by the groove
    between them, tests/vision/test_hidden_seams.py)."""
    _ground_scene, ground = _ground("f078")
    scene, views = tune_scene_views("f078_before")
    frame, pose, palette = views.frame, views.pose, views.palette
    blocks_only = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                             ground=ground)
    assert _on(blocks_only, scene, "Y6") is None
    reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                         ground=ground, ground_photo=_photo("f078"))
    found = {bid: _on(reading, scene, bid) for bid in ("Y6", "R3", "Y4")}
    assert None not in found.values(), found
    assert set(reading.blocks[found["Y6"]].rests_on) == {found["R3"], found["Y4"]}
    up = [b for b in reading.blocks if b.level > 1]
    assert len(up) == sum(b.level > 1 for b in scene.blocks.values()), "Y6, nothing else"


def _with_a_hand_over(photo: FirstLevelPhoto, at_px: tuple[int, int]) -> FirstLevelPhoto:
    """``photo`` with the rendered hand of f078's hand photo moved so its fingertips lie at
    ``at_px`` (the arm: what that photo shows and the set-up photo does not, in one piece
    from the frame's bottom edge)."""
    hand = load_tune_scene("f078_hand").image()
    before = load_tune_scene("f078_before").image()
    changed = (np.abs(hand.astype(int) - before.astype(int)).sum(axis=2) > 60)
    _n, parts = cv2.connectedComponents(changed.astype(np.uint8))
    arm = parts == np.bincount(parts[-1][parts[-1] > 0]).argmax()
    ys, xs = np.nonzero(arm)
    shift = np.float32([[1, 0, at_px[0] - xs[ys.argmin()]], [0, 1, at_px[1] - ys.min()]])
    size = (hand.shape[1], hand.shape[0])
    moved = cv2.warpAffine(arm.astype(np.uint8), shift, size) > 0
    frame = photo.frame.copy()
    frame[moved] = cv2.warpAffine(hand, shift, size)[moved]
    return FirstLevelPhoto(frame, photo.pose)


def test_a_first_level_photo_with_a_hand_over_the_table_is_not_compared_with() -> None:
    """The players may keep the first level while a hand is still over it (the blocks they
    keep are as they corrected them). Much of a shaded hand takes the mat's class, so
    compared with the stacked photo it would look like a block set since: with f078's hand
    reaching over red R2, beside white W2, in its first level's photo, the reading adds no
    white block on W2 and reads the stacked photo as with the first level's blocks alone."""
    _ground_scene, ground = _ground("f078")
    scene, views = tune_scene_views("f078_before")
    frame, pose, palette = views.frame, views.pose, views.palette
    w2 = scene.blocks["W2"]
    fingertips = scene.camera.project([scene.blocks["R2"].top_centre_mm])[0]
    photo = _with_a_hand_over(_photo("f078"), (round(fingertips[0]), round(fingertips[1]) + 6))
    blocks_only = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                             ground=ground)
    reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                         ground=ground, ground_photo=photo)
    assert not any(b.level == 2 and b.colour == "white"
                   and math.dist(b.centre, w2.centre_mm) < 10 for b in reading.blocks)
    assert [(b.colour, b.level, b.centre) for b in reading.blocks] == [
        (b.colour, b.level, b.centre) for b in blocks_only.blocks]


@pytest.mark.parametrize("turn_deg", [(1.0, 0.5, 2.0), (-1.5, -0.75, -3.0)])
def test_a_camera_nudged_between_the_two_photos_reads_the_same(
        turn_deg: tuple[float, float, float]) -> None:
    """The stand is bumped between the first level's photo and the stacked one: the camera
    turns a degree or three (f078's first-level photo turned so, its pose found again
    from the markers). Each photo is compared through its own pose, so the stacked field
    reads as with the photo unmoved: f078's yellow bridge Y6 a level up, nothing else
    added (compared through the stacked photo's pose, Y6 is lost)."""
    from table3d_accuracy import intrinsics_of

    from vision.pose import find_table_markers, solve_pose

    _ground_scene, ground = _ground("f078")
    scene, views = tune_scene_views("f078_before")
    frame, pose, palette = views.frame, views.pose, views.palette
    first = load_tune_scene("f078_ground", DATA / "table3d_ground")
    k = np.asarray(first.camera.K, float)
    turn, _ = cv2.Rodrigues(np.radians(turn_deg))
    turned = cv2.warpPerspective(first.image(), k @ turn @ np.linalg.inv(k),
                                 first.camera.size, borderMode=cv2.BORDER_REPLICATE)
    turned_pose = solve_pose(find_table_markers(turned, first.layout), first.camera.size,
                             intrinsics_of(first, "true"), first.layout)

    def raised(photo: FirstLevelPhoto) -> list[tuple[str, int, int]]:
        reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                             ground=ground, ground_photo=photo)
        return sorted((b.colour, round(b.centre[0]), round(b.centre[1]))
                      for b in reading.blocks if b.level > 1)

    unmoved = raised(_photo("f078"))
    assert raised(FirstLevelPhoto(turned, turned_pose)) == unmoved
    y6 = scene.blocks["Y6"].centre_mm
    assert any(c == "yellow" and math.dist((x, y), y6) < 6 for c, x, y in unmoved)


def test_a_top_read_a_level_up_where_nothing_changed_since_the_first_photo_is_dropped(
        ) -> None:
    """infinifield.md "Build the field": every block counts, and none may be invented. On
    f213's stacked photo a block is read a level up where no block stands (side faces
    and a neighbour's top read as a square); with the first level's blocks alone it stays.
    Against the first level's photo, over most of that square the stacked photo shows the
    same as before: nothing was set down there, and the reading has exactly f213's
    blocks, each where it stands."""
    from table3d_accuracy import match

    _ground_scene, ground = _ground("f213")
    scene, views = tune_scene_views("f213_before")
    frame, pose, palette = views.frame, views.pose, views.palette
    blocks_only = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                             ground=ground)
    assert len(blocks_only.blocks) == len(scene.blocks) + 1
    assert len(match(blocks_only, scene)) == len(scene.blocks)
    reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                         ground=ground, ground_photo=_photo("f213"))
    assert len(reading.blocks) == len(scene.blocks) == len(match(reading, scene))


MISREADS = DATA / "table3d_misreads"
"""Stacked photos from sets rendered for a run, read wrong once, with their first level."""


def _read_misread(family: str) -> tuple[SceneTruth, FieldReading]:
    """A family of :data:`MISREADS` read on its first level and that level's photo."""
    return read_on_first_level(family, MISREADS)


def test_a_hole_in_the_first_level_in_shadow_is_no_first_level_block() -> None:
    """infinifield.md, "Build the field": every block counts, and none that is not there.
    On f2368's first-level photo the empty place at (190, 176) among the blocks is the
    table in their shadow, dark enough to take the yellow class, and read as a yellow top
    (the reading took a blue top for raised, so the flat field's own check did not apply).
    Nothing stands a level up on that photo to shade a top, and the place is 0.3 as light
    as the yellow tops: the first level has no block there, and the stacked photo read on
    it is read whole and right."""
    _scene, ground_reading = read_tune_scene("f2368_ground", MISREADS)
    _scene, ground_views = tune_scene_views("f2368_ground", MISREADS)
    hole = (190.0, 176.0)
    assert any(math.dist(b.centre, hole) < 10 for b in first_level(ground_reading.blocks))
    assert not any(math.dist(b.centre, hole) < 10
                   for b in first_level(ground_reading.blocks, ground_views))
    scene, reading = _read_misread("f2368")
    assert not any(math.dist(b.centre_mm[:2], hole) < 25 for b in scene.blocks.values())
    assert_read_whole(scene, reading)


def test_a_block_the_first_level_reading_missed_is_read_in_its_row() -> None:
    """f2188, read as the bench reads it (the colours learnt on the stacked photo): the
    first level's reading missed the red R6, 72 mm from the camera's nadir. Its place among
    the blocks read beside it shows red on the stacked photo, and on the first level's
    photo it is lit like the red tops read there (no empty place in shade): R6 is read on
    the first level, and the whole field right."""
    from table3d_accuracy import first_level_read

    scene, views = tune_scene_views("f2188_before", MISREADS)
    frame, pose, palette = views.frame, views.pose, views.palette
    ground, photo = first_level_read(scene, MISREADS, "true", palette)
    r6 = scene.blocks["R6"].centre_mm[:2]
    assert not any(math.dist(b.centre, r6) < 10 for b in ground)
    reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                         ground=ground, ground_photo=photo)
    assert _on(reading, scene, "R6") is not None
    assert_read_whole(scene, reading)


def test_a_bridge_read_far_off_its_place_is_moved_onto_it() -> None:
    """infinifield.md "Build the field": a block a level up rests on one block or across
    two. f1221's yellow Y7 bridges white W1 and yellow Y2: its top and Y2's uncovered half
    show as one yellow region, read 23 mm off the bridge's place. The two photos show yellow
    over the bridge's place where W1's white top was: the top is moved there, Y7 rests on
    W1 and Y2, and the field has exactly its blocks."""
    from table3d_accuracy import match

    scene, reading = _read_misread("f1221")
    found = {bid: _on(reading, scene, bid) for bid in ("Y7", "W1", "Y2")}
    assert None not in found.values(), found
    assert set(reading.blocks[found["Y7"]].rests_on) == {found["W1"], found["Y2"]}
    assert len(reading.blocks) == len(scene.blocks) == len(match(reading, scene))


def test_a_tower_read_on_its_place_stays_there() -> None:
    """f008's white W7 stands on the red R3, beside a white block. Read on its place, it
    stays there with the first level's photo: the bridge's place over R3 and its white
    neighbour shows white only where W7 stands (the photos show W7's own top white at
    0.88, its bridge's place at 1.0 of fewer points), which is no reason to move it."""
    _ground_scene, ground = _ground("f008")
    scene, views = tune_scene_views("f008_before")
    frame, pose, palette = views.frame, views.pose, views.palette
    reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                         ground=ground, ground_photo=_photo("f008"))
    w7, r3 = _on(reading, scene, "W7"), _on(reading, scene, "R3")
    assert w7 is not None and r3 is not None
    assert reading.blocks[w7].rests_on == (r3,)


def test_a_top_read_near_its_place_is_set_on_it() -> None:
    """infinifield.md "Build the field": a block a level up rests on one block or across
    two, so it stands where their first-level tops put it. f241's white W4 bridges red R4
    and white W3 and was read 4.3 mm off the middle of the two, towards W3 (a sliver of
    W3's top read with it), which broke the touching pairs. Set on the places the first
    level's photo gives, W4 and the yellow bridge Y5 stand within 2 mm of where they do,
    and the whole field is read right."""
    _ground_scene, ground = _ground("f241")
    scene, views = tune_scene_views("f241_before")
    frame, pose, palette = views.frame, views.pose, views.palette
    reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                         ground=ground, ground_photo=_photo("f241"))
    for bid in ("W4", "Y5"):
        found = _on(reading, scene, bid)
        assert found is not None, bid
        read, truth = reading.blocks[found].centre, scene.blocks[bid].centre_mm
        assert math.hypot(read[0] - truth[0], read[1] - truth[1]) < 2.0, (bid, read)
    assert_read_whole(scene, reading)


@pytest.mark.parametrize("family", ["f1408", "f1448"])
def test_a_top_where_no_block_colour_came_since_the_first_photo_is_dropped(
        family: str) -> None:
    """infinifield.md "Build the field": every block counts, and none that is not there.
    f1408: the yellow side faces of two raised bridges and a strip of a yellow top read as
    one top a level up, over a hole in the first level; f1448: a white top in a blue
    bridge's shadow read as a blue bridge. Against the first level's photo, the points
    such a top covers turned to the table's class or stayed as they were, never to a
    block's colour, where a block set down turns them to its own (or, in a lamp's light,
    another block's). Neither false top is read, and the whole field is read right."""
    from table3d_accuracy import match

    scene, reading = _read_misread(family)
    assert len(reading.blocks) == len(scene.blocks) == len(match(reading, scene))
    assert_read_whole(scene, reading)


def test_a_block_the_first_level_photo_saw_on_the_table_is_not_raised() -> None:
    """infinifield.md "Build the field": a block stands on the table or on others. f1528's
    white W1 stands on the table 26 mm from the nadir of a camera 53 cm up; read from the
    stacked photo alone, the reader took it for a bridge over two yellow blocks made of the
    side faces round it. The first level's photo saw W1 on the table and nothing there
    for it to stand on: read with it, W1 stays on the table, no block is made up under it,
    and the whole field is read right."""
    from table3d_accuracy import match

    scene, views = tune_scene_views("f1528_before", MISREADS)
    frame, pose, palette = views.frame, views.pose, views.palette
    alone = read_field(frame, pose, palette, views=TableViews(frame, pose, palette))
    assert _on(alone, scene, "W1") is None
    scene, reading = _read_misread("f1528")
    assert _on(reading, scene, "W1") is not None
    assert len(reading.blocks) == len(scene.blocks) == len(match(reading, scene))
    assert_read_whole(scene, reading)


def test_a_top_read_on_the_table_through_a_first_level_block_stands_on_none() -> None:
    """infinifield.md "Official field-building rules": blocks stand on the table or on
    others, and are solid. On the stacks' f721 a blue square read on the table covered a
    quarter or more of a first-level block it is not, 6 mm from the place of the blue
    bridge there: no block can stand so. It is tried as that bridge or dropped, and the
    whole field is read right with its first level's photo."""
    from table3d_accuracy import match

    _ground_scene, ground = _ground("f721", STACKS)
    scene, views = tune_scene_views("f721_before", STACKS)
    frame, pose, palette = views.frame, views.pose, views.palette
    reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                         ground=ground, ground_photo=_photo("f721", STACKS))
    assert len(reading.blocks) == len(scene.blocks) == len(match(reading, scene))
    assert_read_whole(scene, reading)


@pytest.mark.parametrize(("family", "block_id"), [("f781", "R2"), ("f796", "Y2")])
def test_a_block_read_outward_of_its_place_carries_none_of_its_colour_unless_photos_say(
        family: str, block_id: str) -> None:
    """infinifield.md "Build the field": a block stands on the table or on others. On the
    stacks' f781 and f796 a first-level block (the red R2, the yellow Y2) was read on the
    stacked photo a few millimetres outward of where its first level's photo saw it, as a
    top a level up would be, and a block of its colour was put on it. With that photo the
    two photos say where a block was set on one of its colour, and they show none there:
    nothing stands on it, and the whole field is read right."""
    from table3d_accuracy import match

    _ground_scene, ground = _ground(family, STACKS)
    scene, views = tune_scene_views(f"{family}_before", STACKS)
    frame, pose, palette = views.frame, views.pose, views.palette
    reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                         ground=ground, ground_photo=_photo(family, STACKS))
    under = _on(reading, scene, block_id)
    assert under is not None
    assert not any(under in b.rests_on for b in reading.blocks)
    assert len(reading.blocks) == len(scene.blocks) == len(match(reading, scene))
    assert_read_whole(scene, reading)


def test_a_bridge_read_as_a_tower_beside_its_place_is_moved_where_the_frame_says() -> None:
    """infinifield.md "Build the field": a block a level up rests on one block or across
    two. On f238 the red R6 bridges the red R3 and the yellow Y3, a pawn on it; its top and
    R3's side faces showed as one red region, read half a block off as a red tower on Y3.
    Rendered on either place with the rest of the field, the frame is explained far better
    by the bridge: R6 is read across R3 and Y3, and the whole field right."""
    from table3d_accuracy import match

    _ground_scene, ground = _ground("f238")
    scene, views = tune_scene_views("f238_before", DATA / "table3d")
    frame, pose, palette = views.frame, views.pose, views.palette
    reading = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                         ground=ground, ground_photo=_photo("f238"))
    bridge = _on(reading, scene, "R6")
    assert bridge is not None
    assert {_on(reading, scene, b) for b in ("R3", "Y3")} == set(reading.blocks[bridge].rests_on)
    assert len(reading.blocks) == len(scene.blocks) == len(match(reading, scene))
    assert_read_whole(scene, reading)


def test_a_tower_of_one_colour_is_raised_where_the_two_photos_show_its_strip() -> None:
    """infinifield.md "Build the field": a block may stand on one block. f1961's white W8
    stands on the white W1, 107 mm from the camera's nadir: its top, a level up, lies 5 mm
    outward of W1's and covers a strip the first level's photo showed as the mat. The
    stacked photo shows that strip white: W8 is read on W1, and the whole field right."""
    from table3d_accuracy import match

    scene, reading = _read_misread("f1961")
    tower = _on(reading, scene, "W8")
    assert tower is not None
    assert reading.blocks[tower].rests_on == (_on(reading, scene, "W1"),)
    assert len(reading.blocks) == len(scene.blocks) == len(match(reading, scene))
    assert_read_whole(scene, reading)
