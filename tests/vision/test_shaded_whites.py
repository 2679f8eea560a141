"""White tops in a hard shadow (issue 12, "Colours": robust to hard shadows).

A white top in a window's or a tower's hard shadow is no lighter than the lit table; the
light round it, measured on the table, tells it apart. Rules: infinifield.md "Build the
field" (the field read at set-up holds every block, white ones included).
"""

from __future__ import annotations

import math

import numpy as np

from tests.vision.table3d_reading import read_tune_scene
from vision.palette import default_palette
from vision.readers.shade import whites_in_shade

BLOCK_PX = 40.0


def _table(lit: int = 90) -> tuple[np.ndarray, np.ndarray]:
    palette = default_palette()
    classes = np.full((160, 200), palette.index("table"), np.uint8)
    return np.full((160, 200, 3), lit, np.uint8), classes


def test_a_white_top_in_a_shadow_is_white() -> None:
    """A grey top-sized square in a hard shadow, twice as light as the shaded table round
    it, is a white top, though no lighter than the lit table."""
    view, classes = _table()
    view[:, :100] = 30
    view[60:100, 30:70] = 75
    found = whites_in_shade(view, classes, default_palette(), BLOCK_PX)
    assert found[65:95, 35:65].all()
    assert not found[:, 100:].any() and not found[:40, :].any()


def test_lit_table_between_blocks_is_no_white_top() -> None:
    """A block-sized patch of lit table (where a block was taken away) between dark tops
    stands in full light: it is table, not a white top."""
    view, classes = _table()
    palette = default_palette()
    for x0 in (20, 100):
        view[60:100, x0:x0 + 40] = (120, 40, 30)        # blue tops beside the patch
        classes[60:100, x0:x0 + 40] = palette.index("blue")
    found = whites_in_shade(view, classes, palette, BLOCK_PX)
    assert not found.any()


def test_a_strip_of_lit_table_along_a_shadow_is_no_white_top() -> None:
    """Along a shadow's edge the lit table is lighter than the shade beside it, but a strip
    is no top's square."""
    view, classes = _table()
    view[:, :120] = 30
    view[:, 120:132] = 90          # a lit strip between two shadows
    view[:, 132:] = 30
    assert not whites_in_shade(view, classes, default_palette(), BLOCK_PX).any()


def test_a_white_top_in_a_window_shadow_is_read() -> None:
    """f073 (a window's hard shadow across the field): the white W1 in the shadow, which
    the palette alone called table, is read as a white block on the table."""
    scene, reading = read_tune_scene("f073_before")
    truth = scene.blocks["W1"]
    near = [b for b in reading.blocks
            if math.hypot(b.centre[0] - truth.centre_mm[0], b.centre[1] - truth.centre_mm[1]) < 8]
    assert [(b.colour, b.level) for b in near] == [("white", 1)]
