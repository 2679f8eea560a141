"""A block set a level up on its own colour, found by the groove it hides (issue 12).

infinifield.md "Build the field": a block may stand on one block (a tower) or across two
touching ones (a bridge), of any colour, and every block of the field counts. On one of its
own colour a block shows the camera one colour, and the two photos' colours cannot tell it
(:mod:`vision.readers.added3d`); the groove between two touching blocks of that colour,
which the first level's photo shows and a block over it hides, can
(:mod:`vision.readers.seams3d`). Tuning families of the shipped set only.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from tests.vision.table3d_reading import (
    assert_no_block_over,
    assert_read_whole,
    read_tune_scene,
    tune_scene_views,
)
from vision.devtools.table3d_truth import SceneTruth
from vision.readers.added3d import FirstLevelPhoto
from vision.readers.field3d import FieldReading, SeenBlock3D, read_field
from vision.readers.ground3d import first_level
from vision.readers.seams3d import hidden_seams, line_darkness, own_colour_pairs, shown_seams
from vision.readers.table_views import TableViews

GROUND = Path(__file__).resolve().parents[1] / "data" / "table3d_ground"


MISREADS = Path(__file__).resolve().parents[1] / "data" / "table3d_misreads"
"""Stacked photos from sets rendered for a run, read wrong once, with their first level."""


def _first_level(family: str, folder: Path = GROUND
                 ) -> tuple[list[SeenBlock3D], FirstLevelPhoto, TableViews]:
    _scene, reading = read_tune_scene(f"{family}_ground", folder)
    _scene, views = tune_scene_views(f"{family}_ground", folder)
    return first_level(reading.blocks), FirstLevelPhoto(views.frame, views.pose), views


def _reads(family: str, folder: Path | None = None
           ) -> tuple[SceneTruth, FieldReading, FieldReading]:
    """The stacked photo read on its first level's blocks alone, and with its photo (both
    from ``folder``, else the shipped set and its first levels)."""
    ground, photo, _views = _first_level(family, folder or GROUND)
    scene, views = (tune_scene_views(f"{family}_before", folder) if folder
                    else tune_scene_views(f"{family}_before"))
    frame, pose, palette = views.frame, views.pose, views.palette
    alone = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                       ground=ground)
    both = read_field(frame, pose, palette, views=TableViews(frame, pose, palette),
                      ground=ground, ground_photo=photo)
    return scene, alone, both


def _on(reading: FieldReading, scene: SceneTruth, block_id: str) -> int | None:
    truth = scene.blocks[block_id]
    for i, b in enumerate(reading.blocks):
        if (b.level == truth.level and b.colour == truth.colour
                and math.dist(b.centre, truth.centre_mm[:2]) < 5.0):
            return i
    return None


def test_a_bridge_over_two_of_its_own_colour_is_read_by_the_groove_it_hides() -> None:
    """f236: the red R5 bridges the red R1 and R2. From above it is one red region with
    them, and it covers no pixel the first level's photo showed in another colour: with
    the blocks alone or the colours of the two photos it is not read. The first photo
    shows the groove between R1 and R2; the stacked photo shows none there, and its lines a
    level up fit a bridge's top: R5 is read a level up, resting on R1 and R2, and no other
    block is added."""
    scene, alone, both = _reads("f236")
    assert _on(alone, scene, "R5") is None
    found = {bid: _on(both, scene, bid) for bid in ("R5", "R1", "R2")}
    assert None not in found.values(), found
    assert set(both.blocks[found["R5"]].rests_on) == {found["R1"], found["R2"]}
    assert len(both.blocks) == len(scene.blocks)


def test_a_groove_half_hidden_by_a_pawn_on_the_bridge_is_judged_on_what_shows() -> None:
    """f1536: the white W6 bridges the white W4 and W5, 70 mm from the camera's nadir,
    with the cyan pawn on it. The pawn hides most of the groove between W4 and W5 a level
    up; on the 11 points of it that still show clear in both photos, the stacked photo
    shows the groove gone at 10 of them: W6 is read a level up on W4 and W5, not as a
    first-level block, and the whole field is read right."""
    scene, alone, both = _reads("f1536", MISREADS)
    assert _on(alone, scene, "W6") is None
    found = {bid: _on(both, scene, bid) for bid in ("W6", "W4", "W5")}
    assert None not in found.values(), found
    assert set(both.blocks[found["W6"]].rests_on) == {found["W4"], found["W5"]}
    assert_read_whole(scene, both)


def test_a_top_over_a_groove_the_stacked_photo_still_shows_is_none() -> None:
    """infinifield.md "Build the field": every block counts, and none that is not there.
    On f078 the halves of the yellow Y2 and Y3 between the bridges B2 and W5 show as one
    yellow square where a bridge over the two would stand, read as one. The groove between
    Y2 and Y3 still shows there, as dark as on the first level's photo: nothing stands
    over it. The top is dropped, and the whole field is read right."""
    ground, photo, _views = _first_level("f078")
    scene, alone, both = _reads("f078")
    _scene, views = tune_scene_views("f078_before")
    before = TableViews(photo.frame, photo.pose, views.palette)
    false = shown_seams(views, before, ground, alone.blocks)
    assert [(t.colour, t.level) for t in false] == [("yellow", 2)]
    assert not any(math.dist(false[0].centre, b.centre_mm[:2]) < 15.0
                   for b in scene.blocks.values() if b.level == 2)
    assert_read_whole(scene, both)


def test_a_groove_in_a_shadow_cast_since_is_not_taken_for_hidden() -> None:
    """f1666: the white W4 and W5 lie in the shadow of a raised neighbour cast since the
    first level's photo; their groove shows 6.7 grey levels dark against 32 then, as the
    tops beside it went from white to the mat's class. Judged against how much darker the
    tops round it went, the groove still shows: no white bridge is read over the two, and
    the whole field is read right."""
    scene, _alone, both = _reads("f1666", MISREADS)
    assert_no_block_over(scene, both, "W4", "W5")
    assert_read_whole(scene, both)


def test_a_groove_gone_at_most_of_its_points_is_hidden() -> None:
    """f1486: the white W8 stands on the white W4, 25 mm from the camera's nadir, and hides
    their groove with the white beside W4 at 26 of its 29 points (a groove with nothing
    over it is gone at 0.67 at most): W8 is read a level up on W4, and the whole field is
    read right."""
    scene, alone, both = _reads("f1486", MISREADS)
    assert _on(alone, scene, "W8") is None
    w8, w4 = _on(both, scene, "W8"), _on(both, scene, "W4")
    assert w8 is not None and w4 is not None
    assert both.blocks[w8].rests_on == (w4,)
    assert_read_whole(scene, both)


def test_a_tower_on_one_of_its_own_colour_is_read_by_the_groove_it_hides() -> None:
    """f126: the white W7 stands on the white W4, 57 mm from the camera's nadir, and is read
    as W4 alone. W4's grooves with W3 and W5, beyond it seen from the camera, are hidden
    in the stacked photo; its lines a level up show an edge over the groove and none over
    W4's middle (a tower's top, not a bridge's): W7 is read a level up on W4, and W4 keeps
    the place the first level's photo saw it at."""
    scene, alone, both = _reads("f126")
    assert _on(alone, scene, "W7") is None
    w7, w4 = _on(both, scene, "W7"), _on(both, scene, "W4")
    assert w7 is not None and w4 is not None
    assert both.blocks[w7].rests_on == (w4,)
    assert math.dist(both.blocks[w4].centre, scene.blocks["W4"].centre_mm[:2]) < 3.0
    assert len(both.blocks) == len(scene.blocks)


