"""Analysis by synthesis on real tune scenes: the rendered score and the local search.

The true field of a shipped photoreal tune scene, as a reading, is scored against its photo
(:mod:`vision.readers.synth3d`) and compared with the same field changed the ways the
set-up reading goes wrong (issue 12): a bridge read a level low at the same pixels, its
supports gone; a block under another in the wrong colour. The search
(:mod:`vision.readers.refine3d`) must put a lowered bridge back on its two blocks. Held-out
scenes are never used.
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy as np
import pytest

from vision.devtools.table3d_truth import SceneTruth
from vision.geometry import square
from vision.readers.field3d import SeenBlock3D
from vision.readers.refine3d import _Search, _shifted, refine_reading
from vision.readers.table_views import TableViews

from .table3d_reading import read_tune_scene, tune_scene_views


def _scene(scene_id: str) -> tuple[SceneTruth, TableViews]:
    """A tune scene and its photo's views (pose from the markers, colours learnt on it)."""
    return tune_scene_views(scene_id)


def _true_reading(scene: SceneTruth) -> tuple[list[str], list[SeenBlock3D]]:
    """The scene's blocks as a reading (ids in the same order)."""
    ids = list(scene.blocks)
    blocks = []
    for bid in ids:
        b = scene.blocks[bid]
        blocks.append(SeenBlock3D(
            b.colour, (float(b.centre_mm[0]), float(b.centre_mm[1])), b.angle_deg, b.level,
            square(b.centre_mm, 40.0, b.angle_deg), tuple(ids.index(j) for j in b.rests_on),
            "top" if b.top_visible > 0.5 else "side", 40.0))
    return ids, blocks


def _lowered_bridge(scene_id: str, bridge: str
                    ) -> tuple[TableViews, list[SeenBlock3D], list[SeenBlock3D]]:
    """The true reading, and the same with ``bridge`` a level low and its supports gone."""
    scene, views = _scene(scene_id)
    ids, truth = _true_reading(scene)
    k = ids.index(bridge)
    assert truth[k].level == 2 and len(truth[k].rests_on) == 2
    low = _shifted(truth[k], views.pose, 1)
    wrong = [low, *(b for j, b in enumerate(truth) if j != k and j not in truth[k].rests_on)]
    return views, truth, wrong


def _score(views: TableViews, blocks: list[SeenBlock3D]) -> float:
    search = _Search(views, blocks)
    ev = search.evidence
    return ev.score(search.boxes(blocks), slice(0, ev.shape[0]), slice(0, ev.shape[1]))


@pytest.mark.parametrize(("scene_id", "bridge"), [
    ("f036_before", "Y4"), ("f048_before", "R4"), ("f066_before", "B2"),
    ("f078_before", "W4"), ("f041_before", "W6")])
def test_the_frame_prefers_a_bridge_on_its_blocks_to_it_read_a_level_low(
        scene_id: str, bridge: str) -> None:
    """A bridge on two blocks (the rulebook's stacking) explains the photo better than the
    same top seen at the same pixels one level lower with nothing under it."""
    views, truth, wrong = _lowered_bridge(scene_id, bridge)
    assert _score(views, truth) > _score(views, wrong)


@pytest.mark.parametrize("scene_id", ["f013_before", "f036_before", "f066_before",
                                      "f068_before"])
def test_the_frame_prefers_the_true_colour_of_a_block_under_another(scene_id: str) -> None:
    """Every block under another whose side faces show scores best in its own colour."""
    scene, views = _scene(scene_id)
    _ids, truth = _true_reading(scene)
    under = [k for k, b in enumerate(truth) if b.seen == "side"
             and any(k in o.rests_on for o in truth)]
    assert under
    for k in under:
        right = _score(views, truth)
        for colour in {"red", "yellow", "blue", "white"} - {truth[k].colour}:
            changed = list(truth)
            changed[k] = dataclasses.replace(truth[k], colour=colour)
            assert _score(views, changed) <= right, (k, colour)


@pytest.mark.parametrize(("scene_id", "bridge"), [("f066_before", "B2"),
                                                  ("f036_before", "Y4")])
