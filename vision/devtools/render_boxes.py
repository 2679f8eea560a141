"""Exact 3D projections of a table with boxes, for fast unit tests of the camera model.

Not photoreal (that is the Blender bench's job): flat-shaded faces through a pinhole camera
with lens distortion, a z-buffer, bevelled (darker) face edges, a hard shadow cast by a
directional light, pawns as prisms, an optional hand, sensor noise and JPEG. Every vertex is
placed with ``cv2.projectPoints`` from the same :class:`~vision.pose.TablePose` the reader
uses, so the ground truth (the engine's :class:`~companion.games.infinifield.Field`) is exact.

Example:
    >>> scene = render_boxes(BoxScene.random(seed=2))
    >>> scene.image.shape
    (480, 640, 3)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.games.infinifield import Block, Field, build_field
from vision.camera_model import Intrinsics
from vision.geometry import square
from vision.layout import TableLayout
from vision.markers import marker_image
from vision.palette import DEFAULT_BGR
from vision.pose import TablePose

TABLE_BGR = (88, 96, 104)
PAPER_BGR = (236, 238, 240)
SKIN_BGR = (120, 150, 205)


@dataclass(frozen=True)
class BoxBlock:
    """A block: id, colour, centre (mm), angle (degrees), level (1 on the table)."""

    id: str
    colour: str
    centre: tuple[float, float]
    angle: float = 0.0
    level: int = 1
    rests_on: tuple[str, ...] = ()


@dataclass(frozen=True)
class BoxPawn:
    """A pawn standing on a block (its centre at the block's centre plus ``offset``)."""

    colour: str
    block: str
    offset: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class BoxScene:
    """Everything a render needs.

    Attributes:
        blocks, pawns: the table's content.
        pose: the camera.
        light: direction the light comes *from* (x, y, up), unit length not needed.
        shading: brightness of the faces facing away from the light (0-1).
        warm: 0 neutral, 1 strongly warm light.
        hand: draw a hand and arm over the table.
        noise: sensor noise sigma (0-255).
        jpeg: JPEG quality (0: none).
        seed: randomness of noise and colour variation.
    """

    blocks: tuple[BoxBlock, ...]
    pawns: tuple[BoxPawn, ...] = ()
    pose: TablePose = field(default_factory=lambda: TablePose.looking_down(
        Intrinsics.pinhole(500.0, (640, 480), source="shipped"), TableLayout(), 600.0))
    light: tuple[float, float, float] = (0.3, -0.2, 1.0)
    shading: float = 0.55
    warm: float = 0.0
    hand: bool = False
    noise: float = 2.0
    jpeg: int = 90
    seed: int = 0
    block_height: float = 40.0
    pawn_height: float = 30.0

    def field(self) -> Field:
        """The ground truth as the engine's field (touching from the exact geometry)."""
        return build_field([Block.square(b.id, b.colour, b.centre, angle=b.angle,
                                         rests_on=b.rests_on) for b in self.blocks])

    def without(self, block_id: str) -> BoxScene:
        """The same scene with one block taken away (and pawns on it)."""
        return replace(self, blocks=tuple(b for b in self.blocks if b.id != block_id),
                       pawns=tuple(p for p in self.pawns if p.block != block_id))

    def with_pawn(self, colour: str, block_id: str) -> BoxScene:
        """The pawn of ``colour`` moved to (or placed on) ``block_id``."""
        pawns = tuple(p for p in self.pawns if p.colour != colour)
        return replace(self, pawns=(*pawns, BoxPawn(colour, block_id)))

    @classmethod
    def random(cls, seed: int, stacked: int = 0, size: tuple[int, int] = (640, 480),
               height_mm: float | None = None, distortion: float = -0.08, **kw: object
               ) -> BoxScene:
        """A random connected field and camera.

        10-18 blocks in rows and columns (touching or half an inch apart), ``stacked`` of
        them on top of others, 0-3 pawns, a camera 54-64 cm up with a little tilt and
        barrel distortion.
        """
        rng = random.Random(seed)
        layout = TableLayout()
        colours = ("white", "yellow", "red", "blue")
        n = rng.randint(10, 18)
        cells: list[tuple[int, int]] = [(0, 0)]
        while len(cells) < n:
            cx, cy = rng.choice(cells)
            dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
            cand = (cx + dx, cy + dy)
            if cand not in cells and abs(cand[0]) <= 4 and abs(cand[1]) <= 3:
                cells.append(cand)
        gaps_x = [rng.choice([0.5, 1.0, 1.5, 14.0, 16.0]) for _ in range(10)]
        gaps_y = [rng.choice([0.5, 1.0, 1.5, 14.0, 16.0]) for _ in range(8)]

        xs, ys = {-4: 0.0}, {-3: 0.0}
        for i in range(-4, 4):
            xs[i + 1] = xs[i] + 40.0 + gaps_x[i + 4]
        for j in range(-3, 3):
            ys[j + 1] = ys[j] + 40.0 + gaps_y[j + 3]
        ox = layout.width_mm / 2 - (xs[0] + 20) + rng.uniform(-20, 20)
        oy = layout.height_mm / 2 - (ys[0] + 20) + rng.uniform(-15, 15)
        blocks: list[BoxBlock] = []
        for k, (i, j) in enumerate(cells):
            centre = (ox + xs[i] + 20 + rng.uniform(-0.3, 0.3), oy + ys[j] + 20)
            blocks.append(BoxBlock(f"B{k + 1}", rng.choice(colours), centre,
                                   rng.uniform(-2.0, 2.0)))
        for s in range(stacked):
            base = rng.choice([b for b in blocks if b.level == 1
                               and not any(o.rests_on == (b.id,) for o in blocks)])
            blocks.append(BoxBlock(f"S{s + 1}", rng.choice(colours), base.centre, base.angle,
                                   2, (base.id,)))
        tops = [b for b in blocks if not any(b.id in o.rests_on for o in blocks)]
        pawns = tuple(BoxPawn(c, b.id) for c, b in zip(
            rng.sample(["green", "magenta", "cyan", "orange"], rng.randint(0, 3)),
            rng.sample(tops, min(3, len(tops))), strict=False))
        h = height_mm if height_mm is not None else rng.uniform(540, 640)
        f = size[0] / 2 / math.tan(math.radians(rng.uniform(60, 70) / 2))
        cam = Intrinsics(np.array([[f, 0, size[0] / 2], [0, f, size[1] / 2], [0, 0, 1]]),
                         np.array([distortion, 0.0, 0.0, 0.0, 0.0]), size, "render", "shipped")
        pose = TablePose.looking_down(
            cam, layout, h, (rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-3, 3)),
            (layout.width_mm / 2 + rng.uniform(-15, 15), layout.height_mm / 2
             + rng.uniform(-15, 15)))
        light = (rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0)
        shading = rng.uniform(0.45, 0.75)
        given = dict(kw)
        given.setdefault("pose", pose)
        return cls(tuple(blocks), pawns, light=light, shading=shading, seed=seed,
                   **given)  # type: ignore[arg-type]


