"""Plane geometry of block footprints: convex polygons on the table, in millimetres.

Pure functions over tuples of ``(x, y)`` points, counter-clockwise (see :func:`convex_polygon`).
The field model uses them to decide which blocks touch, which sides of a block are covered,
whether a stacked block is supported, and whether a pawn fits on top of a block.

Example:
    >>> square = rectangle((0, 0), (40, 40))
    >>> gap(square, rectangle((45, 0), (40, 40)))
    5.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Point = tuple[float, float]
Polygon = tuple[Point, ...]

EPSILON = 1e-9


class GeometryError(ValueError):
    """A footprint that is not a usable convex polygon."""


def rectangle(centre: Point, size: Point, angle_degrees: float = 0.0) -> Polygon:
    """The footprint of a rectangular block: centre, (width, depth), rotation.

    Example:
        >>> rectangle((20, 20), (40, 40))
        ((0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0))
    """
    cx, cy = centre
    half_w, half_d = size[0] / 2, size[1] / 2
    cos_a, sin_a = math.cos(math.radians(angle_degrees)), math.sin(math.radians(angle_degrees))
    corners = ((-half_w, -half_d), (half_w, -half_d), (half_w, half_d), (-half_w, half_d))
    return tuple((_clean(cx + x * cos_a - y * sin_a), _clean(cy + x * sin_a + y * cos_a))
                 for x, y in corners)


def _clean(value: float) -> float:
    """Round away floating noise (``1e-15`` -> ``0.0``) so files print and compare cleanly."""
    rounded = round(value, 6)
    return rounded + 0.0


def convex_polygon(points: Iterable[Sequence[float]]) -> Polygon:
    """Validate a footprint and return it counter-clockwise.

    Raises:
        GeometryError: fewer than 3 corners, zero area, or not convex.

    Example:
        >>> convex_polygon([(0, 0), (0, 10), (10, 10), (10, 0)])[0]
        (10.0, 0.0)
    """
    polygon = tuple((float(p[0]), float(p[1])) for p in points)
    if len(polygon) < 3:
        raise GeometryError(f"a footprint needs at least 3 corners, got {len(polygon)}")
    area = signed_area(polygon)
    if abs(area) < EPSILON:
        raise GeometryError("the footprint has no area (its corners are in a line)")
    if area < 0:
        polygon = polygon[::-1]
    for index in range(len(polygon)):
        a, b, c = polygon[index - 2], polygon[index - 1], polygon[index]
        if _cross(a, b, c) < -EPSILON:
            raise GeometryError("the footprint is not convex (list its corners in order "
                                "around the block)")
    return polygon


def signed_area(polygon: Polygon) -> float:
    """Area of ``polygon``, positive when counter-clockwise.

    Example:
        >>> signed_area(rectangle((0, 0), (10, 4)))
        40.0
    """
    total = 0.0
    for index, (x1, y1) in enumerate(polygon):
        x2, y2 = polygon[(index + 1) % len(polygon)]
        total += x1 * y2 - x2 * y1
    return total / 2


def centroid(polygon: Polygon) -> Point:
    """Centre of area of a convex polygon.

    Example:
        >>> centroid(rectangle((3, 4), (2, 2)))
        (3.0, 4.0)
    """
    area = signed_area(polygon)
    cx = cy = 0.0
    for index, (x1, y1) in enumerate(polygon):
        x2, y2 = polygon[(index + 1) % len(polygon)]
        cross = x1 * y2 - x2 * y1
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    return (cx / (6 * area), cy / (6 * area))


def _cross(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _axes(polygon: Polygon) -> Iterable[Point]:
    for index, (x1, y1) in enumerate(polygon):
        x2, y2 = polygon[(index + 1) % len(polygon)]
        length = math.hypot(x2 - x1, y2 - y1)
        yield ((y2 - y1) / length, (x1 - x2) / length)  # outward normal of a CCW edge


def _project(polygon: Polygon, axis: Point) -> tuple[float, float]:
    values = [x * axis[0] + y * axis[1] for x, y in polygon]
    return min(values), max(values)


def penetration(a: Polygon, b: Polygon) -> float:
    """How deep two convex polygons overlap (separating-axis theorem); ``0`` or less if apart.

    Example:
        >>> penetration(rectangle((0, 0), (10, 10)), rectangle((8, 0), (10, 10)))
        2.0
    """
    depth = math.inf
    for axis in (*_axes(a), *_axes(b)):
        min_a, max_a = _project(a, axis)
        min_b, max_b = _project(b, axis)
        depth = min(depth, min(max_a, max_b) - max(min_a, min_b))
    return depth


def _point_segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                              / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def gap(a: Polygon, b: Polygon) -> float:
    """Signed clearance between two convex footprints (negative: overlap depth).

    The distance between them when apart, minus the overlap depth when they overlap, ``0``
    when they just touch.

    Example:
        >>> gap(rectangle((0, 0), (10, 10)), rectangle((10, 10), (10, 10)))
        0.0
    """
    depth = penetration(a, b)
    if depth >= 0:
        return -depth + 0.0
    best = math.inf
    for first, second in ((a, b), (b, a)):
        for point in first:
            for index, start in enumerate(second):
                end = second[(index + 1) % len(second)]
                best = min(best, _point_segment_distance(point, start, end))
    return best


def bounding_box(polygon: Polygon) -> tuple[float, float, float, float]:
    """``(min_x, min_y, max_x, max_y)`` of a polygon.

    Example:
        >>> bounding_box(rectangle((0, 0), (10, 4)))
        (-5.0, -2.0, 5.0, 2.0)
    """
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def covers_side(block: Polygon, side: int, other: Polygon, tolerance: float,
                min_contact: float) -> bool:
    """Whether ``other`` lies flush against side ``side`` of ``block`` (from its outside).

    The side runs from corner ``side`` to the next corner (counter-clockwise). ``other``
    covers it when its nearest face is within ``tolerance`` of the side's line and it runs
    along the side for at least ``min_contact`` millimetres.

    Example:
        >>> covers_side(rectangle((0, 0), (10, 10)), 1, rectangle((10, 0), (10, 10)), 2, 3)
        True
    """
    length, offsets, along = _along_side(block, side, other)
    if not -tolerance <= min(offsets) <= tolerance:
        return False
    return min(max(along), length) - max(min(along), 0.0) >= min_contact


def _along_side(block: Polygon, side: int, other: Polygon
                ) -> tuple[float, list[float], list[float]]:
    """Side ``side`` of ``block`` as a frame of reference.

    Returns its length, then for each corner of ``other`` its distance out from the side's
    line and its position along the side (all in mm).
    """
    start, end = block[side], block[(side + 1) % len(block)]
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    offsets = [(x - start[0]) * uy - (y - start[1]) * ux for x, y in other]
    along = [(x - start[0]) * ux + (y - start[1]) * uy for x, y in other]
    return length, offsets, along


def side_span(block: Polygon, side: int, other: Polygon, tolerance: float
              ) -> tuple[float, float, float] | None:
    """Where ``other`` lies flush against side ``side`` of ``block``: ``(start, end, length)``.

    The side runs from corner ``side`` to the next corner (counter-clockwise); ``start`` and
    ``end`` are millimetres along it, ``length`` the side's length. Only the corners of
    ``other`` within ``tolerance`` of the side's line count, so a neighbour meeting the side
    with one corner spans nothing (``start == end``), and a face lying along it spans the part
    of the side it runs along. ``None`` when ``other`` is not against the side at all.

    Example:
        >>> side_span(rectangle((0, 0), (10, 10)), 1, rectangle((10, 5), (10, 10)), 2)
        (5.0, 10.0, 10.0)
        >>> side_span(rectangle((0, 0), (10, 10)), 1, rectangle((10, 10), (10, 10)), 2)
        (10.0, 10.0, 10.0)
    """
    length, offsets, all_along = _along_side(block, side, other)
    if not -tolerance <= min(offsets) <= tolerance:
        return None
    along = [a for a, offset in zip(all_along, offsets, strict=True) if offset <= tolerance]
    low, high = max(min(along), 0.0), min(max(along), length)
    if high < low - EPSILON:
        return None
    return _clean(low), _clean(max(low, high)), _clean(length)


def contact_length(a: Polygon, b: Polygon, tolerance: float) -> float:
    """The length along which the outlines of ``a`` and ``b`` lie flush (0 at a corner only).

    Example:
        >>> square = rectangle((0, 0), (40, 40))
        >>> contact_length(square, rectangle((40, 20), (40, 40)), 2)
        20.0
        >>> contact_length(square, rectangle((40, 40), (40, 40)), 2)
        0.0
    """
    best = 0.0
    for block, other in ((a, b), (b, a)):
        for side in range(len(block)):
            span = side_span(block, side, other, tolerance)
            if span is not None:
                best = max(best, span[1] - span[0])
    return best


def clip(subject: Polygon, window: Polygon) -> Polygon:
    """The part of convex ``subject`` inside convex ``window`` (Sutherland-Hodgman).

    Example:
        >>> signed_area(clip(rectangle((0, 0), (10, 10)), rectangle((5, 0), (10, 10))))
        50.0
    """
    output: list[Point] = list(subject)
    for index, edge_start in enumerate(window):
        edge_end = window[(index + 1) % len(window)]
        source, output = output, []
        for position, current in enumerate(source):
            previous = source[position - 1]
            current_in = _cross(edge_start, edge_end, current) >= -EPSILON
            previous_in = _cross(edge_start, edge_end, previous) >= -EPSILON
            if current_in != previous_in:
                output.append(_intersection(previous, current, edge_start, edge_end))
            if current_in:
                output.append(current)
        if not output:
            return ()
    return tuple(output)


def _intersection(p1: Point, p2: Point, q1: Point, q2: Point) -> Point:
    d1 = _cross(q1, q2, p1)
    d2 = _cross(q1, q2, p2)
    t = d1 / (d1 - d2)
    return (p1[0] + t * (p2[0] - p1[0]), p1[1] + t * (p2[1] - p1[1]))


def convex_hull(points: Iterable[Point]) -> Polygon:
    """Convex hull, counter-clockwise (monotone chain); degenerate inputs give fewer corners.

    Example:
        >>> convex_hull([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)])
        ((0, 0), (2, 0), (2, 2), (0, 2))
    """
    unique = sorted(set(points))
    if len(unique) <= 2:
        return tuple(unique)

    def half(sequence: list[Point]) -> list[Point]:
        chain: list[Point] = []
        for point in sequence:
            while len(chain) >= 2 and _cross(chain[-2], chain[-1], point) <= EPSILON:
                chain.pop()
            chain.append(point)
        return chain

    lower, upper = half(unique), half(unique[::-1])
    return tuple(lower[:-1] + upper[:-1])


def inside_margin(point: Point, polygon: Polygon) -> float:
    """How far ``point`` is inside convex ``polygon`` (negative when outside).

    Example:
        >>> inside_margin((5, 5), rectangle((5, 5), (10, 10)))
        5.0
    """
    margin = math.inf
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        length = math.hypot(x2 - x1, y2 - y1)
        margin = min(margin, _cross((x1, y1), (x2, y2), point) / length)
    return margin


def point_distance(point: Point, polygon: Polygon) -> float:
    """Distance from ``point`` to convex ``polygon`` (``0`` inside).

    Example:
        >>> point_distance((13, 0), rectangle((0, 0), (10, 10)))
        8.0
    """
    if inside_margin(point, polygon) >= 0:
        return 0.0
    return min(_point_segment_distance(point, a, b)
               for a, b in zip(polygon, polygon[1:] + polygon[:1], strict=True))


def _half_planes(polygon: Polygon) -> list[tuple[float, float, float]]:
    """``(nx, ny, c)`` per side, so that ``nx * x + ny * y - c`` is the inward distance."""
    planes = []
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        length = math.hypot(x2 - x1, y2 - y1)
        nx, ny = (y1 - y2) / length, (x2 - x1) / length
        planes.append((nx, ny, nx * x1 + ny * y1))
    return planes


def fits_disc(polygon: Polygon, radius: float, obstacles: Sequence[Polygon],
              step: float = 1.0) -> bool:
    """Whether a disc of ``radius`` fits inside ``polygon`` clear of every obstacle.

    Candidate centres are the centroid, then a coarse grid, then a grid of ``step``
    millimetres (close enough for a pawn on a block; the answer errs on the side of "does not
    fit" by at most ``step``).

    Example:
        >>> fits_disc(rectangle((0, 0), (40, 40)), 9, [rectangle((10, 0), (20, 40))])
        True
    """
    inside = _half_planes(polygon)
    blockers = [(obstacle, _half_planes(obstacle)) for obstacle in obstacles]
    limit = radius - EPSILON

    def fits(x: float, y: float) -> bool:
        for nx, ny, c in inside:
            if nx * x + ny * y - c < limit:
                return False
        for obstacle, planes in blockers:
            outside = max(c - nx * x - ny * y for nx, ny, c in planes)
            if outside < limit and (outside <= 0 or point_distance((x, y), obstacle) < limit):
                return False
        return True

    if fits(*centroid(polygon)):
        return True
    min_x, min_y, max_x, max_y = bounding_box(polygon)
    # A coarse pass (the extremes, the middle, every half radius) finds most free spots fast.
    for spacing in (max(radius / 2, step), step):
        for x in _positions(min_x + radius, max_x - radius, spacing):
            for y in _positions(min_y + radius, max_y - radius, spacing):
                if fits(x, y):
                    return True
    return False


def _positions(low: float, high: float, spacing: float) -> list[float]:
    """``low``, ``high``, their middle, and every ``spacing`` from ``low`` (none if empty)."""
    if high < low - EPSILON:
        return []
    count = int((high - low) / spacing + EPSILON)
    return [low, high, (low + high) / 2, *(low + k * spacing for k in range(1, count + 1))]
