"""Reading a shipped photoreal tune scene as the app does at set-up (shared by the tests).

The pose from the table markers with the render's own intrinsics (standing for
``calibrate-camera``), colours learnt on the same photo, then ``read_field``. Readings are
cached: several tests ask about the same scene. Held-out scenes are refused.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

from vision.devtools.table3d_truth import DEFAULT_DIR, SceneTruth, load_scene
from vision.palette import default_palette
from vision.pose import find_table_markers, solve_pose
from vision.readers.field3d import FieldReading, read_field
from vision.readers.table_views import TableViews, learn_palette

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from table3d_accuracy import intrinsics_of

HIRES_DIR = DEFAULT_DIR.parent / "table3d_1280"
"""Sixteen stacked tuning scenes of the shipped set rendered again at 1280x960."""


def load_tune_scene(scene_id: str, folder: Path = DEFAULT_DIR) -> SceneTruth:
    """The scene ``scene_id`` (e.g. ``"f052_before"``) of ``folder``.

    Skips when the photoreal set is absent; fails on a held-out scene (tests use tuning
    families only).
    """
    path = folder / f"{scene_id}.json"
    if not path.is_file():
        pytest.skip(f"photoreal table set not available at {folder}")
    scene = load_scene(path)
    assert scene.split == "tune", f"{scene_id} is held out: tests use tuning families only"
    return scene


@cache
def tune_scene_views(scene_id: str, folder: Path = DEFAULT_DIR, intrinsics: str = "true"
                     ) -> tuple[SceneTruth, TableViews]:
    """The scene ``scene_id`` of ``folder`` (:func:`load_tune_scene`) and its photo's views.

    The pose from the markers, colours learnt on the same photo. ``intrinsics``: the
    render's own camera (``"true"``) or none, the focal length estimated from the markers
    (``"none"``, as without ``calibrate-camera``).
    """
    scene = load_tune_scene(scene_id, folder)
    frame = scene.image()
    pose = solve_pose(find_table_markers(frame, scene.layout), scene.camera.size,
                      intrinsics_of(scene, intrinsics), scene.layout)
    palette = learn_palette(TableViews(frame, pose, default_palette()))
    return scene, TableViews(frame, pose, palette)


@cache
def read_tune_scene(scene_id: str, folder: Path = DEFAULT_DIR, intrinsics: str = "true"
                    ) -> tuple[SceneTruth, FieldReading]:
    """The scene ``scene_id`` of ``folder`` and its set-up reading (see
    :func:`tune_scene_views`)."""
    scene, views = tune_scene_views(scene_id, folder, intrinsics)
    return scene, read_field(views.frame, views.pose, views.palette)


def assert_read_whole(scene: SceneTruth, reading: FieldReading, assumed_ok: bool = False
                      ) -> None:
    """Every block read at its level with its colour, exactly the blocks it rests on, and
    exactly the scene's touching pairs (``assumed_ok``: a block assumed under another may
    have another colour)."""
    from table3d_accuracy import match

    m = match(reading, scene)
    ids = {i: bid for bid, i in m.items()}
    assert len(reading.blocks) == len(scene.blocks) == len(m)
    for bid, block in scene.blocks.items():
        seen = reading.blocks[m[bid]]
        assert seen.colour == block.colour or (assumed_ok and seen.seen == "assumed"), bid
        assert {ids[j] for j in seen.rests_on} == set(block.rests_on), bid
    pairs = {frozenset((ids[i], ids[j])) for i, j in reading.touching}
    assert pairs == set(scene.touching)


def assert_tops_read(scene_id: str, block_ids: list[str], within_mm: float,
                     seen_as: str | None = None) -> tuple[SceneTruth, FieldReading, dict]:
    """The tops ``block_ids`` of a tune scene read with their colour on the first level,
    within ``within_mm`` of where they stand (and ``seen_as`` ``top``, ``part``...: how).

    Returns the scene, its reading and the match of true ids to read blocks.
    """
    import math

    from table3d_accuracy import match

    scene, reading = read_tune_scene(scene_id)
    m = match(reading, scene)
    for bid in block_ids:
        truth = scene.blocks[bid]
        assert bid in m, f"{scene_id}: {bid} ({truth.colour}) not read"
        seen = reading.blocks[m[bid]]
        assert (seen.colour, seen.level) == (truth.colour, 1), (scene_id, bid)
        assert seen_as is None or seen.seen == seen_as, (scene_id, bid, seen.seen)
        assert math.dist(seen.centre, truth.centre_mm) <= within_mm, (scene_id, bid,
                                                                       seen.centre)
    return scene, reading, m


def assert_bridge_on_its_blocks(scene: SceneTruth, reading: FieldReading, top_id: str,
                                within_mm: float = 10.0) -> None:
    """The bridge ``top_id`` read at level 2 in its colour, on exactly two blocks read at
    level 1, each within ``within_mm`` of one of its true supports and of that one's colour.
    """
    import math

    top = scene.blocks[top_id]
    assert top.level == 2 and len(top.rests_on) == 2, top
    bridge = [b for b in reading.blocks
              if b.level == 2 and math.dist(b.centre, top.centre_mm) <= within_mm]
    assert [b.colour for b in bridge] == [top.colour], bridge
    under = [reading.blocks[j] for j in bridge[0].rests_on]
    assert len(under) == 2, under
    for bid in top.rests_on:
        support = scene.blocks[bid]
        near = [b for b in under if math.dist(b.centre, support.centre_mm) <= within_mm]
        assert [(b.colour, b.level) for b in near] == [(support.colour, 1)], (bid, under)


def read_on_first_level(family: str, folder: Path) -> tuple[SceneTruth, FieldReading]:
    """The stacked photo of ``family`` in ``folder``, read on its first level.

    The first level is read on the family's ``_ground`` photo (its own pose and colours)
    and given with that photo, as the app reads a stacked field at set-up.
    """
    from vision.readers.added3d import FirstLevelPhoto
    from vision.readers.ground3d import first_level

    _ground_scene, ground_reading = read_tune_scene(f"{family}_ground", folder)
    _ground_scene, ground_views = tune_scene_views(f"{family}_ground", folder)
    scene, views = tune_scene_views(f"{family}_before", folder)
    frame, pose, palette = views.frame, views.pose, views.palette
    return scene, read_field(
        frame, pose, palette, views=TableViews(frame, pose, palette),
        ground=first_level(ground_reading.blocks, ground_views),
        ground_photo=FirstLevelPhoto(ground_views.frame, ground_views.pose))


def block_read_as(reading: FieldReading, scene: SceneTruth, block_id: str,
                  within_mm: float = 5.0) -> int | None:
    """The index of the block read as ``block_id``: its level and colour, within
    ``within_mm`` of its centre (None: not read so)."""
    import math

    truth = scene.blocks[block_id]
    for i, b in enumerate(reading.blocks):
        if (b.level == truth.level and b.colour == truth.colour
                and math.dist(b.centre, truth.centre_mm[:2]) < within_mm):
            return i
    return None


def assert_no_block_over(scene: SceneTruth, reading: FieldReading, a: str, b: str) -> None:
    """No block read a level up within 15 mm of the middle of the blocks ``a`` and ``b``
    (where a bridge over them would stand)."""
    import math

    ca, cb = (scene.blocks[bid].centre_mm[:2] for bid in (a, b))
    middle = ((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2)
    assert not any(t.level == 2 and math.dist(t.centre, middle) < 15.0
                   for t in reading.blocks), (a, b)
