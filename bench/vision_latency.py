"""Vision latency: the full Infinifield pipeline per frame, on one core, against bare ArUco.

For each frame size (640x480 and 1280x720) the same rendered frames (random fields of 12-24
blocks, pawns, perspective, blur, noise, uneven light) go through

- the full pipeline, ``observe(frame, calibration)``: marker check near the calibrated
  corners (drift), rectification to the table plane, white balance from the markers' paper,
  CIELAB classification, blocks (with same-colour splitting), pawns, touching graph, hands;
- the named baseline, bare ``cv2.aruco.ArucoDetector.detectMarkers`` on the grey frame
  (default parameters, whole frame), which is what any camera pipeline pays at least;

and the median, 90th percentile and mean per frame are printed with the ratio
pipeline / baseline. ``cv2.setNumThreads(1)``: one core. Target: at most 15 ms per 640x480
frame (about 100 ms on a Pi 4).

Usage:
    .venv/bin/python bench/vision_latency.py [--frames 30] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import cv2
import numpy as np

from vision.calibration import calibrate
from vision.observe import observe
from vision.render import LIGHTINGS, SceneSpec, render_scene


def _interleaved(pipeline, baseline, items, repeat: int) -> tuple[list[float], list[float]]:
    """Time both on every item, alternating, so a busy machine slows both alike."""
    full, bare = [], []
    for _ in range(repeat):
        for frame, calib, grey in items:
            t = time.perf_counter()
            pipeline(frame, calib)
            t1 = time.perf_counter()
            baseline(grey)
            t2 = time.perf_counter()
            full.append((t1 - t) * 1000)
            bare.append((t2 - t1) * 1000)
    return full, bare


def _row(name: str, ms: list[float]) -> str:
    q90 = float(np.percentile(ms, 90))
    return (f"  {name:34} median {statistics.median(ms):6.2f} ms   p90 {q90:6.2f} ms   "
            f"mean {statistics.fmean(ms):6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    aruco = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                    cv2.aruco.DetectorParameters())
    print(f"OpenCV {cv2.__version__}, threads {cv2.getNumThreads()}, "
          f"load average {os.getloadavg()[0]:.1f}, "
          f"{args.frames} frames x {args.repeat} runs per size")
    for size in ((640, 480), (1280, 720)):
        scenes = [render_scene(SceneSpec(seed=1000 + i, size=size,
                                         lighting=LIGHTINGS[i % len(LIGHTINGS)]))
                  for i in range(args.frames)]
        items = [(s.image, calibrate(s.image), cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY))
                 for s in scenes]
        for frame, calib, _grey in items[:3]:     # warm caches (palette table, masks)
            observe(frame, calib)
        full, bare = _interleaved(observe, aruco.detectMarkers, items, args.repeat)
        ratio = statistics.median(full) / statistics.median(bare)
        print(f"{size[0]}x{size[1]}:")
        print(_row("full Infinifield pipeline", full))
        print(_row("baseline ArucoDetector.detectMarkers", bare))
        print(f"  ratio pipeline / baseline (medians): {ratio:.2f}")
        if size == (640, 480):
            verdict = "met" if statistics.median(full) <= 15.0 else "NOT met"
            print(f"  target <= 15 ms per 640x480 frame: {verdict}")


if __name__ == "__main__":
    main()
