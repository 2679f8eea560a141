"""The photoreal dice renderer (issue 13) and readers trained at another crop size.

The renders train the dice reader (``vision/devtools/render_dice.py``); a label that does not
match the face the render shows would teach it wrong, so the faces are read back here with
the training-free pip counter. Skipped where the optional ``[render]`` extra (bpy) or the
``[train]`` extra (torch) is not installed.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from vision.readers.dice import count_pips
from vision.readers.dice_reader import READER_PX, class_probabilities, crop_px

needs_bpy = pytest.mark.skipif(importlib.util.find_spec("bpy") is None,
                               reason="bpy (the optional [render] extra) is not installed")
needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                 reason="torch (the optional [train] extra) is not installed")


@needs_bpy
def test_each_rendered_face_shows_the_labelled_pips(tmp_path: Path) -> None:
    """Dice turned to faces 1-6 show 1-6 pips: the pip counter reads every one."""
    from vision.devtools.render_dice import render_face_row

    image, boxes = render_face_row(tmp_path)
    assert image.shape == (160, 480, 3)
    assert [count_pips(image, box) for box in boxes] == [1, 2, 3, 4, 5, 6]


@needs_bpy
def test_a_scene_labels_dice_where_they_are(tmp_path: Path) -> None:
    """A rendered scene's boxes hold dice (not floor), inside the image, faces 1-6."""
    from vision.devtools.render_dice import DiceScene

    scene = DiceScene(tmp_path, samples=4, size=(160, 160))
    image, dice = scene.render(np.random.default_rng(7))
    assert image.shape == (160, 160, 3) and dice
    floor = np.median(image.reshape(-1, 3), axis=0)
    for die in dice:
        x0, y0, x1, y1 = die["box"]
        assert 0 <= x0 < x1 <= 160 and 0 <= y0 < y1 <= 160
        assert die["pips"] in range(1, 7) and die["contrast"] >= 0
        crop = image[y0:y1, x0:x1].reshape(-1, 3).astype(float)
        assert np.abs(crop - floor).sum(axis=1).max() > 60, f"no die in {die['box']}"


def test_crop_size_comes_from_the_models_json(tmp_path: Path) -> None:
    """Without a .json beside the model the crop is the default; a bad one is named."""
    model = tmp_path / "reader.onnx"
    assert crop_px(model) == READER_PX
    bad = tmp_path / "bad.onnx"
    bad.with_suffix(".json").write_text(json.dumps({"crop_px": 4}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.json.*crop_px"):
        crop_px(bad)


@needs_torch
def test_a_reader_trained_at_56_px_reads_56_px_crops(tmp_path: Path) -> None:
    """The exported network and its .json travel together: the table crops at 56 px and
    gets the same probabilities as the network given those crops directly."""
    import torch

    from vision.devtools.dice_reader_train import DiceReader, export
    from vision.readers.dice_reader import reader_crops

    torch.manual_seed(3)
    model = DiceReader().eval()
    path = tmp_path / "reader56.onnx"
    export(model, path, 56)
    assert crop_px(path) == 56
    image = np.random.default_rng(1).integers(0, 255, (120, 160, 3)).astype(np.uint8)
    boxes = [(20, 20, 60, 60), (80, 30, 130, 80)]
    got = class_probabilities(image, boxes, path, views=1)
    with torch.no_grad():
        want = torch.softmax(model(torch.from_numpy(reader_crops(image, boxes, 56))), 1)
    assert np.allclose(got, want.numpy(), atol=1e-4)
