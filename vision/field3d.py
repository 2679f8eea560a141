"""Reading a three-dimensional field: block tops at every level, stacks, touching, pawns.

Everything is measured through the camera model (:class:`~vision.pose.TablePose`): for each
level ``n`` the frame is resampled onto the plane ``40 n`` mm above the table (lens distortion
undone, one pixel per millimetre, white-balanced from the markers' paper). A block whose top
is at that height shows there as an exact 40 mm square; its side faces smear toward the
camera's nadir, and tops at other heights are seen smaller or larger (by the ratio of their
distances to the camera). So a top face is found as a square region of a block colour,
separated from its side faces and from same-coloured neighbours by the edges between them,
refined to the strongest edges around it, and its level is the one in whose plane it measures
40 mm. A block under another is read from its visible side faces (colour by hue, so shading
does not matter) or, when none shows, assumed and said so in :attr:`FieldReading.notes`.

Example:
    >>> from vision.render_boxes import BoxScene, render_boxes
    >>> from vision.pose import table_pose
    >>> scene = BoxScene.random(seed=3)
    >>> frame = render_boxes(scene).image
    >>> reading = read_field(frame, table_pose(frame, scene.pose.intrinsics))
    >>> len(reading.blocks) == len(scene.blocks)
    True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from companion.games.infinifield import Block, Field, build_field
from vision.geometry import contains, gaps_between, square
from vision.layout import TableLayout
from vision.palette import UNKNOWN, Palette, default_palette
from vision.pose import TablePose
from vision.rectify import WHITE_TARGET, _gain_field, _paper_masks, marker_keepout

MAX_LEVEL = 3
"""Tops are looked for up to this many blocks high."""

PAWN_HEIGHT_MM = 30.0
"""Height of a pawn (its middle is where its colour is measured)."""

HAND_MM2 = 2500.0
"""A region of no known colour and no block larger than this (mm² at the first level's
plane) is a hand or an arm over the table."""


@dataclass(frozen=True)
class SeenBlock3D:
    """A block read from the frame.

    Attributes:
        colour: palette class name.
        centre: (x, y) of its top face, in table mm.
        angle: rotation in degrees, in [-45, 45).
        level: 1 on the table, 2 on one block, ...
        outline: (4, 2) corners of its top face in table mm.
        rests_on: indexes (in :attr:`FieldReading.blocks`) of the blocks under it.
        seen: ``top`` (its top face), ``side`` (under another, by a side face) or
            ``assumed`` (under another, nothing of it visible).
        size_mm: the top's measured size at its level (40 when exact).
    """

    colour: str
    centre: tuple[float, float]
    angle: float
    level: int
    outline: np.ndarray
    rests_on: tuple[int, ...] = ()
    seen: str = "top"
    size_mm: float = 40.0


@dataclass(frozen=True)
class SeenPawn3D:
    """A pawn: colour, centre (table mm) and the index of the block it stands on."""

    colour: str
    centre: tuple[float, float]
    block: int | None


@dataclass(frozen=True)
class FieldReading:
    """What one frame shows of a field.

    Attributes:
        blocks: every block, tops first (by colour and reading order), blocks under them
            after.
        pawns: the pawns.
        touching: index pairs ``(i, j)``, ``i < j``: side by side at the same level within
            ``layout.touch_mm``, or one resting on the other.
        hands_in_view: a hand or an arm is over the table.
        notes: what could not be seen and was assumed (for the players to check).
        layout: the table.
    """

    blocks: tuple[SeenBlock3D, ...]
    pawns: tuple[SeenPawn3D, ...]
    touching: frozenset[tuple[int, int]]
    hands_in_view: bool
    notes: tuple[str, ...] = ()
    layout: TableLayout = field(default_factory=TableLayout)

    def block_ids(self) -> list[str]:
        """Provisional ids by colour letter (``W1``, ``Y2``...) in block order."""
        ids: list[str] = []
        counters: dict[str, int] = {}
        for b in self.blocks:
            letter = b.colour[:1].upper()
            counters[letter] = counters.get(letter, 0) + 1
            ids.append(f"{letter}{counters[letter]}")
        return ids

    def to_field(self, ids: Sequence[str] | None = None, name: str = "seen by the camera"
                 ) -> Field:
        """The engine's field: footprints, stacking and the camera's touching pairs."""
        ids = list(ids) if ids is not None else self.block_ids()
        layout = self.layout
        blocks = [Block(ids[i], b.colour, tuple((float(x), float(y)) for x, y in b.outline),
                        layout.block_height_mm, tuple(ids[j] for j in b.rests_on))
                  for i, b in enumerate(self.blocks)]
        touching = [(ids[i], ids[j]) for i, j in sorted(self.touching)]
        return build_field(blocks, touching, name=name, pawn_diameter=layout.pawn_mm)

    def field_toml(self, name: str = "Field seen by the camera") -> str:
        """A field file (``docs/infinifield.md``) of the reading, stacking included."""
        ids = self.block_ids()
        lay = self.layout
        lines = [f"# Written by infinite-vision from one photo of the table: {len(ids)} "
                 "blocks.", *[f"# note: {n}" for n in self.notes], "", "[field]",
                 f'name = "{name}"', f"block_size = [{lay.block_mm:g}, {lay.block_mm:g}]",
                 f"block_height = {lay.block_height_mm:g}",
                 f"pawn_diameter = {lay.pawn_mm:g}",
                 "touching = [" + ", ".join(f'["{ids[i]}", "{ids[j]}"]'
                                             for i, j in sorted(self.touching)) + "]", ""]
        for i, b in enumerate(self.blocks):
            lines += ["[[blocks]]", f'id = "{ids[i]}"', f'colour = "{b.colour}"',
                      f"at = [{b.centre[0]:.1f}, {b.centre[1]:.1f}]", f"angle = {b.angle:.1f}"]
            if b.rests_on:
                lines.append("rests_on = [" + ", ".join(f'"{ids[j]}"' for j in b.rests_on) + "]")
            lines.append("")
        return "\n".join(lines)

    def summary(self) -> dict[str, Any]:
        """JSON-ready: blocks with level and support, touching pairs, pawns, notes."""
        ids = self.block_ids()
        return {"blocks": [{"id": ids[i], "colour": b.colour, "level": b.level,
                            "centre_mm": [round(b.centre[0], 1), round(b.centre[1], 1)],
                            "angle_deg": round(b.angle, 1), "seen": b.seen,
                            "on": [ids[j] for j in b.rests_on]}
                           for i, b in enumerate(self.blocks)],
                "touching": sorted([ids[i], ids[j]] for i, j in self.touching),
                "pawns": [{"colour": p.colour, "centre_mm": [round(v, 1) for v in p.centre],
                           "on": None if p.block is None else ids[p.block]}
                          for p in self.pawns],
                "hands_in_view": self.hands_in_view, "notes": list(self.notes)}


@lru_cache(maxsize=32)
def _maps(pose_key: tuple[Any, ...], height_mm: float, px_per_mm: float,
          pose_holder: _PoseRef) -> tuple[np.ndarray, np.ndarray]:
    return pose_holder.pose.plane_maps(height_mm, px_per_mm)


class _PoseRef:
    """Hashable by identity wrapper, so plane maps are cached per pose."""

    def __init__(self, pose: TablePose) -> None:
        self.pose = pose


_REFS: dict[int, _PoseRef] = {}


def _pose_ref(pose: TablePose) -> _PoseRef:
    ref = _REFS.get(id(pose))
    if ref is None or ref.pose is not pose:
        if len(_REFS) > 16:
            _REFS.clear()
        ref = _REFS[id(pose)] = _PoseRef(pose)
    return ref


class TableViews:
    """The frame resampled onto the table's planes (``40 n`` mm up), white-balanced.

    Args:
        frame: the BGR frame.
        pose: the camera.
        palette: colour classes.
        px_per_mm: scale of every view.
    """

    def __init__(self, frame: np.ndarray, pose: TablePose, palette: Palette,
                 px_per_mm: float = 1.0) -> None:
        self.frame = frame
        self.pose = pose
        self.palette = palette
        self.px_per_mm = px_per_mm
        self.layout = pose.layout
        self._views: dict[float, np.ndarray] = {}
        self._classes: dict[float, np.ndarray] = {}
        self._grey: dict[float, np.ndarray] = {}
        self._table: tuple[float, float, float] | None = None
        self._gain = self._balance()

    def raw(self, height_mm: float) -> np.ndarray:
        """The plane ``height_mm`` up, before white balance."""
        ref = _pose_ref(self.pose)
        m1, m2 = _maps((id(self.pose),), float(height_mm), self.px_per_mm, ref)
        return cv2.remap(self.frame, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def _balance(self) -> np.ndarray | None:
        ground = self.raw(0.0)
        gains: dict[int, np.ndarray] = {}
        for marker_id, ((x0, y0, x1, y1), mask) in zip(
                self.layout.marker_ids, _paper_masks(self.layout, self.px_per_mm), strict=True):
            mean = cv2.mean(ground[y0:y1, x0:x1], mask=mask)[:3]
            if min(mean) > 20:
                gains[marker_id] = WHITE_TARGET / np.asarray(mean, np.float32)
        self._views[0.0] = ground
        if not gains:
            return None
        h, w = ground.shape[:2]
        gain = _gain_field(self.layout, self.px_per_mm, gains, (w, h))
        self._views[0.0] = np.clip(ground.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        return gain

    @property
    def table_bgr(self) -> tuple[float, float, float]:
        """The table's typical colour in the raw frame, before white balance.

        The median of the table-class pixels of the ground view; it tells white side faces
        (brighter) from the table.
        """
        if self._table is None:
            cls = self.classes(0.0)
            table = [i for i in self.palette.of_kind("table")]
            sel = np.isin(cls, table)
            raw = self.raw(0.0)
            if int(sel.sum()) > 100:
                med = np.median(raw[sel], axis=0)
            else:
                med = np.median(raw.reshape(-1, 3), axis=0)
            self._table = (float(med[0]), float(med[1]), float(med[2]))
        return self._table

    def view(self, height_mm: float) -> np.ndarray:
        """The white-balanced BGR view of the plane ``height_mm`` up."""
        key = float(height_mm)
        if key not in self._views:
            img = self.raw(key)
            if self._gain is not None:
                img = np.clip(img.astype(np.float32) * self._gain, 0, 255).astype(np.uint8)
            self._views[key] = img
        return self._views[key]

    def classes(self, height_mm: float) -> np.ndarray:
        """Per-pixel class indexes of :meth:`view` (markers and their paper excluded)."""
        key = float(height_mm)
        if key not in self._classes:
            view = self.view(key)
            c = self.palette.classify(view)
            c[_keepout(self.layout, self.px_per_mm) > 0] = UNKNOWN
            c[skin(view)] = UNKNOWN
            self._classes[key] = c
        return self._classes[key]

    def edges(self, height_mm: float) -> np.ndarray:
        """Gradient magnitude of the view's lightness (smoothed a little)."""
        key = float(height_mm)
        if key not in self._grey:
            grey = cv2.cvtColor(self.view(key), cv2.COLOR_BGR2GRAY).astype(np.float32)
            grey = np.asarray(cv2.GaussianBlur(grey, (0, 0), 0.8), np.float32)
            gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
            gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
            self._grey[key] = cv2.magnitude(gx, gy)
        return self._grey[key]