@dataclass(frozen=True)
class BoxRender:
    """A rendered frame and its scene (the ground truth)."""

    image: np.ndarray
    scene: BoxScene


def _prism(footprint: np.ndarray, z0: float, z1: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Faces (corners (k, 3) in table mm with heights, outward normal) of a vertical prism."""
    n = len(footprint)
    faces = [(np.column_stack([footprint, np.full(n, z1)]), np.array([0.0, 0.0, 1.0]))]
    centre = footprint.mean(axis=0)
    for i in range(n):
        a, b = footprint[i], footprint[(i + 1) % n]
        normal = np.array([b[1] - a[1], -(b[0] - a[0]), 0.0])
        mid = (a + b) / 2
        if normal[:2] @ (mid - centre) < 0:
            normal = -normal
        normal /= np.linalg.norm(normal)
        faces.append((np.array([[*a, z0], [*b, z0], [*b, z1], [*a, z1]]), normal))
    return faces


class _Canvas:
    def __init__(self, pose: TablePose) -> None:
        self.pose = pose
        w, h = pose.intrinsics.size
        self.image = np.zeros((h, w, 3), np.float32)
        self.depth = np.full((h, w), np.inf, np.float32)
        self.k_inv = np.linalg.inv(pose.intrinsics.matrix)
        us, vs = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
        self.rays = np.stack([us, vs, np.ones_like(us)], axis=-1) @ self.k_inv.T

    def face(self, corners: np.ndarray, colour: np.ndarray, inset_colour: np.ndarray | None,
             inset: np.ndarray | None = None, outward: np.ndarray | None = None) -> None:
        px = self.pose.project(corners, distort=False)
        r, t = self.pose.rotation, np.asarray(self.pose.tvec, float)
        pts = corners.copy()
        pts[:, 2] = -pts[:, 2]
        cam = pts @ r.T + t
        if (cam[:, 2] <= 1).any():
            return
        normal = np.cross(cam[1] - cam[0], cam[2] - cam[0])
        if np.linalg.norm(normal) < 1e-9:
            return
        out = np.array([0.0, 0.0, 1.0]) if outward is None else outward
        out_cam = r @ np.array([out[0], out[1], -out[2]])
        if out_cam @ cam.mean(axis=0) >= 0:           # facing away from the camera
            return
        h, w = self.depth.shape
        x0, y0 = np.floor(px.min(axis=0)).astype(int)
        x1, y1 = np.ceil(px.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x0 >= x1 or y0 >= y1:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round((px - [x0, y0]) * 16).astype(np.int32)], 255,
                     cv2.LINE_AA, shift=4)
        rays = self.rays[y0:y1, x0:x1]
        depth = (normal @ cam[0]) / (rays @ normal)
        closer = depth < self.depth[y0:y1, x0:x1] - 0.05
        alpha = (mask.astype(np.float32) / 255.0) * closer
        colour_img = np.broadcast_to(colour, (*mask.shape, 3)).astype(np.float32)
        if inset_colour is not None and inset is not None:
            ipx = self.pose.project(inset, distort=False)
            imask = np.zeros_like(mask)
            cv2.fillPoly(imask, [np.round((ipx - [x0, y0]) * 16).astype(np.int32)], 255,
                         cv2.LINE_AA, shift=4)
            ia = (imask.astype(np.float32) / 255.0)[..., None]
            colour_img = colour_img * (1 - ia) + inset_colour * ia
        view = self.image[y0:y1, x0:x1]
        view[:] = view * (1 - alpha[..., None]) + colour_img * alpha[..., None]
        self.depth[y0:y1, x0:x1] = np.where(alpha > 0.5, depth, self.depth[y0:y1, x0:x1])


def _shade(normal: np.ndarray, light: np.ndarray, shading: float) -> float:
    lam = max(0.0, float(normal @ light))
    return shading + (1.0 - shading) * lam


def render_boxes(scene: BoxScene) -> BoxRender:
    """Draw ``scene`` as the camera sees it (see the module docstring)."""
    pose = scene.pose
    layout = pose.layout
    rng = np.random.default_rng(scene.seed)
    canvas = _Canvas(pose)
    light = np.asarray(scene.light, float)
    light /= np.linalg.norm(light)
    tint = np.array([1.0 - 0.25 * scene.warm, 1.0 - 0.08 * scene.warm, 1.0])
    # the table mat with a little texture, then markers on their paper
    w, h = pose.intrinsics.size
    table = np.array([[-200, -200, 0], [layout.width_mm + 200, -200, 0],
                      [layout.width_mm + 200, layout.height_mm + 200, 0],
                      [-200, layout.height_mm + 200, 0]], float)
    canvas.face(table, np.array(TABLE_BGR, np.float32), None)
    by_id = {b.id: b for b in scene.blocks}
    shadow = np.zeros((h, w), np.uint8)
    for b in scene.blocks:
        top = b.level * scene.block_height
        fp = square(b.centre, 40.0, b.angle)
        pts = [(x - light[0] / light[2] * z, y - light[1] / light[2] * z)
               for x, y in fp for z in (top - scene.block_height, top)]
        hull = cv2.convexHull(np.array(pts, np.float32)).reshape(-1, 2)
        px = pose.project(np.column_stack([hull, np.zeros(len(hull))]), distort=False)
        cv2.fillPoly(shadow, [np.round(px * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    canvas.image *= (1.0 - 0.45 * shadow[..., None] / 255.0)
    for marker_id in layout.marker_ids:
        (x0, y0), _, (x1, y1), _ = layout.marker_corners_mm(marker_id)
        q = 6.0
        paper = np.array([[x0 - q, y0 - q, 0.3], [x1 + q, y0 - q, 0.3], [x1 + q, y1 + q, 0.3],
                          [x0 - q, y1 + q, 0.3]])
        canvas.face(paper, np.array(PAPER_BGR, np.float32), None)
        cells = marker_image(marker_id, 6)
        step = (x1 - x0) / 6
        for r in range(6):
            for c in range(6):
                if cells[r, c] < 128:
                    cell = np.array([[x0 + c * step, y0 + r * step, 0.4],
                                     [x0 + (c + 1) * step, y0 + r * step, 0.4],
                                     [x0 + (c + 1) * step, y0 + (r + 1) * step, 0.4],
                                     [x0 + c * step, y0 + (r + 1) * step, 0.4]])
                    canvas.face(cell, np.array((25, 25, 25), np.float32), None)
    for b in scene.blocks:
        base = np.array(DEFAULT_BGR[b.colour][2], np.float32) * rng.uniform(0.94, 1.04, 3)
        top = b.level * scene.block_height
        fp = square(b.centre, 40.0, b.angle)
        inner = square(b.centre, 37.0, b.angle)
        for corners, normal in _prism(fp, top - scene.block_height, top):
            colour = np.clip(base * _shade(normal, light, scene.shading), 0, 255)
            if normal[2] > 0.5:
                inset = np.column_stack([inner, np.full(4, top)])
            else:
                mid = corners.mean(axis=0)
                inset = mid + (corners - mid) * np.array([0.92, 0.92, 0.92])
            canvas.face(corners, colour * 0.7, colour, inset, normal)
    for p in scene.pawns:
        b = by_id[p.block]
        base_h = b.level * scene.block_height
        pc = (b.centre[0] + p.offset[0], b.centre[1] + p.offset[1])
        ring = np.array([[pc[0] + 9 * math.cos(a), pc[1] + 9 * math.sin(a)]
                         for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)])
        colour = np.array(DEFAULT_BGR[p.colour][2], np.float32)
        for corners, normal in _prism(ring, base_h, base_h + scene.pawn_height):
            canvas.face(corners, np.clip(colour * _shade(normal, light, scene.shading), 0, 255),
                        None, None, normal)
    if scene.hand:
        hx = float(rng.uniform(150, 450))
        hy = float(rng.uniform(120, 330))
        hand = np.array([[hx + 60 * math.cos(a), hy + 45 * math.sin(a), 160.0]
                         for a in np.linspace(0, 2 * math.pi, 16, endpoint=False)])
        arm = np.array([[hx - 30, hy, 170.0], [hx + 30, hy, 170.0],
                        [hx + 40, layout.height_mm + 150, 250.0],
                        [hx - 40, layout.height_mm + 150, 250.0]])
        canvas.face(arm, np.array(SKIN_BGR, np.float32) * 0.9, None)
        canvas.face(hand, np.array(SKIN_BGR, np.float32), None)
    image = canvas.image * tint
    # lens distortion: each output pixel samples where the ideal camera saw its ray
    cam = pose.intrinsics
    if np.any(cam.distortion != 0):
        us, vs = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        ideal = cam.undistort_points(np.stack([us.ravel(), vs.ravel()], axis=1))
        image = cv2.remap(image, ideal[:, 0].reshape(h, w).astype(np.float32),
                          ideal[:, 1].reshape(h, w).astype(np.float32), cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    image = cv2.GaussianBlur(image, (0, 0), 0.5)
    image = image + rng.normal(0, scene.noise, image.shape)
    out = np.clip(image, 0, 255).astype(np.uint8)
    if scene.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return BoxRender(out, scene)
