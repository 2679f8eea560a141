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
    >>> from vision.devtools.render_boxes import BoxScene, render_boxes
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
from typing import Any

import cv2
import numpy as np

from companion.games.infinifield import Block, Field, build_field, field_toml_text
from vision.geometry import gaps_between, square
from vision.layout import TableLayout
from vision.palette import UNKNOWN, Palette, default_palette, provisional_ids
from vision.pose import TablePose
from vision.readers.pawns3d import pawns_on_blocks, unsure_notes
from vision.readers.table_views import (
    TableViews,
    _chroma_refs,
    _keepout,
    learn_palette,
)

MAX_LEVEL = 3
"""Tops are looked for up to this many blocks high."""

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
        return provisional_ids(b.colour for b in self.blocks)

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
        """A field file (``docs/infinifield.md``) of the reading, stacking included.

        Footprints are the tops' outlines as read, touching pairs the camera's, the notes
        (blocks assumed, pawns unsure) comments at the top.
        """
        return field_toml_text(self.to_field(name=name), comments=(
            f"Written by infinite-vision from one photo of the table: {len(self.blocks)} "
            "blocks.", *[f"note: {n}" for n in self.notes]))

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


_K3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_K5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


@dataclass
class _Face:
    colour: str
    centre: np.ndarray          # mm, in the view it was measured in
    angle: float
    size: float                 # mm, mean side in that view
    fill: float
    extent: tuple[float, float] = (0.0, 0.0)   # mm along the angle's axis and across it
    unsure: bool = False        # its size is not a clean measure (a pawn on it, a split row)
    expected: float = 0.0       # mm, the size a top at its level shows in that view


def _angle(a: float) -> float:
    a = a % 90.0
    return a - 90.0 if a >= 45.0 else a


FACE_SHADE = 0.3
"""A pixel belongs to the same face when its brightness is within this log ratio of the
face's (about 35 %, so a soft shadow across a top keeps it whole); side faces are also cut
off by the edges and grooves between them and the top."""

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
        # k-means++ draws its first centres from OpenCV's global generator: seeded here, a
        # frame reads the same whatever was read before it
        cv2.setRNGSeed(0)
        _cmp, lab, _cent = cv2.kmeans(pts, k, None, criteria, 2,  # type: ignore[call-overload]
                                      cv2.KMEANS_PP_CENTERS)
        for j in range(k):
            part = pts[lab.ravel() == j]
            if len(part) >= 0.2 * core_area:
                out.append(part)
    return out


MIN_STEP_PX = 2.0
"""A level's size step smaller than this in the frame (pixels) is scaled up in what
:func:`face_levels` asks for: from 90 cm at 640x480 a level adds under one pixel."""


def _axes(angle: float) -> tuple[np.ndarray, np.ndarray]:
    t = math.radians(angle)
    return np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])


