"""Where things are on the table, in millimetres: the four markers, the block and pawn sizes.

The table frame has its origin at the top-left corner of the marker sheet area, x to the
right and y down (as seen by the camera), in millimetres.

Example:
    >>> layout = TableLayout()
    >>> layout.marker_corners_mm(0)[0]
    (10.0, 10.0)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

INCH_MM = 25.4


@dataclass(frozen=True)
class TableLayout:
    """The physical table the camera watches.

    Attributes:
        width_mm: table area width (x).
        height_mm: table area height (y).
        marker_mm: printed side of each corner marker (black square, without quiet zone).
        marker_margin_mm: distance from the table edge to each marker's outer edge.
        marker_ids: the ids of the top-left, top-right, bottom-right, bottom-left markers.
        block_mm: side of an Infinifield block's top face.
        block_height_mm: height of a block (for the engine's field model).
        pawn_mm: diameter of a pawn seen from above.
        touch_mm: two blocks whose outlines are at most this far apart touch (the rulebook
            asks blocks not meant to touch to stand half an inch, 12.7 mm, apart).
    """

    width_mm: float = 600.0
    height_mm: float = 450.0
    marker_mm: float = 40.0
    marker_margin_mm: float = 10.0
    marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    block_mm: float = 40.0
    block_height_mm: float = 40.0
    pawn_mm: float = 18.0
    touch_mm: float = 5.0

    def marker_corners_mm(self, marker_id: int) -> list[tuple[float, float]]:
        """The four corners (clockwise from top-left) of a corner marker in table mm.

        Raises:
            KeyError: ``marker_id`` is not one of the four table markers.
        """
        if marker_id not in self.marker_ids:
            raise KeyError(f"marker {marker_id} is not a table marker {self.marker_ids}")
        slot = self.marker_ids.index(marker_id)
        m, s = self.marker_margin_mm, self.marker_mm
        x0 = m if slot in (0, 3) else self.width_mm - m - s
        y0 = m if slot in (0, 1) else self.height_mm - m - s
        return [(x0, y0), (x0 + s, y0), (x0 + s, y0 + s), (x0, y0 + s)]

    def to_json(self) -> dict[str, Any]:
        """The layout as JSON-ready data."""
        data = asdict(self)
        data["marker_ids"] = list(self.marker_ids)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "layout") -> TableLayout:
        """Read a layout written by :meth:`to_json`.

        Raises:
            ValueError: naming ``where`` and the key that is missing or wrong.
        """
        known = {f for f in cls.__dataclass_fields__}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"{where}: unknown key(s) {unknown}; expected some of {sorted(known)}")
        values: dict[str, Any] = dict(data)
        try:
            if "marker_ids" in values:
                ids = tuple(int(i) for i in values["marker_ids"])
                if len(ids) != 4 or len(set(ids)) != 4:
                    raise ValueError("marker_ids must be four different ids")
                values["marker_ids"] = ids
            for key in ("width_mm", "height_mm", "marker_mm", "marker_margin_mm", "block_mm",
                        "block_height_mm", "pawn_mm", "touch_mm"):
                if key in values:
                    values[key] = float(values[key])
                    if values[key] <= 0:
                        raise ValueError(f"{key} must be positive")
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{where}: {exc}") from exc
        return cls(**values)

    @classmethod
    def from_json_text(cls, text: str, where: str = "layout") -> TableLayout:
        """Parse :meth:`from_json` data from JSON text (errors name ``where``)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}: line {exc.lineno}: {exc.msg}") from exc
        if not isinstance(data, dict):
            raise ValueError(f"{where}: expected a JSON object")
        return cls.from_json(data, where)
