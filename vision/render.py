"""Synthetic top-down table scenes with exact ground truth, for tests and benchmarks.

A scene is drawn on a canvas in table millimetres (two pixels per mm, antialiased), then
projected through a random camera homography (perspective), lit (dimmer, warmer or uneven
light), blurred and given sensor noise. The ground truth is the field that was drawn:
blocks (colour, centre, angle), which pairs touch, pawns and the block each stands on.

Example:
    >>> scene = render_scene(SceneSpec(seed=3))
    >>> scene.image.shape
    (480, 640, 3)
    >>> len(scene.field.blocks) >= 10
    True
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.geometry import square, touching_pairs
from vision.layout import INCH_MM, TableLayout
from vision.markers import marker_image
from vision.palette import DEFAULT_BGR

CANVAS_PX_PER_MM = 2.0
QUIET_MM = 6.0
"""White paper around each printed marker (the white reference of the table)."""
LIGHTINGS = ("neutral", "dim", "warm", "uneven")


@dataclass(frozen=True)
class BlockSpec:
    """One block as drawn: id, colour name, centre (mm) and angle (degrees)."""

    id: str
    colour: str
    centre: tuple[float, float]
    angle: float = 0.0


@dataclass(frozen=True)
class PawnSpec:
    """One pawn as drawn: colour name, centre (mm) and the block under it (or None)."""

    colour: str
    centre: tuple[float, float]
    block: str | None


@dataclass(frozen=True)
class BaseSpec:
    """A miniature's round base seen from above, its marker printed on top.

    Attributes:
        marker_id: the ArUco id on the base (table dictionary).
        centre: (x, y) in table mm.
        diameter: base diameter in mm.
        marker_mm: printed marker side in mm.
    """

    marker_id: int
    centre: tuple[float, float]
    diameter: float = 25.0
    marker_mm: float = 15.0


@dataclass(frozen=True)
class FieldSpec:
    """The blocks and pawns of a scene."""

    blocks: tuple[BlockSpec, ...]
    pawns: tuple[PawnSpec, ...] = ()

    def without_block(self, block_id: str) -> FieldSpec:
        """The same field with one block taken away."""
        return replace(self, blocks=tuple(b for b in self.blocks if b.id != block_id))

    def with_pawn_on(self, colour: str, block_id: str | None) -> FieldSpec:
        """The same field with the pawn of ``colour`` moved onto ``block_id`` (None: lifted)."""
        pawns = [p for p in self.pawns if p.colour != colour]
        if block_id is not None:
            block = next(b for b in self.blocks if b.id == block_id)
            pawns = [p for p in pawns if p.block != block_id]
            pawns.append(PawnSpec(colour, block.centre, block_id))
        return replace(self, pawns=tuple(pawns))


@dataclass(frozen=True)
class SceneSpec:
    """How to draw a scene. ``field`` None draws a random field from ``seed``."""

    seed: int = 0
    size: tuple[int, int] = (640, 480)
    field: FieldSpec | None = None
    layout: TableLayout = dataclasses.field(default_factory=TableLayout)
    perspective: float = 0.04
    blur_sigma: float = 0.6
    noise_sigma: float = 3.0
    lighting: str = "neutral"
    hand: bool = False
    bases: tuple[BaseSpec, ...] = ()


@dataclass(frozen=True)
class Scene:
    """A drawn scene and its ground truth.

    Attributes:
        image: the BGR frame.
        field: what was drawn.
        touching: pairs of block ids whose outlines are at most ``layout.touch_mm`` apart.
        table_to_image: 3x3 homography from table mm to image pixels.
        marker_px: ground-truth corners of each table marker in the image.
    """

    image: np.ndarray
    field: FieldSpec
    touching: set[frozenset[str]]
    table_to_image: np.ndarray
    marker_px: dict[int, np.ndarray]


def random_field(rng: random.Random, layout: TableLayout, n_blocks: int | None = None,
                 n_pawns: int | None = None) -> FieldSpec:
    """A random field on a turned grid.

    Neighbours either touch (gap 0-2 mm) or stand at least half an inch apart (12.7-18 mm);
    colours are drawn from the Infinifield set.

    Example:
        >>> f = random_field(random.Random(1), TableLayout())
        >>> {b.colour for b in f.blocks} >= {"white", "yellow", "red", "blue"}
        True
    """
    cols, rows = 6, 5
    side = layout.block_mm

    def gaps(n: int) -> list[float]:
        return [rng.uniform(0.0, 2.0) if rng.random() < 0.65
                else rng.uniform(INCH_MM / 2, 18.0) for _ in range(n - 1)]

    xs, ys = [0.0], [0.0]
    for g in gaps(cols):
        xs.append(xs[-1] + side + g)
    for g in gaps(rows):
        ys.append(ys[-1] + side + g)
    cx, cy = (xs[-1]) / 2, (ys[-1]) / 2
    n = n_blocks if n_blocks is not None else rng.randint(12, 24)
    keep_out = layout.marker_margin_mm + layout.marker_mm + 2 * QUIET_MM
    while True:
        angle = rng.uniform(-20.0, 20.0)
        t = math.radians(angle)
        centre_x = layout.width_mm / 2 + rng.uniform(-25, 25)
        centre_y = layout.height_mm / 2 + rng.uniform(-15, 15)
        cells = rng.sample([(c, r) for c in range(cols) for r in range(rows)], n)
        spots = [(centre_x + (xs[c] - cx) * math.cos(t) - (ys[r] - cy) * math.sin(t),
                  centre_y + (xs[c] - cx) * math.sin(t) + (ys[r] - cy) * math.cos(t))
                 for c, r in cells]
        if all(_clear_of_markers(p, side, keep_out, layout) for p in spots):
            break
    colours = ["white"] * 8 + ["yellow"] * 8 + ["red"] * 6 + ["blue"] * 2
    first = ["white", "yellow", "red", "blue"]
    rest = colours.copy()
    for name in first:
        rest.remove(name)
    rng.shuffle(rest)
    chosen = (first + rest)[:n]
    rng.shuffle(chosen)
    counters: dict[str, int] = {}
    blocks = []
    for (x, y), colour in zip(spots, chosen, strict=True):
        counters[colour] = counters.get(colour, 0) + 1
        blocks.append(BlockSpec(f"{colour[0].upper()}{counters[colour]}", colour,
                                (x, y), angle))
    k = n_pawns if n_pawns is not None else rng.randint(0, 4)
    pawn_colours = [n for n, (kind, _l, _c) in DEFAULT_BGR.items() if kind == "pawn"]
    pawns = []
    for colour, block in zip(pawn_colours[:k], rng.sample(blocks, k), strict=True):
        off = (rng.uniform(-3, 3), rng.uniform(-3, 3))
        pawns.append(PawnSpec(colour, (block.centre[0] + off[0], block.centre[1] + off[1]),
                              block.id))
    return FieldSpec(tuple(blocks), tuple(pawns))


def _clear_of_markers(centre: tuple[float, float], side: float, keep_out: float,
                      layout: TableLayout) -> bool:
    """Whether a block at ``centre`` stays on the table and off the corner markers' paper."""
    x, y = centre
    r = side * 0.75
    if not (r < x < layout.width_mm - r and r < y < layout.height_mm - r):
        return False
    near_x = x < keep_out + r or x > layout.width_mm - keep_out - r
    near_y = y < keep_out + r or y > layout.height_mm - keep_out - r
    return not (near_x and near_y)


