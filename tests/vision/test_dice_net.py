"""The numpy dice network of issue 7 (now the benchmark's baseline reader, its weights in
bench/dice_baseline/): its gradients, its weights file and its split."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.devtools.dice_net import DiceNet, die_crop
from vision.devtools.dice_training import split_by_photo


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
