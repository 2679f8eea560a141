"""Where things are on the table, in millimetres: the four markers, the block and pawn sizes.

The table frame has its origin at the top-left corner of the marker sheet area, x to the
right and y down (as seen by the camera), in millimetres.

Example:
    >>> layout = TableLayout()
    >>> layout.marker_corners_mm(0)[0]
    (10.0, 10.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from companion.games.datafile import Table, check_int, load_json

INCH_MM = 25.4

_SIZES = ("width_mm", "height_mm", "marker_mm", "marker_margin_mm", "block_mm",
          "block_height_mm", "pawn_mm", "touch_mm")


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
        """Read a layout written by :meth:`to_json`, through the one data-file reader.

        Raises:
            ValueError: (a :class:`~companion.games.core.SetupError`) naming ``where``, the
                key that is unknown (and the closest valid one), missing or wrong.

        Example:
            >>> TableLayout.from_json({"block_mm": 41}).block_mm
            41.0
            >>> try:
            ...     TableLayout.from_json({"blok_mm": 41})
            ... except ValueError as error:
            ...     print(str(error).split(" (")[0])
            layout: blok_mm: unknown key; did you mean 'block_mm'?
        """
        values: dict[str, Any] = {}
        with Table(where, data) as table:
            ids = table.array("marker_ids", None)
            if ids is not None:
                values["marker_ids"] = tuple(check_int(table, f"marker_ids[{n}]", i, minimum=0)
                                             for n, i in enumerate(ids))
                if len(ids) != 4 or len(set(ids)) != 4:
                    raise table.error("marker_ids", "marker_ids must be four different ids")
            for key in _SIZES:
                size = table.number(key, None)
                if size is not None:
                    if size <= 0:
                        raise table.error(key, f"{key} must be positive")
                    values[key] = size
        return cls(**values)

    @classmethod
    def from_json_text(cls, text: str, where: str = "layout") -> TableLayout:
        """Parse :meth:`from_json` data from JSON text (errors name ``where``).

        Raises:
            ValueError: (a :class:`~companion.games.core.SetupError`) the text is not JSON,
                too large, holds NaN, or is not a layout.
        """
        return cls.from_json(load_json(where, text), where)
