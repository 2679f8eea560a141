"""Plane geometry in table millimetres: square outlines and the gap between two outlines.

Example:
    >>> a = square((0.0, 0.0), 30.0, 0.0)
    >>> b = square((32.0, 0.0), 30.0, 0.0)
    >>> round(polygon_gap(a, b), 3)
    2.0
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np


def square(centre: tuple[float, float], side: float, angle_deg: float) -> np.ndarray:
    """The four corners (4, 2) of a square of ``side`` centred at ``centre``.

    The square is turned by ``angle_deg`` (clockwise on screen, since y points down).

    Example:
        >>> square((0.0, 0.0), 2.0, 0.0).tolist()
        [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]
    """
    half = side / 2.0
    base = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    t = math.radians(angle_deg)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return base @ rot.T + np.asarray(centre, np.float64)


def _point_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    denom = float(ab @ ab)
    t = 0.0 if denom == 0 else float(np.clip((p - a) @ ab / denom, 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * ab)))


def _segments_cross(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> bool:
    def orient(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> float:
        return float((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))
    return (orient(a, b, c) * orient(a, b, d) < 0) and (orient(c, d, a) * orient(c, d, b) < 0)


def contains(polygon: np.ndarray, point: tuple[float, float] | np.ndarray,
             margin: float = 0.0) -> bool:
    """Whether ``point`` lies inside the convex ``polygon`` or within ``margin`` of it.

    Example:
        >>> contains(square((0.0, 0.0), 2.0, 0.0), (0.5, 0.5))
        True
    """
    p = np.asarray(point, np.float64)
    poly = np.asarray(polygon, np.float64)
    signs = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        signs.append((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))
    if all(s >= 0 for s in signs) or all(s <= 0 for s in signs):
        return True
    if margin <= 0:
        return False
    return min(_point_segment(p, poly[i], poly[(i + 1) % len(poly)])
               for i in range(len(poly))) <= margin


def _points_to_edges(points: np.ndarray, poly: np.ndarray) -> float:
    """Smallest distance from any of ``points`` (N, 2) to any edge of ``poly`` (M, 2)."""
    a = poly
    b = np.roll(poly, -1, axis=0)
    ab = b - a
    denom = np.maximum((ab * ab).sum(axis=1), 1e-12)
    ap = points[:, None, :] - a[None, :, :]
    t = np.clip((ap * ab[None]).sum(axis=2) / denom[None], 0.0, 1.0)
    closest = a[None] + t[..., None] * ab[None]
    return float(np.sqrt(((points[:, None, :] - closest) ** 2).sum(axis=2)).min())


def polygon_gap(a: np.ndarray, b: np.ndarray) -> float:
    """The shortest distance between two convex polygons (0 when they overlap).

    Example:
        >>> polygon_gap(square((0.0, 0.0), 2.0, 0.0), square((1.0, 0.0), 2.0, 0.0))
        0.0
    """
    pa, pb = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if contains(pa, pb[0]) or contains(pb, pa[0]):
        return 0.0
    na, nb = len(pa), len(pb)
    for i in range(na):
        for j in range(nb):
            if _segments_cross(pa[i], pa[(i + 1) % na], pb[j], pb[(j + 1) % nb]):
                return 0.0
    return min(_points_to_edges(pb, pa), _points_to_edges(pa, pb))


def gaps_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Gaps between many pairs of convex polygons at once.

    Args:
        a: (P, N, 2) first polygons (vertices in order).
        b: (P, M, 2) second polygons.

    Returns:
        (P,) shortest distances, 0 where a pair overlaps (separating-axis test).

    Example:
        >>> a = np.array([square((0.0, 0.0), 2.0, 0.0)])
        >>> b = np.array([square((5.0, 0.0), 2.0, 0.0)])
        >>> gaps_between(a, b).tolist()
        [3.0]
    """
    def point_edge(points: np.ndarray, poly: np.ndarray) -> np.ndarray:
        start = poly
        edge = np.roll(poly, -1, axis=1) - start                          # (P, E, 2)
        denom = np.maximum((edge * edge).sum(axis=2), 1e-12)              # (P, E)
        rel = points[:, :, None, :] - start[:, None, :, :]                # (P, V, E, 2)
        t = np.clip((rel * edge[:, None]).sum(axis=3) / denom[:, None], 0.0, 1.0)
        near = start[:, None] + t[..., None] * edge[:, None]
        return np.sqrt(((points[:, :, None, :] - near) ** 2).sum(axis=3)).min(axis=(1, 2))

    def normals(poly: np.ndarray) -> np.ndarray:
        edge = np.roll(poly, -1, axis=1) - poly
        return np.stack([-edge[..., 1], edge[..., 0]], axis=2)

    axes = np.concatenate([normals(a), normals(b)], axis=1)                # (P, K, 2)
    pa = np.einsum("pvk,pak->pav", a, axes)                               # (P, K, N)
    pb = np.einsum("pvk,pak->pav", b, axes)
    separated = ((pa.max(axis=2) < pb.min(axis=2)) | (pb.max(axis=2) < pa.min(axis=2)))
    gap = np.minimum(point_edge(b, a), point_edge(a, b))
    return np.where(separated.any(axis=1), gap, 0.0)