SKIN_LAB = ((25.0, 88.0), (6.0, 32.0), (8.0, 40.0))
"""CIELAB box of skin under white-balanced light: lightness, a, b (hands are no block)."""


def skin(bgr: np.ndarray) -> np.ndarray:
    """Boolean mask of skin-coloured pixels (a hand or an arm) of a balanced BGR image.

    Reddish-yellow with moderate chroma and more yellow than red in proportion to the
    lightness: between the orange pawns, the red and yellow blocks and the grey table.
    """
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.int16)
    lum = lab[..., 0] * 100 // 255
    a = lab[..., 1] - 128
    b = lab[..., 2] - 128
    (l0, l1), (a0, a1), (b0, b1) = SKIN_LAB
    return ((lum >= l0) & (lum <= l1) & (a >= a0) & (a <= a1) & (b >= b0) & (b <= b1)
            & (b >= a * 0.7))


@lru_cache(maxsize=8)
def _keepout(layout: TableLayout, px_per_mm: float) -> np.ndarray:
    return marker_keepout(layout, px_per_mm)


_K3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_K5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


@dataclass
class _Face:
    colour: str
    centre: np.ndarray          # mm, in the view it was measured in
    angle: float
    size: float                 # mm, mean side in that view
    fill: float


def _angle(a: float) -> float:
    a = a % 90.0
    return a - 90.0 if a >= 45.0 else a


