"""Block tops in a hard shadow, read against the palette as the shadow shows it (issue 12).

A window frame's or a tower's hard shadow leaves a top only the ambient light: a white top
turns dark grey, a yellow one olive, a red one maroon, and the palette calls them the mat.
The mat's colour in shadow against its colour in the open gives the shadow's light, and
every palette colour times that light its shadow reference. Photos: ``tests/data/table3d``
(skipped when absent). Rules: ../shared/rules/infinifield.md "Build the field" (every block
of the field is read at set-up, with its colour).
"""

from __future__ import annotations

import numpy as np

from tests.vision.table3d_reading import assert_tops_read
from vision.palette import UNKNOWN, default_palette
from vision.readers.hard_shadow import shaded_mat, shadow_light, tops_in_shadow

BLOCK_PX = 40.0


def _shaded_scene() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A lit grey-blue mat with a hard shadow (12 % light) over its left half: the ground
    view, the level-1 view and its palette classes (all table)."""
    palette = default_palette()
    ground = np.full((200, 240, 3), (95, 82, 70), np.uint8)
    ground[:, :120] = (11, 10, 8)
    classes = np.full(ground.shape[:2], palette.index("table"), np.uint8)
    return ground, ground.copy(), classes


def test_the_shadow_light_is_the_shaded_mat_over_the_lit_mat() -> None:
    """The mat at 12 % in its shadow gives a light of about 0.12 on every channel; a mat
    with no shadow gives none."""
    ground, _view, _classes = _shaded_scene()
    light = shadow_light(ground, default_palette())
    assert light is not None and np.allclose(light, 0.115, atol=0.02)
    assert shadow_light(np.full((200, 240, 3), (95, 82, 70), np.uint8),
                        default_palette()) is None


def test_the_mat_in_a_warm_shadow_light_is_the_mat_but_a_yellow_top_is_not() -> None:
    """A warm light in the shadows (a lamp where the sun is shaded, 0.26/0.44/0.62 on
    B/G/R, f058): the mat there (25, 38, 49), yellowish, is the mat at any depth of that
    shadow; a yellow top in the same light, and a white one, are not."""
    palette = default_palette()
    light = np.array([0.26, 0.44, 0.62], np.float32)
    pixels = np.array([[25, 38, 49], [12, 19, 24], [10, 88, 146], [60, 104, 148]],
                      np.float32)
    assert shaded_mat(pixels, palette, light).tolist() == [True, True, False, False]


def test_a_white_and_a_yellow_top_in_the_shadow_are_read_but_not_the_mat() -> None:
    """In the shadow a top-sized square at white's shadow reference is white, one at
    yellow's is yellow; the shaded and the lit mat, and a strip at white's, are nothing."""
    palette = default_palette()
    ground, view, classes = _shaded_scene()
    light = shadow_light(ground, palette)
    assert light is not None
    view[30:70, 20:60] = (27, 28, 28)            # white (232, 236, 238) at ~12 %
    view[110:150, 20:60] = (5, 24, 28)           # yellow (40, 200, 235) at ~12 %
    view[170:180, 20:100] = (27, 28, 28)         # a strip, no top
    found = tops_in_shadow(view, classes, palette, light, BLOCK_PX)
    assert (found[35:65, 25:55] == palette.index("white")).all()
    assert (found[115:145, 25:55] == palette.index("yellow")).all()
    assert (found[:, 120:] == UNKNOWN).all()
    assert (found[80:100, :] == UNKNOWN).all() and (found[165:, :] == UNKNOWN).all()


def test_tops_in_a_towers_shadow_are_read() -> None:
    """infinifield.md "Build the field": f148 (a window's sun and a lamp), the white W2 half
    in the shadow of the tower Y7 on W1: its shaded part, dark grey, was the mat's and W2
    went missing; f193 (a window), the olive Y2 and maroon R2 beside the bridge Y5 in its
    shadow were missed too."""
    assert_tops_read("f148_before", ["W2"], within_mm=8.0)
    assert_tops_read("f193_before", ["Y2", "R2"], within_mm=12.0)


def test_a_shaded_top_beside_a_lit_one_of_its_colour_is_read() -> None:
    """infinifield.md "Build the field": f181 (a window), the red R2 in the shadow of the
    tower Y6 on Y1, a maroon nearly black, beside the lit red R1: its shaded half ran
    together with R1 into more than a top and R2 went missing."""
    assert_tops_read("f181_before", ["R2"], within_mm=8.0)
