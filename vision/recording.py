"""Recorded sample footage for the desktop simulation, drawn by the scene renderer.

The footage is a short Infinifield game seen from above, one JPEG per still view (a replay
holds each for several frames, see :class:`~vision.capture.FolderSource`), with a hand over
the table between views. ``script.txt`` beside the frames lists the actions the camera
should propose for each view, so the simulation and its tests know what to expect.

Example:
    >>> [name for name, _field, _hand, _actions in sample_story()][:2]
    ['00_field', '01_hand']
"""

from __future__ import annotations

from pathlib import Path

import cv2

from vision.layout import TableLayout
from vision.render import BlockSpec, FieldSpec, SceneSpec, render_scene

SAMPLES_DIR = Path(__file__).with_name("samples")
"""Where the shipped footage lives (``vision/samples``, a package so it installs)."""

GRID = (("Y1", "W1", "R1", "Y2", "W2"),
        ("R2", "B1", "Y3", "R3", "Y4"),
        ("W3", "Y5", "W4", "B2", "R4"))
COLOURS = {"W": "white", "Y": "yellow", "R": "red", "B": "blue"}


def sample_field() -> FieldSpec:
    """The sample field: three touching rows of five blocks (legal under both rule sets)."""
    side = TableLayout().block_mm + 1.0
    return FieldSpec(tuple(
        BlockSpec(block_id, COLOURS[block_id[0]], (215.0 + c * side, 165.0 + r * side), 4.0)
        for r, row in enumerate(GRID) for c, block_id in enumerate(row)))


def sample_story() -> list[tuple[str, FieldSpec, bool, list[str]]]:
    """``(name, field, hand in view, actions expected)`` for each recorded view.

    Ann and Ben play; Ann acts first. Ann's pawn is green, Ben's magenta.
    """
    f0 = sample_field()
    f1 = f0.with_pawn_on("green", "W1")
    f2 = f1.with_pawn_on("magenta", "W4")
    f3 = f2.with_pawn_on("green", "B1")
    f4 = f3.with_pawn_on("magenta", "Y5")
    return [
        ("00_field", f0, False, []),
        ("01_hand", f1, True, []),
        ("02_start_ann", f1, False, ["start Ann W1"]),
        ("03_start_ben", f2, False, ["start Ben W4"]),
        ("04_move_ann", f3, False, ["move Ann W1 B1"]),
        ("05_move_ben", f4, False, ["move Ben W4 Y5"]),
        ("06_block_gone", f4.without_block("R4"), False, ["remove Ann R4 (refused)"]),
    ]


def write_samples(folder: Path | str = SAMPLES_DIR, quality: int = 70,
                  size: tuple[int, int] = (640, 480)) -> list[Path]:
    """Render the sample footage into ``folder`` (JPEG frames, ``field.toml`` and a script).

    Returns:
        The frame files written.
    """
    from vision.calibration import calibrate
    from vision.observe import observe
    from vision.readers.infinifield import field_toml

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    script = ["# view: actions the camera proposes (Ann green, Ben magenta; Ann first)"]
    first = None
    for name, fld, hand, actions in sample_story():
        scene = render_scene(SceneSpec(seed=7, size=size, field=fld, hand=hand,
                                       lighting="uneven", perspective=0.03))
        path = folder / f"{name}.jpg"
        cv2.imwrite(str(path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        written.append(path)
        script.append(f"{name}: {'; '.join(actions) if actions else '-'}")
        if first is None:
            first = scene.image
    assert first is not None
    toml = field_toml(observe(first, calibrate(first)), name="Sample field (camera)")
    (folder / "field.toml").write_text(
        toml.replace("[field]", '[match]\nplayers = ["Ann", "Ben"]\nbuilder = "Ben"\n\n[field]'),
        encoding="utf-8")
    (folder / "script.txt").write_text("\n".join(script) + "\n", encoding="utf-8")
    return written
