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


@cache
def tune_scene_views(scene_id: str) -> tuple[SceneTruth, TableViews]:
    """The scene ``scene_id`` (e.g. ``"f052_before"``) and its photo's views.

    The pose from the markers, colours learnt on the same photo. Skips when the photoreal
    set is absent; fails on a held-out scene (tests use tuning families only).
    """
    path = DEFAULT_DIR / f"{scene_id}.json"
    if not path.is_file():
        pytest.skip(f"photoreal table set not available at {DEFAULT_DIR}")
    scene = load_scene(path)
    assert scene.split == "tune", f"{scene_id} is held out: tests use tuning families only"
    frame = scene.image()
    pose = solve_pose(find_table_markers(frame, scene.layout), scene.camera.size,
                      intrinsics_of(scene, "true"), scene.layout)
    palette = learn_palette(TableViews(frame, pose, default_palette()))
    return scene, TableViews(frame, pose, palette)


@cache
def read_tune_scene(scene_id: str) -> tuple[SceneTruth, FieldReading]:
    """The scene ``scene_id`` and its set-up reading (see :func:`tune_scene_views`)."""
    scene, views = tune_scene_views(scene_id)
    return scene, read_field(views.frame, views.pose, views.palette)
