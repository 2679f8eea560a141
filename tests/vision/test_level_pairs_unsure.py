"""Pairs of blocks a level apart read too near the edge of touching to tell (issue 12).

infinifield.md "Build the field": blocks touch, or stand clearly apart (half an inch); two
blocks a level apart touch when one's bottom edge meets the other's top edge (the engine's
2 mm). A top on blocks is placed to about 1.6 mm at 640x480, so a pair read a few
millimetres apart may be either: the reading says which pairs those are, and the set-up
screen asks the players. Tuning families only.
"""

from __future__ import annotations

from tests.vision.table3d_reading import read_tune_scene
from vision.devtools.table3d_truth import SceneTruth
from vision.geometry import gaps_between
from vision.readers.field3d import LEVEL_TOUCH_MM, LEVEL_UNSURE_MM, FieldReading


def _ids(scene_id: str) -> tuple[dict[int, str], SceneTruth, FieldReading]:
    from table3d_accuracy import match

    scene, reading = read_tune_scene(scene_id)
    return {i: bid for bid, i in match(reading, scene).items()}, scene, reading


def test_a_top_set_back_a_few_millimetres_from_blocks_a_level_below_is_asked_about() -> None:
    """f001: R6 stands on R3 and R4 a few millimetres back from R1 and R2 beside them (the
    engine: not touching). Read 2.5-6.5 mm apart, both pairs are read as touching and
    both are named unsure; a pair of one level never is."""
    ids, scene, reading = _ids("f001_before")
    unsure = {frozenset((ids[i], ids[j])) for i, j in reading.unsure_touching}
    assert {frozenset(("R1", "R6")), frozenset(("R2", "R6"))} <= unsure
    read = {frozenset((ids[i], ids[j])) for i, j in reading.touching}
    assert frozenset(("R1", "R6")) in read and frozenset(("R1", "R6")) not in set(scene.touching)
    for i, j in reading.unsure_touching:
        a, b = reading.blocks[i], reading.blocks[j]
        assert abs(a.level - b.level) == 1
        assert i not in b.rests_on and j not in a.rests_on
        gap = float(gaps_between(a.outline[None], b.outline[None])[0])
        assert LEVEL_UNSURE_MM[0] <= gap <= LEVEL_UNSURE_MM[1]
    assert LEVEL_UNSURE_MM[0] < LEVEL_TOUCH_MM < LEVEL_UNSURE_MM[1]


def test_a_flat_field_has_no_pair_to_ask_about() -> None:
    """f000: every block on the table; no pair is a level apart, none is unsure."""
    _, _scene, reading = _ids("f000_before")
    assert all(b.level == 1 for b in reading.blocks)
    assert reading.touching and reading.unsure_touching == frozenset()
