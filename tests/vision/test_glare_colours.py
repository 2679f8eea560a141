"""Block tops washed by glare keep their colour (issue 12, "Colours": robust to glare).

A glossy top under a big overhead light reflects the light's own colour: its pixels come out
lighter and paler (a blue top lavender, a red one pink, a yellow one cream), nearer the white
blocks' or, by the palette's distance where lightness counts little, the mat's reference than
their own. Their chromaticity in linear light still points to the block colour; white tops
(even lamp-warmed), the mat and shadows keep theirs. Photos: ``tests/data/table3d``
(skipped when absent). Rules: infinifield.md "Build the field" (the field read at set-up).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.table3d_reading import assert_read_whole, assert_tops_read, read_tune_scene
from vision.palette import UNKNOWN, Palette, default_palette
from vision.readers.table_views import washed_by_glare


def _learnt(table_lab: tuple[float, float, float], blue_lab: tuple[float, float, float]
            ) -> Palette:
    """The default palette with a table and a blue learnt on a photo."""
    return default_palette().with_references({"table": list(table_lab), "blue": list(blue_lab)})


def _washed(palette: Palette, bgr: tuple[int, int, int]) -> str | None:
    index = int(washed_by_glare(np.array([bgr], np.float32), palette)[0])
    return None if index == UNKNOWN else palette.classes[index].name


def test_a_washed_blue_is_blue_but_white_tops_and_the_mat_are_no_colour() -> None:
    """Colours learnt on f072 (a brown mat under a warm ceiling light): its two blue tops are
    washed lavender, a red one pink; a lamp-warmed white top, a white top in the sky's bluish
    shade and the mat itself have no block colour by glare."""
    palette = _learnt((41.0, 10.0, 13.0), (37.0, 16.0, -53.0))
    assert _washed(palette, (204, 157, 164)) == "blue"      # f072 B2, lavender
    assert _washed(palette, (200, 166, 132)) == "blue"      # f072 B1
    assert _washed(palette, (146, 163, 247)) == "red"       # f072 R3, pink
    assert _washed(palette, (155, 219, 213)) == "yellow"    # f102 Y2, cream
    assert _washed(palette, (214, 217, 241)) is None        # f177 W4, lamp-warmed white
    assert _washed(palette, (236, 238, 236)) is None        # a white top
    assert _washed(palette, (120, 105, 100)) is None        # a white top in bluish shade
    assert _washed(palette, (74, 90, 119)) is None          # the brown mat
    assert _washed(palette, (110, 92, 88)) is None          # a blue-grey mat


@pytest.mark.parametrize("scene_id", ["f102_before", "f177_before"])
def test_a_flat_field_with_a_top_washed_by_glare_is_read_whole(scene_id: str) -> None:
    """infinifield.md "Build the field": every block of the field, with its colour, and
    every touching pair. f102's yellow Y2 (with a pawn on it) is washed cream by the ceiling
    light, f177's blue B1 lavender; both were missed."""
    scene, reading = read_tune_scene(scene_id)
    assert_read_whole(scene, reading)


def test_blue_tops_washed_lavender_and_a_red_one_washed_pink_are_read() -> None:
    """infinifield.md "Build the field": f072, a flat field on a brown mat under a warm
    ceiling light. Blue B1 and B2 look lavender (B1 was read white, B2 missed) and red R3
    pale pink (missed, taken for the mat)."""
    assert_tops_read("f072_before", ["B1", "B2", "R3"], within_mm=4.0, seen_as="top")


def test_the_play_check_sees_a_top_washed_by_glare_still_there() -> None:
    """infinifield.md "Chase-and-capture" step 7 (a removal is read from the camera): in
    f072's clear view, with no block taken, blue B2 washed lavender was seen gone."""
    from table3d_accuracy import pawn_places, truth_field

    from tests.vision.table3d_reading import tune_scene_views
    from vision.readers.verify import check_blocks

    scene, views = tune_scene_views("f072_before")
    play = check_blocks(views.frame, views.pose, truth_field(scene), (), views.palette, views,
                        pawns=pawn_places(scene))
    assert play.gone == []
    assert play.blocks["B2"].status == "seen"
