"""Field files (TOML): what they describe, and errors naming the file, key and problem.

Rulebook: infinifield.md "Build the field" step 1 (the builder arranges the blocks) and
"Contents" (white, yellow, red and blue blocks). Format: docs/infinifield.md.
"""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinifield.fieldfile import load_field_text
from companion.resources import shipped_names, shipped_text

PACKAGE = "companion.games.infinifield"

GOOD = """
blocks = [
  { id = "W1", colour = "white", at = [0, 0] },
  { id = "Y1", color = "Yellow", at = [40, 0], size = [40, 30] },
  { id = "R1", colour = "red", footprint = [[60, -20], [100, -20], [100, 20], [60, 20]] },
  { id = "B1", colour = "blue", at = [20, 0], rests_on = ["W1", "Y1"], height = 30 },
]

[field]
name = "test field"
pawn_diameter = 15

[match]
players = ["Ann", "Ben"]
"""


def test_a_field_file_gives_blocks_footprints_stacks_and_match_defaults() -> None:
    """infinifield.md "Build the field" step 1: blocks laid out flat or stacked (3D)."""
    parsed = load_field_text("good.toml", GOOD)
    field = parsed.field
    assert [b.id for b in field.blocks] == ["W1", "Y1", "R1", "B1"]
    assert field.block("Y1").colour == "yellow"
    assert field.block("Y1").footprint == ((20.0, -15.0), (60.0, -15.0), (60.0, 15.0),
                                           (20.0, 15.0))
    assert field.touching == (("W1", "Y1"), ("W1", "B1"), ("Y1", "R1"), ("Y1", "B1"))
    assert field.elevation["B1"] == 40.0
    assert field.pawn_diameter == 15.0
    assert field.name == "test field"
    assert parsed.match == {"players": ["Ann", "Ben"]}


def test_explicit_touching_replaces_geometry() -> None:
    """infinifield.md "Build the field" step 1: touching may be stated by the builder."""
    text = ('blocks = [{ id = "A", colour = "white" }, { id = "B", colour = "red" }]\n'
            '[field]\ntouching = [["A", "B"]]\n')
    assert load_field_text("x.toml", text).field.touching == (("A", "B"),)


@pytest.mark.parametrize(("text", "where", "problem"), [
    ('blocks = [{ id = "W1", colour = "green", at = [0, 0] }]',
     "blocks[1] (W1)", "colour 'green' is not one of white, yellow, red, blue"),
    ('blocks = [{ colour = "red", at = [0, 0] }]', "blocks[1].id", "every block needs an id"),
    ('blocks = [{ id = "A", colour = "red", at = [0, 0], hue = 3 }]', "blocks[1].hue",
     "unknown key"),
    ('blocks = [{ id = "A", colour = "red", at = [0] }]', "blocks[1] (A).at",
     "must be two numbers"),
    ('blocks = [{ id = "A", colour = "red", at = [0, 0], height = -1 }]',
     "blocks[1] (A).height", "must be positive"),
    ('blocks = [{ id = "A", colour = "red", at = [0, 0] },\n'
     '          { id = "B", colour = "red", at = [40, 0], rests_on = ["Q"] }]',
     "blocks[2] (B)", "rests on 'Q', which is not a block"),
    ('blocks = [{ id = "A", colour = "red", at = [0, 0] }, { id = "a", colour = "red", '
     'at = [40, 0] }]', "blocks[2] (a)", "the id is used twice"),
    ('blocks = [{ id = "A", colour = "red" }]', "blocks[1] (A)", "has no footprint"),
    ('blocks = [{ id = "A", colour = "red", at = [0, 0] }]\n[field]\ntouching = [["A", "Z"]]',
     "block Z", "is listed as touching but is not a block"),
    ("[field]\nname = 'empty'\n", "blocks", "at least one [[blocks]] entry"),
    ('[match]\nplayers = ["A"]\nblocks = []\n', "match.blocks",
     "must come before the first [table] header"),
])
def test_errors_name_the_file_key_and_problem(text: str, where: str, problem: str) -> None:
    """infinifield.md "Build the field" step 1: a field the referee cannot picture is refused
    with the place in the file and what is wrong."""
    with pytest.raises(SetupError) as error:
        load_field_text("bad.toml", text)
    assert error.value.source == "bad.toml"
    assert error.value.where == where
    assert problem in error.value.problem


def test_invalid_toml_names_the_line() -> None:
    """infinifield.md "Build the field" step 1: unreadable text names the line to fix."""
    with pytest.raises(SetupError, match=r"bad.toml: line 2: not valid TOML"):
        load_field_text("bad.toml", '[field]\nname = "unterminated\n')


def test_every_shipped_field_loads() -> None:
    """infinifield.md "Build the field" step 1 and pictures 1-5: the example fields load."""
    names = shipped_names(PACKAGE, "fields")
    assert {"fields/quickstart.toml", "fields/official.toml", "fields/castle3d.toml",
            "fields/islands.toml"} <= set(names)
    for name in names:
        assert load_field_text(name, shipped_text(PACKAGE, name)).field.blocks
