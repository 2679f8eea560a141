"""Compare an :class:`~vision.observe.Observation` with a rendered scene's ground truth.

Used by the tests and by ``bench/vision_accuracy.py``.

Example:
    >>> from vision.render import SceneSpec, render_scene
    >>> from vision.calibration import calibrate
    >>> from vision.observe import observe
    >>> scene = render_scene(SceneSpec(seed=7))
    >>> score = score_scene(observe(scene.image, calibrate(scene.image)), scene)
    >>> score.blocks_found == score.blocks_true
    True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.observe import Observation
from vision.render import Scene


@dataclass(frozen=True)
class SceneScore:
    """How one observation compares with the truth.

    Attributes:
        blocks_true: blocks drawn.
        blocks_found: drawn blocks matched by a seen block (centres within a third of a side).
        colours_right: matched blocks whose colour is right.
        false_blocks: seen blocks matching no drawn block.
        touching_exact: the touching graph equals the drawn one (over matched blocks, and
            every block matched).
        pawns_true: pawns drawn on a block.
        pawns_on_right_block: of those, seen with the right colour on the right block.
        false_pawns: seen pawns matching no drawn pawn.
        centre_error_mm: worst centre error of the matched blocks.
    """

    blocks_true: int
    blocks_found: int
    colours_right: int
    false_blocks: int
    touching_exact: bool
    pawns_true: int
    pawns_on_right_block: int
    false_pawns: int
    centre_error_mm: float


def match_blocks(obs: Observation, scene: Scene) -> dict[int, str]:
    """``{seen index: drawn id}`` pairing each drawn block with the nearest seen one."""
    limit = obs.layout.block_mm / 3
    pairs: dict[int, str] = {}
    taken: set[int] = set()
    for block in scene.field.blocks:
        best, best_d = None, limit
        for i, seen in enumerate(obs.blocks):
            d = float(np.hypot(seen.centre[0] - block.centre[0], seen.centre[1] - block.centre[1]))
            if i not in taken and d <= best_d:
                best, best_d = i, d
        if best is not None:
            pairs[best] = block.id
            taken.add(best)
    return pairs


def score_scene(obs: Observation, scene: Scene) -> SceneScore:
    """Score ``obs`` against ``scene``'s ground truth (see :class:`SceneScore`)."""
    pairs = match_blocks(obs, scene)
    truth = {b.id: b for b in scene.field.blocks}
    colours = sum(1 for i, bid in pairs.items() if obs.blocks[i].colour == truth[bid].colour)
    errors = [float(np.hypot(obs.blocks[i].centre[0] - truth[bid].centre[0],
                             obs.blocks[i].centre[1] - truth[bid].centre[1]))
              for i, bid in pairs.items()]
    seen_touch = {frozenset((pairs[i], pairs[j])) for i, j in obs.touching
                  if i in pairs and j in pairs}
    exact = (len(pairs) == len(truth) and len(pairs) == len(obs.blocks)
             and seen_touch == scene.touching)
    drawn = [p for p in scene.field.pawns if p.block is not None]
    right = 0
    matched_pawns = 0
    for pawn in drawn:
        for seen in obs.pawns:
            if seen.colour == pawn.colour:
                matched_pawns += 1
                if seen.block is not None and pairs.get(seen.block) == pawn.block:
                    right += 1
                break
    return SceneScore(len(truth), len(pairs), colours, len(obs.blocks) - len(pairs), exact,
                      len(drawn), right, max(0, len(obs.pawns) - matched_pawns),
                      max(errors, default=0.0))