def _sample(img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of a single-channel float image at (N, 2) points (x, y)."""
    h, w = img.shape[:2]
    x = np.clip(pts[:, 0], 0, w - 1.001)
    y = np.clip(pts[:, 1], 0, h - 1.001)
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    return (img[y0, x0] * (1 - fx) * (1 - fy) + img[y0, x0 + 1] * fx * (1 - fy)
            + img[y0 + 1, x0] * (1 - fx) * fy + img[y0 + 1, x0 + 1] * fx * fy)


REFINE_PX = 3.0
"""How far (view pixels) each side of a face is moved to the strongest edge near it."""


def refine_square(edges: np.ndarray, centre: np.ndarray, angle: float, size: float
                  ) -> tuple[np.ndarray, float]:
    """Move each side of a square found by its region to the strongest edge near it.

    Args:
        edges: gradient magnitude of the view (see :meth:`TableViews.edges`).
        centre: (x, y) in view pixels (pixel centres at integers).
        angle: degrees.
        size: side in view pixels.

    Returns:
        ``(centre, mean side)`` in view pixels.
    """
    t = math.radians(angle)
    ux, uy = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    offsets = np.arange(-REFINE_PX, REFINE_PX + 0.01, 0.25)
    along = np.linspace(-0.3, 0.3, 9) * size
    found = []
    for normal, tangent in ((ux, uy), (-ux, uy), (uy, ux), (-uy, ux)):
        mid = centre + normal * size / 2
        pts = (mid[None, None, :] + offsets[:, None, None] * normal[None, None, :]
               + along[None, :, None] * tangent[None, None, :])
        prof = _sample(edges, pts.reshape(-1, 2)).reshape(len(offsets), len(along))
        prof = np.median(prof, axis=1)
        k = int(prof.argmax())
        if 0 < k < len(prof) - 1:
            a, b, c = prof[k - 1], prof[k], prof[k + 1]
            den = a - 2 * b + c
            sub = 0.5 * (a - c) / den if den < 0 else 0.0
        else:
            sub = 0.0
        found.append(offsets[k] + sub * 0.25)
    px_, nx_, py_, ny_ = found
    new_centre = centre + ux * (px_ - nx_) / 2 + uy * (py_ - ny_) / 2
    return new_centre, size + (px_ + nx_ + py_ + ny_) / 2


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
    seams = views.seams(height_mm)
    strong = np.asarray(cv2.dilate(
        (edges > max(12.0, 3.0 * float(np.percentile(edges, 80)))).astype(np.uint8), _K3)
    ) | seams
    side = layout.block_mm * ppm
    core_area = (0.8 * side) ** 2
    counts = np.bincount(classes.ravel(), minlength=256)
    faces: list[_Face] = []
    h, w = classes.shape
    # a pawn stands on a top: its pixels (and its outline's edges) count as the top's
    nadir_px = views.pose.camera_position()[:2] * ppm - 0.5
    pawn_px = np.isin(classes, views.palette.of_kind("pawn"))
    pawn_zone = np.asarray(cv2.dilate(
        np.isin(classes, views.palette.of_kind("pawn")).astype(np.uint8), _K5,
        iterations=2)) > 0
    # a pawn's outline and its shadow on the top are strong edges too, but no top's border
    pawn_near = np.asarray(cv2.dilate(pawn_zone.astype(np.uint8), _K5, iterations=2)) > 0
    for index in views.palette.of_kind("block"):
        if counts[index] < 0.3 * side * side:
            continue
        mask = (((classes == index) & ((strong == 0) | pawn_near)) | pawn_zone).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
        cores = _cores(mask, core_area)
        if not cores:
            continue
        core_img = np.zeros((h, w), np.int32)
        for n, pts in enumerate(cores, start=1):
            core_img[pts[:, 1].astype(int), pts[:, 0].astype(int)] = n
        # nearest core of this colour, for every pixel: per connected group of cores (a
        # region k-means split stays one, so a top that ran on into its side faces is whole)
        # and per core (which splits same-coloured neighbours whose groove did not show)
        inv = (core_img == 0).astype(np.uint8)
        _d, by_group = cv2.distanceTransformWithLabels(inv, cv2.DIST_L2, 5,
                                                       labelType=cv2.DIST_LABEL_CCOMP)
        _d, by_pixel = cv2.distanceTransformWithLabels(inv, cv2.DIST_L2, 5,
                                                       labelType=cv2.DIST_LABEL_PIXEL)
        in_core = core_img > 0
        lut = np.zeros(int(by_pixel.max()) + 1, np.int32)
        lut[by_pixel[in_core]] = core_img[in_core]
        by_core = lut[by_pixel]
        for n, pts in enumerate(cores, start=1):
            x0, y0 = np.maximum(pts.min(axis=0).astype(int) - int(0.4 * side), 0)
            x1, y1 = np.minimum(pts.max(axis=0).astype(int) + int(0.4 * side) + 1, [w, h])
            own = classes[pts[:, 1].astype(int), pts[:, 0].astype(int)] == index
            if own.sum() < 0.2 * core_area:
                continue
            mine = pts[own]
            # the top is the part away from the camera's nadir (its side faces smear toward)
            away = (mine - mine.mean(axis=0)) @ (mine.mean(axis=0) - nadir_px)
            far = mine[away >= np.median(away)] if len(mine) > 20 else mine
            roi = logs[y0:y1, x0:x1] - np.median(
                logs[far[:, 1].astype(int), far[:, 0].astype(int)], axis=0)
            shade = roi.mean(axis=2)
            tint = np.abs(roi - shade[..., None]).max(axis=2)
            alike = ((np.abs(shade) < FACE_SHADE) & (tint < FACE_TINT)
                     & (seams[y0:y1, x0:x1] == 0))
            ctx = _RegionContext(index, pts, (x0, y0), side, pawn_px[y0:y1, x0:x1],
                                 pawn_zone[y0:y1, x0:x1],
                                 views.palette.classes[index].name, ppm)
            mine_only = by_core[y0:y1, x0:x1] == n
            own_core = _face_of_region(alike, mine_only, ctx)
            if own_core is not None and len(own_core) == 1 and not own_core[0].unsure:
                faces += own_core
                continue
            group = by_group[int(pts[0, 1]), int(pts[0, 0])]
            faces += _face_of_region(alike, by_group[y0:y1, x0:x1] == group, ctx) or []
    return faces + _edge_squares(views, height_mm, faces)


EDGE_RING_PX = 1
"""Half the width (view pixels) of the band round a candidate square where its border
(a top's outline, a groove) must show as an edge."""


def _edge_squares(views: TableViews, height_mm: float, faces: list[_Face]) -> list[_Face]:
    """Tops outlined by edges on all four sides where no face was found.

    Same-coloured neighbours whose groove is faint, or a top washed by glare, leave a
    colour region that is no square; the top's outline still shows in the lightness: a
    square of a block's size at the angle of the tops around it, each of its four sides on
    an edge clearly stronger than its inside, over pixels of block colours no face took. Its
    colour is the block colour most of its inside has.
    """
    if not faces:
        return []
    ppm = views.px_per_mm
    side = views.layout.block_mm * ppm
    n = round(side)
    classes = views.classes(height_mm)
    edges = views.edges(height_mm)
    blocks_idx = views.palette.of_kind("block")
    h, w = classes.shape
    taken = np.zeros((h, w), np.uint8)
    for f in faces:
        corners = square(tuple(f.centre * ppm - 0.5), max(f.size * ppm, side), f.angle)
        cv2.fillConvexPoly(taken, np.round(corners).astype(np.int32), 1)
    # a pawn standing on a top hides part of it: its pixels (and its outline's edges,
    # inside the top) count as the top's
    pawns = np.asarray(cv2.dilate(np.isin(classes, views.palette.of_kind("pawn")).astype(
        np.uint8), _K5, iterations=2)) > 0
    free = ((np.isin(classes, blocks_idx) | pawns) & (taken == 0)).astype(np.uint8)
    free = cv2.morphologyEx(free, cv2.MORPH_OPEN, _K3)
    if free.sum() < 0.4 * side * side:
        return []
    quiet = np.where(pawns, 0.0, edges).astype(np.float32)
    level = max(12.0, 3.0 * float(np.percentile(edges, 80)))
    nlab, labels, stats, _c = cv2.connectedComponentsWithStats(free, connectivity=8)
    centres = np.array([f.centre * ppm - 0.5 for f in faces])
    found: list[_Face] = []
    for i in range(1, nlab):
        if stats[i, cv2.CC_STAT_AREA] < 0.4 * side * side:
            continue
        x0 = max(int(stats[i, cv2.CC_STAT_LEFT]) - n, 0)
        y0 = max(int(stats[i, cv2.CC_STAT_TOP]) - n, 0)
        x1 = min(int(stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH]) + n + 1, w)
        y1 = min(int(stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT]) + n + 1, h)
        # the angles of the tops round it (fields are laid out in rows), most common first
        near = [f for f, c in zip(faces, centres, strict=True)
                if x0 - n <= c[0] <= x1 + n and y0 - n <= c[1] <= y1 + n] or faces
        angles: list[float] = []
        for a in sorted((f.angle for f in near), key=lambda a: -sum(
                abs(_angle(a - g.angle)) < 2.0 for g in near)):
            if all(abs(_angle(a - b)) >= 2.0 for b in angles):
                angles.append(a)
        for angle in angles[:2]:
            found += _squares_at(views, height_mm, angle, (x0, y0, x1, y1),
                                 (labels == i).astype(np.float32), taken, level, quiet)
    return found


def _inside(centre: np.ndarray, side: float, angle: float, shape: tuple[int, int]
            ) -> tuple[np.ndarray, np.ndarray] | None:
    """Pixel indexes (rows, columns) of a square in a view of ``shape``; ``None`` if none."""
    corners = square((float(centre[0]), float(centre[1])), side, angle)
    lo = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    hi = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, [shape[1], shape[0]])
    if (hi <= lo).any():
        return None
    patch = np.zeros((hi[1] - lo[1], hi[0] - lo[0]), np.uint8)
    cv2.fillConvexPoly(patch, np.round(corners - lo).astype(np.int32), 1)
    rows, cols = np.nonzero(patch)
    if len(rows) == 0:
        return None
    return rows + lo[1], cols + lo[0]


