"""At which level a block top is: its size in each level's plane, and the column below it.

A top at level ``n`` measures 40 mm in the plane ``40 n`` mm above the table and smaller or
larger in the others (by the ratio of the distances to the camera): :func:`face_levels`
chooses the level by size, :func:`column_level` by the side faces showing below a top, and
:func:`prism_hits` says which frame rays pass through a block. Used by
:func:`vision.readers.field3d.read_field` and the play check.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.geometry import gaps_between
from vision.pose import TablePose
from vision.readers.faces3d import TopFace, face_axes
from vision.readers.table_views import (
    TableViews,
)


def camera_depth(pose: TablePose, xy: np.ndarray, height_mm: float) -> float:
    """Distance (mm) along the camera's axis to the table point ``xy`` raised ``height_mm``."""
    r, t = pose.rotation, np.asarray(pose.tvec, np.float64).reshape(3)
    return float(r[2, 0] * xy[0] + r[2, 1] * xy[1] - r[2, 2] * height_mm + t[2])


MIN_STEP_PX = 2.0
"""A level's size step smaller than this in the frame (pixels) is scaled up in what
:func:`face_levels` asks for: from 90 cm at 640x480 a level adds under one pixel."""


LEVEL_STEP_SHARE = 1.0
"""A face counts as a level higher only when its size passes this share of the way from
one level's expected size to the next. At 640x480 from 65-95 cm a level adds only 1.5-2.5 px
to a top's size, about the measuring noise, so a face must show the whole step (flat fields
are the common case; a wrong stack invents a hidden block)."""


SHORTER_SIDE_SLACK_PX = 1.0
"""A top's size is at most its region's shorter side plus this (frame pixels). Its clean
size (across the direction side faces smear in) runs on where the region merged into a
same-coloured neighbour along that axis, while the other axis holds the top and its
smear; neither is smaller than the top. Without it a level-one top that ran 6 mm into a
touching block of its colour was read two levels up (r500, f515). 0 px cost two raised
tops right on the tune renders, 2 px changed nothing."""


def clean_size(face: TopFace, nadir: np.ndarray, own_edges: bool = False) -> float:
    """The face's size across the direction its side faces smear in (toward the nadir).

    Across that direction the region is only the top face. With ``own_edges``, along an
    axis the face shares with a same-coloured neighbour its size between its own edges
    (``face.own``): the region ran on there to the groove's middle.
    """
    to_nadir = nadir - face.centre
    dist = float(np.linalg.norm(to_nadir))
    if dist < 1e-6 or face.extent == (0.0, 0.0):
        return face.size
    n = to_nadir / dist
    u, v = face_axes(face.angle)
    wu, wv = abs(float(n @ u)), abs(float(n @ v))
    ext = tuple(o if o > 0 and own_edges else e
                for o, e in zip(face.own, face.extent, strict=True))
    # the axis least along the nadir direction is the clean one
    if wu < 0.45:
        return ext[0]
    if wv < 0.45:
        return ext[1]
    return min(ext)


COLUMN_PARALLAX_PX = 6.0
"""Where the bases of a top's column supposed one level apart lie closer than this in the
frame (pixels), :func:`column_level` only confirms the level the top's size gave. Its
samples stand 2 mm inside and 3-6 mm outside each base edge, a pixel or two at 640x480;
nearer the camera's nadir, where the bases lie 2-5 px apart, the tune scenes' columns
gave a level other than the size's 12 times in 13 wrongly (towers read on the table)."""


OUTSIDE_MM = (3.0, 6.0)
"""Where :func:`column_level` looks for the table outside a base edge (mm): at each point along
the edge the table must show at all these distances. One line alone was fooled by the dark
groove where a stacked block meets the one under it (it lies near where a first-level
column's base would be)."""


def column_level(views: TableViews, face: TopFace, height_mm: float, max_level: int,
                 size_level: int | None = None) -> int | None:
    """The level of a top from where its column meets the table, when that can be seen.

    For each level the top could be at, its column's base is where the camera model puts
    it; on the base's edges that face the camera's nadir (whose side faces show), the
    view of the table's plane must show the block just inside the edge and the table just
    outside. Only edges with free table beyond them decide (a neighbour there proves
    nothing); ``None`` when no level is clearly better than the others. Where the bases
    of two levels lie too near in the frame to tell apart (:data:`COLUMN_PARALLAX_PX`),
    the level found counts only when it is ``size_level`` (the level by the top's size).
    """
    pose = views.pose
    layout = views.layout
    ppm = views.px_per_mm
    ground = views.classes(0.0)
    table = np.isin(ground, views.palette.of_kind("table"))
    nadir = pose.camera_position()[:2]
    px = pose.project([[face.centre[0], face.centre[1], height_mm]])
    near = column_parallax_px(pose, px, layout.block_height_mm) < COLUMN_PARALLAX_PX
    u, v = face_axes(face.angle)
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
            xi = np.clip((pin * ppm).astype(int), 0, [ground.shape[1] - 1, ground.shape[0] - 1])
            clear = np.ones(len(along), bool)
            for off in OUTSIDE_MM:
                pout = mid[None] + normal[None] * off + along[:, None] * tangent[None]
                xo = np.clip((pout * ppm).astype(int), 0,
                             [ground.shape[1] - 1, ground.shape[0] - 1])
                clear &= table[xo[:, 1], xo[:, 0]]
            out_table = float(clear.mean())
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
        level = int(order[0]) + 1
        return level if not near or level == size_level else None
    return None


