r"""Training data for the level network: every top the reader finds, with its true level.

For each photoreal render (a folder of ``table3d`` scenes, any role), the tops are found as
:func:`vision.readers.field3d.read_field` finds them (the palette learnt on the frame, the
pose from the markers with the render's camera), and each is labelled with the level of the
true top whose centre it lies on in the frame (tops covered by another block and faces on
no top's centre, such as the strip of a bridge's support, are left out). Saved as one
``.npz``: ``bgr`` (N, side, side, 3) uint8, ``scalars`` (N, 2) float32 (the patch's
smear and pixel planes), ``level`` (N,) 1-3, ``family`` and ``scene`` (N,) strings,
``size`` (N,) the frame's width.

Usage::

    python -m vision.devtools.level_data --folder tests/data/table3d --split tune \\
        --out /tmp/levels_tune.npz
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from vision.camera_model import Intrinsics
from vision.devtools.table3d_truth import SceneTruth, iter_scenes
from vision.palette import default_palette
from vision.pose import PoseError, TablePose, find_table_markers, solve_pose
from vision.readers.faces3d import find_faces, one_per_top
from vision.readers.level_net import level_patch
from vision.readers.table_views import TableViews, learn_palette

MATCH_SHARE = 0.3
"""A face is a true top's when its centre lies within this share of a top's size (in frame
pixels) of that top's centre."""


def scene_pose(scene: SceneTruth, frame: np.ndarray) -> TablePose | None:
    """The pose from the scene's markers with the render's own camera; None if not found."""
    cam = scene.camera
    intr = Intrinsics(np.asarray(cam.K, float), np.asarray(cam.dist, float), cam.size,
                      "calibrated", "calibrated")
    markers = find_table_markers(frame, scene.layout)
    try:
        return solve_pose(markers, cam.size, intr, scene.layout)
    except PoseError:
        return None


def labelled_tops(scene: SceneTruth) -> list[tuple[np.ndarray, int]]:
    """The patches and true levels of the tops the reader finds in one scene."""
    frame = scene.image()
    pose = scene_pose(scene, frame)
    if pose is None:
        return []
    h1 = scene.layout.block_height_mm
    palette = learn_palette(TableViews(frame, pose, default_palette()))
    views = TableViews(frame, pose, palette, 1.0)
    faces = one_per_top(find_faces(views, h1), scene.layout.block_mm)
    covered = {bid for b in scene.blocks.values() for bid in b.rests_on}
    tops = [b for bid, b in scene.blocks.items() if bid not in covered]
    if not tops or not faces:
        return []
    true_px = pose.project([[b.centre_mm[0], b.centre_mm[1], b.level * h1] for b in tops])
    out = []
    for f in faces:
        px = pose.project([[f.centre[0], f.centre[1], h1]])[0]
        side = np.linalg.norm(pose.project([[f.centre[0] + 20, f.centre[1], h1]])[0]
                              - pose.project([[f.centre[0] - 20, f.centre[1], h1]])[0])
        d = np.linalg.norm(true_px - px[None], axis=1)
        k = int(d.argmin())
        if d[k] > MATCH_SHARE * side:
            continue
        out.append((level_patch(frame, pose, f.centre, h1), int(tops[k].level)))
    return out


def main(argv: list[str] | None = None) -> int:
    """Build the data set of one folder's scenes."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--folder", type=Path, required=True)
    ap.add_argument("--split", choices=("tune", "holdout", "all"), default="tune")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    bgr, scalars, levels, families, scenes, sizes = [], [], [], [], [], []
    for scene in iter_scenes(args.folder, None):
        if args.split != "all" and scene.split != args.split:
            continue
        for patch, level in labelled_tops(scene):
            bgr.append(np.clip(patch[:3].transpose(1, 2, 0) * 255 + 0.5, 0, 255)
                       .astype(np.uint8))
            scalars.append(patch[3:, 0, 0])
            levels.append(level)
            families.append(scene.family)
            scenes.append(scene.id)
            sizes.append(scene.camera.size[0])
        print(f"{scene.id}: {len(levels)} tops so far", file=sys.stderr)
    np.savez_compressed(args.out, bgr=np.array(bgr), scalars=np.array(scalars, np.float32),
                        level=np.array(levels), family=np.array(families),
                        scene=np.array(scenes), size=np.array(sizes))
    counts = np.bincount(np.array(levels), minlength=4)[1:]
    print(f"{args.out}: {len(levels)} tops, by level {counts.tolist()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
