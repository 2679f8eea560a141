"""Vision accuracy: rendered tables with exact ground truth, real dice and ArUco photos.

1. Rendered scenes (``vision.render``: random fields of 12-24 blocks of four colours,
   touching (gap 0-2 mm) or half an inch apart, 0-4 pawns, perspective, blur, noise) under
   neutral, dim, warm and uneven light and a harsh camera: block detection and colour
   (target >= 99 %), touching graph exactly right per scene (>= 98 %), pawn on the right
   block (>= 99.5 %), false blocks and pawns, worst centre error.
2. Real dice photos (``../shared/data/dice/train``): the 50 photos held out of all training
   and tuning (``vision/models/dice_split.json``, labels with the project's corrections):
   per-die accuracy given the labelled box (target >= 98 %) of the trained reader and of the
   training-free pip counter; whole trays read by ``read_tray`` (photos exact, detection
   recall and precision at IoU >= 0.5, dice alone in one box).
3. Real ArUco photos (``../shared/data/aruco``): every gold marker found, worst corner error
   (target <= 1 px), and markers found that are not gold (target 0).
4. ArUco-marked miniature bases on rendered tables: distance error in inches (target 0.1).
5. The photoreal table (issue 12): every figure of the issue's table per lighting, camera
   height and image size, held-out families apart (``bench/table3d_accuracy.py``).

Usage:
    .venv/bin/python bench/vision_accuracy.py [--scenes 100] [--dice-every 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import calibrate
from vision.devtools.dice_data import load_labels, load_split, read_photo
from vision.devtools.dice_scoring import Totals, score_photo
from vision.devtools.scoring import score_scene
from vision.layout import INCH_MM
from vision.markers import detect_markers
from vision.observe import observe
from vision.readers.bases import distances, find_bases
from vision.readers.dice import count_pips
from vision.readers.dice_reader import read_faces
from vision.readers.dice_tray import read_tray
from vision.render import LIGHTINGS, BaseSpec, FieldSpec, SceneSpec, render_scene

DATA = Path(os.environ.get("INFINITE_SHARED_DATA",
                           Path(__file__).resolve().parents[2] / "shared" / "data"))


CONDITIONS = {lighting: {"lighting": lighting} for lighting in LIGHTINGS} | {
    "harsh": {"lighting": "uneven", "blur_sigma": 1.5, "noise_sigma": 8.0, "perspective": 0.07}}
"""Each lighting with the default camera (blur 0.6, noise 3, perspective 4 %), and a harsh
camera: uneven light, blur 1.5 px, noise 8, perspective 7 %."""


def rendered(scenes_per_lighting: int) -> None:
    print(f"1. Rendered scenes, {scenes_per_lighting} per condition, 640x480")
    totals: Counter[str] = Counter()
    for lighting, options in CONDITIONS.items():
        c: Counter[str] = Counter()
        worst = 0.0
        for seed in range(scenes_per_lighting):
            scene = render_scene(SceneSpec(seed=10_000 + seed, **options))
            s = score_scene(observe(scene.image, calibrate(scene.image)), scene)
            c.update(blocks=s.blocks_true, found=s.blocks_found, colour=s.colours_right,
                     false_blocks=s.false_blocks, scenes=1, exact=int(s.touching_exact),
                     pawns=s.pawns_true, pawns_right=s.pawns_on_right_block,
                     false_pawns=s.false_pawns)
            worst = max(worst, s.centre_error_mm)
        totals.update(c)
        print(f"  {lighting:8} blocks found {c['found']}/{c['blocks']}, colour right "
              f"{c['colour']}/{c['blocks']}, touching exact {c['exact']}/{c['scenes']}, "
              f"pawns on right block {c['pawns_right']}/{c['pawns']}, false blocks "
              f"{c['false_blocks']}, false pawns {c['false_pawns']}, worst centre error "
              f"{worst:.2f} mm")
    t = totals
    print(f"  ALL      block detection {100 * t['found'] / t['blocks']:.2f} % (target 99), "
          f"detection and colour {100 * t['colour'] / t['blocks']:.2f} % (target 99), "
          f"touching graph exact {100 * t['exact'] / t['scenes']:.2f} % of scenes (target 98), "
          f"pawn on block {100 * t['pawns_right'] / max(1, t['pawns']):.2f} % (target 99.5)")


def dice(every: int) -> None:
    folder = DATA / "dice" / "train"
    if not (folder / "labels.json").is_file():
        print(f"2. Dice: skipped, no photos at {folder}")
        return
    labels = load_labels(folder / "labels.json")
    names = load_split()["held_out"][::every]
    images = {name: read_photo(folder / name) for name in names}
    dice_count = sum(len(labels[n]) for n in names)
    print(f"2. Real dice photos held out of all training and tuning: {len(names)} photos, "
          f"{dice_count} dice (bench/dice_accuracy.py gives the full report)")
    start = time.perf_counter()
    right = sum(r == d.pips for n in names
                for d, r in zip(labels[n], read_faces(images[n], [d.box for d in labels[n]]),
                                strict=True))
    per_die = (time.perf_counter() - start) * 1000 / max(1, dice_count)
    pips = sum(count_pips(images[n], d.box) == d.pips for n in names for d in labels[n])
    print(f"  per die given the box: trained reader {100 * right / dice_count:.2f} % "
          f"({right}/{dice_count}, target 98, {per_die:.1f} ms per die), count_pips "
          f"{100 * pips / dice_count:.2f} %")
    totals = Totals()
    for n in names:
        found = read_tray(images[n])
        totals.add(score_photo(labels[n], [r.box for r in found], [r.pips for r in found]))
    print(f"  read_tray, whole frame: {totals.line()}")


def aruco() -> None:
    folder = DATA / "aruco"
    if not (folder / "labels.json").is_file():
        print(f"3. ArUco: skipped, no photos at {folder}")
        return
    labels = json.loads((folder / "labels.json").read_text())
    print("3. Real ArUco photos (DICT_6X6_250)")
    for name, gold in labels["images"].items():
        found = detect_markers(cv2.imread(str(folder / name)), labels["dictionary"])
        gold_ids = {int(k) for k in gold}
        missing = sorted(gold_ids - set(found))
        extra = sorted(set(found) - gold_ids)
        worst = max((float(np.linalg.norm(found[int(k)] - np.array(v, float), axis=1).max())
                     for k, v in gold.items() if int(k) in found), default=float("nan"))
        print(f"  {name:28} gold {len(gold_ids):2d}, found {len(gold_ids) - len(missing):2d}, "
              f"missing {missing}, not gold {extra}, worst corner error {worst:.2f} px")


def bases(scenes: int) -> None:
    rng = random.Random(5)
    errors: list[float] = []
    missed = 0
    for seed in range(scenes):
        spots: list[tuple[float, float]] = []
        while len(spots) < 4:
            p = (rng.uniform(120, 480), rng.uniform(100, 350))
            if all(np.hypot(p[0] - q[0], p[1] - q[1]) > 40 for q in spots):
                spots.append(p)
        specs = tuple(BaseSpec(10 + i, p) for i, p in enumerate(spots))
        size = (1280, 720) if seed % 2 else (640, 480)
        scene = render_scene(SceneSpec(seed=seed, size=size, field=FieldSpec(()), bases=specs))
        seen = find_bases(scene.image, calibrate(scene.image))
        missed += 4 - len(seen)
        for (a, b), d in distances(seen).items():
            (xa, ya), (xb, yb) = spots[a - 10], spots[b - 10]
            errors.append(abs(d.centre_in - np.hypot(xa - xb, ya - yb) / INCH_MM))
    print(f"4. Marked bases: {scenes} rendered scenes of 4 bases (640x480 and 1280x720), "
          f"missed {missed}, distance error max {max(errors):.3f} in, mean "
          f"{statistics.fmean(errors):.3f} in (target 0.1 in)")


def table3d() -> None:
    """5. The photoreal table set (issue 12), through ``bench/table3d_accuracy.py``."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from table3d_accuracy import main as table_main

    print("5. Photoreal table (issue 12)")
    table_main(["--split", "all"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100, help="scenes per condition")
    parser.add_argument("--dice-every", type=int, default=1,
                        help="use every n-th held-out dice photo")
    args = parser.parse_args()
    rendered(args.scenes)
    dice(args.dice_every)
    aruco()
    bases(args.scenes // 2)
    table3d()


if __name__ == "__main__":
    main()
