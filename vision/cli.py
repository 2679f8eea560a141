"""``infinite-vision``: the camera tools from the command line.

Commands::

    infinite-vision markers --out sheet.pdf [--bases 10-19]   print the markers sheet
    infinite-vision calibrate IMAGE [--out table.json] [--learn-palette] [--camera NAME|TOML]
    infinite-vision check table.json IMAGE                  is the calibration still right?
    infinite-vision charuco --out board.png                 print the camera calibration board
    infinite-vision calibrate-camera PHOTO... [--out camera.toml]   measure the camera's lens
    infinite-vision pose IMAGE [--camera NAME|TOML]         where the camera is above the table
    infinite-vision read IMAGE [--calibration table.json] [--camera NAME|TOML] [--json]
                               [--field-toml OUT] [--check quickstart|official]
                               the whole field in 3D: tops at every level, stacks, pawns
    infinite-vision observe IMAGE [--calibration table.json] [--json] [--field-toml OUT]
                                  [--check quickstart|official]
    infinite-vision dice IMAGE                              read the dice in a tray photo
    infinite-vision bases IMAGE [--calibration table.json]  distances between marked bases
    infinite-vision watch SOURCE --setup FIELD.toml [--players Ann,Ben] [--hold 3]
                                  [--model 3d|flat] [--camera NAME|TOML] [--calibration F]
                                  replay a camera, folder or video into a referee session
    infinite-vision render --out scene.png [--seed N] [--lighting uneven] [--hand]
    infinite-vision samples [--out DIR]                     regenerate the sample footage

Exit status: 0 done, 1 the table/field has problems (e.g. field checks failed), 2 bad input.

Example:
    >>> import os, tempfile
    >>> out = os.path.join(tempfile.mkdtemp(), "scene.png")
    >>> main(["render", "--seed", "1", "--out", out])  # doctest: +ELLIPSIS
    wrote ...scene.png: ... blocks, ... touching pairs, ... pawns
    0
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.calibration import Calibration, CalibrationError, calibrate, load_calibration
from vision.capture import CaptureError


def _image(path: str) -> np.ndarray:
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise CaptureError(f"{path}: not a readable image")
    return image


def _calibration(image: np.ndarray, path: str | None) -> Calibration:
    return load_calibration(path) if path else calibrate(image)


def _ids(text: str) -> list[int]:
    ids: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        try:
            ids += list(range(int(lo), int(hi or lo) + 1))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{text!r}: expected ids like 10-19,25") from exc
    return ids


def _cmd_markers(args: argparse.Namespace) -> int:
    from vision.sheet import write_sheet

    path = write_sheet(args.out, base_ids=args.bases, dpi=args.dpi)
    print(f"wrote {path}: print at 100 % scale and check a marker with a ruler")
    return 0


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from vision.palette import adapt_palette, default_palette
    from vision.rectify import rectify

    image = _image(args.image)
    calib = calibrate(image)
    if args.camera:
        from vision.camera_model import camera_named
        from vision.pose import table_pose

        pose = table_pose(image, camera_named(args.camera))   # checks the camera fits
        calib = replace(calib, camera=args.camera)
        print(pose.describe())
    if args.learn_palette:
        top = rectify(image, calib)
        learnt = adapt_palette(default_palette(), top.image)
        calib = replace(calib, palette={c.name: list(c.lab) for c in learnt.classes})
    calib.save(args.out)
    print(f"calibrated from {len(calib.marker_px)} markers; saved {args.out}")
    return 0


def _intrinsics(spec: str | None, calib_path: str | None) -> Any:
    """The camera named on the command line, else the one the calibration file names."""
    from vision.camera_model import camera_named

    if spec:
        return camera_named(spec)
    if calib_path:
        calib = load_calibration(calib_path)
        if calib.camera:
            return camera_named(calib.camera, Path(calib_path).parent)
    return None


def _cmd_charuco(args: argparse.Namespace) -> int:
    from vision.camera_model import CharucoBoard

    board = CharucoBoard()
    if not cv2.imwrite(args.out, board.image()):
        raise CaptureError(f"{args.out}: could not write the image")
    print(f"wrote {args.out}: {board.squares[0]}x{board.squares[1]} squares of "
          f"{board.square_mm:g} mm at 300 dpi; print at 100 % and measure a square")
    return 0


def _cmd_calibrate_camera(args: argparse.Namespace) -> int:
    from vision.camera_model import CharucoBoard, calibrate_charuco

    board = CharucoBoard(square_mm=args.square_mm, marker_mm=args.marker_mm)
    images = [_image(p) for p in args.photos]
    cam, rms, used = calibrate_charuco(images, board, name=args.name)
    Path(args.out).write_text(cam.to_toml(), encoding="utf-8")
    print(f"{cam.describe()}; board found in {used} of {len(images)} photos, reprojection "
          f"error {rms:.2f} px RMS; saved {args.out}")
    if rms > 1.0:
        print("  the error is high: photos blurred, or the board's print not flat / not to "
              "scale?")
    return 0


def _cmd_pose(args: argparse.Namespace) -> int:
    from vision.pose import table_pose

    image = _image(args.image)
    pose = table_pose(image, _intrinsics(args.camera, args.calibration))
    print(pose.describe())
    return 0


def _cmd_read(args: argparse.Namespace) -> int:
    from companion.games.infinifield import check_field
    from vision.pose import table_pose
    from vision.readers.field3d import read_field

    image = _image(args.image)
    intrinsics = _intrinsics(args.camera, args.calibration)
    pose = table_pose(image, intrinsics)
    ground = []
    photo = None
    if args.first_level:
        from vision.palette import default_palette
        from vision.readers.added3d import FirstLevelPhoto
        from vision.readers.ground3d import first_level
        from vision.readers.table_views import TableViews

        before = _image(args.first_level)
        before_pose = table_pose(before, intrinsics)
        ground = first_level(read_field(before, before_pose).blocks,
                             TableViews(before, before_pose, default_palette()))
        photo = FirstLevelPhoto(before, before_pose)
    reading = read_field(image, pose, ground=ground, ground_photo=photo)
    summary = reading.summary()
    summary["camera"] = pose.describe()
    if args.first_level:
        summary["first_level"] = {"photo": args.first_level, "blocks": len(ground)}
    status = 0
    if args.check:
        violations = check_field(reading.to_field(), args.check)
        summary["violations"] = [v.to_json() for v in violations]
        status = 1 if violations else 0
    if args.field_toml:
        Path(args.field_toml).write_text(reading.field_toml(), encoding="utf-8")
    if args.json:
        print(json.dumps(summary, indent=1))
        return status
    print(pose.describe())
    stacked = sum(1 for b in reading.blocks if b.level > 1)
    print(f"{len(reading.blocks)} blocks ({stacked} stacked), {len(reading.touching)} touching "
          f"pairs, {len(reading.pawns)} pawns{', hands in view' if reading.hands_in_view else ''}")
    if args.first_level:
        print(f"  read on the first level of {args.first_level} ({len(ground)} blocks)")
    for b in summary["blocks"]:
        on = f" on {', '.join(b['on'])}" if b["on"] else ""
        print(f"  {b['id']:4} {b['colour']:7} level {b['level']} at {b['centre_mm']} mm{on}"
              f"{'' if b['seen'] == 'top' else ' (' + b['seen'] + ')'}")
    for p in summary["pawns"]:
        print(f"  pawn {p['colour']} on {p['on'] or 'no block'}")
    for note in reading.notes:
        print(f"  check: {note}")
    for a, b in summary["unsure_touching"]:
        said = "touch" if sorted((a, b)) in summary["touching"] else "do not touch"
        print(f"  check: {a} and {b}, a level apart, read as they {said}; the camera cannot "
              "tell (read a few mm apart)")
    for v in summary.get("violations", []):
        print(f"  field check: {v['code']}: {v['message']} [{v['rule']}]")
    return status


def _cmd_check(args: argparse.Namespace) -> int:
    from vision.calibration import DRIFT_LIMIT_PX, drift_px

    calib = load_calibration(args.calibration)
    drift = drift_px(calib, _image(args.image))
    if drift == float("inf"):
        print(f"{args.calibration}: no table marker in view; recalibrate")
        return 1
    verdict = "still good" if drift <= DRIFT_LIMIT_PX else "moved: recalibrate"
    print(f"{args.calibration}: markers within {drift:.1f} px of their calibrated place: "
          f"{verdict}")
    return 0 if drift <= DRIFT_LIMIT_PX else 1


def _cmd_observe(args: argparse.Namespace) -> int:
    from vision.observe import observe
    from vision.readers.infinifield import check_observed_field, field_toml

    image = _image(args.image)
    obs = observe(image, _calibration(image, args.calibration))
    summary = obs.summary()
    status = 0
    if args.check:
        violations = check_observed_field(obs, args.check)
        summary["violations"] = [v.to_json() for v in violations]
        status = 1 if violations else 0
    if args.field_toml:
        Path(args.field_toml).write_text(field_toml(obs), encoding="utf-8")
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"{len(obs.blocks)} blocks, {len(obs.touching)} touching pairs, "
              f"{len(obs.pawns)} pawns{', hands in view' if obs.hands_in_view else ''}")
        for b in summary["blocks"]:
            print(f"  {b['id']:4} {b['colour']:7} at {b['centre_mm']} mm")
        for p in summary["pawns"]:
            print(f"  pawn {p['colour']} on {p['on'] or 'no block'}")
        for v in summary.get("violations", []):
            print(f"  field check: {v['code']}: {v['message']} [{v['rule']}]")
    return status


def _cmd_dice(args: argparse.Namespace) -> int:
    from vision.readers.dice import read_dice

    readings = read_dice(_image(args.image))
    for r in readings:
        print(f"die at {list(r.box)}: {r.pips}")
    print("roll " + " ".join(str(r.pips) for r in readings) if readings else "no dice found")
    return 0


def _cmd_bases(args: argparse.Namespace) -> int:
    from vision.readers.bases import distances, find_bases

    image = _image(args.image)
    bases = find_bases(image, _calibration(image, args.calibration))
    for (a, b), d in sorted(distances(bases).items()):
        print(f"{a}-{b}: {d.centre_in:.1f} in centre to centre, {d.edge_in:.1f} in base to base")
    if len(bases) < 2:
        print(f"{len(bases)} marked base(s) found; need two to measure")
    return 0


SAID_STATUS = {
    "hands": "hands over the table: waiting for a clear view",
    "markers lost": "the table's markers are not where they were: is the camera moved?",
    "recalibrated": "the camera moved: the table was found again",
}
"""What ``watch`` prints when a still view's status changes to one of these."""