def test_a_bridge_read_a_level_low_is_put_back_on_its_two_blocks(scene_id: str,
                                                                 bridge: str) -> None:
    """The search raises the top to the second level, over the two blocks in their own
    colours (chosen by their pixels), and changes nothing else."""
    views, truth, wrong = _lowered_bridge(scene_id, bridge)
    refined, _notes = refine_reading(views, wrong, [], levels=True)
    assert len(refined) == len(truth)
    for b in truth:
        assert any(r.level == b.level and r.colour == b.colour
                   and math.hypot(r.centre[0] - b.centre[0], r.centre[1] - b.centre[1]) < 6
                   for r in refined), b
    scene, _views = _scene(scene_id)
    true_top = truth[list(scene.blocks).index(bridge)]
    top = next(r for r in refined if r.level == 2 and math.hypot(
        r.centre[0] - true_top.centre[0], r.centre[1] - true_top.centre[1]) < 6)
    assert sorted(refined[j].colour for j in top.rests_on) == sorted(
        truth[j].colour for j in true_top.rests_on)


@pytest.mark.parametrize(("scene_id", "bridge"), [("f066_before", "B2"),
                                                  ("f061_before", "W8")])
def test_a_bridge_the_faces_put_a_level_low_is_read_on_its_two_blocks(scene_id: str,
                                                                      bridge: str) -> None:
    """The set-up reading (read_field) of a scene whose bridge its top's size and
    neighbours put on the table: the bridge at the second level, resting on two blocks of
    the first of the true colours, where they stand."""
    scene, reading = read_tune_scene(scene_id)
    truth = scene.blocks[bridge]

    def near(centre: tuple[float, float], target: tuple[float, float]) -> bool:
        return math.hypot(centre[0] - target[0], centre[1] - target[1]) < 15.0

    top = next(b for b in reading.blocks if b.level == 2 and near(b.centre, truth.centre_mm))
    assert top.colour == truth.colour
    assert len(top.rests_on) == 2
    for j in top.rests_on:
        under = reading.blocks[j]
        assert under.level == 1
        assert any(near(under.centre, scene.blocks[k].centre_mm)
                   and under.colour == scene.blocks[k].colour for k in truth.rests_on)


def test_a_box_renders_its_top_where_the_camera_model_projects_it() -> None:
    """The render of one block shows its top over the pixels its top's corners project to,
    and its side faces only outside them."""
    scene, views = _scene("f066_before")
    _ids, truth = _true_reading(scene)
    block = next(b for b in truth if b.level == 2)
    search = _Search(views, [block])
    ev = search.evidence
    rows, cols = slice(0, ev.shape[0]), slice(0, ev.shape[1])
    labels = ev.render(search.boxes([block]), rows, cols)
    corners = views.pose.project([[x, y, 80.0] for x, y in block.outline])
    expected = np.zeros(labels.shape, np.uint8)
    cv2.fillConvexPoly(expected, np.round(corners - [ev.x0, ev.y0]).astype(np.int32), 1)
    top = labels == 0
    assert (top & (expected > 0)).sum() / (top | (expected > 0)).sum() > 0.85
    inside = cv2.erode(expected, np.ones((3, 3), np.uint8)) > 0
    assert (labels == 1).any() and not ((labels == 1) & inside).any()


@pytest.mark.parametrize("scene_id", ["f000_before", "f036_before", "f066_before"])
def test_the_frame_prefers_each_top_where_it_is_to_it_shifted(scene_id: str) -> None:
    """Every top seen whole scores worse moved 8 mm along either side (blocks are read to a
    millimetre or two: the score must feel a few pixels' shift)."""
    scene, views = _scene(scene_id)
    _ids, truth = _true_reading(scene)
    right = _score(views, truth)
    for k, b in enumerate(truth):
        if b.seen != "top" or scene.blocks[list(scene.blocks)[k]].top_visible < 0.99:
            continue
        for dx, dy in ((8.0, 0.0), (0.0, 8.0), (-8.0, 0.0), (0.0, -8.0)):
            moved = list(truth)
            centre = (b.centre[0] + dx, b.centre[1] + dy)
            moved[k] = dataclasses.replace(b, centre=centre,
                                           outline=square(centre, 40.0, b.angle))
            assert _score(views, moved) < right, (k, dx, dy)
