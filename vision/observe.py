"""``observe(frame) -> Observation``: what the camera sees on the table, pure.

No capture, no threads, no clocks: a frame and a calibration in, an observation out. The
same frame always gives the same observation, which is what the tests and the accuracy
benchmark rely on.

Example:
    >>> from vision.render import SceneSpec, render_scene
    >>> from vision.calibration import calibrate
    >>> scene = render_scene(SceneSpec(seed=5))
    >>> obs = observe(scene.image, calibrate(scene.image))
    >>> len(obs.blocks) == len(scene.field.blocks)
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from vision.calibration import DRIFT_LIMIT_PX, Calibration, drift_px
from vision.detect import (
    SeenBlock,
    SeenPawn,
    class_counts,
    find_blocks,
    find_pawns,
    unknown_blob_mm2,
)
from vision.geometry import touching_pairs
from vision.layout import TableLayout
from vision.markers import TABLE_DICTIONARY, detect_markers_near
from vision.palette import UNKNOWN, Palette, default_palette, provisional_ids
from vision.rectify import marker_keepout, rectify

HAND_MM2 = 1500.0
"""An unmatched region larger than this (mm²) is taken for a hand or an arm over the table."""


@dataclass(frozen=True)
class ObserveConfig:
    """How to look at the table.

    Attributes:
        palette: the colour classes (default: the Infinifield set).
        px_per_mm: scale of the top view that detection runs on.
        check_markers: look for the table markers (around their calibrated places) in every
            frame to measure drift.
        hand_mm2: see :data:`HAND_MM2`.
    """

    palette: Palette = field(default_factory=default_palette)
    px_per_mm: float = 1.0
    check_markers: bool = True
    hand_mm2: float = HAND_MM2


@dataclass(frozen=True)
class Observation:
    """What one frame shows.

    Attributes:
        blocks: the blocks, sorted by colour then reading order.
        pawns: the pawns, each with the index in ``blocks`` of the block it stands on.
        touching: index pairs ``(i, j)``, ``i < j``, of blocks whose outlines are at most
            ``layout.touch_mm`` apart.
        markers: table markers seen near their calibrated places (``{id: corners px}``).
        drift_px: how far the table markers moved since calibration (``inf``: none seen).
        hands_in_view: a large region matching no colour is over the table.
        layout: the table the positions refer to.
    """

    blocks: tuple[SeenBlock, ...]
    pawns: tuple[SeenPawn, ...]
    touching: frozenset[tuple[int, int]]
    markers: dict[int, np.ndarray]
    drift_px: float
    hands_in_view: bool
    layout: TableLayout

    @property
    def needs_recalibration(self) -> bool:
        """The markers moved further than :data:`~vision.calibration.DRIFT_LIMIT_PX`."""
        return self.drift_px > DRIFT_LIMIT_PX

    def block_ids(self) -> list[str]:
        """Provisional ids by colour letter and reading order (``W1``, ``W2``, ``Y1``...)."""
        return provisional_ids(b.colour for b in self.blocks)

    def summary(self) -> dict[str, Any]:
        """A JSON-ready summary (provisional block ids, mm rounded to 0.1)."""
        ids = self.block_ids()
        return {
            "blocks": [{"id": ids[i], "colour": b.colour,
                        "centre_mm": [round(b.centre[0], 1), round(b.centre[1], 1)],
                        "angle_deg": round(b.angle, 1)} for i, b in enumerate(self.blocks)],
            "touching": sorted([ids[i], ids[j]] for i, j in self.touching),
            "pawns": [{"colour": p.colour,
                       "centre_mm": [round(p.centre[0], 1), round(p.centre[1], 1)],
                       "on": None if p.block is None else ids[p.block]} for p in self.pawns],
            "drift_px": None if self.drift_px == float("inf") else round(self.drift_px, 2),
            "hands_in_view": self.hands_in_view,
        }


@lru_cache(maxsize=8)
def _palette_with(palette: Palette, references: tuple[tuple[str, tuple[float, ...]], ...]
                  ) -> Palette:
    return palette.with_references(dict(references))


@lru_cache(maxsize=8)
def _keepout(layout: TableLayout, px_per_mm: float) -> np.ndarray:
    return marker_keepout(layout, px_per_mm)


def observe(frame: np.ndarray, calib: Calibration, config: ObserveConfig | None = None
            ) -> Observation:
    """Look at one frame of the calibrated table.

    Args:
        frame: BGR image from the camera.
        calib: the table calibration (its palette, if any, overrides the config's).
        config: detection settings.

    Returns:
        The :class:`Observation`.
    """
    config = config or ObserveConfig()
    palette = config.palette
    if calib.palette:
        palette = _palette_with(palette, tuple(sorted(
            (k, tuple(v)) for k, v in calib.palette.items())))
    layout = calib.layout
    markers: dict[int, np.ndarray] = {}
    drift = 0.0
    if config.check_markers:
        expected = {i: np.asarray(c, np.float32) for i, c in calib.marker_px.items()}
        markers = detect_markers_near(frame, expected, TABLE_DICTIONARY)
        drift = drift_px(calib, markers)
    top = rectify(frame, calib, config.px_per_mm)
    classes = palette.classify(top.image)
    keepout = _keepout(layout, config.px_per_mm)
    classes[keepout > 0] = UNKNOWN
    counts = class_counts(classes)
    blocks = find_blocks(classes, palette, layout, config.px_per_mm, counts)
    pawns = find_pawns(classes, palette, layout, config.px_per_mm, blocks, counts)
    outlines = {str(i): b.outline for i, b in enumerate(blocks)}
    pairs = touching_pairs(outlines, layout.touch_mm)
    touching = frozenset(tuple(sorted(int(v) for v in p)) for p in pairs)
    hands = unknown_blob_mm2(classes, keepout, config.px_per_mm, UNKNOWN) > config.hand_mm2
    return Observation(tuple(blocks), tuple(pawns),
                       touching,  # type: ignore[arg-type]
                       markers, drift, hands, layout)
