"""The dice tray's region of the camera frame: only dice inside it are read.

The tray is part of the table's set-up, marked one of two ways:

* **markers**: two or four small markers of the markers sheet
  (``infinite-vision markers --out sheet.pdf --bases 40-43``, :data:`TRAY_MARKER_IDS`) laid
  on the tray's rim at its corners, id 40 top-left, 41 top-right, 42 bottom-right, 43
  bottom-left as the camera sees them. Two diagonal ones (40 and 42, or 41 and 43) suffice.
  The region is the quadrilateral through each marker's corner nearest the tray's middle
  (with two markers, the rectangle they span), so the markers themselves are never read as
  dice. :func:`tray_from_markers` finds it in every frame, so the tray may move.
* **outline**: with no markers, :func:`tray_from_outline` finds the tray's floor once, as
  the largest four-sided region of the frame, and :meth:`TrayRegion.save` keeps it
  (``python -m vision.readers.tray PHOTO --out tray.json``); :meth:`TrayRegion.load` reads it back.

Without either, the whole frame is read.

Example:
    >>> region = TrayRegion(((10, 10), (90, 10), (90, 60), (10, 60)), "outline")
    >>> region.bounds(), region.contains((50, 30)), region.contains((95, 30))
    ((10, 10, 90, 60), True, False)
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.markers import detect_markers

TRAY_MARKER_IDS = (40, 41, 42, 43)
"""Top-left, top-right, bottom-right, bottom-left (printable with ``--bases 40-43``)."""

Point = tuple[float, float]


@dataclass(frozen=True)
class TrayRegion:
    """The tray's floor as a quadrilateral in frame pixels, and how it was found."""

    corners: tuple[Point, Point, Point, Point]
    source: str

    def bounds(self) -> tuple[int, int, int, int]:
        """The upright rectangle ``(xmin, ymin, xmax, ymax)`` around the corners."""
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (int(np.floor(min(xs))), int(np.floor(min(ys))), int(np.ceil(max(xs))),
                int(np.ceil(max(ys))))

    def contains(self, point: Point) -> bool:
        """Whether ``point`` (frame pixels) lies inside the tray (its edge included)."""
        poly = np.array(self.corners, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), False) >= 0

    def to_json(self) -> dict:
        """The region as JSON-ready data."""
        return {"corners": [list(p) for p in self.corners], "source": self.source}

    def save(self, path: Path) -> Path:
        """Write the region as JSON to ``path``."""
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: Path) -> TrayRegion:
        """Read a region written by :meth:`save`.

        Raises:
            ValueError: naming the file and what is wrong in it.
        """
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ValueError(f"{path}: cannot be read ({exc.strerror})") from exc
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})") from exc
        corners = data.get("corners") if isinstance(data, dict) else None
        if not isinstance(corners, list):
            raise ValueError(f"{path}: 'corners' must be four [x, y] points")
        try:
            points = tuple((float(x), float(y)) for x, y in corners)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{path}: 'corners' must be four [x, y] points") from exc
        if len(points) != 4:
            raise ValueError(f"{path}: 'corners' must be four [x, y] points, got {len(points)}")
        region = cls(points, str(data.get("source", "saved")))
        if cv2.contourArea(np.array(points, np.float32)) < 64:
            raise ValueError(f"{path}: the tray's corners enclose no area")
        return region


