"""Vision accuracy: rendered tables with exact ground truth, real dice and ArUco photos.

1. Rendered scenes (``vision.render``: random fields of 12-24 blocks of four colours,
   touching (gap 0-2 mm) or half an inch apart, 0-4 pawns, perspective, blur, noise) under
   neutral, dim, warm and uneven light and a harsh camera: block detection and colour
   (target >= 99 %), touching graph exactly right per scene (>= 98 %), pawn on the right
   block (>= 99.5 %), false blocks and pawns, worst centre error.
2. Real dice photos (``../shared/data/dice/train``, 200 photos, 1,487 dice): per-die
   accuracy given the labelled box (target >= 95 %): the trained network on the photos held
   out of its training (every fifth), and the training-free pip counter; separately,
   detection recall and precision of :func:`vision.dice.find_dice` (a found box matches a
   labelled one at IoU >= 0.5).
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

from vision.bases import distances, find_bases
from vision.calibration import calibrate
from vision.dice import box_iou, count_pips, find_dice, read_die
from vision.dice_net import shipped_nets
from vision.dice_training import split_by_photo
from vision.layout import INCH_MM
from vision.markers import detect_markers
from vision.observe import observe
from vision.render import LIGHTINGS, BaseSpec, FieldSpec, SceneSpec, render_scene
from vision.scoring import score_scene

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


def _read_all(reader, images: dict[str, np.ndarray], labels: dict, names: list[str]
              ) -> tuple[int, int, np.ndarray]:
    right = total = 0
    confusion = np.zeros((7, 7), int)
    for name in names:
        for die in labels[name]:
            pips = reader(images[name], tuple(die["box"]))
            confusion[die["pips"], pips] += 1
            right += pips == die["pips"]
            total += 1
    return right, total, confusion


def dice(every: int) -> None:
    folder = DATA / "dice" / "train"
    if not (folder / "labels.json").is_file():
        print(f"2. Dice: skipped, no photos at {folder}")
        return
    labels = json.loads((folder / "labels.json").read_text())
    names = sorted(labels)[::every]
    images = {name: cv2.imread(str(folder / name)) for name in names}
    training, held_out = split_by_photo(sorted(labels))
    held = [n for n in names if n in set(held_out)]
    seen = [n for n in names if n in set(training)]
    print(f"2. Real dice photos: {len(names)} photos, "
          f"{sum(len(labels[n]) for n in names)} dice")
    if shipped_nets():
        start = time.perf_counter()
        right, total, confusion = _read_all(read_die, images, labels, held)
        per_die = (time.perf_counter() - start) * 1000 / max(1, total)
        print(f"  read_die ({len(shipped_nets())} trained networks) on the {len(held)} "
              f"held-out photos, never "
              f"trained on: {right}/{total} = {100 * right / total:.2f} % (target 95), "
              f"{per_die:.1f} ms per die")
        print("  confusion (rows: labelled 1-6, columns: read 1-6):")
        for row in range(1, 7):
            print("    " + " ".join(f"{v:4d}" for v in confusion[row, 1:]))
        right, total, _ = _read_all(read_die, images, labels, seen)
        print(f"  read_die on the {len(seen)} training photos (seen in training, not a "
              f"measure): {right}/{total} = {100 * right / total:.2f} %")
    for part, chosen in (("all", names), ("held-out", held)):
        right, total, confusion = _read_all(count_pips, images, labels, chosen)
        print(f"  count_pips (no training) on {part} photos: {right}/{total} = "
              f"{100 * right / total:.2f} %")
    tp = fp = fn = 0
    for name in names:
        found = find_dice(images[name])
        used: set[int] = set()
        for die in labels[name]:
            gold = tuple(die["box"])
            best = max(range(len(found)), key=lambda i: box_iou(gold, found[i]), default=None)
            if best is not None and best not in used and box_iou(gold, found[best]) >= 0.5:
                tp += 1
                used.add(best)
            else:
                fn += 1
        fp += len(found) - len(used)
    print(f"  detection: recall {100 * tp / (tp + fn):.2f} % ({tp}/{tp + fn}), precision "
          f"{100 * tp / max(1, tp + fp):.2f} % ({tp}/{tp + fp}) at IoU >= 0.5")


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
    parser.add_argument("--dice-every", type=int, default=1, help="use every n-th dice photo")
    args = parser.parse_args()
    rendered(args.scenes)
    dice(args.dice_every)
    aruco()
    bases(args.scenes // 2)
    table3d()


if __name__ == "__main__":
    main()
