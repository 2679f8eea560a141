"""The trained dice detector and reader on real photos held out of all training and tuning
(issue 13: "every die in the tray, right"; the benchmark bench/dice_accuracy.py measures all
of them, these floors keep a regression from passing unnoticed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.devtools.dice_scoring import Totals, score_photo
from vision.dice import read_die
from vision.dice_data import load_labels, load_split, read_photo
from vision.dice_detect import MODEL as DETECTOR
from vision.dice_detect import find_dice_net
from vision.dice_reader import MODEL as READER
from vision.dice_reader import face_probabilities, read_faces
from vision.dice_tray import read_tray


def test_the_models_ship_small_and_run_without_torch() -> None:
    """Both networks are in the package, a few hundred KB, and reading a tray imports
    neither PyTorch nor onnxruntime (OpenCV's DNN module runs them)."""
    assert DETECTOR.is_file() and READER.is_file()
    assert DETECTOR.stat().st_size + READER.stat().st_size < 3_000_000
    code = ("import sys, numpy as np; from vision.dice_tray import read_tray; "
            "read_tray(np.full((240, 320, 3), 200, np.uint8)); "
            "print('torch' in sys.modules, 'onnxruntime' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.split() == ["False", "False"]


def test_held_out_dice_are_read_given_their_box(dice_dir: Path) -> None:
    """Every die of the 50 held-out photos, read from its labelled box."""
    labels = load_labels(dice_dir / "labels.json")
    right = total = 0
    for name in load_split()["held_out"]:
        dice = labels[name]
        faces = read_faces(read_photo(dice_dir / name), [d.box for d in dice])
        right += sum(f == d.pips for f, d in zip(faces, dice, strict=True))
        total += len(dice)
    assert total > 300
    assert right / total >= 0.95


def test_held_out_trays_are_found_and_read(dice_dir: Path) -> None:
    """Every other held-out photo, whole frame: dice found (IoU >= 0.5 and each alone in one
    box), few false boxes, most photos read exactly."""
    labels = load_labels(dice_dir / "labels.json")
    totals = Totals()
    for name in load_split()["held_out"][::2]:
        found = read_tray(read_photo(dice_dir / name))
        totals.add(score_photo(labels[name], [r.box for r in found], [r.pips for r in found]))
    assert totals.matched / totals.dice >= 0.96
    assert totals.matched / totals.found >= 0.96
    assert totals.alone / totals.dice >= 0.95
    assert totals.exact / totals.photos >= 0.6


def test_one_die_reads_the_same_alone_or_in_a_batch(dice_dir: Path) -> None:
    labels = load_labels(dice_dir / "labels.json")
    name = load_split()["held_out"][0]
    image = read_photo(dice_dir / name)
    boxes = [d.box for d in labels[name]]
    assert [read_die(image, b) for b in boxes] == read_faces(image, boxes)
    p = face_probabilities(image, boxes)
    assert p.shape == (len(boxes), 6) and np.allclose(p.sum(axis=1), 1, atol=1e-4)


def test_a_missing_model_is_named(tmp_path: Path) -> None:
    image = np.full((100, 100, 3), 128, np.uint8)
    with pytest.raises(ValueError, match=r"dice_detector\.onnx: the dice detector.s model is"):
        find_dice_net(image, model=tmp_path / "dice_detector.onnx")
    with pytest.raises(ValueError, match=r"reader\.onnx: the dice reader.s model is missing"):
        read_faces(image, [(10, 10, 50, 50)], model=tmp_path / "reader.onnx")