def column_parallax_px(pose: TablePose, px: np.ndarray, block_height_mm: float) -> float:
    """How far apart (frame pixels) the bases of a column at the first two levels lie.

    ``px``: the frame pixel of the column's top. The top at one level or the next stands
    on the table at two points along the ray's trace; their distance on the table, in
    pixels of the frame there.
    """
    one = pose.to_plane(px, block_height_mm)[0]
    two = pose.to_plane(px, 2 * block_height_mm)[0]
    mm = float(np.linalg.norm(one - two))
    return mm * pose.intrinsics.focal_px / max(camera_depth(pose, one, 0.0), 1.0)


def face_levels(pose: TablePose, faces: Sequence[TopFace], height_mm: float, block_mm: float,
                max_level: int) -> list[int]:
    """The level of each face, from its size against the level-1 faces' size.

    A top ``n`` levels up looks larger in the view of the plane ``height_mm`` by the ratio of
    its distance to the camera to that plane's (6-8 % per level from 55-75 cm). The size is
    measured across the direction side faces smear in; the size a level-1 top of the same
    colour shows (its flat top without the bevel; colours differ by how the bevel shades) is
    the median of the smallest sizes of that colour, drawn toward that of all colours by
    ``3 / (n + 3)`` for a colour with ``n`` faces (all colours' alone under three). No
    top is taken larger than its region's shorter side (:data:`SHORTER_SIDE_SLACK_PX`).
    """
    if not faces:
        return []
    nadir = pose.camera_position()[:2]
    sizes = np.array([clean_size(f, nadir) for f in faces])
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
    # the level by the cleanest measure: between a top's own edges where its region ran on
    # into a same-coloured neighbour's (the reference stays that of the regions' sizes,
    # which the level-one tops beside other colours measure)
    levels = []
    for f, size in zip(faces, [clean_size(f, nadir, own_edges=True) for f in faces],
                       strict=True):
        if f.extent != (0.0, 0.0):
            slack = (SHORTER_SIDE_SLACK_PX * camera_depth(pose, f.centre, height_mm)
                     / pose.intrinsics.focal_px)
            shorter = min(o if o > 0 else e for o, e in zip(f.own, f.extent, strict=True))
            size = min(size, shorter + slack)
        ref = min(max(refs[f.colour], 0.75 * block_mm), 1.02 * block_mm)
        if f.unsure:
            levels.append(1)
            f.expected = ref
            continue
        base = camera_depth(pose, f.centre, height_mm)
        expected = [ref * base / camera_depth(pose, f.centre, block_mm * lvl)
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


TOUCH_READ_MM = 1.6
"""Two touching tops read about this far apart (mm): their bevelled edges and the groove
between them make each top's square a little small."""

TOUCH_SPREAD_MM = 1.0
"""Spread (mm) of that gap from one pair of tops to the next (measuring noise)."""

APART_SHARE = 0.1
"""Share of neighbours set apart from a block (by any gap up to a block's size) rather than
touching it."""


def gap_log_likelihood(gap_mm: float, block_mm: float, spread_mm: float = TOUCH_SPREAD_MM
                       ) -> float:
    """Log-likelihood of a gap (mm, negative for an overlap) read between two neighbours.

    Touching neighbours read :data:`TOUCH_READ_MM` apart within the measuring noise
    (``spread_mm``); a wider gap may also be a block set apart (any gap up to a block's
    size, equally likely); an overlap is impossible beyond the noise (blocks are solid).
    """
    z = (gap_mm - TOUCH_READ_MM) / spread_mm
    touching = float(np.exp(-0.5 * z * z)) / (spread_mm * float(np.sqrt(2 * np.pi)))
    apart = APART_SHARE / block_mm if gap_mm > TOUCH_READ_MM else 1e-6
    return float(np.log((1 - APART_SHARE) * touching + apart))


def contact_evidence(low: np.ndarray, high: np.ndarray, nadir: np.ndarray,
                     neighbours: Sequence[np.ndarray], block_mm: float,
                     unsure: Sequence[bool] | None = None,
                     spread_mm: float = TOUCH_SPREAD_MM) -> float:
    """Log-likelihood ratio of a top standing on a block rather than on the level below.

    A top seen at some pixels stands on the footprint ``low`` at one level, or on ``high``
    one level up: the ray through its pixels meets that plane nearer the camera's nadir.
    The neighbours at the lower level between the top and the nadir are never hidden by
    it, so the gaps read between them and each footprint tell which it stands on (a block
    under a raised top fits snugly where the top alone would leave a gap as wide as the
    parallax, or a raised block's column would cut into them). Only neighbours within a
    block of touching and on the nadir's side count; 0 when there are none. A neighbour
    whose square is ``unsure`` (a pawn on it, a top cut short) is placed less precisely:
    twice the spread. ``spread_mm``: the measuring noise of a gap (wider when a pixel
    spans more of the table, see :func:`gap_spread`).
    """
    centre = low.mean(axis=0)
    to_nadir = nadir - centre
    dist = float(np.linalg.norm(to_nadir))
    if dist < 1e-6 or not len(neighbours):
        return 0.0
    nbs = np.asarray(neighbours, np.float64)
    d = nbs.mean(axis=1) - centre
    reach = np.linalg.norm(d, axis=1)
    facing = (d @ to_nadir) / np.maximum(reach, 1e-9) / dist
    near = (facing > 0.5) & (reach < 1.5 * block_mm)
    if not near.any():
        return 0.0
    loose = np.zeros(len(nbs), bool) if unsure is None else np.asarray(unsure, bool)
    llr = 0.0
    for nb, vague in zip(nbs[near], loose[near], strict=True):
        g_low, g_high = _signed_gap(low, nb), _signed_gap(high, nb)
        if min(abs(g_low), abs(g_high)) > 0.2 * block_mm:
            continue
        spread = spread_mm * (2.0 if vague else 1.0)
        llr += (gap_log_likelihood(g_high, block_mm, spread)
                - gap_log_likelihood(g_low, block_mm, spread))
    return llr


GAP_SPREAD_PX = 1.0
"""The gap between two tops is measured to about this many pixels: each edge is placed to
about half a pixel, so from a high camera (a pixel 2 mm wide at 95 cm, 640x480) a gap
read is no better known than that."""


def gap_spread(pose: TablePose, point: np.ndarray, height_mm: float) -> float:
    """The measuring noise (mm) of a gap between tops at ``point`` ``height_mm`` up."""
    pixel = camera_depth(pose, point, height_mm) / pose.intrinsics.focal_px
    return max(TOUCH_SPREAD_MM, GAP_SPREAD_PX * pixel)


def _signed_gap(a: np.ndarray, b: np.ndarray) -> float:
    """Gap (mm) between two convex footprints; minus how deep they overlap when they do."""
    gap = float(gaps_between(a[None], b[None])[0])
    return gap if gap > 0 else -penetration(a, b)


def penetration(a: np.ndarray, b: np.ndarray) -> float:
    """How deep (mm) two convex footprints overlap: the least shift that parts them."""
    depth = np.inf
    for poly in (a, b):
        for e in np.roll(poly, -1, axis=0) - poly:
            n = np.array([-e[1], e[0]]) / max(float(np.linalg.norm(e)), 1e-12)
            pa, pb = a @ n, b @ n
            overlap = min(float(pa.max()), float(pb.max())) - max(float(pa.min()),
                                                                  float(pb.min()))
            if overlap <= 0:
                return 0.0
            depth = min(depth, overlap)
    return float(depth)


def size_evidence(pose: TablePose, face: TopFace, level: int, height_mm: float) -> float:
    """Log-likelihood ratio of a face's size for the second level against the first.

    ``face.expected`` is the size a top at ``level`` shows in the view of the plane
    ``height_mm`` (:func:`face_levels`); the sizes at the first two levels scale from it by
    the distances to the camera. The size is measured to about a pixel.
    """
    nadir = pose.camera_position()[:2]
    size = clean_size(face, nadir)
    at = camera_depth(pose, face.centre, height_mm * level)
    one = face.expected * at / camera_depth(pose, face.centre, height_mm)
    two = face.expected * at / camera_depth(pose, face.centre, 2 * height_mm)
    base = camera_depth(pose, face.centre, height_mm)
    spread = max(1.0, base / pose.intrinsics.focal_px)     # a pixel, in mm
    return float(((size - one) ** 2 - (size - two) ** 2) / (2 * spread ** 2))