def _canvas_pts(points_mm: np.ndarray | tuple[float, float]) -> np.ndarray:
    return np.round(np.asarray(points_mm) * CANVAS_PX_PER_MM * 16).astype(np.int32)


def _draw_bases(canvas: np.ndarray, bases: tuple[BaseSpec, ...]) -> None:
    s = CANVAS_PX_PER_MM
    for base in bases:
        centre = tuple(int(v) for v in _canvas_pts(base.centre))
        cv2.circle(canvas, centre, int(base.diameter / 2 * s * 16), (30, 30, 30), -1,
                   cv2.LINE_AA, 4)
        half = base.marker_mm / 2 + 1.5
        x0, y0 = base.centre[0] - half, base.centre[1] - half
        cv2.rectangle(canvas, (round(x0 * s), round(y0 * s)),
                      (round((x0 + 2 * half) * s), round((y0 + 2 * half) * s)),
                      (245, 245, 245), -1)
        side = round(base.marker_mm * s)
        img = marker_image(base.marker_id, side)
        mx, my = round((base.centre[0] - base.marker_mm / 2) * s), round(
            (base.centre[1] - base.marker_mm / 2) * s)
        canvas[my:my + side, mx:mx + side] = img[..., None]


def _draw_table(layout: TableLayout, fld: FieldSpec, rng: np.random.Generator) -> np.ndarray:
    s = CANVAS_PX_PER_MM
    w, h = int(layout.width_mm * s), int(layout.height_mm * s)
    table = np.array(DEFAULT_BGR["table"][2], np.float32)
    texture = cv2.resize(rng.normal(0, 6, (h // 16 + 1, w // 16 + 1)).astype(np.float32),
                         (w, h), interpolation=cv2.INTER_CUBIC)
    canvas = np.clip(table[None, None, :] + texture[..., None], 0, 255).astype(np.uint8)
    for marker_id in layout.marker_ids:
        corners = np.asarray(layout.marker_corners_mm(marker_id))
        x0, y0 = corners[0]
        q = QUIET_MM
        cv2.rectangle(canvas, (int((x0 - q) * s), int((y0 - q) * s)),
                      (int((x0 + layout.marker_mm + q) * s), int((y0 + layout.marker_mm + q) * s)),
                      (245, 245, 245), -1)
        side = round(layout.marker_mm * s)
        img = marker_image(marker_id, side)
        canvas[int(y0 * s):int(y0 * s) + side, int(x0 * s):int(x0 * s) + side] = img[..., None]
    for block in fld.blocks:
        base = np.array(DEFAULT_BGR[block.colour][2], np.float32)
        face = np.clip(base * rng.uniform(0.95, 1.03), 0, 255)
        edge = face * 0.55
        outer = square(block.centre, layout.block_mm, block.angle)
        inner = square(block.centre, layout.block_mm - 3.0, block.angle)
        cv2.fillPoly(canvas, [_canvas_pts(outer)], edge.tolist(), cv2.LINE_AA, 4)
        cv2.fillPoly(canvas, [_canvas_pts(inner)], face.tolist(), cv2.LINE_AA, 4)
    for pawn in fld.pawns:
        colour = np.array(DEFAULT_BGR[pawn.colour][2], np.float32)
        centre = tuple(int(v) for v in _canvas_pts(pawn.centre))
        radius = int(layout.pawn_mm / 2 * s * 16)
        cv2.circle(canvas, centre, radius, (colour * 0.5).tolist(), -1, cv2.LINE_AA, 4)
        cv2.circle(canvas, centre, int(radius * 0.8), colour.tolist(), -1, cv2.LINE_AA, 4)
    return canvas


def _camera(layout: TableLayout, size: tuple[int, int], amount: float,
            rng: random.Random) -> np.ndarray:
    w, h = size
    scale = min(w * 0.94 / layout.width_mm, h * 0.94 / layout.height_mm)
    tw, th = layout.width_mm * scale, layout.height_mm * scale
    x0, y0 = (w - tw) / 2, (h - th) / 2
    dst = np.array([[x0, y0], [x0 + tw, y0], [x0 + tw, y0 + th], [x0, y0 + th]], np.float32)
    dst += np.array([[rng.uniform(-amount, amount) * w, rng.uniform(-amount, amount) * h]
                     for _ in range(4)], np.float32)
    dst[:, 0] = np.clip(dst[:, 0], 1, w - 2)
    dst[:, 1] = np.clip(dst[:, 1], 1, h - 2)
    src = np.array([[0, 0], [layout.width_mm, 0], [layout.width_mm, layout.height_mm],
                    [0, layout.height_mm]], np.float32)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def _light(image: np.ndarray, lighting: str, rng: random.Random) -> np.ndarray:
    img = image.astype(np.float32)
    h, w = img.shape[:2]
    if lighting == "dim":
        img *= 0.55
    elif lighting == "warm":
        img *= np.array([0.72, 0.9, 1.05], np.float32)
    elif lighting == "uneven":
        t = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        u = ((xx - w / 2) * math.cos(t) + (yy - h / 2) * math.sin(t)) / max(w, h)
        img *= (0.78 + 0.5 * u)[..., None]
    elif lighting != "neutral":
        raise ValueError(f"unknown lighting {lighting!r}; expected one of {LIGHTINGS}")
    return img


def _hand(image: np.ndarray, rng: random.Random) -> None:
    h, w = image.shape[:2]
    x = rng.uniform(0.3, 0.7) * w
    skin = (120.0, 150.0, 205.0)
    cv2.ellipse(image, (int(x), int(h * 0.95)), (int(w * 0.09), int(h * 0.35)),
                rng.uniform(-20, 20), 0, 360, skin, -1, cv2.LINE_AA)


def render_scene(spec: SceneSpec) -> Scene:
    """Draw a scene and return it with its ground truth.

    Raises:
        ValueError: ``spec.lighting`` is not one of :data:`LIGHTINGS`.
    """
    rng = random.Random(spec.seed)
    nrng = np.random.default_rng(spec.seed)
    layout = spec.layout
    fld = spec.field if spec.field is not None else random_field(rng, layout)
    canvas = _draw_table(layout, fld, nrng)
    _draw_bases(canvas, spec.bases)
    table_to_image = _camera(layout, spec.size, spec.perspective, rng)
    s = CANVAS_PX_PER_MM
    canvas_to_image = table_to_image @ np.diag([1 / s, 1 / s, 1.0])
    w, h = spec.size
    image = cv2.warpPerspective(canvas, canvas_to_image, (w, h), flags=cv2.INTER_LINEAR,
                                borderValue=(40, 40, 40))
    img = image.astype(np.float32)
    if spec.hand:
        _hand(img, rng)
    img = _light(img, spec.lighting, rng)
    if spec.blur_sigma > 0:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), spec.blur_sigma), np.float32)
    if spec.noise_sigma > 0:
        img += nrng.normal(0, spec.noise_sigma, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    outlines = {b.id: square(b.centre, layout.block_mm, b.angle) for b in fld.blocks}
    markers = {}
    for marker_id in layout.marker_ids:
        pts = np.asarray(layout.marker_corners_mm(marker_id), np.float64).reshape(-1, 1, 2)
        markers[marker_id] = cv2.perspectiveTransform(pts, table_to_image).reshape(4, 2)
    return Scene(out, fld, touching_pairs(outlines, layout.touch_mm), table_to_image, markers)
