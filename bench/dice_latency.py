"""Dice latency: reading a whole tray of 5-10 dice at 640x640 on one core, against today's.

The held-out photos of ``vision/models/dice_split.json`` that hold 5-10 dice (real phone
photos, 640x640) go through

- the pipeline, ``vision.readers.dice_tray.read_tray(frame)``: the trained detector (OpenCV DNN,
  320 px) and all dice read in one batch by the trained reader (two views each), OpenCV on
  one thread, no BLAS;
- the named baseline, bare ``find_dice`` + ``read_die`` as they were before issue 13: the
  training-free finder, then each found die read by the three numpy networks
  (``bench/dice_baseline/``), numpy's BLAS at its default threads;

alternating photo by photo, so a busy machine slows both alike. With ``--busy N`` (default
1) N processes spin for the whole run: "a busy CPU" (on a 2-core machine, the other core
loaded). The process itself is pinned to one core. Target: the pipeline at most 150 ms per
tray.

``--reader X.onnx`` times a candidate reader too, in the same loop (a third row), so its
cost is measured against the shipped one under the same load.

Usage:
    .venv/bin/python bench/dice_latency.py [--repeat 3] [--busy 1] [--reader X.onnx]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.devtools.dice_data import load_labels, load_split, read_photo
from vision.devtools.dice_net import face_probabilities, shipped_nets
from vision.readers.dice import find_dice
from vision.readers.dice_tray import read_tray

DATA = Path(os.environ.get("INFINITE_SHARED_DATA",
                           Path(__file__).resolve().parents[2] / "shared" / "data"))
BASELINE = Path(__file__).with_name("dice_baseline")


def _spin(stop: Any, cores: set[int]) -> None:
    if cores and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cores)
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x += 1


def baseline_read(frame: np.ndarray) -> list[int]:
    """Today's bare find_dice + read_die (three numpy networks per die)."""
    nets = shipped_nets(BASELINE)
    return [int(face_probabilities(nets, frame, box).argmax()) + 1 for box in find_dice(frame)]


def _row(name: str, ms: list[float]) -> str:
    return (f"  {name:44} median {statistics.median(ms):7.1f} ms   p90 "
            f"{float(np.percentile(ms, 90)):7.1f} ms   mean {statistics.fmean(ms):7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--busy", type=int, default=1, help="spinning processes meanwhile")
    parser.add_argument("--reader", type=Path, help="a candidate reader to time as well")
    args = parser.parse_args()
    folder = DATA / "dice" / "train"
    if not (folder / "labels.json").is_file():
        print(f"skipped: no photos at {folder}")
        return
    labels = load_labels(folder / "labels.json")
    names = [n for n in load_split()["held_out"] if 5 <= len(labels[n]) <= 10]
    frames = [read_photo(folder / n) for n in names]
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    others = set(cores[1:])
    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=_spin, args=(stop, others), daemon=True)
                for _ in range(args.busy)]
    for p in spinners:
        p.start()
    if cores:
        os.sched_setaffinity(0, {cores[0]})      # the bench on one core, the spinners beside
    read_tray(frames[0])
    baseline_read(frames[0])
    if args.reader:
        read_tray(frames[0], model=args.reader)
    new, old, dice, candidate = [], [], [], []
    try:
        for _ in range(args.repeat):
            for frame in frames:
                t = time.perf_counter()
                found = read_tray(frame)
                t1 = time.perf_counter()
                baseline_read(frame)
                t2 = time.perf_counter()
                new.append((t1 - t) * 1000)
                old.append((t2 - t1) * 1000)
                dice.append(len(found))
                if args.reader:
                    t = time.perf_counter()
                    read_tray(frame, model=args.reader)
                    candidate.append((time.perf_counter() - t) * 1000)
    finally:
        stop.set()
        for p in spinners:
            p.join()
    print(f"Dice latency: {len(frames)} held-out photos of 5-10 dice (640x640) x {args.repeat}"
          f", pinned to one core, {args.busy} busy process(es) meanwhile, load "
          f"{os.getloadavg()[0]:.1f}, OpenCV {cv2.__version__}")
    print(_row("read_tray (detector + batched reader)", new))
    print(_row("baseline find_dice + read_die (numpy, BLAS)", old))
    if candidate:
        print(_row(f"read_tray, reader {args.reader.name}", candidate))
    print(f"  ratio pipeline / baseline (medians): "
          f"{statistics.median(new) / statistics.median(old):.2f}; dice found per tray "
          f"{statistics.fmean(dice):.1f}; target <= 150 ms per tray")


if __name__ == "__main__":
    main()