def _table_watcher(session: Any, frame: np.ndarray, args: argparse.Namespace,
                   intrinsics: Any) -> Any:
    """The watcher of ``session``, set up on ``frame`` (which must show the table's markers).

    ``--model 3d`` (the default) watches through the camera model, as the app does with a
    live camera: the pose from this frame, the block colours learnt from it. ``--model flat``
    reads the table plane (drawings such as ``vision/samples``).
    """
    from vision.stability import StabilityDetector
    from vision.watcher import TableWatcher

    stability = StabilityDetector(args.still)
    if args.model == "flat":
        return TableWatcher(session, calibrate(frame), stability=stability)
    from vision.calibration import calibrate_from_markers
    from vision.palette import default_palette
    from vision.pose import find_table_markers, table_pose
    from vision.readers.table_views import TableViews, learn_palette

    pose = table_pose(frame, intrinsics)
    calib = calibrate_from_markers(find_table_markers(frame, pose.layout),
                                   (frame.shape[1], frame.shape[0]))
    palette = learn_palette(TableViews(frame, pose, default_palette()))
    return TableWatcher(session, calib, stability=stability, pose=pose, palette=palette)


def _cmd_watch(args: argparse.Namespace) -> int:
    from companion.games.registry import load_game
    from companion.session import Session
    from vision.capture import open_source
    from vision.pose import PoseError
    from vision.watcher import TableWatcher

    # a wrong camera file is the user's to fix now, not a frame's to wait out
    intrinsics = _intrinsics(args.camera, args.calibration) if args.model == "3d" else None
    setup = Path(args.setup)
    options = {"players": args.players.split(",")} if args.players else {}
    session = Session.new(load_game("infinifield"),
                          {"setup": (str(setup), setup.read_text(encoding="utf-8"))},
                          options, seed=1)
    source = open_source(args.source, hold=args.hold)
    watcher: TableWatcher | None = None
    unseen: ValueError | None = None    # why the frames so far did not show the table
    shown = "ok"                        # the still view's status last said
    with source:
        while (frame := source.read()) is not None:
            if watcher is None:
                try:
                    watcher = _table_watcher(session, frame, args, intrinsics)
                except (CalibrationError, PoseError) as exc:   # markers not found: a hand
                    unseen = exc            # over one, the camera still warming up
                    continue
                if unseen is not None:
                    print(f"the table's markers are in view (earlier frames: {unseen})")
                    unseen = None
            report = watcher.feed(frame)
            if report.still and report.status != shown:
                if report.status in SAID_STATUS:
                    print(SAID_STATUS[report.status])
                shown = report.status
            for candidate, verdict in report.proposed:
                verdict_text = "accepted" if verdict.legal else f"refused: {verdict.reason}"
                print(f"{candidate.text}  ({candidate.seen}) -> {verdict_text}")
    if watcher is None and unseen is not None:
        raise CalibrationError(f"{args.source}: no frame showed the table's markers: {unseen}")
    print("record: " + ("; ".join(session.history) or "(nothing accepted)"))
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from vision.render import SceneSpec, render_scene

    scene = render_scene(SceneSpec(seed=args.seed, lighting=args.lighting, hand=args.hand,
                                   size=(args.width, args.height)))
    if not cv2.imwrite(args.out, scene.image):
        raise CaptureError(f"{args.out}: could not write the image")
    print(f"wrote {args.out}: {len(scene.field.blocks)} blocks, "
          f"{len(scene.touching)} touching pairs, {len(scene.field.pawns)} pawns")
    return 0