def tray_from_markers(frame: np.ndarray, ids: tuple[int, int, int, int] = TRAY_MARKER_IDS
                      ) -> TrayRegion | None:
    """The tray marked by its markers in ``frame``.

    Returns ``None`` when fewer than two diagonal markers (or three) are seen.
    """
    found = {i: q for i, q in detect_markers(frame, min_perimeter_rate=0.02).items()
             if i in ids}
    if len(found) < 2:
        return None
    centre = np.mean([q.mean(axis=0) for q in found.values()], axis=0)
    inner = {i: q[int(np.argmin(np.linalg.norm(q - centre, axis=1)))] for i, q in found.items()}
    tl, tr, br, bl = ids
    if len(inner) == 4:
        pts = [inner[tl], inner[tr], inner[br], inner[bl]]
    elif tl in inner and br in inner:
        (x0, y0), (x1, y1) = inner[tl], inner[br]
        pts = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    elif tr in inner and bl in inner:
        (x1, y0), (x0, y1) = inner[tr], inner[bl]
        pts = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    elif len(inner) == 3:
        missing = next(i for i in ids if i not in inner)
        k = ids.index(missing)
        a, b, c = (np.asarray(inner[ids[(k + j) % 4]]) for j in (1, 2, 3))
        inner[missing] = a + c - b          # the parallelogram's fourth corner
        pts = [inner[tl], inner[tr], inner[br], inner[bl]]
    else:
        return None
    corners = tuple((float(p[0]), float(p[1])) for p in pts)
    return TrayRegion(corners, "markers")  # type: ignore[arg-type]


def tray_from_outline(frame: np.ndarray, min_share: float = 0.08) -> TrayRegion | None:
    """The tray found by its outline.

    The floor is the largest four-sided region bounded by strong edges that fills its
    outline; the tray is the floor grown to the outline of the ring of walls just around it
    (dice lie against the walls). ``None`` when no such floor covers ``min_share`` of the
    frame.
    """
    grey = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(grey, 30, 90), np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats((edges == 0).astype(np.uint8))
    h, w = grey.shape
    quads: list[tuple[np.ndarray, float, bool]] = []     # outline, area inside it, filled
    for k in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[k])
        if area < 0.3 * min_share * h * w or x == 0 or y == 0 or x + bw == w or y + bh == h:
            continue                        # too small, or the table around the tray
        part = (labels[y:y + bh, x:x + bw] == k).astype(np.uint8)
        contours, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(max(contours, key=cv2.contourArea)) + np.array([x, y])
        quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(quad) == 4:
            inside = float(cv2.contourArea(quad))
            # a floor fills its outline (dice on it leave holes); a wall's ring does not
            quads.append((quad.reshape(4, 2).astype(np.float32), inside, area >= 0.7 * inside))
    floors = [q for q in quads if q[2] and q[1] >= min_share * h * w]
    if not floors:
        return None
    floor = max(floors, key=lambda q: q[1])
    centre = tuple(float(v) for v in floor[0].mean(axis=0))
    # the sloping walls around the floor, up to the rim, are part of the tray (dice lie
    # against them): the ring of walls just around the floor outlines the whole tray
    rings = [q for q in quads if not q[2] and floor[1] < q[1] <= 1.8 * floor[1]
             and cv2.pointPolygonTest(q[0].reshape(-1, 1, 2), centre, False) > 0]
    best = min(rings, key=lambda q: q[1])[0] if rings else floor[0]
    s, d = best.sum(axis=1), np.diff(best, axis=1).ravel()
    ordered = [best[np.argmin(s)], best[np.argmin(d)], best[np.argmax(s)], best[np.argmax(d)]]
    return TrayRegion(tuple((float(p[0]), float(p[1])) for p in ordered),  # type: ignore[arg-type]
                      "outline")


def main(argv: list[str] | None = None) -> int:
    """Find the tray in a photo (markers first, else its outline) and save it as JSON."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("photo", type=Path)
    parser.add_argument("--out", type=Path, default=Path("tray.json"))
    args = parser.parse_args(argv)
    frame = cv2.imread(str(args.photo))
    if frame is None:
        print(f"{args.photo}: not a readable image")
        return 2
    region = tray_from_markers(frame) or tray_from_outline(frame)
    if region is None:
        print(f"{args.photo}: no tray found (no tray markers, no four-sided outline)")
        return 1
    region.save(args.out)
    print(f"tray from its {region.source}: corners {region.to_json()['corners']}; "
          f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
