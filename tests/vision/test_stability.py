"""Waiting for a still view (issue 7, "Tracking": hands out of the frame)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.render import SceneSpec, render_scene
from vision.stability import StabilityDetector


def test_still_only_after_enough_unchanged_frames_and_not_while_a_hand_moves() -> None:
    table = render_scene(SceneSpec(seed=51)).image
    hand = render_scene(SceneSpec(seed=51, hand=True)).image
    still = StabilityDetector(still_frames=3)
    assert [still.update(table) for _ in range(4)] == [False, False, False, True]
    assert still.update(hand) is False                 # the hand came in
    assert still.update(table) is False                # and left: wait again
    assert [still.update(table) for _ in range(3)] == [False, False, True]


def test_sensor_noise_alone_does_not_count_as_movement() -> None:
    rng = np.random.default_rng(1)
    base = render_scene(SceneSpec(seed=52, noise_sigma=0)).image.astype(np.int16)
    still = StabilityDetector(still_frames=2)
    frames = [np.clip(base + rng.normal(0, 4, base.shape), 0, 255).astype(np.uint8)
              for _ in range(3)]
    assert [still.update(f) for f in frames] == [False, False, True]


def test_still_frames_must_be_positive() -> None:
    with pytest.raises(ValueError, match="still_frames must be at least 1"):
        StabilityDetector(still_frames=0)
