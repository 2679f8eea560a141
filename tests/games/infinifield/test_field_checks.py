"""Field-building checks: every violation of the quick-start and the official rules.

Rulebook: infinifield.md "Build the field" step 1 (quick-start bullets) and "Official
field-building rules" (bullets 1-8).
"""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games.infinifield.field import Block, Field, build_field
from companion.games.infinifield.field_rules import Violation, check_field
from companion.games.infinifield.fieldfile import load_field_text
from companion.games.infinifield.geometry import centroid
from companion.resources import shipped_text
from tests.games.infinifield.helpers import PACKAGE, explicit_field, row


def _codes(field_violations: list[Violation]) -> list[tuple[str, tuple[str, ...]]]:
    return [(v.code, v.blocks) for v in field_violations]


def _shipped_field(name: str) -> Field:
    return load_field_text(name, shipped_text(PACKAGE, f"fields/{name}.toml")).field


def test_quickstart_every_block_must_touch_another() -> None:
    """infinifield.md "Build the field" step 1, bullet 1: every block touches at least one
    other block (each lonely block is named)."""
    field = explicit_field({"A": "white", "B": "red", "C": "red", "D": "blue"}, [("A", "B")])
    found = check_field(field, "quickstart")
    isolated = [v for v in found if v.code == "isolated"]
    assert [v.blocks for v in isolated] == [("C",), ("D",)]
    assert str(isolated[0].rule) == 'infinifield: "Build the field", step 1, bullet 1'


def test_islands_are_reported_one_by_one_in_both_modes() -> None:
    """infinifield.md "Build the field" step 1, bullet 2 and "Official field-building rules"
    bullet 3: the field is not split into islands (picture 5)."""
    field = _shipped_field("islands")
    for mode, rule in (("quickstart", 'infinifield: "Build the field", step 1, bullet 2'),
                       ("official", 'infinifield: "Official field-building rules", bullet 3')):
        islands = [v for v in check_field(field, mode) if v.code == "islands"]
        assert [v.blocks for v in islands] == [("W1", "Y1", "R1", "W2"), ("W4", "Y3", "R2", "Y4"),
                                               ("W3", "Y2", "B1")]
        assert all(str(v.rule) == rule for v in islands)
        assert "split into 3 islands" in islands[0].message


def test_a_block_covered_entirely_by_the_one_above_leaves_no_room_for_a_pawn() -> None:
    """infinifield.md "Build the field" step 1, bullet 3 and "Official field-building rules"
    bullet 4: enough free space on top of each block to place a pawn."""
    covered = build_field([Block.square("A", "red", (0, 0)),
                           Block.square("T", "white", (0, 0), rests_on=("A",))])
    assert ("no_room", ("A", "T")) in _codes(check_field(covered, "quickstart"))
    half = build_field([*row("A:red", "B:red"),
                        Block.square("T", "white", (20, 0), rests_on=("A", "B"))])
    assert not [v for v in check_field(half, "official") if v.code == "no_room"]


def test_a_block_too_small_for_a_pawn_is_reported() -> None:
    """infinifield.md "Build the field" step 1, bullet 3: room for a pawn (18 mm base)."""
    field = build_field([Block.square("A", "red", (0, 0)),
                         Block.square("S", "blue", (28, 0), size=(15, 15))])
    assert _codes(check_field(field, "quickstart")) == [("no_room", ("S",))]


def test_official_white_blocks_touch_two_coloured_and_no_white() -> None:
    """infinifield.md "Official field-building rules" bullet 5: each white block touches at
    least two coloured blocks and no other white block."""
    field = explicit_field({"W1": "white", "W2": "white", "Y1": "yellow", "R1": "red"},
                           [("W1", "W2"), ("W1", "Y1"), ("W1", "R1"), ("W2", "Y1")])
    assert _codes(check_field(field, "official")) == [
        ("white_touches_white", ("W1", "W2")),
        ("white_needs_two_coloured", ("W2",)),
    ]
    assert check_field(field, "quickstart") == []


def test_official_coloured_blocks_touch_one_block_and_at_most_two_whites() -> None:
    """infinifield.md "Official field-building rules" bullet 6: each coloured block touches at
    least one other block but no more than two white blocks."""
    whites = {f"W{i}": "white" for i in range(1, 4)}
    field = explicit_field({**whites, "Y1": "yellow", "R1": "red", "R2": "red", "B1": "blue"},
                           [("Y1", w) for w in whites] + [("R1", w) for w in whites])
    found = _codes(check_field(field, "official"))
    assert ("touches_many_whites", ("Y1", "W1", "W2", "W3")) in found
    assert ("touches_many_whites", ("R1", "W1", "W2", "W3")) in found
    assert ("isolated", ("R2",)) in found
    assert ("isolated", ("B1",)) in found