def touching_pairs(outlines: dict[str, np.ndarray], touch_mm: float) -> set[frozenset[str]]:
    """The pairs of outlines at most ``touch_mm`` apart.

    Example:
        >>> pairs = touching_pairs({"a": square((0.0, 0.0), 30.0, 0.0),
        ...                         "b": square((31.0, 0.0), 30.0, 0.0),
        ...                         "c": square((75.0, 0.0), 30.0, 0.0)}, 5.0)
        >>> sorted(sorted(p) for p in pairs)
        [['a', 'b']]
    """
    names = sorted(outlines)
    if len(names) < 2:
        return set()
    polys = np.stack([np.asarray(outlines[n], np.float64) for n in names])
    centres = polys.mean(axis=1)
    radii = np.sqrt(((polys - centres[:, None]) ** 2).sum(axis=2)).max(axis=1)
    i, j = np.triu_indices(len(names), 1)
    near = np.hypot(*(centres[i] - centres[j]).T) <= radii[i] + radii[j] + touch_mm
    i, j = i[near], j[near]
    if len(i) == 0:
        return set()
    gaps = gaps_between(polys[i], polys[j])
    return {frozenset((names[m], names[n])) for m, n, g in zip(i, j, gaps, strict=True)
            if g <= touch_mm}


def inset(poly: np.ndarray, by: float) -> np.ndarray:
    """A square-ish convex polygon (N, 2) moved ``by`` in from each side, toward its centre.

    Each corner moves ``by * sqrt(2)`` along its diagonal (exact for a square); a polygon
    smaller than twice ``by`` collapses to its centre.

    Example:
        >>> inset(square((0.0, 0.0), 40.0, 0.0), 5.0).round(3).tolist()
        [[-15.0, -15.0], [15.0, -15.0], [15.0, 15.0], [-15.0, 15.0]]
    """
    c = poly.mean(axis=0)
    d = poly - c
    r = np.linalg.norm(d, axis=1, keepdims=True)
    return c + d * np.maximum(r - by * 1.4142, 0.0) / np.maximum(r, 1e-9)


def quad_grid(poly: np.ndarray, n: int = 7) -> np.ndarray:
    """``n * n`` points (N, 2) spread over a convex quadrilateral (a bilinear grid).

    Example:
        >>> quad_grid(square((0.0, 0.0), 2.0, 0.0), 3)[:3].tolist()
        [[-1.0, -1.0], [-1.0, 0.0], [-1.0, 1.0]]
    """
    return _quad_grid(tuple(map(tuple, np.asarray(poly, np.float64).tolist())), n)


@lru_cache(maxsize=4096)
def _quad_grid(poly: tuple[tuple[float, ...], ...], n: int) -> np.ndarray:
    a, b, c, d = (np.asarray(p) for p in poly[:4])
    s, v = np.meshgrid(np.linspace(0.0, 1.0, n), np.linspace(0.0, 1.0, n), indexing="ij")
    s, v = s.reshape(-1, 1), v.reshape(-1, 1)
    return (1 - v) * ((1 - s) * a + s * b) + v * ((1 - s) * d + s * c)
