"""Set-up from the camera (issue 12): how often a field passes as read, and the taps the rest need.

For every ``before`` photo of the photoreal set (``tests/data/table3d``, held-out families by
default), the app's set-up path is followed: the camera's pose from the markers, the field
read (:func:`companion.app.field_capture.capture_field`), shown as the set-up screen shows it
(:class:`~companion.app.field_capture.SetupView`, 540 x 400 px, the picture of the 800x480
screen). Then a player who knows the true field corrects it by tapping where the screen
shows each thing, through the same hit test as the screen:

- a block of the wrong colour: tapped until its colour is right (white -> yellow -> red ->
  blue -> not a block);
- a missed block whose place shows no bare table (a tower's base under its top, a place a
  misread block covers): first, in move mode, the block read off its place there moved onto
  it, or a misplaced block covering it put at its true place (with move mode only);
- a false block: tapped until it is dropped;
- a missed block at level 1: tapped where its top is (added, white), then to its colour;
  where no bare spot of it shows even then, a long press where its top is (with move mode);
- touching pairs that differ: one tap on "Touching", then one per pair;
- where the verdict still differs from the true field's: blocks read more than 3 mm or 3
  degrees off their place moved in move mode ("Move", a tap on the block's mark, a tap where
  its top truly is, or the arrows where that spot is another block's mark; the turning
  arrows), then the touching pairs again.

Each reading is corrected twice, by a player without move mode (the screen before it had
one: "without moves") and with it, from the same reading, so the two figures compare in one
run whatever the reader does.

A missed stacked block or a wrong support cannot be fixed by touch (the builder reads again):
such photos are counted apart. After the taps the draft must equal the true field (same
blocks, colours, stacking, touching) and get the same field-building verdict; otherwise the
photo counts as not corrected.

With ``--ground DIR`` the players first keep the stacked field's first level as read on
``DIR/<family>_ground.jpg`` ("Keep level 1", as read, uncorrected, with that photo), and
the set-up photo is read on it.

Usage:
    .venv/bin/python bench/field_setup_taps.py [--split holdout|tune|all] [--mode quickstart]
        [--intrinsics true|none] [--fields all|stacked|flat] [--ground DIR] [--verbose]
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.app.field_capture import capture_field  # noqa: E402
from companion.app.field_view import TAP_RADIUS_PX, SetupView  # noqa: E402
from tests.app.field_setup_player import (  # noqa: E402
    PICTURE,
    correct,
    equal_to_truth,
    intrinsics_of,
    truth_verdict,
)
from vision.devtools.table3d_truth import iter_scenes, load_scene  # noqa: E402


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folder", default=str(ROOT / "tests" / "data" / "table3d"))
    parser.add_argument("--split", default="holdout", choices=("holdout", "tune", "all"))
    parser.add_argument("--mode", default="quickstart", choices=("quickstart", "official"))
    parser.add_argument("--intrinsics", default="true", choices=("true", "none"))
    parser.add_argument("--fields", default="all", choices=("all", "stacked", "flat"))
    parser.add_argument("--ground", metavar="DIR",
                        help="keep each stacked field's first level as read on "
                             "DIR/<family>_ground.jpg before reading it")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(list(argv) if argv is not None else None)
    started = time.perf_counter()
    scenes = [s for s in iter_scenes(args.folder, None if args.split == "all" else args.split)
              if s.role == "before"
              and (args.fields == "all" or s.stacked == (args.fields == "stacked"))]
    c: Counter[str] = Counter()
    taps_needed: dict[bool, list[int]] = {False: [], True: []}
    targets: list[float] = []
    after: list[float] = []
    reasons: dict[bool, Counter[str]] = {False: Counter(), True: Counter()}
    for scene in scenes:
        c["photos"] += 1
        intrinsics = intrinsics_of(scene, args.intrinsics)
        first = Path(args.ground or ".") / f"{scene.family}_ground.json"
        ground = []
        photo = None
        if args.ground and first.is_file():
            c["first_level_kept"] += 1
            kept = capture_field(load_scene(first).image(), intrinsics)
            ground, photo = kept.draft.first_level(), kept.photo()
        read = capture_field(scene.image(), intrinsics, ground, photo)
        targets.append(SetupView(read, *PICTURE).smallest_target_px())
        truth = truth_verdict(scene, args.mode)
        passes = not read.draft.problems(args.mode, 2)
        exact = equal_to_truth(read.draft, scene)
        c["passes_as_read"] += passes
        c["exact_as_read"] += exact
        c["passes_as_read_and_exact"] += passes and exact
        c["truth_passes"] += not truth
        line = []
        for moves in (False, True):
            capture = dataclasses.replace(read, draft=copy.deepcopy(read.draft))
            view = SetupView(capture, *PICTURE)
            taps, why = correct(capture, scene, view, args.mode, moves)
            if moves:
                after.append(view.smallest_target_px())
            done = not why and equal_to_truth(capture.draft, scene)
            verdict = sorted(v.code for v in capture.draft.problems(args.mode, 0))
            if done and verdict != truth:
                why = f"verdict {verdict} differs from the true field's {truth}"
                done = False
            if done:
                c[f"corrected_{moves}"] += 1
                if not exact:
                    taps_needed[moves].append(taps)
            else:
                reasons[moves][why or "not equal after the taps"] += 1
            line.append(f"{'with' if moves else 'without'} moves: taps {taps}"
                        f"{'' if done else ' NOT CORRECTED: ' + why}")
        if args.verbose:
            print(f"  {scene.id} ({'stacked' if scene.stacked else 'flat'}, "
                  f"{scene.camera.size[0]}px): passes as read {passes}, exact {exact}; "
                  f"{'; '.join(line)}")
    n = c["photos"]
    print(f"field set-up from the camera, {args.split} 'before' photos ({n}), mode "
          f"{args.mode}, intrinsics {args.intrinsics}, picture {PICTURE[0]}x{PICTURE[1]} px")
    if args.ground:
        print(f"  read on their first level (kept as read): {c['first_level_kept']}/{n}")
    print(f"  true fields passing {args.mode}: {c['truth_passes']}/{n}")
    print(f"  read field passes check_field without correction: {c['passes_as_read']}/{n} "
          f"({100 * c['passes_as_read'] / max(n, 1):.1f} %); of them exactly the true "
          f"field: {c['passes_as_read_and_exact']}")
    print(f"  read field exactly the true field: {c['exact_as_read']}/{n}")
    for moves in (False, True):
        name = "with move mode   " if moves else "without move mode"
        needed = taps_needed[moves]
        print(f"  {name}: corrected by touch {len(needed)} photos" + (
            f", taps median {statistics.median(needed):g}, mean "
            f"{statistics.mean(needed):.1f}, max {max(needed)}; each: {sorted(needed)}"
            if needed else ""))
        print(f"  {name}: cannot be corrected by touch {sum(reasons[moves].values())} "
              f"{dict(reasons[moves]) if reasons[moves] else ''}")
    print(f"  block marks: closest two {min(targets):.0f} px apart as read (median photo "
          f"{statistics.median(targets):.0f} px), {min(after):.0f} px after the taps; a tap "
          f"within {TAP_RADIUS_PX:g} px hits the nearest")
    print(f"  {time.perf_counter() - started:.1f} s")

if __name__ == "__main__":
    main()