def test_official_top_surfaces_must_not_be_tilted() -> None:
    """infinifield.md "Official field-building rules" bullet 2: the top surface of each block
    must not be tilted (a block resting on two blocks of different heights is)."""
    field = build_field([Block.square("A", "red", (0, 0)),
                         Block.square("B", "red", (40, 0), height=30),
                         Block.square("T", "yellow", (20, 0), rests_on=("A", "B"))])
    assert ("tilted", ("T", "A", "B")) in _codes(check_field(field, "official"))
    assert not [v for v in check_field(field, "quickstart") if v.code == "tilted"]


def test_official_stacks_must_not_tumble() -> None:
    """infinifield.md "Official field-building rules" bullet 7: blocks on top of others must
    not be placed so that they would tumble (centre of the top block over its supports)."""
    steady = build_field([Block.square("A", "red", (0, 0)),
                          Block.square("T", "yellow", (15, 0), rests_on=("A",))])
    tipping = build_field([Block.square("A", "red", (0, 0)),
                           Block.square("T", "yellow", (25, 0), rests_on=("A",))])
    assert not [v for v in check_field(steady, "official") if v.code == "unstable"]
    assert ("unstable", ("T", "A")) in _codes(check_field(tipping, "official"))


def test_official_blocks_not_touching_are_clearly_apart() -> None:
    """infinifield.md "Official field-building rules" bullet 8: blocks that should not touch
    are placed half an inch or more apart; a 6 mm gap is ambiguous."""
    field = build_field(row("Y1:yellow", "R1:red", pitch=46))
    found = [v for v in check_field(field, "official") if v.code == "unclear_gap"]
    assert [v.blocks for v in found] == [("Y1", "R1")]
    assert "6.0 mm apart" in found[0].message
    assert not [v for v in check_field(field, "quickstart") if v.code == "unclear_gap"]


def test_overlapping_blocks_are_impossible_in_both_modes() -> None:
    """infinifield.md "Official field-building rules" bullet 1 and "Build the field" step 1:
    blocks stand on a flat surface, side by side, never inside one another."""
    field = build_field(row("Y1:yellow", "R1:red", pitch=30))
    for mode in ("quickstart", "official"):
        assert ("overlapping", ("Y1", "R1")) in _codes(check_field(field, mode))


def test_every_violation_is_reported_not_just_the_first() -> None:
    """infinifield.md "Official field-building rules": the builder sees all problems at once."""
    field = build_field([*row("W1:white", "W2:white"),
                         Block.square("Y1", "yellow", (300, 0)),
                         Block.square("R1", "red", (300, 50))])
    codes = Counter(v.code for v in check_field(field, "official"))
    assert codes == {"white_touches_white": 1, "white_needs_two_coloured": 2, "islands": 3,
                     "isolated": 2, "unclear_gap": 1}


def test_shipped_example_fields_meet_the_rules_they_claim() -> None:
    """infinifield.md "Contents" (8 white, 8 yellow, 6 red, 2 blue) and "Official
    field-building rules": the official and 3D examples are valid official fields."""
    for name in ("quickstart", "official", "castle3d"):
        assert check_field(_shipped_field(name), "quickstart") == [], name
    for name in ("official", "castle3d"):
        field = _shipped_field(name)
        assert check_field(field, "official") == [], name
        assert Counter(b.colour for b in field.blocks) == {"white": 8, "yellow": 8, "red": 6,
                                                           "blue": 2}
    assert any(b.rests_on for b in _shipped_field("castle3d").blocks)
    assert check_field(_shipped_field("islands"), "quickstart")


@pytest.mark.parametrize("name", ["official", "castle3d"])
def test_the_symmetric_examples_map_onto_themselves_under_a_half_turn(name: str) -> None:
    """infinifield.md "Build the field" step 1: "lay them out in a symmetrical pattern"."""
    field = _shipped_field(name)
    centres = {b.id: centroid(b.footprint) for b in field.blocks}
    xs = [c[0] for c in centres.values()]
    ys = [c[1] for c in centres.values()]
    mid = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    for block in field.blocks:
        x, y = centres[block.id]
        turned = (round(2 * mid[0] - x, 6), round(2 * mid[1] - y, 6))
        twins = [b for b in field.blocks if (round(centres[b.id][0], 6),
                                             round(centres[b.id][1], 6)) == turned
                 and field.elevation[b.id] == field.elevation[block.id]]
        assert len(twins) == 1 and twins[0].colour == block.colour, block.id