FACE_SHADE = 0.15
"""A pixel belongs to the same face when its brightness is within this log ratio of the
face's (about 16 %): a side face in another shade, the bevel and a seam fall outside."""

FACE_TINT = 0.15
"""... and its colour (log ratios between channels) is within this of the face's."""


def _cores(mask: np.ndarray, core_area: float) -> list[np.ndarray]:
    """Connected parts of a colour mask (edges removed), as (N, 2) pixel coordinates.

    Parts as big as several faces are split by k-means on their pixels.
    """
    n, labels, stats, _c = cv2.connectedComponentsWithStats(mask, connectivity=4)
    out: list[np.ndarray] = []
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA]
        if area < 0.2 * core_area:
            continue
        ys, xs = np.nonzero(labels == i)
        pts = np.stack([xs, ys], axis=1).astype(np.float32)
        k = max(1, round(area / core_area))
        if k == 1:
            out.append(pts)
            continue
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.2)
        _cmp, lab, _cent = cv2.kmeans(pts, k, None, criteria, 2,  # type: ignore[call-overload]
                                      cv2.KMEANS_PP_CENTERS)
        for j in range(k):
            part = pts[lab.ravel() == j]
            if len(part) >= 0.2 * core_area:
                out.append(part)
    return out


def find_faces(views: TableViews, height_mm: float) -> list[_Face]:
    """Top faces of blocks in the view of the plane ``height_mm`` up, as seen there.

    A face is a region of one block colour and one shade (:data:`FACE_TOLERANCE`) grown from
    a core that strong edges (seams, face borders) bound, split from its same-coloured
    neighbours by which core is nearer; square regions of about a block's size are kept.
    """
    layout = views.layout
    ppm = views.px_per_mm
    view = views.view(height_mm)
    classes = views.classes(height_mm)
    edges = views.edges(height_mm)
    logs = np.log(view.astype(np.float32) + 12.0)
    strong = np.asarray(cv2.dilate(
        (edges > max(12.0, 3.0 * float(np.percentile(edges, 80)))).astype(np.uint8), _K3))
    side = layout.block_mm * ppm
    core_area = (0.8 * side) ** 2
    counts = np.bincount(classes.ravel(), minlength=256)
    faces: list[_Face] = []
    h, w = classes.shape
    # a pawn stands on a top: its pixels (and its outline's edges) count as the top's
    pawn_zone = np.asarray(cv2.dilate(
        np.isin(classes, views.palette.of_kind("pawn")).astype(np.uint8), _K5,
        iterations=2)) > 0
    for index in views.palette.of_kind("block"):
        if counts[index] < 0.3 * side * side:
            continue
        mask = (((classes == index) & (strong == 0)) | pawn_zone).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
        cores = _cores(mask, core_area)
        if not cores:
            continue
        core_img = np.zeros((h, w), np.int32)
        for n, pts in enumerate(cores, start=1):
            core_img[pts[:, 1].astype(int), pts[:, 0].astype(int)] = n
        # nearest core of this colour, for every pixel (splits merged neighbours)
        inv = (core_img == 0).astype(np.uint8)
        _d, nearest = cv2.distanceTransformWithLabels(inv, cv2.DIST_L2, 5,
                                                      labelType=cv2.DIST_LABEL_CCOMP)
        for pts in cores:
            x0, y0 = np.maximum(pts.min(axis=0).astype(int) - int(0.4 * side), 0)
            x1, y1 = np.minimum(pts.max(axis=0).astype(int) + int(0.4 * side) + 1, [w, h])
            own = classes[pts[:, 1].astype(int), pts[:, 0].astype(int)] == index
            if own.sum() < 0.2 * core_area:
                continue
            roi = logs[y0:y1, x0:x1] - np.median(
                logs[pts[own, 1].astype(int), pts[own, 0].astype(int)], axis=0)
            shade = roi.mean(axis=2)
            tint = np.abs(roi - shade[..., None]).max(axis=2)
            own_label = nearest[int(pts[0, 1]), int(pts[0, 0])]
            region = ((np.abs(shade) < FACE_SHADE) & (tint < FACE_TINT)
                      & (nearest[y0:y1, x0:x1] == own_label)).astype(np.uint8)
            region = cv2.morphologyEx(region, cv2.MORPH_OPEN, _K3)
            nlab, labels = cv2.connectedComponents(region, connectivity=4)
            if nlab <= 1:
                continue
            hits = labels[pts[:, 1].astype(int) - y0, pts[:, 0].astype(int) - x0]
            hits = hits[hits > 0]
            if len(hits) == 0:
                continue
            keep = (labels == np.bincount(hits).argmax()).astype(np.uint8)
            contours, _ = cv2.findContours(keep, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            hull = cv2.convexHull(max(contours, key=cv2.contourArea))
            (cx, cy), (rw, rh), ang = cv2.minAreaRect(hull)
            if not (0.7 * side <= min(rw, rh) and max(rw, rh) <= 1.35 * side
                    and max(rw, rh) <= 1.25 * min(rw, rh)):
                continue
            fill = float(cv2.contourArea(hull)) / max(1.0, rw * rh)
            if fill < 0.85:
                continue
            # cv2 puts pixel centres at integers; the view's pixel u covers [u, u+1) / ppm
            centre = (np.array([cx + x0, cy + y0]) + 0.5) / ppm
            faces.append(_Face(views.palette.classes[index].name, centre, _angle(ang),
                               (rw + rh) / 2 / ppm, fill))
    return faces


def _depth(pose: TablePose, xy: np.ndarray, height_mm: float) -> float:
    r, t = pose.rotation, np.asarray(pose.tvec, np.float64).reshape(3)
    return float(r[2, 0] * xy[0] + r[2, 1] * xy[1] - r[2, 2] * height_mm + t[2])


def face_levels(pose: TablePose, faces: Sequence[_Face], height_mm: float, block_mm: float,
                max_level: int) -> list[int]:
    """The level of each face, from its size against the level-1 faces' size.

    A top ``n`` levels up looks larger in the view of the plane ``height_mm`` by the ratio of
    its distance to the camera to that plane's (7-8 % per level from 55-65 cm). The size a
    level-1 top shows (flat top without its bevel) is the median of the smallest sizes.
    """
    if not faces:
        return []
    sizes = np.array([f.size for f in faces])
    low = float(np.percentile(sizes, 20))
    reference = float(np.median(sizes[sizes <= low * 1.03]))
    if not 0.75 * block_mm <= reference <= 1.02 * block_mm:
        reference = min(max(reference, 0.75 * block_mm), 1.02 * block_mm)
    levels = []
    bh = block_mm  # blocks are cubes
    for f in faces:
        base = _depth(pose, f.centre, height_mm)
        ratios = [base / _depth(pose, f.centre, bh * lvl) for lvl in range(1, max_level + 1)]
        expected = [reference * r for r in ratios]
        levels.append(int(np.argmin([abs(f.size - e) for e in expected])) + 1)
    return levels


def prism_hits(p: np.ndarray, cam: np.ndarray, footprint: np.ndarray, z0: float,
                z1: float) -> np.ndarray:
    """Which segments from points ``p`` (N, 3) to the camera pass through a prism."""
    d = cam[None, :] - p
    t0 = np.zeros(len(p))
    t1 = np.ones(len(p))
    dz = d[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        ta = (z0 - p[:, 2]) / dz
        tb = (z1 - p[:, 2]) / dz
    lo, hi = np.minimum(ta, tb), np.maximum(ta, tb)
    flat = np.abs(dz) < 1e-9
    inside_z = (p[:, 2] > z0) & (p[:, 2] < z1)
    lo = np.where(flat, np.where(inside_z, -np.inf, np.inf), lo)
    hi = np.where(flat, np.where(inside_z, np.inf, -np.inf), hi)
    t0, t1 = np.maximum(t0, lo), np.minimum(t1, hi)
    centre = footprint.mean(axis=0)
    for i in range(len(footprint)):
        a, b = footprint[i], footprint[(i + 1) % len(footprint)]
        n = np.array([b[1] - a[1], a[0] - b[0]])
        if n @ (centre - a) > 0:
            n = -n                        # outward normal
        num = (a - p[:, :2]) @ n           # n.(a - p) : inside when > 0 at t
        den = d[:, :2] @ n
        with np.errstate(divide="ignore", invalid="ignore"):
            t = num / den
        entering = den < 0
        leaving = den > 0
        t0 = np.where(entering, np.maximum(t0, t), t0)
        t1 = np.where(leaving, np.minimum(t1, t), t1)
        outside = (np.abs(den) < 1e-12) & (num < 0)
        t1 = np.where(outside, -1.0, t1)
    return t0 < t1 - 1e-6


def _side_colour(views: TableViews, outline: np.ndarray, level: int,
                 others: Sequence[SeenBlock3D] = ()) -> tuple[str | None, float]:
    """Majority block colour on the visible side faces of the box at ``level``.

    Side faces are shaded differently from tops, so they are classified by chromaticity
    (each channel's share of the sum), which shading does not change; white is told from
    the table by being brighter than the table next to it.
    """
    layout = views.layout
    pose = views.pose
    cam = pose.camera_position()
    z1 = level * layout.block_height_mm
    z0 = z1 - layout.block_height_mm
    samples: list[np.ndarray] = []
    centre = outline.mean(axis=0)
    h, w = views.frame.shape[:2]
    for i in range(4):
        a, b = outline[i], outline[(i + 1) % 4]
        mid = (a + b) / 2
        normal = mid - centre
        if normal @ (cam[:2] - mid) <= 0:
            continue
        s = np.linspace(0.2, 0.8, 7)
        zs = np.linspace(z0 + 0.25 * (z1 - z0), z0 + 0.75 * (z1 - z0), 5)
        pts = np.array([[*(a + (b - a) * u), z] for u in s for z in zs])
        # pulled a millimetre out of the face, so its own box does not count as in the way
        pts[:, :2] += normal / max(float(np.linalg.norm(normal)), 1e-9)
        px = pose.project(pts)
        ok = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < w - 1) & (px[:, 1] < h - 1)
        for other in others:
            z_top = other.level * layout.block_height_mm
            ok &= ~prism_hits(pts, cam, np.asarray(other.outline, np.float64),
                              z_top - layout.block_height_mm, z_top)
        if ok.sum() < 5 or np.ptp(px[ok], axis=0).min() < 2.0:
            continue        # a face seen edge-on covers no pixels
        samples.append(views.frame[px[ok, 1].astype(int), px[ok, 0].astype(int)])
    if not samples:
        return None, 0.0
    bgr = np.concatenate(samples).astype(np.float32)
    names, refs = _chroma_refs(views.palette)
    table = views.table_bgr
    chroma = (bgr + 1) / (bgr.sum(axis=1, keepdims=True) + 3)
    d = np.linalg.norm(chroma[:, None, :] - refs[None, :, :], axis=2)
    best = d.argmin(axis=1)
    bright = bgr.sum(axis=1) > 1.25 * float(sum(table))
    votes: dict[str, int] = {}
    for k, is_bright, dist in zip(best, bright, d[np.arange(len(d)), best], strict=True):
        name = names[k]
        if dist > 0.08 or (name == "white" and not is_bright):
            continue
        votes[name] = votes.get(name, 0) + 1
    if not votes:
        return None, 0.0
    top = max(votes, key=lambda k: votes[k])
    return top, votes[top] / len(bgr)


@lru_cache(maxsize=8)
def _chroma_refs(palette: Palette) -> tuple[tuple[str, ...], np.ndarray]:
    names, refs = [], []
    for c in palette.classes:
        if c.kind != "block":
            continue
        lab = np.array([[c.lab]], np.float32)
        bgr = cv2.cvtColor(lab, cv2.COLOR_Lab2BGR).reshape(3) * 255
        names.append(c.name)
        refs.append((bgr + 1) / (bgr.sum() + 3))
    return tuple(names), np.array(refs, np.float32)


def _touching(blocks: Sequence[SeenBlock3D], touch_mm: float) -> set[tuple[int, int]]:
    pairs: set[tuple[int, int]] = set()
    n = len(blocks)
    idx = [(i, j) for i in range(n) for j in range(i + 1, n)
           if blocks[i].level == blocks[j].level]
    if idx:
        a = np.stack([blocks[i].outline for i, _ in idx])
        b = np.stack([blocks[j].outline for _, j in idx])
        gaps = gaps_between(a, b)
        pairs |= {p for p, g in zip(idx, gaps, strict=True) if g <= touch_mm}
    for i, blk in enumerate(blocks):
        for j in blk.rests_on:
            pairs.add((min(i, j), max(i, j)))
    return pairs


def read_field(frame: np.ndarray, pose: TablePose, palette: Palette | None = None,
               max_level: int = MAX_LEVEL, px_per_mm: float = 1.0,
               views: TableViews | None = None) -> FieldReading:
    """Read the whole field from one frame (set-up).

    Tops at every level, stacks, touching pairs, pawns, and whether a hand is in view.

    Args:
        frame: BGR frame from the camera the pose belongs to.
        pose: the camera (:func:`~vision.pose.table_pose`).
        palette: colour classes (default: the Infinifield set; better: learnt on the table).
        max_level: highest level looked for.
        px_per_mm: scale of the views measured in.
        views: views already made of this frame (shared with other readers).
    """
    palette = palette or default_palette()
    views = views or TableViews(frame, pose, palette, px_per_mm)
    layout = pose.layout
    h1 = layout.block_height_mm
    faces = find_faces(views, h1)
    levels = face_levels(pose, faces, h1, layout.block_mm, max_level)
    blocks: list[SeenBlock3D] = []
    for f, level in zip(faces, levels, strict=True):
        px = pose.project([[f.centre[0], f.centre[1], h1]])
        c = pose.to_plane(px, level * layout.block_height_mm)[0]
        centre = (float(c[0]), float(c[1]))
        scale = _depth(pose, f.centre, h1) / _depth(pose, c, level * layout.block_height_mm)
        blocks.append(SeenBlock3D(f.colour, centre, f.angle, level,
                                  square(centre, layout.block_mm, f.angle), (), "top",
                                  f.size / scale))
    # two tops cannot overlap at one level: keep the squarer, fuller one
    blocks = _no_overlaps(blocks, layout.block_mm)
    blocks.sort(key=lambda b: (b.colour, round(b.centre[1] / layout.block_mm), b.centre[0]))
    notes: list[str] = []
    ids_for_notes = {i: f"{b.colour} block at ({b.centre[0]:.0f}, {b.centre[1]:.0f}) mm"
                     for i, b in enumerate(blocks)}
    for i in range(len(blocks)):
        top = blocks[i]
        upper = i
        for level in range(top.level - 1, 0, -1):
            others = [b for j, b in enumerate(blocks) if j != i and b.seen == "top"
                      and np.hypot(b.centre[0] - top.centre[0],
                                   b.centre[1] - top.centre[1]) > 0.5 * layout.block_mm]
            colour, share = _side_colour(views, top.outline, level, others)
            seen = "side"
            if colour is None or share < 0.3:
                colour, seen = colour or "white", "assumed"
                notes.append(f"the block under the {ids_for_notes[i]} (level {level}) is "
                             f"hidden: assumed {colour}; check it")
            blocks.append(SeenBlock3D(colour, top.centre, top.angle, level, top.outline,
                                      (), seen, top.size_mm))
            below = len(blocks) - 1
            blocks[upper] = _with_support(blocks[upper], below)
            upper = below
    pawns = _find_pawns(views, blocks, layout)
    touching = _touching(blocks, layout.touch_mm)
    hands = _hand_in_view(views, blocks, pawns)
    return FieldReading(tuple(blocks), tuple(pawns), frozenset(touching), hands,
                        tuple(notes), layout)


def _no_overlaps(blocks: list[SeenBlock3D], block_mm: float) -> list[SeenBlock3D]:
    kept: list[SeenBlock3D] = []
    for b in sorted(blocks, key=lambda b: abs(b.size_mm - block_mm)):
        if any(k.level == b.level and np.hypot(b.centre[0] - k.centre[0],
                                               b.centre[1] - k.centre[1]) < 0.7 * block_mm
               for k in kept):
            continue
        kept.append(b)
    return kept


def _with_support(block: SeenBlock3D, support: int) -> SeenBlock3D:
    return SeenBlock3D(block.colour, block.centre, block.angle, block.level, block.outline,
                       (*block.rests_on, support), block.seen, block.size_mm)


def _find_pawns(views: TableViews, blocks: Sequence[SeenBlock3D], layout: TableLayout
                ) -> list[SeenPawn3D]:
    """Pawns: regions of a pawn colour, each put on the block whose top it stands on."""
    ppm = views.px_per_mm
    pose = views.pose
    h1 = layout.block_height_mm
    classes = views.classes(h1)
    radius = layout.pawn_mm / 2 * ppm
    area = math.pi * radius * radius
    tops = [(i, b) for i, b in enumerate(blocks) if b.seen == "top"]
    pawns: list[SeenPawn3D] = []
    for index in views.palette.of_kind("pawn"):
        mask = (classes == index).astype(np.uint8)
        if int(mask.sum()) < 0.25 * area:
            continue
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            m = cv2.moments(contour)
            if not 0.25 * area <= m["m00"] <= 4.0 * area:
                continue
            cx, cy = m["m10"] / m["m00"] / ppm, m["m01"] / m["m00"] / ppm
            px = pose.project([[cx, cy, h1]])
            best: tuple[float, int, tuple[float, float]] | None = None
            for i, b in tops:
                mid = b.level * layout.block_height_mm + PAWN_HEIGHT_MM / 2
                q = pose.to_plane(px, mid)[0]
                if not contains(b.outline, (float(q[0]), float(q[1])), margin=4.0):
                    continue
                d = float(np.hypot(*(q - np.asarray(b.centre))))
                if best is None or d < best[0]:
                    best = (d, i, (float(q[0]), float(q[1])))
            if best is None:
                pawns.append(SeenPawn3D(views.palette.classes[index].name, (cx, cy), None))
            else:
                pawns.append(SeenPawn3D(views.palette.classes[index].name, best[2], best[1]))
    pawns.sort(key=lambda p: p.colour)
    return pawns


def silhouettes(pose: TablePose, blocks: Sequence[SeenBlock3D], px_per_mm: float,
                height_mm: float, pad_mm: float = 3.0) -> np.ndarray:
    """Mask (255) of where the blocks' boxes appear in the view of the plane ``height_mm`` up."""
    layout = pose.layout
    w, h = round(layout.width_mm * px_per_mm), round(layout.height_mm * px_per_mm)
    mask = np.zeros((h, w), np.uint8)
    hom = pose.plane_homography(height_mm)
    inv = np.linalg.inv(hom)
    for b in blocks:
        z1 = b.level * layout.block_height_mm
        poly = np.asarray(b.outline, np.float64)
        mid = poly.mean(axis=0)
        rad = poly - mid
        big = mid + rad * (1 + pad_mm * 1.4142 / np.linalg.norm(rad, axis=1, keepdims=True))
        corners = [[x, y, z] for x, y in big for z in (z1 - layout.block_height_mm, z1 + pad_mm)]
        px = pose.project(corners, distort=False)
        on_plane = cv2.perspectiveTransform(px.reshape(-1, 1, 2), inv).reshape(-1, 2)
        hull = cv2.convexHull((on_plane * px_per_mm).astype(np.float32)).reshape(-1, 2)
        cv2.fillPoly(mask, [np.round(hull).astype(np.int32)], 255)
    return mask


def _hand_in_view(views: TableViews, blocks: Sequence[SeenBlock3D],
                  pawns: Sequence[SeenPawn3D]) -> bool:
    """A large region of no known colour, outside every block's box and the markers."""
    layout = views.layout
    ppm = views.px_per_mm
    h1 = layout.block_height_mm
    classes = views.classes(h1)
    unknown = (classes == UNKNOWN).astype(np.uint8)
    unknown[silhouettes(views.pose, blocks, ppm, h1) > 0] = 0
    for p in pawns:
        cv2.circle(unknown, (round(p.centre[0] * ppm), round(p.centre[1] * ppm)),
                   round(layout.pawn_mm * ppm), 0, -1)
    unknown[_keepout(layout, ppm) > 0] = 0
    unknown = cv2.morphologyEx(unknown, cv2.MORPH_OPEN, _K3, iterations=2)
    contours, _ = cv2.findContours(unknown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    biggest = max((cv2.contourArea(c) for c in contours), default=0.0)
    return biggest / (ppm * ppm) > HAND_MM2