def test_a_photo_compared_with_itself_hides_no_groove() -> None:
    """Nothing set down since, nothing found: f126's first level compared with its own
    photo shows every groove it showed (five pairs of one colour touch there)."""
    ground, _photo, views = _first_level("f126")
    assert len(own_colour_pairs(ground)) >= 5
    assert hidden_seams(views, views, ground, ground) == []


def test_a_groove_shows_darker_than_the_tops_beside_it() -> None:
    """The groove between f126's W3 and W4 in the first level's photo is darker than the
    white tops on either side of it (20 grey levels or more at most points), while a line
    across the middle of W3's top is not."""
    ground, _photo, views = _first_level("f126")
    w3, w4 = (min(ground, key=lambda g, x=x: math.dist(g.centre, x))
              for x in ((float(c[0]), float(c[1])) for c in _truth_centres("f126", "W3", "W4")))
    a, b = np.asarray(w3.centre), np.asarray(w4.centre)
    unit = (b - a) / np.linalg.norm(b - a)
    along = np.array([-unit[1], unit[0]])
    h1 = views.layout.block_height_mm
    groove, clear = line_darkness(views, (a + b) / 2, unit, along, h1)
    middle, clear_mid = line_darkness(views, a, unit, along, h1)
    assert clear.mean() > 0.9 and clear_mid.mean() > 0.9
    assert np.median(groove[clear]) >= 20.0
    assert np.median(middle[clear_mid]) < 6.0


def _truth_centres(family: str, *ids: str) -> list[tuple[float, float]]:
    scene, _views = tune_scene_views(f"{family}_before")
    return [scene.blocks[i].centre_mm[:2] for i in ids]


def test_a_top_read_between_two_of_its_colour_whose_groove_still_shows_is_no_bridge() -> None:
    """infinifield.md "Build the field": every block counts, and none that is not there.
    f2356: one red top was read between the red R1 and R2, where a bridge over the two
    would stand, and stood on them. A bridge hides their groove from every camera; the
    stacked photo shows it 0.36 as dark as the first level's photo did (the true bridges of
    the tuning families with no pawn on them, 0.20 at most): no bridge is read there, and
    the whole field is read right."""
    scene, _alone, both = _reads("f2356", MISREADS)
    assert_no_block_over(scene, both, "R1", "R2")
    assert_read_whole(scene, both)
