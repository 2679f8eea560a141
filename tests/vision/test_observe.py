"""Blocks, pawns and touching from one frame (issue 7, "Infinifield from the camera").

Touching follows infinifield.md "Official field-building rules", last bullet: blocks meant
not to touch stand half an inch or more apart; blocks that touch have a gap of a few mm.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.calibration import calibrate
from vision.devtools.scoring import score_scene
from vision.layout import INCH_MM, TableLayout
from vision.observe import observe
from vision.render import BlockSpec, FieldSpec, PawnSpec, SceneSpec, render_scene

SIDE = TableLayout().block_mm


@pytest.mark.parametrize("lighting", ["neutral", "dim", "warm", "uneven"])
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_every_block_colour_touch_and_pawn_is_right_under_each_lighting(
        lighting: str, seed: int) -> None:
    scene = render_scene(SceneSpec(seed=seed, lighting=lighting))
    score = score_scene(observe(scene.image, calibrate(scene.image)), scene)
    assert score.blocks_found == score.blocks_true
    assert score.false_blocks == 0
    assert score.colours_right == score.blocks_true
    assert score.touching_exact
    assert score.pawns_on_right_block == score.pawns_true
    assert score.false_pawns == 0
    assert score.centre_error_mm < 2.0


def _pair(gap_mm: float, colour_b: str = "yellow") -> FieldSpec:
    return FieldSpec((BlockSpec("W1", "white", (250.0, 220.0), 10.0),
                      BlockSpec("Y1", colour_b,
                                (250.0 + (SIDE + gap_mm) * np.cos(np.radians(10)),
                                 220.0 + (SIDE + gap_mm) * np.sin(np.radians(10))), 10.0)))


@pytest.mark.parametrize("gap_mm,touch", [(0.0, True), (1.0, True), (2.0, True),
                                          (INCH_MM / 2, False), (16.0, False)])
def test_gap_of_a_few_mm_touches_and_half_an_inch_does_not(gap_mm: float, touch: bool) -> None:
    """infinifield.md "Official field-building rules": half an inch apart means not touching."""
    scene = render_scene(SceneSpec(seed=3, field=_pair(gap_mm)))
    obs = observe(scene.image, calibrate(scene.image))
    assert [b.colour for b in obs.blocks] == ["white", "yellow"]
    assert (obs.touching == {(0, 1)}) is touch


def test_two_same_colour_blocks_pressed_together_are_two_blocks() -> None:
    scene = render_scene(SceneSpec(seed=4, field=_pair(0.0, colour_b="white")))
    obs = observe(scene.image, calibrate(scene.image))
    assert len(obs.blocks) == 2
    assert obs.touching == {(0, 1)}
    centres = sorted(b.centre for b in obs.blocks)
    assert np.hypot(*np.subtract(centres[0], centres[1])) == pytest.approx(SIDE, abs=1.5)


def test_pawn_is_placed_on_the_block_under_it_and_a_lifted_pawn_on_none() -> None:
    field = FieldSpec((BlockSpec("R1", "red", (200.0, 200.0)),
                       BlockSpec("B1", "blue", (200.0 + SIDE + 1, 200.0))),
                      (PawnSpec("green", (200.0 + SIDE + 2, 202.0), "B1"),
                       PawnSpec("orange", (300.0, 300.0), None)))
    obs = observe(render_scene(SceneSpec(seed=2, field=field)).image,
                  calibrate(render_scene(SceneSpec(seed=2, field=field)).image))
    ids = obs.block_ids()
    placed = {p.colour: (None if p.block is None else ids[p.block]) for p in obs.pawns}
    assert placed == {"green": "B1", "orange": None}


def test_a_hand_over_the_table_is_reported_and_a_clear_table_is_not() -> None:
    clear = render_scene(SceneSpec(seed=8))
    hand = render_scene(SceneSpec(seed=8, hand=True))
    assert not observe(clear.image, calibrate(clear.image)).hands_in_view
    assert observe(hand.image, calibrate(clear.image)).hands_in_view


def test_observe_is_pure_same_frame_same_observation() -> None:
    scene = render_scene(SceneSpec(seed=9))
    calib = calibrate(scene.image)
    frame = scene.image.copy()
    first = observe(frame, calib).summary()
    assert observe(frame, calib).summary() == first
    assert np.array_equal(frame, scene.image)