def _squares_at(views: TableViews, height_mm: float, angle: float,
                box: tuple[int, int, int, int], region: np.ndarray, taken: np.ndarray,
                level: float, quiet: np.ndarray) -> list[_Face]:
    """Squares of a block's size at ``angle`` outlined by edges over a free region.

    ``box``: (x0, y0, x1, y1) of the view searched; ``region``: the free pixels (whole view,
    float 0/1); ``taken``: pixels of the tops found so far (updated); ``level``: the edge
    strength each of a square's sides must reach; ``quiet``: the edges without a pawn's
    (measured inside a square).
    """
    ppm = views.px_per_mm
    side = views.layout.block_mm * ppm
    n = round(side)
    half = n // 2
    inner = max(2, round(0.15 * side))
    classes = views.classes(height_mm)
    edges = views.edges(height_mm)
    blocks_idx = views.palette.of_kind("block")
    h, w = classes.shape
    x0, y0, x1, y1 = box
    band = 2 * EDGE_RING_PX + 1
    length = n - 2 * inner
    t = math.radians(angle)
    c, s_ = math.cos(t), math.sin(t)
    cw, ch = x1 - x0, y1 - y0
    size = math.ceil(math.hypot(cw, ch)) + 2
    if size <= 2 * half + 1:
        return []
    # the window turned so that the squares' sides run along its rows and columns
    rot = np.array([[c, s_], [-s_, c]])
    shift = size / 2.0 - rot @ np.array([x0 + cw / 2.0, y0 + ch / 2.0])
    m = np.hstack([rot, shift[:, None]])
    e = cv2.warpAffine(edges, m, (size, size), flags=cv2.INTER_LINEAR)
    fr = cv2.warpAffine(region, m, (size, size), flags=cv2.INTER_NEAREST)
    share = cv2.boxFilter(fr, -1, (length, length))
    inside = cv2.boxFilter(cv2.warpAffine(quiet, m, (size, size), flags=cv2.INTER_LINEAR), -1,
                           (length, length))
    vert = cv2.boxFilter(e, -1, (band, length))
    horiz = cv2.boxFilter(e, -1, (length, band))
    # a square centred at (x, y): its sides' bands lie half a block left, right, up, down
    core = (slice(half, size - half), slice(half, size - half))
    left = vert[half:size - half, :size - 2 * half]
    right = vert[half:size - half, 2 * half:]
    up = horiz[:size - 2 * half, half:size - half]
    down = horiz[2 * half:, half:size - half]
    weakest = np.minimum(np.minimum(left, right), np.minimum(up, down))
    score = weakest - 2.0 * inside[core]
    good = (share[core] >= 0.6) & (weakest >= level) & (score > 0)
    if not good.any():
        return []
    gy, gx = np.nonzero(good)
    order = np.argsort(-score[gy, gx])
    chosen: list[np.ndarray] = []
    found: list[_Face] = []
    for k in order:
        mid = np.array([gx[k] + half, gy[k] + half], np.float64)
        if any(float(np.linalg.norm(mid - q)) < 0.8 * side for q in chosen):
            continue
        chosen.append(mid)
        at, _size = refine_square(edges, rot.T @ (mid - shift), angle, side)
        sel = _inside(at, side - 2 * inner, angle, (h, w))
        if sel is None or taken[sel].mean() > 0.2:
            continue
        counts = np.bincount(classes[sel], minlength=256)[blocks_idx]
        best = int(np.argmax(counts))
        rest = np.delete(counts, best)
        if counts[best] < 0.4 * len(sel[0]) or (len(rest) and counts[best] < 2 * rest.max()):
            continue
        whole = _inside(at, side, angle, (h, w))
        if whole is not None:
            taken[whole] = 1
        # placed on its outline: no region extent to put back on its outer edges
        found.append(_Face(views.palette.classes[blocks_idx[best]].name, (at + 0.5) / ppm,
                           _angle(angle), side / ppm, float(share[core][gy[k], gx[k]]),
                           (0.0, 0.0), True))
    return found


@dataclass(frozen=True)
class _RegionContext:
    index: int                  # palette class of the colour
    pts: np.ndarray             # the core's pixels (x, y), in the view
    origin: tuple[int, int]     # the region's window's top-left in the view
    side: float                 # a block's side in view pixels
    pawn_px: np.ndarray         # pawn-coloured pixels of the window
    pawn_zone: np.ndarray       # and those a few pixels round them (a pawn's shaded side)
    colour: str
    ppm: float


