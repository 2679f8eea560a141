"""Finding block tops in a table view: square regions of a block colour, one per top.

A top face at the plane a view is resampled on shows as an exact 40 mm square of a block
colour; its side faces smear toward the camera's nadir and same-coloured neighbours touch it.
:func:`find_faces` separates it from both by the edges between them and refines it to the
strongest edges around it (:func:`refine_square`) and turns it to the angle its outline
shows (:func:`measured_angle`); :mod:`vision.readers.levels3d` then says
at which level each face is. Used by :func:`vision.readers.field3d.read_field`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import square
from vision.readers.table_views import (
    TableViews,
)

_K3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_K5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


@dataclass
class TopFace:
    """A block top found in one level's view: its colour, square and how sure its size is."""

    colour: str
    centre: np.ndarray          # mm, in the view it was measured in
    angle: float
    size: float                 # mm, mean side in that view
    fill: float
    extent: tuple[float, float] = (0.0, 0.0)   # mm along the angle's axis and across it
    unsure: bool = False        # its size is not a clean measure (a pawn on it, a split row)
    expected: float = 0.0       # mm, the size a top at its level shows in that view
    # mm, along each axis it shares with a same-coloured neighbour: between its own edges
    # (0 where the region's extent is the measure), see _trim_shared_sides
    own: tuple[float, float] = (0.0, 0.0)


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