def _cmd_samples(args: argparse.Namespace) -> int:
    from vision.recording import SAMPLES_DIR, write_samples

    written = write_samples(args.out or SAMPLES_DIR)
    print(f"wrote {len(written)} frames to {written[0].parent}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``infinite-vision``."""
    parser = argparse.ArgumentParser(prog="infinite-vision",
                                     description="Camera tools of the Infinite Table Companion")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("markers", help="write the printable markers sheet (PDF or PNG)")
    p.add_argument("--out", required=True, help="sheet.pdf or sheet.png")
    p.add_argument("--bases", type=_ids, default=[], help="base marker ids, e.g. 10-19")
    p.add_argument("--dpi", type=int, default=300)
    p.set_defaults(run=_cmd_markers)
    p = sub.add_parser("calibrate", help="calibrate the table from a photo of its markers")
    p.add_argument("image")
    p.add_argument("--out", default="table-calibration.json")
    p.add_argument("--learn-palette", action="store_true",
                   help="learn the colours of this table's blocks from the photo")
    p.add_argument("--camera", help="the camera: pi-camera-2, pi-camera-3, webcam-65 or a "
                   "calibrate-camera TOML file (default: estimated from the markers)")
    p.set_defaults(run=_cmd_calibrate)
    p = sub.add_parser("charuco", help="write the ChArUco board for calibrate-camera")
    p.add_argument("--out", required=True, help="board.png (300 dpi)")
    p.set_defaults(run=_cmd_charuco)
    p = sub.add_parser("calibrate-camera",
                       help="measure the camera's lens from photos of the ChArUco board")
    p.add_argument("photos", nargs="+", help="4 or more photos of the board, tilted, "
                   "covering the frame's corners too")
    p.add_argument("--out", default="camera.toml")
    p.add_argument("--name", default="calibrated")
    p.add_argument("--square-mm", type=float, default=30.0, help="measured square side")
    p.add_argument("--marker-mm", type=float, default=22.0, help="measured marker side")
    p.set_defaults(run=_cmd_calibrate_camera)
    p = sub.add_parser("pose", help="where the camera is above the table")
    p.add_argument("image")
    p.add_argument("--camera")
    p.add_argument("--calibration", help="a calibration file naming the camera")
    p.set_defaults(run=_cmd_pose)
    p = sub.add_parser("read", help="read the whole field in 3D (levels, stacks, pawns)")
    p.add_argument("image")
    p.add_argument("--camera")
    p.add_argument("--calibration", help="a calibration file naming the camera")
    p.add_argument("--json", action="store_true")
    p.add_argument("--field-toml", help="write the field read as a field file")
    p.add_argument("--check", choices=["quickstart", "official"],
                   help="run the engine's field-building checks")
    p.add_argument("--first-level", metavar="PHOTO",
                   help="a photo of the field's first level taken before the stacking (same "
                        "camera): hidden blocks keep what it saw, tops over it stand on it, "
                        "and a block set on it since shows where the two photos differ")
    p.set_defaults(run=_cmd_read)
    p = sub.add_parser("check", help="is a saved calibration still right for this view?")
    p.add_argument("calibration")
    p.add_argument("image")
    p.set_defaults(run=_cmd_check)
    p = sub.add_parser("observe", help="blocks, touching pairs and pawns in one photo")
    p.add_argument("image")
    p.add_argument("--calibration", help="saved calibration (default: calibrate from the photo)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--field-toml", help="write the seen field as a field file")
    p.add_argument("--check", choices=["quickstart", "official"],
                   help="run the engine's field-building checks")
    p.set_defaults(run=_cmd_observe)
    p = sub.add_parser("dice", help="read the dice in a tray photo")
    p.add_argument("image")
    p.set_defaults(run=_cmd_dice)
    p = sub.add_parser("bases", help="distances in inches between marked miniature bases")
    p.add_argument("image")
    p.add_argument("--calibration")
    p.set_defaults(run=_cmd_bases)
    p = sub.add_parser("watch", help="referee an Infinifield game from a camera or a replay")
    p.add_argument("source", help="pi, usb:N, a video file or a folder of frames")
    p.add_argument("--setup", required=True, help="the field file (TOML)")
    p.add_argument("--players", help="e.g. Ann,Ben (else the field file's [match])")
    p.add_argument("--hold", type=int, default=3, help="frames per image of a folder")
    p.add_argument("--still", type=int, default=2, help="still frames before reading a view")
    p.add_argument("--model", choices=["3d", "flat"], default="3d",
                   help="3d: the camera model over a real table (default); flat: the table "
                   "plane, for flat drawings such as vision/samples")
    p.add_argument("--camera", help="the camera (with --model 3d): pi-camera-2, pi-camera-3, "
                   "webcam-65 or a calibrate-camera TOML (default: the calibration's, else "
                   "estimated from the markers)")
    p.add_argument("--calibration", help="a table calibration naming the camera")
    p.set_defaults(run=_cmd_watch)
    p = sub.add_parser("render", help="draw a synthetic table scene")
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lighting", default="neutral",
                   choices=["neutral", "dim", "warm", "uneven"])
    p.add_argument("--hand", action="store_true")
    p.add_argument("--width", type=int, default=640)
    p.add_argument("--height", type=int, default=480)
    p.set_defaults(run=_cmd_render)
    p = sub.add_parser("samples", help="regenerate the sample footage")
    p.add_argument("--out")
    p.set_defaults(run=_cmd_samples)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``infinite-vision``; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (CaptureError, CalibrationError, ValueError, OSError) as exc:
        # CameraModelError and PoseError are ValueErrors: named file, key or missing marker
        print(f"infinite-vision {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