def _face_of_region(alike: np.ndarray, allowed: np.ndarray, ctx: _RegionContext
                    ) -> list[_Face] | None:
    """The top face(s) grown from one core over the pixels like it (``alike``) it may take.

    ``allowed``: the pixels nearer this core (or its group) than any other of its colour.

    ``None`` when the region is no top (not square, too small, a row that does not split
    into whole tops).
    """
    x0, y0 = ctx.origin
    side = ctx.side
    pts = ctx.pts
    region = cv2.morphologyEx((alike & allowed).astype(np.uint8), cv2.MORPH_OPEN, _K3)
    nlab, labels = cv2.connectedComponents(region, connectivity=4)
    if nlab <= 1:
        return None
    hits = labels[pts[:, 1].astype(int) - y0, pts[:, 0].astype(int) - x0]
    hits = hits[hits > 0]
    if len(hits) == 0:
        return None
    # every part the core reaches: a pawn and its shading can cut a top in two
    votes = np.bincount(hits)
    keep = np.isin(labels, np.nonzero(votes >= max(5, 0.05 * votes.max()))[0]).astype(np.uint8)
    # a pawn standing on the top hides part of it: its pixels count as the top's
    on_top = ctx.pawn_px & allowed & (cv2.dilate(keep, _K5, iterations=2) > 0)
    # without the pawn the region's extent still measures the top if it is square
    bare, _ = cv2.findContours(keep, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    (_bx, _by), (bw, bh), _ba = cv2.minAreaRect(
        cv2.convexHull(max(bare, key=cv2.contourArea)))
    pawned = bool(on_top.any()) and max(bw, bh) > 1.1 * min(bw, bh)
    if pawned:
        keep = keep | on_top.astype(np.uint8)
    contours, _ = cv2.findContours(keep, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(hull)
    fill = float(cv2.contourArea(hull)) / max(1.0, rw * rh)
    if on_top.any() and not pawned:
        # a pawn inside a square top: the top is measured without it, but the hole it
        # and its shading leave is the top's (its head may stand out past the edge)
        zone = ctx.pawn_zone & allowed & (cv2.dilate(keep, _K5, iterations=2) > 0)
        whole, _ = cv2.findContours(keep | zone.astype(np.uint8), cv2.RETR_EXTERNAL,
                                    cv2.CHAIN_APPROX_NONE)
        box = cv2.boxPoints(((cx, cy), (rw, rh), ang)).astype(np.float32)
        inside, _ = cv2.intersectConvexConvex(
            cv2.convexHull(max(whole, key=cv2.contourArea)).astype(np.float32), box)
        fill = min(1.0, max(fill, float(inside) / max(1.0, rw * rh)))
    if fill < 0.78 or min(rw, rh) < 0.7 * side:
        return None
    a = _angle(ang)
    # minAreaRect's width lies along its angle; keep (along angle a, across it)
    along, across = (rw, rh) if abs((ang - a) % 180) < 1e-6 else (rh, rw)
    # same-coloured blocks in a row with no seam seen between them: split the row
    ratio = max(rw, rh) / (min(rw, rh) + 1.0)
    count = max(1, round(ratio))
    # a top run on into a side face (or a pawn's shadow) along one axis: kept as a
    # top of unsure size, put back on its outer edges later (_anchor_outer)
    run_on = count == 1 and max(rw, rh) > 1.25 * min(rw, rh)
    if count > 3 or (max(rw, rh) > count * 1.3 * side and not run_on) or (
            run_on and (max(rw, rh) > 1.7 * min(rw, rh)
                        or min(rw, rh) < 0.85 * side)) or (
            count > 1 and abs(ratio - count) > 0.1 * count):
        return None
    if run_on:
        # the core itself, cut out by the strong edges round it, may be the top's square
        # (a faint groove let the region run on into a same-coloured neighbour): when it is
        # a square of about a top's size that fills its rectangle, its centre and angle are
        # the top's
        (kx, ky), (kw, kh), kang = cv2.minAreaRect(pts.astype(np.float32))
        if (max(kw, kh) <= 1.15 * min(kw, kh) and 0.8 * side <= min(kw, kh) <= side
                and len(pts) >= 0.75 * kw * kh):
            return [_Face(ctx.colour, (np.array([kx, ky]) + 0.5) / ctx.ppm, _angle(kang),
                          min(rw, rh) / ctx.ppm, fill, (0.0, 0.0), True)]
    pawned = pawned or run_on
    u, v = _axes(a)
    long_axis, long_len = (u, along) if along >= across else (v, across)
    short_len = min(along, across)
    faces = []
    ppm = ctx.ppm
    for k in range(count):
        shift = (k - (count - 1) / 2) * long_len / count
        mid = np.array([cx + x0, cy + y0]) + long_axis * shift
        ext = ((along / count, across) if along >= across else (along, across / count))
        # cv2 puts pixel centres at integers; view pixel u covers [u, u+1) / ppm
        faces.append(_Face(ctx.colour, (mid + 0.5) / ppm, a,
                           (short_len + long_len / count) / 2 / ppm, fill,
                           (ext[0] / ppm, ext[1] / ppm), pawned or count > 1))
    return faces


def _anchor_outer(face: _Face, nadir: np.ndarray) -> None:
    """Put a face whose region runs on into its side faces back on its outer edges.

    Side faces show only toward the camera's nadir, so the edges facing away from it are
    the top's own: along an axis where the region is longer than a top at its level, the
    centre is taken half that top's size in from the outer edge.
    """
    if face.expected <= 0 or face.extent == (0.0, 0.0):
        return
    away = face.centre - nadir
    for axis, extent in zip(_axes(face.angle), face.extent, strict=True):
        along = float(axis @ away)
        if extent <= face.expected * 1.04 or abs(along) < 1e-6:
            continue
        sign = 1.0 if along > 0 else -1.0
        outer = face.centre + sign * axis * extent / 2
        face.centre = outer - sign * axis * face.expected / 2


def _one_per_top(faces: list[_Face], block_mm: float) -> list[_Face]:
    """One face per top: same-coloured faces closer than half a block are one top.

    Its core was split; the cleanest is kept (a clean size, the fullest region, the usual
    size).
    """
    if not faces:
        return faces
    usual = float(np.median([f.size for f in faces]))
    ranked = sorted(faces, key=lambda f: (f.unsure, -round(f.fill, 2), abs(f.size - usual)))
    kept: list[_Face] = []
    for f in ranked:
        if any(k.colour == f.colour and float(np.linalg.norm(k.centre - f.centre))
               < 0.5 * block_mm for k in kept):
            continue
        kept.append(f)
    return kept


def _depth(pose: TablePose, xy: np.ndarray, height_mm: float) -> float:
    r, t = pose.rotation, np.asarray(pose.tvec, np.float64).reshape(3)
    return float(r[2, 0] * xy[0] + r[2, 1] * xy[1] - r[2, 2] * height_mm + t[2])


LEVEL_STEP_SHARE = 1.0
"""A face counts as a level higher only when its size passes this share of the way from
one level's expected size to the next. At 640x480 from 65-95 cm a level adds only 1.5-2.5 px
to a top's size, about the measuring noise, so a face must show the whole step (flat fields
are the common case; a wrong stack invents a hidden block)."""


def _clean_size(face: _Face, nadir: np.ndarray) -> float:
    """The face's size across the direction its side faces smear in (toward the nadir).

    Across that direction the region is only the top face.
    """
    to_nadir = nadir - face.centre
    dist = float(np.linalg.norm(to_nadir))
    if dist < 1e-6 or face.extent == (0.0, 0.0):
        return face.size
    n = to_nadir / dist
    u, v = _axes(face.angle)
    wu, wv = abs(float(n @ u)), abs(float(n @ v))
    # the axis least along the nadir direction is the clean one
    if wu < 0.45:
        return face.extent[0]
    if wv < 0.45:
        return face.extent[1]
    return min(face.extent)


def column_level(views: TableViews, face: _Face, height_mm: float, max_level: int
                 ) -> int | None:
    """The level of a top from where its column meets the table, when that can be seen.

    For each level the top could be at, its column's base is where the camera model puts
    it; on the base's edges that face the camera's nadir (whose side faces show), the
    view of the table's plane must show the block just inside the edge and the table just
    outside. Only edges with free table beyond them decide (a neighbour there proves
    nothing); ``None`` when no level is clearly better than the others.
    """
    pose = views.pose
    layout = views.layout
    ppm = views.px_per_mm
    ground = views.classes(0.0)
    table = np.isin(ground, views.palette.of_kind("table"))
    nadir = pose.camera_position()[:2]
    px = pose.project([[face.centre[0], face.centre[1], height_mm]])
    u, v = _axes(face.angle)
    scores = []
    for level in range(1, max_level + 1):
        c = pose.to_plane(px, level * layout.block_height_mm)[0]
        inside = outside = 0.0
        n = 0
        for normal in (u, -u, v, -v):
            mid = c + normal * layout.block_mm / 2
            facing = float(normal @ (nadir - mid)) / max(float(np.linalg.norm(nadir - mid)), 1e-9)
            if facing < 0.3:
                continue
            tangent = np.array([-normal[1], normal[0]])
            along = np.linspace(-0.35, 0.35, 9) * layout.block_mm
            pin = mid[None] - normal[None] * 2.0 + along[:, None] * tangent[None]
            pout = mid[None] + normal[None] * 3.0 + along[:, None] * tangent[None]
            xi = np.clip((pin * ppm).astype(int), 0, [ground.shape[1] - 1, ground.shape[0] - 1])
            xo = np.clip((pout * ppm).astype(int), 0, [ground.shape[1] - 1, ground.shape[0] - 1])
            out_table = float(table[xo[:, 1], xo[:, 0]].mean())
            in_block = 1.0 - float(table[xi[:, 1], xi[:, 0]].mean())
            inside += in_block
            outside += out_table
            n += 1
        scores.append((inside / n) * (outside / n) if n else 0.0)
    if not scores:
        return None
    order = np.argsort(scores)[::-1]
    best, second = scores[order[0]], scores[order[1]] if len(order) > 1 else 0.0
    if best >= 0.6 and best - second >= 0.3:
        return int(order[0]) + 1
    return None


def face_levels(pose: TablePose, faces: Sequence[_Face], height_mm: float, block_mm: float,
                max_level: int) -> list[int]:
    """The level of each face, from its size against the level-1 faces' size.

    A top ``n`` levels up looks larger in the view of the plane ``height_mm`` by the ratio of
    its distance to the camera to that plane's (6-8 % per level from 55-75 cm). The size is
    measured across the direction side faces smear in; the size a level-1 top of the same
    colour shows (its flat top without the bevel; colours differ by how the bevel shades) is
    the median of the smallest sizes of that colour, drawn toward that of all colours by
    ``3 / (n + 3)`` for a colour with ``n`` faces (all colours' alone under three).
    """
    if not faces:
        return []
    nadir = pose.camera_position()[:2]
    sizes = np.array([_clean_size(f, nadir) for f in faces])
    colours = [f.colour for f in faces]
    sure = np.array([not f.unsure for f in faces])
    if not sure.any():
        return [1] * len(faces)

    def reference(sel: np.ndarray) -> float:
        low = float(np.percentile(sel, 25))
        return float(np.median(sel[sel <= low * 1.02]))

    overall = reference(sizes[sure])
    refs = {}
    for colour in set(colours):
        # a colour's own size (its bevel shades differently), drawn toward the size of all
        # colours when it has few tops: the low quantile of three sizes is one of them
        own = sizes[[c == colour and ok for c, ok in zip(colours, sure, strict=True)]]
        refs[colour] = (overall + (reference(own) - overall) * len(own) / (len(own) + 3.0)
                        if len(own) >= 3 else overall)
    levels = []
    for f, size in zip(faces, sizes, strict=True):
        ref = min(max(refs[f.colour], 0.75 * block_mm), 1.02 * block_mm)
        if f.unsure:
            levels.append(1)
            f.expected = ref
            continue
        base = _depth(pose, f.centre, height_mm)
        expected = [ref * base / _depth(pose, f.centre, block_mm * lvl)
                    for lvl in range(1, max_level + 1)]
        level = 1
        # a level's step in frame pixels: under MIN_STEP_PX the size cannot tell levels
        # apart, so more of it is asked for
        mm_to_px = pose.intrinsics.focal_px / max(base, 1.0)
        while level < max_level:
            step = expected[level] - expected[level - 1]
            share = LEVEL_STEP_SHARE * max(1.0, MIN_STEP_PX / max(step * mm_to_px, 1e-6))
            if size <= expected[level - 1] + share * step:
                break
            level += 1
        levels.append(level)
        f.expected = expected[level - 1]
    return levels


def prism_hits(p: np.ndarray, cam: np.ndarray, footprint: np.ndarray, z0: float,
                z1: float) -> np.ndarray:
    """Which segments from points ``p`` (N, 3) to ``cam`` (3,) or (N, 3) cross a prism.

    The prism is the footprint from ``z0`` to ``z1`` mm up.
    """
    d = np.broadcast_to(np.asarray(cam, np.float64), p.shape) - p
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


def _touching(blocks: Sequence[SeenBlock3D], touch_mm: float) -> set[tuple[int, int]]:
    pairs: set[tuple[int, int]] = set()
    n = len(blocks)
    # the engine's rule (companion.games.infinifield.contacts) in three dimensions: side by
    # side at one level, and a block meeting, edge to edge, one a level below or above it
    # (its bottom edge on that one's top edge), which the plan gap alone measures
    idx = [(i, j) for i in range(n) for j in range(i + 1, n)
           if abs(blocks[i].level - blocks[j].level) <= 1]
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
        palette: colour classes learnt on this table (:func:`learn_palette`); by default
            learnt from this frame, starting from the Infinifield set.
        max_level: highest level looked for.
        px_per_mm: scale of the views measured in.
        views: views already made of this frame (shared with other readers).
    """
    if palette is None:
        palette = learn_palette(TableViews(frame, pose, default_palette(), px_per_mm))
        views = None
    views = views or TableViews(frame, pose, palette, px_per_mm)
    layout = pose.layout
    h1 = layout.block_height_mm
    faces = _one_per_top(find_faces(views, h1), layout.block_mm)
    levels = face_levels(pose, faces, h1, layout.block_mm, max_level)
    by_column = []
    for k, f in enumerate(faces):
        seen_level = column_level(views, f, h1, max_level)
        by_column.append(seen_level is not None)
        if seen_level is not None:
            levels[k] = seen_level
    blocks: list[SeenBlock3D] = []
    nadir = pose.camera_position()[:2]
    column_seen: set[int] = set()
    full_size: set[int] = set()
    for f, level, sure in zip(faces, levels, by_column, strict=True):
        _anchor_outer(f, nadir)
        px = pose.project([[f.centre[0], f.centre[1], h1]])
        c = pose.to_plane(px, level * layout.block_height_mm)[0]
        centre = (float(c[0]), float(c[1]))
        scale = _depth(pose, f.centre, h1) / _depth(pose, c, level * layout.block_height_mm)
        blocks.append(SeenBlock3D(f.colour, centre, f.angle, level,
                                  square(centre, layout.block_mm, f.angle), (), "top",
                                  f.size / scale))
        if sure:
            column_seen.add(id(blocks[-1]))
        if level == 1 and not f.unsure and _clean_size(f, nadir) >= f.expected > 0:
            full_size.add(id(blocks[-1]))
    # two tops cannot overlap at one level: keep the squarer, fuller one
    blocks = _no_overlaps(blocks, layout.block_mm)
    blocks.sort(key=lambda b: (b.colour, round(b.centre[1] / layout.block_mm), b.centre[0]))
    ids_for_notes = {i: f"{b.colour} block at ({b.centre[0]:.0f}, {b.centre[1]:.0f}) mm"
                     for i, b in enumerate(blocks)}
    for i, b in enumerate(blocks):
        if b.level == 1 and id(b) not in column_seen:
            # a block bridging two, its level not told by its size: the parts of their
            # tops show on two opposite sides of it, each with its outer edge in view (or,
            # for a top no smaller than a first-level one, wherever their edges are)
            up = _raised(b, pose)
            others = [o for j, o in enumerate(blocks) if j != i and o.seen == "top"]
            scan = _part_scan(views, up, others, [])
            under = [(p, in_view) for p, in_view in scan if p.seen == "part"]
            if _on_two(up, [p for p, in_view in under if in_view], layout) or (
                    id(b) in full_size and _on_two(up, [p for p, _v in under], layout)):
                blocks[i] = up
    # a top read three or more levels up by its size, whose column has to assume a block
    # under one seen only by a part or a side face (nothing of it shows), is read a level
    # lower: the blocks seen under it are all it stands on
    tops = blocks
    for _ in range(max_level):
        blocks, notes = _columns(views, tops, column_seen, ids_for_notes)
        unsure = _too_high(blocks, len(tops), column_seen)
        if not unsure:
            break
        tops = [_lowered(b, pose) if k in unsure else b for k, b in enumerate(tops)]
    found = pawns_on_blocks(views, blocks)
    pawns = [SeenPawn3D(p.colour, p.centre, p.top) for p in found]
    notes = [*notes, *unsure_notes(found, blocks)]
    touching = _touching(blocks, layout.touch_mm)
    hands = _hand_in_view(views, blocks, pawns)
    return FieldReading(tuple(blocks), tuple(pawns), frozenset(touching), hands,
                        tuple(notes), layout)


def _columns(views: TableViews, tops: Sequence[SeenBlock3D], column_seen: set[int],
             ids_for_notes: dict[int, str]) -> tuple[list[SeenBlock3D], list[str]]:
    """The blocks under the tops above the first level: tops, parts of tops, side faces.

    Returns every block (the tops first, in their order) and notes on what was assumed.
    """
    layout = views.layout
    pose = views.pose
    blocks = list(tops)
    notes: list[str] = []
    todo = [i for i, b in enumerate(blocks) if b.level > 1]
    while todo:
        i = todo.pop(0)
        top = blocks[i]
        if top.seen == "top":
            # blocks under a top: read tops its footprint overlaps, then the parts of tops
            # that show beside it (a block bridging two), else the column under it
            found = [j for j, b in enumerate(blocks) if b.level == top.level - 1
                     and b.seen in ("top", "part")
                     and _overlap_mm2(b.outline, top.outline) > SUPPORT_OVERLAP_MM2]
            seen_tops = [b for j, b in enumerate(blocks) if j != i and b.seen == "top"]
            scan = _part_scan(views, top, seen_tops, [blocks[j] for j in found])
            parts = [p for p, _v in scan]
            measured = {id(p) for p, in_view in scan if in_view}
            for beside in [p for p in parts if p.seen == "top"]:
                if not any(b.level == beside.level and np.hypot(
                        b.centre[0] - beside.centre[0], b.centre[1] - beside.centre[1])
                        < 0.7 * layout.block_mm for b in blocks):
                    blocks.append(beside)
                    if beside.level > 1:
                        todo.append(len(blocks) - 1)
            parts = [p for p in parts if p.seen == "part"]
            if (parts and not found and top.level > 2 and id(top) not in column_seen
                    and not any(_carried(views, p, blocks) for p in parts)):
                # parts a level up must stand on something too: when none does, the top
                # was read too high (its size, at the noise of measuring it)
                blocks[i] = _lowered(top, pose)
                todo.insert(0, i)
                continue
            for part in parts:
                blocks.append(part)
                found.append(len(blocks) - 1)
                if part.level > 1:
                    todo.append(len(blocks) - 1)
            if (len(found) == 1 and id(blocks[found[0]]) in measured
                    and not _over(blocks[found[0]], top.centre, BALANCE_MM)):
                # one block under it, the part of its top beside it seen to its outer edge,
                # and its centre not over that one: it would tip over, so a block on the
                # other side carries it too (the other half of a bridge, hidden under it):
                # as far beyond its centre as the one seen
                other = _other_support(views, top, blocks[found[0]], blocks, i, notes,
                                       ids_for_notes)
                if other is not None:
                    found.append(other)
                    if blocks[other].level > 1 and blocks[other].seen != "top":
                        todo.append(other)
            if found:
                for j in found:
                    blocks[i] = _with_support(blocks[i], j)
                continue
        level = top.level - 1
        others = [b for j, b in enumerate(blocks) if j != i and b.seen == "top"
                  and np.hypot(b.centre[0] - top.centre[0],
                               b.centre[1] - top.centre[1]) > 0.5 * layout.block_mm]
        colour, share = _side_colour(views, top.outline, level, others)
        seen = "side"
        if top.seen == "top" and id(top) not in column_seen and (
                colour is None or share < SIDE_SHARE or colour == top.colour):
            # nothing shows under it (no top, no part of one, no side face of another
            # colour: its own side faces look the same) and its column was not seen meet
            # the table: at 640x480 a level is a pixel or two of a top's size, under the
            # noise of measuring it, so it is a level lower
            blocks[i] = _lowered(top, pose)
            if blocks[i].level > 1:
                todo.insert(0, i)
            continue
        if colour is None or share < SIDE_SHARE:
            colour, seen = colour or "white", "assumed"
            where = ids_for_notes.get(i, f"{top.colour} block at ({top.centre[0]:.0f}, "
                                         f"{top.centre[1]:.0f}) mm")
            notes.append(f"the block under the {where} (level {level}) is "
                         f"hidden: assumed {colour}; check it")
        blocks.append(SeenBlock3D(colour, top.centre, top.angle, level, top.outline,
                                  (), seen, top.size_mm))
        below = len(blocks) - 1
        blocks[i] = _with_support(blocks[i], below)
        if level > 1:
            todo.append(below)
    return blocks, notes


def _over(block: SeenBlock3D, point: tuple[float, float], margin: float) -> bool:
    """Whether ``point`` lies over ``block``'s top at least ``margin`` mm in from its edges."""
    u, v = _axes(block.angle)
    d = np.asarray(point, np.float64) - np.asarray(block.centre, np.float64)
    half = float(np.linalg.norm(block.outline[0] - block.outline[1])) / 2
    return max(abs(float(d @ u)), abs(float(d @ v))) <= half - margin


def _other_support(views: TableViews, top: SeenBlock3D, seen: SeenBlock3D,
                   blocks: list[SeenBlock3D], i: int, notes: list[str],
                   ids_for_notes: dict[int, str]) -> int | None:
    """The index of the block that carries ``top`` with ``seen``, added when not read.

    It lies as far beyond the top's centre as ``seen`` lies before it; a block read there
    already is it, else it is added, its colour from its side faces or assumed (noted).
    """
    layout = views.layout
    c = np.asarray(top.centre, np.float64)
    mirror = 2 * c - np.asarray(seen.centre, np.float64)
    xy = (float(mirror[0]), float(mirror[1]))
    for j, b in enumerate(blocks):
        if b.level == seen.level and np.hypot(b.centre[0] - xy[0], b.centre[1] - xy[1]) \
                < 0.7 * layout.block_mm:
            return j if _overlap_mm2(b.outline, top.outline) > SUPPORT_OVERLAP_MM2 else None
    outline = square(xy, layout.block_mm, top.angle)
    # the top it carries hides part of its side faces as well as the other tops do
    others = [top, *(b for j, b in enumerate(blocks) if j != i and b.seen == "top"
                     and np.hypot(b.centre[0] - xy[0], b.centre[1] - xy[1])
                     > 0.5 * layout.block_mm)]
    colour, share = _side_colour(views, outline, seen.level, others)
    seen_by = "side"
    if colour is None or share < SIDE_SHARE:
        # nothing of it shows: assumed white, as a hidden block in a column is
        colour, seen_by = "white", "assumed"
        where = ids_for_notes.get(i, f"{top.colour} block at ({top.centre[0]:.0f}, "
                                     f"{top.centre[1]:.0f}) mm")
        notes.append(f"the second block under the {where} (level {seen.level}) is "
                     f"hidden: assumed {colour}; check it")
    blocks.append(SeenBlock3D(colour, xy, top.angle, seen.level, outline, (), seen_by,
                              layout.block_mm))
    return len(blocks) - 1


def _too_high(blocks: Sequence[SeenBlock3D], n_tops: int, column_seen: set[int]) -> set[int]:
    """Tops read by their size whose columns had to assume a block two or more levels down.

    Only tops (indexes under ``n_tops``) at level 3 or more whose column was not seen.
    """
    out: set[int] = set()
    for i in range(n_tops):
        top = blocks[i]
        if top.seen != "top" or top.level < 3 or id(top) in column_seen:
            continue
        stack, seen = list(top.rests_on), set()
        while stack:
            j = stack.pop()
            if j in seen:
                continue
            seen.add(j)
            if blocks[j].seen == "assumed" and blocks[j].level <= top.level - 2:
                out.add(i)
                break
            stack.extend(blocks[j].rests_on)
    return out


BALANCE_MM = 5.0
"""A block stands on one block alone only with its centre this far (mm) inside that one's
top; nearer its edge (a bridge's half seen) a second block carries it."""

SIDE_SHARE = 0.3
"""A block under a top is read from its side faces when this share of them has its colour."""

SUPPORT_OVERLAP_MM2 = 200.0
"""A block one level down whose footprint shares this much (mm²) with a top's carries it."""

WHOLE_TOP = 0.9
"""A strip beside a top this share of a block long, in view all along, is a top beside it."""

PART_MIN_MM = 5.0
"""A part of a top beside a block standing on it is read from this width (mm) up."""


def _on_two(top: SeenBlock3D, parts: Sequence[SeenBlock3D], layout: TableLayout) -> bool:
    """Whether parts of tops under ``top`` show on two opposite sides of it (a bridge)."""
    mid = np.asarray(top.centre)
    return any(float((np.asarray(p.centre) - mid) @ (np.asarray(q.centre) - mid))
               < -0.5 * layout.block_mm ** 2 / 4 for p in parts for q in parts)


def _overlap_mm2(a: np.ndarray, b: np.ndarray) -> float:
    """Area (mm²) two convex footprints share."""
    area, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return float(area)


def _lowered(top: SeenBlock3D, pose: TablePose, by: int = -1) -> SeenBlock3D:
    """The same top a level lower (``by`` -1) or higher (+1).

    Its centre is where the ray through it meets that level's plane.
    """
    h = pose.layout.block_height_mm
    px = pose.project([[top.centre[0], top.centre[1], top.level * h]])
    c = pose.to_plane(px, (top.level + by) * h)[0]
    centre = (float(c[0]), float(c[1]))
    return SeenBlock3D(top.colour, centre, top.angle, top.level + by,
                       square(centre, pose.layout.block_mm, top.angle), top.rests_on, top.seen,
                       top.size_mm)


def _carried(views: TableViews, part: SeenBlock3D, blocks: Sequence[SeenBlock3D]) -> bool:
    """Whether something shows under a block above the first level.

    A read top it overlaps one level down, or side faces of another colour under it.
    """
    if any(b.level == part.level - 1 and b.seen == "top"
           and _overlap_mm2(b.outline, part.outline) > SUPPORT_OVERLAP_MM2 for b in blocks):
        return True
    others = [b for b in blocks if b.seen == "top"
              and np.hypot(b.centre[0] - part.centre[0], b.centre[1] - part.centre[1])
              > 0.5 * views.layout.block_mm]
    colour, share = _side_colour(views, part.outline, part.level - 1, others)
    return colour is not None and colour != part.colour and share >= SIDE_SHARE


def _raised(top: SeenBlock3D, pose: TablePose) -> SeenBlock3D:
    """The same top a level higher."""
    return _lowered(top, pose, +1)


def _part_tops(views: TableViews, top: SeenBlock3D, seen_tops: Sequence[SeenBlock3D],
               supports: Sequence[SeenBlock3D], edge_seen: bool = False
               ) -> list[SeenBlock3D]:
    """Blocks under ``top`` read from the parts of their tops that show beside it.

    See :func:`_part_scan`; with ``edge_seen`` only parts whose outer edge is in view.
    """
    return [p for p, in_view in _part_scan(views, top, seen_tops, supports)
            if in_view or not edge_seen]


def _part_scan(views: TableViews, top: SeenBlock3D, seen_tops: Sequence[SeenBlock3D],
               supports: Sequence[SeenBlock3D]) -> list[tuple[SeenBlock3D, bool]]:
    """Blocks under ``top`` from the parts of their tops, each with whether its edge shows.

    A block resting on two (a bridge) hides the middle of their tops; the rest of each
    shows beside it at the level below, as a strip of one colour along one of its sides.
    For each side of ``top`` the plane of the level below is sampled slice by slice
    outward (other blocks' boxes and the top's own box left out); a strip of one block
    colour and one shade is a part top, and its outer edge puts the block under: a block's
    size in from that edge (the edge out of view: as far under ``top`` as beyond it).
    Sides where a block already carries ``top`` are skipped.
    """
    layout = views.layout
    pose = views.pose
    ppm = views.px_per_mm
    size = layout.block_mm
    level = top.level - 1
    plane = level * layout.block_height_mm
    classes = views.classes(plane)
    grey = np.log(cv2.cvtColor(views.view(plane), cv2.COLOR_BGR2GRAY).astype(np.float32)
                  + 12.0)
    hidden = silhouettes(pose, [top, *seen_tops], ppm, plane, pad_mm=1.5) > 0
    h, w = classes.shape
    centre = np.asarray(top.centre, np.float64)
    block_kinds = set(views.palette.of_kind("block"))
    steps = np.arange(size / 2 + 1.0, 1.6 * size, 1.0)           # outward from the side
    lateral = np.linspace(-0.4 * size, 0.4 * size, 17)
    parts: list[tuple[SeenBlock3D, bool]] = []
    for d in (*_axes(top.angle), *(-a for a in _axes(top.angle))):
        e = np.array([-d[1], d[0]])
        if any(float((np.asarray(b.centre) - centre) @ d) > 0.25 * size for b in supports):
            continue
        pts = (centre[None, None] + steps[:, None, None] * d[None, None]
               + lateral[None, :, None] * e[None, None])
        px = np.floor(pts * ppm).astype(int)
        inside = (px[..., 0] >= 0) & (px[..., 1] >= 0) & (px[..., 0] < w) & (px[..., 1] < h)
        px[..., 0] = np.clip(px[..., 0], 0, w - 1)
        px[..., 1] = np.clip(px[..., 1], 0, h - 1)
        cls = classes[px[..., 1], px[..., 0]]
        usable = inside & ~hidden[px[..., 1], px[..., 0]]
        shade = grey[px[..., 1], px[..., 0]]
        near = steps < size / 2 + 0.6 * size
        kinds = [k for k in np.unique(cls[near][usable[near]]) if int(k) in block_kinds]
        if not kinds:
            continue
        colour_k = max(kinds, key=lambda k: int(((cls == k) & usable)[near].sum()))
        mine = (cls == colour_k) & usable
        if mine[near].sum() < 0.5 * usable[near].sum() or mine[near].sum() < 3 * len(lateral):
            continue
        # slice by slice: the strip goes on while its colour (in one shade) fills the slice
        per_slice = usable.sum(axis=1)
        share = mine.sum(axis=1) / np.maximum(per_slice, 1)
        # the strip's shade is the median of its slices so far: the slice next to the block
        # above lies in its shadow and groove, and the top brightens away from it
        lums: list[float] = []
        end = first = None
        started = False
        for k in range(len(steps)):
            if per_slice[k] < 4:
                if started:
                    end = k
                continue
            lum = float(np.median(shade[k][mine[k]])) if mine[k].any() else 0.0
            if share[k] >= 0.5 and (not lums or abs(lum - float(np.median(lums))) < FACE_SHADE):
                lums.append(lum)
                first = k if first is None else first
                started = True
                end = k
                continue
            if started:
                break
            if steps[k] > size / 2 + 0.5 * size:
                break
        if not started or end is None or first is None:
            continue
        name = views.palette.classes[int(colour_k)].name
        if len(lums) >= WHOLE_TOP * size:      # a slice a millimetre
            # a whole top's length of it in view: a top beside ``top`` (one no face was
            # found for), not one under it
            near_edge = float(steps[first]) - 0.5
            mid = centre + d * (near_edge + size / 2)
            xy = (float(mid[0]), float(mid[1]))
            parts.append((SeenBlock3D(name, xy, top.angle, level, square(xy, size, top.angle),
                                      (), "top", size), True))
            continue
        outer = float(steps[end]) + 0.5
        if outer - size / 2 < PART_MIN_MM:
            continue
        in_view = outer < steps[-1] - 1.0
        if not in_view:
            outer = size                # its outer edge out of view: as far in as out
        offset = outer - size / 2
        mid = centre + d * offset
        xy = (float(mid[0]), float(mid[1]))
        parts.append((SeenBlock3D(name, xy, top.angle, level, square(xy, size, top.angle),
                                  (), "part", size), in_view))
    return parts


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


def silhouettes(pose: TablePose, blocks: Sequence[SeenBlock3D], px_per_mm: float,
                height_mm: float, pad_mm: float = 3.0) -> np.ndarray:
    """Mask (255) of where the blocks' boxes appear in the view of the plane ``height_mm`` up."""
    layout = pose.layout
    w, h = round(layout.width_mm * px_per_mm), round(layout.height_mm * px_per_mm)
    mask = np.zeros((h, w), np.uint8)
    hom = pose.plane_homography(height_mm)
    inv = np.linalg.inv(hom)
    corners = []
    for b in blocks:
        z1 = b.level * layout.block_height_mm
        poly = np.asarray(b.outline, np.float64)
        mid = poly.mean(axis=0)
        rad = poly - mid
        big = mid + rad * (1 + pad_mm * 1.4142 / np.linalg.norm(rad, axis=1, keepdims=True))
        corners += [[x, y, z] for x, y in big for z in (z1 - layout.block_height_mm,
                                                         z1 + pad_mm)]
    if not corners:
        return mask
    px = pose.project(corners, distort=False)          # all boxes in one projection
    on_plane = cv2.perspectiveTransform(px.reshape(-1, 1, 2), inv).reshape(-1, 8, 2)
    for box in on_plane:
        hull = cv2.convexHull((box * px_per_mm).astype(np.float32)).reshape(-1, 2)
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
    # blocks assumed under others explain no pixel: nothing of them shows
    shown = [b for b in blocks if b.seen != "assumed"]
    unknown[silhouettes(views.pose, shown, ppm, h1) > 0] = 0
    for p in pawns:
        cv2.circle(unknown, (round(p.centre[0] * ppm), round(p.centre[1] * ppm)),
                   round(layout.pawn_mm * ppm), 0, -1)
    unknown[_keepout(layout, ppm) > 0] = 0
    unknown = cv2.morphologyEx(unknown, cv2.MORPH_OPEN, _K3, iterations=2)
    contours, _ = cv2.findContours(unknown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    biggest = max((cv2.contourArea(c) for c in contours), default=0.0)
    return biggest / (ppm * ppm) > HAND_MM2
