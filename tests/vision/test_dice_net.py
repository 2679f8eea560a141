"""The trained dice reader (issue 7, "Dice and bases": per-die accuracy on real photos)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import box_iou, read_dice, read_die
from vision.dice_net import DiceNet, die_crop, shipped_nets
from vision.dice_training import split_by_photo


def test_held_out_real_dice_are_read_by_the_shipped_networks(dice_dir: Path) -> None:
    """Photos held out of training (every fifth): the bench reads all 315 of their dice."""
    assert shipped_nets(), "the trained weights vision/dice_weights_*.json are missing"
    labels = json.loads((dice_dir / "labels.json").read_text())
    _training, held_out = split_by_photo(list(labels))
    right = total = 0
    for name in held_out[::2]:
        image = cv2.imread(str(dice_dir / name))
        for die in labels[name]:
            total += 1
            right += read_die(image, tuple(die["box"])) == die["pips"]
    assert total > 100
    assert right / total >= 0.90


def test_held_out_tray_photos_are_found_and_read(dice_dir: Path) -> None:
    """Found boxes are not the labelled ones, so reading them is a little harder."""
    labels = json.loads((dice_dir / "labels.json").read_text())
    total = matched = right = 0
    for name in split_by_photo(list(labels))[1][:6]:
        readings = read_dice(cv2.imread(str(dice_dir / name)))
        for die in labels[name]:
            total += 1
            hits = [r for r in readings if box_iou(r.box, tuple(die["box"])) >= 0.5]
            if hits:
                matched += 1
                right += hits[0].pips == die["pips"]
    assert matched >= 0.5 * total
    assert right >= 0.9 * matched


def test_backpropagation_matches_numerical_gradients() -> None:
    rng = np.random.default_rng(3)
    net = DiceNet.random(rng, channels=(3, 4, 5))
    x = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    y = np.array([1, 4])

    def loss() -> float:
        logits, _ = net.forward(x)
        logits = logits.astype(np.float64)
        p = np.exp(logits - logits.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        return float(-np.log(p[np.arange(2), y]).mean())

    logits, cache = net.forward(x)
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    p[np.arange(2), y] -= 1
    grads = net.backward((p / 2).astype(np.float32), cache)
    for name, index in (("w0", (5, 2)), ("w1", (7, 3)), ("wf", (2, 4)), ("b1", (1,))):
        saved = float(net.params[name][index])
        net.params[name][index] = saved + 1e-2
        up = loss()
        net.params[name][index] = saved - 1e-2
        down = loss()
        net.params[name][index] = saved
        assert grads[name][index] == pytest.approx((up - down) / 2e-2, rel=0.05, abs=1e-4)


def test_weights_round_trip_and_wrong_files_are_named() -> None:
    net = DiceNet.random(np.random.default_rng(0))
    again = DiceNet.from_json(json.loads(json.dumps(net.to_json())))
    crop = die_crop(np.full((60, 60, 3), 128, np.uint8), (10, 10, 50, 50))[None]
    assert np.allclose(net.probabilities(crop), again.probabilities(crop), atol=1e-3)
    data = net.to_json()
    data["input_px"] = 64
    with pytest.raises(ValueError, match=r"my\.json: made for 64 px crops"):
        DiceNet.from_json(data, "my.json")
    data = net.to_json()
    data["weights"]["w0"]["shape"] = [5, 5]
    with pytest.raises(ValueError, match=r"my\.json: weight 'w0'"):
        DiceNet.from_json(data, "my.json")


def test_split_keeps_every_photo_on_one_side_only() -> None:
    names = [f"IMG_{i:03d}.jpg" for i in range(23)]
    training, held_out = split_by_photo(names)
    assert not set(training) & set(held_out)
    assert sorted(training + held_out) == names
    assert len(held_out) == 5