def face_axes(angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors along a square's sides at ``angle`` degrees (along, across)."""
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


ANGLE_REACH_PX = 3.0
"""How far (view pixels) across a side its outline is looked for when measuring the angle."""

ANGLE_FIT_PX = 0.75
"""Points of a side's outline further than this from its fitted line are left out (a pawn's
outline, a neighbour's corner)."""

ANGLE_AGREE_DEG = 1.5
"""Sides whose own angles agree within this are the ones the top's angle is measured from."""

HULL_ANGLE_DEG = 3.0
"""A region's rectangle gives a top's angle to about a pixel over its side (1.4 degrees at
one pixel per millimetre); the outline replaces it when they disagree by more than twice
that: the hull was bent (a shadow or a neighbour's strip running on, a corner cut off)."""


def outline_sides(edges: np.ndarray, centre: np.ndarray, angle: float,
                  half: tuple[float, float]) -> list[tuple[float, float, float] | None]:
    """Each side's outline as the edges show it: its turn, weight and shift.

    Across each side, at points spread along it, the outline is where the edge is strongest
    (to a fraction of a pixel); a straight line through those points (a second pass without
    the points far from the first line) turns by the side's angle. A turn ``d`` of the
    square moves a point ``t`` along a side by ``-d t`` across it, for every side alike.

    Args:
        edges: gradient magnitude of the view.
        centre: (x, y) in view pixels.
        angle: degrees.
        half: half the square's extent along its angle's axis and across it (view pixels).

    Returns:
        For the sides along +u, +v, -u, -v (:func:`face_axes`): ``(turn in degrees,
        weight, shift outward in view pixels at the side's middle)``, the weight being the
        number of points on its line; ``None`` for a side whose outline did not show along
        most of it.
    """
    u, v = face_axes(angle)
    offsets = np.arange(-ANGLE_REACH_PX, ANGLE_REACH_PX + 0.01, 0.25)
    frac = np.linspace(-0.8, 0.8, 13)
    normals = np.array([u, v, -u, -v])
    tangents = np.array([v, -u, -v, u])
    h_n = np.array([half[0], half[1], half[0], half[1]])
    along = frac[None, :] * np.array([half[1], half[0], half[1], half[0]])[:, None]  # (4, A)
    # (side, offset, along, xy): every side's samples in one go
    pts = (centre[None, None, None, :]
           + (h_n[:, None, None, None] + offsets[None, :, None, None]) * normals[:, None, None, :]
           + along[:, None, :, None] * tangents[:, None, None, :])
    prof = _sample(edges, pts.reshape(-1, 2)).reshape(4, len(offsets), len(frac))
    k = prof.argmax(axis=1)                                                   # (4, A)
    kk = np.clip(k, 1, len(offsets) - 2)
    a = np.take_along_axis(prof, (kk - 1)[:, None, :], 1)[:, 0]
    b = np.take_along_axis(prof, kk[:, None, :], 1)[:, 0]
    c = np.take_along_axis(prof, (kk + 1)[:, None, :], 1)[:, 0]
    den = a - 2 * b + c
    sub = np.where(den < 0, 0.5 * (a - c) / np.where(den < 0, den, -1.0), 0.0)
    at = offsets[k] + sub * 0.25
    ok = (k > 0) & (k < len(offsets) - 1) & (
        b >= 0.5 * np.median(prof.max(axis=1), axis=1, keepdims=True))
    slope, shift = _lines(along, at, ok)
    keep = ok & (np.abs(shift[:, None] + slope[:, None] * along - at) <= ANGLE_FIT_PX)
    slope, shift = _lines(along, at, keep)
    count = keep.sum(axis=1)
    return [(-math.degrees(math.atan(float(slope[i]))), float(count[i]), float(shift[i]))
            if count[i] >= 6 and ok[i].sum() >= 6 else None for i in range(4)]


def _lines(x: np.ndarray, y: np.ndarray, use: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares ``(slopes, intercepts)`` of each row's points that ``use`` picks."""
    w = use.astype(np.float64)
    n = np.maximum(w.sum(axis=1), 1.0)
    mx = (w * x).sum(axis=1) / n
    my = (w * y).sum(axis=1) / n
    dx = x - mx[:, None]
    var = (w * dx * dx).sum(axis=1)
    slope = np.where(var > 0, (w * dx * (y - my[:, None])).sum(axis=1) / np.maximum(var, 1e-12),
                     0.0)
    return slope, my - slope * mx


def outline_turn(edges: np.ndarray, centre: np.ndarray, angle: float,
                 half: tuple[float, float]) -> float | None:
    """How far the square's outline is turned from ``angle`` (degrees); ``None`` if unseen.

    The sides' own turns (:func:`outline_sides`) that agree with one another are averaged,
    weighted by how many of their points lie on a line. A turn of the whole top shows on
    sides of both its axes: sides of one axis alone may be bent by what runs on past them
    (a side face, a shadow), so they do not count alone.
    """
    sides = outline_sides(edges, centre, angle, half)
    turns = [(t[0], t[1], k % 2) for k, t in enumerate(sides) if t]
    best: list[tuple[float, float, int]] = []
    for d, _w, _axis in turns:
        agree = [t for t in turns if abs(t[0] - d) <= ANGLE_AGREE_DEG]
        if (len({t[2] for t in agree}) == 2
                and sum(t[1] for t in agree) > sum(t[1] for t in best)):
            best = agree
    if not best:
        return None
    return sum(e * w for e, w, _a in best) / sum(w for _e, w, _a in best)


def measured_angle(edges: np.ndarray, centre: np.ndarray, angle: float,
                   half: tuple[float, float]) -> float:
    """The square's angle measured from its own outline (``angle`` if it does not show).

    :func:`outline_turn`, twice: the second time from the angle the first found.
    """
    for _ in range(2):
        turn = outline_turn(edges, centre, angle, half)
        if turn is None:
            break
        angle = _angle(angle + turn)
        if abs(turn) < 0.1:
            break
    return angle


def find_faces(views: TableViews, height_mm: float) -> list[TopFace]:
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
    faces: list[TopFace] = []
    unread: list[tuple[np.ndarray, np.ndarray, _RegionContext]] = []
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
            found = _face_of_region(alike, by_group[y0:y1, x0:x1] == group, ctx)
            if found is None and own_core is None:
                # no region of one shade: a hard shadow's edge may cut the top in two
                unread.append((((classes[y0:y1, x0:x1] == index) & (tint < FACE_TINT)
                                & (seams[y0:y1, x0:x1] == 0)), mine_only, ctx))
            # a group that makes no top leaves the core's own top when its region spans a
            # whole top across (it ran on: a pawn on it, a same-coloured neighbour beside
            # it); a part of a top is left to the squares looked for later
            faces += found if found is not None else [
                f for f in own_core or [] if min(f.extent) >= SHORT_SHARE * layout.block_mm]
    # a region larger than any top can show holds a top and more: on both axes for a face
    # of sure size, on either for one whose region ran on (or has a pawn in it)
    faces = [g for f in faces for g in (
        _top_inside(views, height_mm, f)
        if (max(f.extent) if f.unsure else min(f.extent))
        > _largest_top(views, f.centre, height_mm) * ppm
        else [f])]
    faces = [g for f in faces for g in _tops_either_side(views, height_mm, f)]
    faces += _edge_squares(views, height_mm, faces)
    faces += _shadow_split(unread, faces, views.layout.block_mm)
    faces += _colour_squares(views, height_mm, unread, faces)
    for f in faces:
        if not f.unsure:
            _turn_to_outline(f, edges, ppm)
            _centre_short_axes(f, edges, ppm, views.layout.block_mm)
    _trim_shared_sides(faces, edges, ppm, views.layout.block_mm)
    return faces


RUN_ON_MARGIN_PX = 2.0
"""A region's extent is known to about a pixel at each end: a run-on region is longer than
one top can show only by more than this (view pixels)."""

GROOVE_WINDOW = 0.2
"""A groove between two tops lies one top's size from an end of the region they make,
within this share of it (the regions' ends and the groove are each known to a pixel or so)."""

GROOVE_EDGE_SHARE = 0.5
"""The groove's edge reaches at least this share of the strong-edge level (a washed-out
bevel stays under that level, the top's texture well under this share of it)."""

PART_SHARE = 0.25
"""The part of a run-on region past a groove is a neighbour's top when it is at least this
share of a top long (less is the bevel's sliver beyond the groove)."""


def _longest_single(views: TableViews, height_mm: float, face: TopFace, axis: np.ndarray,
                    near_end: np.ndarray) -> float:
    """The longest (mm) one top with its side faces can show along ``axis`` in the view.

    The top at the highest level shows largest (:func:`_largest_top`); its column's side
    faces smear toward the camera's nadir, from the top's near edge at its height to the
    column's foot on the table: ``r (H - h) (1 / (H - z) - 1 / H)`` for a near edge ``r``
    from the nadir along the axis, the camera ``H`` up, the view ``h`` up and the top ``z``.
    """
    cam = views.pose.camera_position()
    height = float(cam[2])
    z_top = views.layout.block_height_mm * HIGHEST_LEVEL
    r = abs(float((near_end - cam[:2]) @ axis))
    smear = r * (height - height_mm) * (1.0 / max(height - z_top, 1.0) - 1.0 / height)
    return _largest_top(views, face.centre, height_mm) + smear


def _tops_either_side(views: TableViews, height_mm: float, face: TopFace) -> list[TopFace]:
    """Two same-coloured tops side by side in a region that ran on: split at their groove.

    A region of unsure size longer along one axis than any one top with its side faces can
    show there (:func:`_longest_single`) holds a neighbour's top too: their groove is where
    the edges (a pawn's left out) peak across the region one top's size (its short extent)
    from either end. The tops are placed a top's half either side of the groove: the near
    one (toward the camera's nadir) when the part before the groove is longer than a side
    face could be, the far one when the part past it is more than a sliver. Both stay of
    unsure size (one may show only in part). Without a groove, or where the region is no
    top's width across its row (a hand, a shadow), the face is kept as it was.
    """
    if not face.unsure or face.extent == (0.0, 0.0):
        return [face]
    ppm = views.px_per_mm
    i = int(np.argmax(face.extent))
    long_mm, short_mm = face.extent[i], face.extent[1 - i]
    if (long_mm < 1.2 * short_mm or short_mm < 0.8 * views.layout.block_mm
            or short_mm * ppm > _largest_top(views, face.centre, height_mm) * ppm
            + RUN_ON_MARGIN_PX):
        # across the row the region is no one top's (a hand, a shadow, a broken region)
        return [face]
    axes = face_axes(face.angle)
    axis, across = axes[i], axes[1 - i]
    nadir = views.pose.camera_position()[:2]
    far = axis if float(axis @ (face.centre - nadir)) >= 0 else -axis
    near_end = face.centre - far * long_mm / 2
    longest = _longest_single(views, height_mm, face, axis, near_end)
    if long_mm * ppm <= longest * ppm + RUN_ON_MARGIN_PX:
        return [face]
    groove = _groove_across(views, height_mm, near_end * ppm - 0.5, far, across,
                            long_mm * ppm, short_mm * ppm)
    if groove is None:
        return [face]
    at = groove / ppm
    smear = longest - _largest_top(views, face.centre, height_mm)
    mid = near_end + far * at
    tops = []
    if at > smear + RUN_ON_MARGIN_PX / ppm:
        tops.append(mid - far * short_mm / 2)
    if long_mm - at >= PART_SHARE * short_mm:
        tops.append(mid + far * short_mm / 2)
    if len(tops) < 2:
        return [face]
    edges = views.edges(height_mm)
    return [TopFace(face.colour, _across_outline(edges, c, face.angle, short_mm, across, ppm),
                    face.angle, short_mm, face.fill, (0.0, 0.0), True) for c in tops]


def _across_outline(edges: np.ndarray, centre: np.ndarray, angle: float, size: float,
                    across: np.ndarray, ppm: float) -> np.ndarray:
    """A top's centre (mm) moved across its row onto its outline's sides there.

    Along the row the groove placed it; across it the region's middle line was the whole
    region's, which a neighbour's part or a side face running on bends by a pixel or two:
    the top's own sides along the row (:func:`refine_square`) say where it is.
    """
    moved, _size = refine_square(edges, centre * ppm - 0.5, angle, size * ppm)
    shift = float((moved - (centre * ppm - 0.5)) @ across)
    return centre + across * shift / ppm


def _groove_across(views: TableViews, height_mm: float, near_end: np.ndarray,
                   far: np.ndarray, across: np.ndarray, length: float, top: float
                   ) -> float | None:
    """Where a groove crosses a run-on region, in view pixels from its near end.

    The edge profile along the region (the median across its middle part, a pawn's
    pixels and outline left out), its strongest peak one top's size (``top``) from either
    end (:data:`GROOVE_WINDOW`) of at least :data:`GROOVE_EDGE_SHARE` of the strong-edge
    level; ``None`` when there is none.
    """
    edges = views.edges(height_mm)
    classes = views.classes(height_mm)
    pawns = np.asarray(cv2.dilate(np.isin(classes, views.palette.of_kind("pawn")).astype(
        np.uint8), _K5, iterations=2)) > 0
    quiet = np.where(pawns, np.nan, edges).astype(np.float32)
    level = max(12.0, 3.0 * float(np.percentile(edges, 80)))
    ts = np.arange(0.0, length + 0.01, 0.5)
    ss = np.linspace(-0.3, 0.3, 9) * top
    pts = (near_end[None, None, :] + ts[:, None, None] * far[None, None, :]
           + ss[None, :, None] * across[None, None, :]).reshape(-1, 2)
    h, w = edges.shape
    xi = np.clip(np.round(pts[:, 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(pts[:, 1]).astype(int), 0, h - 1)
    samples = np.where(np.isnan(quiet[yi, xi]), np.nan, _sample(edges, pts)).reshape(
        len(ts), len(ss))
    valid = (~np.isnan(samples)).sum(axis=1) >= 3
    prof = np.where(valid, np.nanmedian(np.where(valid[:, None], samples, 0.0), axis=1), 0.0)
    # one top's size from either end, a part's least length in from both (a peak at an
    # end is the region's own border)
    window = (((np.abs(ts - top) <= GROOVE_WINDOW * top)
               | (np.abs(length - ts - top) <= GROOVE_WINDOW * top))
              & (ts >= PART_SHARE * top) & (length - ts >= PART_SHARE * top))
    peaks = [k for k in range(1, len(ts) - 1)
             if window[k] and prof[k] >= prof[k - 1] and prof[k] > prof[k + 1]
             and prof[k] >= GROOVE_EDGE_SHARE * level]
    if not peaks:
        return None
    return float(ts[max(peaks, key=lambda k: prof[k])])


def _shadow_split(unread: list[tuple[np.ndarray, np.ndarray, _RegionContext]],
                  faces: list[TopFace], block_mm: float) -> list[TopFace]:
    """Tops a hard shadow's edge cuts in two shades, from cores no face was found for.

    ``unread``: for each such core, the pixels of its colour and tint on either side of
    any shade (seams left out), those it may take and its context. Where no face was
    found within half a block of the core, the top is grown over both shades, bounded by
    the edges round it; the shaded part's edges are faint, so its size is no measure of
    its level (kept unsure).
    """
    out: list[TopFace] = []
    for alike, allowed, ctx in unread:
        centre = (ctx.pts.mean(axis=0) + 0.5) / ctx.ppm
        if any(float(np.linalg.norm(f.centre - centre)) < 0.5 * block_mm
               for f in [*faces, *out]):
            continue
        for f in _face_of_region(alike, allowed, ctx) or []:
            f.unsure = True
            out.append(f)
    return out


COLOUR_SQUARE_SHARE = 0.85
"""A hard shadow across a top leaves it in two shades and its own region no square, but
the pixels are of its colour (the shadow's palette reads them): a square of a block's
inner size this share of which is the core's colour (a pawn's pixels counting) is a top
(a top's bevel and a pixel of blur at its edges stay under the rest)."""

COLOUR_SQUARE_FREE = 0.1
"""Share of such a square that found tops may already cover (a pixel of their outlines)."""

COLOUR_SQUARE_INNER = 0.9
"""Share of a block's side (per axis) measured for :data:`COLOUR_SQUARE_SHARE` (the bevel
and the blur of the outline left out)."""


def _colour_squares(views: TableViews, height_mm: float,
                    unread: list[tuple[np.ndarray, np.ndarray, _RegionContext]],
                    faces: list[TopFace]) -> list[TopFace]:
    """Tops in two shades whose region gave no face: a square of their colour round a core.

    For each core no face was found within half a block of, the square of a block's size at
    the angle of the tops near it, within half a block of the core, that is most of the
    core's colour (:data:`COLOUR_SQUARE_SHARE`) over pixels no found top covers; of those
    equally full, the one farthest from the camera's nadir (side faces smear toward it).
    Kept of unsure size: its square, not its region, placed it.
    """
    if not unread or not faces:
        return []
    ppm = views.px_per_mm
    side = views.layout.block_mm * ppm
    classes = views.classes(height_mm)
    edges = views.edges(height_mm)
    h, w = classes.shape
    pawns = np.asarray(cv2.dilate(np.isin(classes, views.palette.of_kind("pawn")).astype(
        np.uint8), _K5, iterations=2)) > 0
    nadir = views.pose.camera_position()[:2] * ppm - 0.5
    found: list[TopFace] = []
    for _alike, _allowed, ctx in unread:
        centre = (ctx.pts.mean(axis=0) + 0.5) / ppm
        if any(float(np.linalg.norm(f.centre - centre)) < 0.5 * views.layout.block_mm
               for f in [*faces, *found]):
            continue
        taken = np.zeros((h, w), np.uint8)
        for f in [*faces, *found]:
            corners = square(tuple(f.centre * ppm - 0.5), f.size * ppm, f.angle)
            cv2.fillConvexPoly(taken, np.round(corners).astype(np.int32), 1)
        near = sorted(faces, key=lambda f: float(np.linalg.norm(f.centre - centre)))[:4]
        angle = float(np.median([f.angle for f in near]))
        mine = (classes == ctx.index) | pawns
        best = _colour_square_at(mine, taken, centre * ppm - 0.5, angle, side, nadir)
        if best is None:
            continue
        at, _size = refine_square(edges, best, angle, side)
        if float(np.linalg.norm(at - best)) > REFINE_PX:
            at = best
        found.append(TopFace(ctx.colour, (at + 0.5) / ppm, _angle(angle), side / ppm,
                             1.0, (0.0, 0.0), True))
    return found


def _colour_square_at(mine: np.ndarray, taken: np.ndarray, core: np.ndarray, angle: float,
                      side: float, nadir: np.ndarray) -> np.ndarray | None:
    """Centre (view pixels) of the fullest free square of ``mine`` near ``core``, or None."""
    u, v = face_axes(angle)
    reach = np.arange(-0.5 * side, 0.5 * side + 0.01, 1.0)
    inner = np.linspace(-0.5, 0.5, 12) * COLOUR_SQUARE_INNER * side
    offs = (inner[:, None, None] * u + inner[None, :, None] * v).reshape(-1, 2)
    whole = (np.linspace(-0.5, 0.5, 12)[:, None, None] * u
             + np.linspace(-0.5, 0.5, 12)[None, :, None] * v).reshape(-1, 2) * side
    h, w = mine.shape
    best: tuple[float, float, np.ndarray] | None = None
    for a in reach:
        for b in reach:
            mid = core + a * u + b * v
            pts = np.round(mid + offs).astype(int)
            cover = np.round(mid + whole).astype(int)
            if ((cover < 0).any() or (cover[:, 0] >= w).any() or (cover[:, 1] >= h).any()):
                continue
            share = float(mine[pts[:, 1], pts[:, 0]].mean())
            if share < COLOUR_SQUARE_SHARE:
                continue
            if float(taken[cover[:, 1], cover[:, 0]].mean()) > COLOUR_SQUARE_FREE:
                continue
            away = float(np.linalg.norm(mid - nadir))
            key = (round(share, 1), away)
            if best is None or key > best[:2]:
                best = (key[0], key[1], mid)
    return None if best is None else best[2]


OWN_EDGE_REACH_PX = 3.5
"""How far inside a region's side (view pixels) the top's own edge is looked for."""

SHARED_GAP_MM = 1.0
"""Two same-coloured regions whose sides come closer than this (mm) were split from each
other by which core is nearer, not by a change of colour."""


def _trim_shared_sides(faces: list[TopFace], edges: np.ndarray, ppm: float, block_mm: float
                       ) -> None:
    """Measure a face's size between its own edges along an axis it shares with a neighbour.

    Two same-coloured tops side by side make one colour region that the nearest-core split
    cuts at the groove's middle, so each one's region takes in its bevel and half the groove
    on that side: a few pixels too large, which the level reading takes for a top nearer the
    camera. The groove shows as two edges, one per top; along such an axis the distance
    between the face's own edges (the innermost clear edge across each side,
    :func:`own_edge`) is kept in ``face.own`` when both show and it is smaller than the
    region's extent (which stays: the centre and the level-one reference are the regions').
    Axes bounded by other colours have no such measure (the colour change is the top's
    edge).
    """
    sure = [f for f in faces if not f.unsure and f.extent != (0.0, 0.0)]
    for f in sure:
        axes = face_axes(f.angle)
        ext = list(f.extent)
        centre = f.centre * ppm - 0.5
        for i, axis in enumerate(axes):
            other = axes[1 - i]
            shared = False
            for g in faces:
                if g is f or g.colour != f.colour:
                    continue
                d = g.centre - f.centre
                along, across = abs(float(d @ axis)), abs(float(d @ other))
                g_half = (g.extent[i] if g.extent != (0.0, 0.0) else g.size) / 2
                # side by side: a block apart along the axis (tops cannot overlap), in line
                if (across < 0.5 * block_mm and along > 0.85 * block_mm
                        and along - ext[i] / 2 - g_half < SHARED_GAP_MM):
                    shared = True
            if not shared:
                continue
            half = ext[i] * ppm / 2
            length = ext[1 - i] * ppm
            pos = own_edge(edges, centre + axis * half, axis, other, length)
            neg = own_edge(edges, centre - axis * half, -axis, other, length)
            if pos is None or neg is None:
                continue
            width = (2 * half + pos + neg) / ppm
            if width < ext[i]:
                ext[i] = width
        if (ext[0], ext[1]) != f.extent:
            f.own = (ext[0] if ext[0] != f.extent[0] else 0.0,
                     ext[1] if ext[1] != f.extent[1] else 0.0)


def own_edge(edges: np.ndarray, mid: np.ndarray, normal: np.ndarray, tangent: np.ndarray,
             length: float) -> float | None:
    """Where a top's own edge lies across a side of its region (view pixels, outward).

    Across the side at ``mid`` (``normal`` pointing out of the top), the median edge profile
    over the side's middle part; its innermost local maximum of at least half the strongest
    one within :data:`OWN_EDGE_REACH_PX` inside to a pixel and a half outside (a groove
    shows this top's edge and then its neighbour's). ``None`` when no maximum shows.
    """
    offsets = np.arange(-OWN_EDGE_REACH_PX, 1.5 + 0.01, 0.25)
    along = np.linspace(-0.3, 0.3, 9) * length
    pts = (mid[None, None, :] + offsets[:, None, None] * normal[None, None, :]
           + along[None, :, None] * tangent[None, None, :])
    prof = np.median(_sample(edges, pts.reshape(-1, 2)).reshape(len(offsets), len(along)),
                     axis=1)
    peaks = [k for k in range(1, len(prof) - 1)
             if prof[k] >= prof[k - 1] and prof[k] > prof[k + 1]
             and prof[k] >= 0.5 * prof.max()]
    if not peaks:
        return None
    k = peaks[0]
    a, b, c = prof[k - 1], prof[k], prof[k + 1]
    den = a - 2 * b + c
    sub = 0.5 * (a - c) / den if den < 0 else 0.0
    return float(offsets[k] + sub * 0.25)


SHORT_SHARE = 0.92
"""A region shorter than this share of a top along an axis lost part of the top there (a
pawn's shadow, glare or a dark bevel left it out of the top's colour)."""


def _centre_short_axes(face: TopFace, edges: np.ndarray, ppm: float, block_mm: float
                       ) -> None:
    """Centre a face between its outline's sides along an axis where its region fell short.

    The region is off centre by half what it lost; the top's outline still shows on both
    sides, a little further out. A move under a pixel is within the region's own precision
    and is not made.
    """
    if face.extent == (0.0, 0.0):
        return
    side = block_mm * ppm
    centre = face.centre * ppm - 0.5
    moved = centre.copy()
    for axis_i, axis in enumerate(face_axes(face.angle)):
        if face.extent[axis_i] * ppm >= SHORT_SHARE * side:
            continue
        half = [face.extent[0] * ppm / 2, face.extent[1] * ppm / 2]
        half[axis_i] = side / 2
        sides = outline_sides(edges, centre, face.angle, (half[0], half[1]))
        pos, neg = sides[axis_i], sides[axis_i + 2]
        if pos is None or neg is None:
            continue
        moved = moved + axis * (pos[2] - neg[2]) / 2
    if float(np.linalg.norm(moved - centre)) >= 1.0:
        face.centre = (moved + 0.5) / ppm


HIGHEST_LEVEL = 3
"""The highest level a top may stand at (the set-up reader's ``MAX_LEVEL``)."""


def _largest_top(views: TableViews, xy: np.ndarray, height_mm: float) -> float:
    """The largest a top can show (mm) at ``xy`` in the view ``height_mm`` up.

    A top at the highest level, nearer the camera, shows larger by the ratio of the
    distances (along the camera's axis) to the view's plane and to the top's.
    """
    r = views.pose.rotation
    t = np.asarray(views.pose.tvec, np.float64).reshape(3)

    def depth(h: float) -> float:
        return float(r[2, 0] * xy[0] + r[2, 1] * xy[1] - r[2, 2] * h + t[2])

    top = views.layout.block_height_mm * HIGHEST_LEVEL
    return views.layout.block_mm * depth(height_mm) / max(depth(top), 1.0)


def _top_inside(views: TableViews, height_mm: float, face: TopFace) -> list[TopFace]:
    """The top in a region larger than any top can show (a neighbour's strip, side faces).

    Such a region holds a top and more; the top is the square of a top's size in it whose
    four sides lie on edges (:func:`_squares_at`), nearest the region's centre. The face is
    kept as it was when no such square shows, when the square lies away from the camera's
    nadir (the rest is the top's side faces) or when it moved away from a pawn standing in
    the region (:func:`_pawn_left_off`).
    """
    ppm = views.px_per_mm
    edges = views.edges(height_mm)
    h, w = edges.shape
    centre = face.centre * ppm - 0.5
    region = np.zeros((h, w), np.float32)
    u, v = face_axes(face.angle)
    ext = (face.extent[0] * ppm / 2, face.extent[1] * ppm / 2)
    corners = np.array([centre + sx * ext[0] * u + sy * ext[1] * v
                        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    cv2.fillConvexPoly(region, np.round(corners).astype(np.int32), 1.0)
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 3, [w, h])
    pawns = np.asarray(cv2.dilate(np.isin(views.classes(height_mm), views.palette.of_kind(
        "pawn")).astype(np.uint8), _K5, iterations=2)) > 0
    quiet = np.where(pawns, 0.0, edges).astype(np.float32)
    level = max(12.0, 3.0 * float(np.percentile(edges, 80)))
    found = [g for g in _squares_at(views, height_mm, face.angle, (int(x0), int(y0), int(x1),
                                                                     int(y1)),
                                    region, np.zeros((h, w), np.uint8), level, quiet)
             if g.colour == face.colour]
    if not found:
        return [face]
    top = min(found, key=lambda g: float(np.linalg.norm(g.centre - face.centre)))
    shift = top.centre - face.centre
    away = face.centre - views.pose.camera_position()[:2]
    if float(shift @ away) > 0.5 * float(np.linalg.norm(shift) * np.linalg.norm(away)):
        # the top lies away from the camera's nadir in it: the rest is its side faces,
        # which the level reading measures (see anchor_outer), not a neighbour's strip
        return [face]
    if _pawn_left_off(views, height_mm, face, top, region):
        return [face]
    # its outline is a top's by how it was found: the region's angle was the whole region's
    _turn_to_outline(top, edges, ppm)
    return [top]


def _pawn_left_off(views: TableViews, height_mm: float, face: TopFace, top: TopFace,
                   region: np.ndarray) -> bool:
    """Whether the top found moved away from a pawn standing in the region.

    A pawn stands on a top: a square further from it than the region's centre was (by
    more than a pixel) was pushed off by the pawn's pixels (no block colour), not placed
    on the top. Unless the pawn stands outside the square (:data:`PAWN_BESIDE_SHARE`):
    then the region ran on into the pawn's top, a same-coloured neighbour, and the square
    is the other top. The pawn is its blob: thin strips of a pawn's colour along a top's
    bevel are opened away.
    """
    ppm = views.px_per_mm
    pawn = np.isin(views.classes(height_mm), views.palette.of_kind("pawn")) & (region > 0)
    pawn = np.asarray(cv2.morphologyEx(pawn.astype(np.uint8), cv2.MORPH_OPEN, _K5)) > 0
    ys, xs = np.nonzero(pawn)
    if len(xs) < PAWN_PX_MM2 * ppm * ppm:
        return False
    at = (np.array([xs.mean(), ys.mean()]) + 0.5) / ppm
    off_square = max(abs(float((at - top.centre) @ a)) for a in face_axes(top.angle))
    if off_square > PAWN_BESIDE_SHARE * top.size:
        return False
    return bool(np.linalg.norm(at - top.centre) > np.linalg.norm(at - face.centre) + 1.0 / ppm)


PAWN_BESIDE_SHARE = 0.7
"""A pawn whose pixels' centre lies further than this share of a top's size from a square
along either of its sides stands on the top beside it (a top's size less a pawn base's
radius), not on the square. At 0.6 a pawn on a bridge over the square's block counted as
beside it (r300's f336); r540's f550, two touching reds and a pawn on one, needs it."""

PAWN_PX_MM2 = 50.0
"""Fewer pawn-coloured pixels than this (mm2 of the view) in a region are no pawn standing
in it (stray pixels of a pawn colour along bevels and grooves)."""


def _turn_to_outline(face: TopFace, edges: np.ndarray, ppm: float) -> None:
    """Give a face the angle its own outline shows (:func:`measured_angle`).

    A region's rectangle takes its angle from the region's hull, which a strip of a
    neighbour or a shadow running on, or a corner cut off, bends by degrees (the flat
    fields' corner-only contacts hang on it); the top's sides are straight edges. Faces of
    unsure size (a pawn on them, run on into side faces) are left as they are: their
    outline is not the top's alone.
    """
    ext = face.extent if face.extent != (0.0, 0.0) else (face.size, face.size)
    half = (ext[0] * ppm / 2, ext[1] * ppm / 2)
    centre = face.centre * ppm - 0.5
    first = outline_turn(edges, centre, face.angle, half)
    if first is None or abs(first) < HULL_ANGLE_DEG / 2:
        return
    new = measured_angle(edges, centre, face.angle, half)
    turn = ((new - face.angle + 45.0) % 90.0) - 45.0
    if abs(turn) >= HULL_ANGLE_DEG:
        if abs(face.angle + turn - new) > 1e-6 and face.extent != (0.0, 0.0):
            # the square's axes were renamed (its angle crossed 45 degrees)
            face.extent = (face.extent[1], face.extent[0])
        face.angle = new


EDGE_RING_PX = 1
"""Half the width (view pixels) of the band round a candidate square where its border
(a top's outline, a groove) must show as an edge."""


def _edge_squares(views: TableViews, height_mm: float, faces: list[TopFace]) -> list[TopFace]:
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
    found: list[TopFace] = []
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
                level: float, quiet: np.ndarray) -> list[TopFace]:
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
    found: list[TopFace] = []
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
        found.append(TopFace(views.palette.classes[blocks_idx[best]].name, (at + 0.5) / ppm,
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
                    ) -> list[TopFace] | None:
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
    if not bare:
        return None     # the core's pixels fall in parts too small to be a top's
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
    # top of unsure size, put back on its outer edges later (anchor_outer)
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
            return [TopFace(ctx.colour, (np.array([kx, ky]) + 0.5) / ctx.ppm, _angle(kang),
                          min(rw, rh) / ctx.ppm, fill, (0.0, 0.0), True)]
    pawned = pawned or run_on
    u, v = face_axes(a)
    long_axis, long_len = (u, along) if along >= across else (v, across)
    short_len = min(along, across)
    faces = []
    ppm = ctx.ppm
    for k in range(count):
        shift = (k - (count - 1) / 2) * long_len / count
        mid = np.array([cx + x0, cy + y0]) + long_axis * shift
        ext = ((along / count, across) if along >= across else (along, across / count))
        # cv2 puts pixel centres at integers; view pixel u covers [u, u+1) / ppm
        faces.append(TopFace(ctx.colour, (mid + 0.5) / ppm, a,
                           (short_len + long_len / count) / 2 / ppm, fill,
                           (ext[0] / ppm, ext[1] / ppm), pawned or count > 1))
    return faces


def anchor_outer(face: TopFace, nadir: np.ndarray) -> None:
    """Put a face whose region runs on into its side faces back on its outer edges.

    Side faces show only toward the camera's nadir, so the edges facing away from it are
    the top's own: along an axis where the region is longer than a top at its level, the
    centre is taken half that top's size in from the outer edge.
    """
    if face.expected <= 0 or face.extent == (0.0, 0.0):
        return
    away = face.centre - nadir
    for axis, extent in zip(face_axes(face.angle), face.extent, strict=True):
        along = float(axis @ away)
        if extent <= face.expected * 1.04 or abs(along) < 1e-6:
            continue
        sign = 1.0 if along > 0 else -1.0
        outer = face.centre + sign * axis * extent / 2
        face.centre = outer - sign * axis * face.expected / 2


def one_per_top(faces: list[TopFace], block_mm: float) -> list[TopFace]:
    """One face per top: same-coloured faces closer than half a block are one top.

    Its core was split; the cleanest is kept (a clean size, the fullest region, the usual
    size).
    """
    if not faces:
        return faces
    usual = float(np.median([f.size for f in faces]))
    ranked = sorted(faces, key=lambda f: (f.unsure, -round(f.fill, 2), abs(f.size - usual)))
    kept: list[TopFace] = []
    for f in ranked:
        if any(k.colour == f.colour and float(np.linalg.norm(k.centre - f.centre))
               < 0.5 * block_mm for k in kept):
            continue
        kept.append(f)
    return kept
