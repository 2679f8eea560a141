"""A block nothing of shows is assumed in the colour the set has most left of.

infinifield.md, Components: "24 blocks: 8 white (also called starting positions), 8
yellow, 6 red, and 2 blue". A hidden block under a raised top cannot be a colour the reading
has already seen all of; the likeliest is the one with the most left in the box.
"""

from __future__ import annotations

import math

import pytest

from companion.games.infinifield import BLOCK_SET
from vision.readers.hidden_colours import likeliest_colour
from vision.readers.notes import HIDDEN


def test_the_set_is_the_rulebooks() -> None:
    """infinifield.md, Components: 24 blocks, 8 white, 8 yellow, 6 red, 2 blue."""
    assert BLOCK_SET == {"white": 8, "yellow": 8, "red": 6, "blue": 2}
    assert sum(BLOCK_SET.values()) == 24


@pytest.mark.parametrize(("read", "assumed"), [
    ([], "white"),                                             # a tie: white, the most kept
    (["white"] * 3, "yellow"),
    (["white"] * 8 + ["red"] * 3, "yellow"),
    (["white"] * 8 + ["yellow"] * 3, "red"),                  # 6 red left, 5 yellow
    (["white"] * 8 + ["yellow"] * 8, "red"),
    (["white"] * 8 + ["yellow"] * 8 + ["red"] * 6, "blue"),
    (["white"] * 8 + ["yellow"] * 8 + ["red"] * 6 + ["blue"] * 2, "white"),   # set used up
    (["white"] * 2 + ["yellow"] * 7 + ["red"], "white"),
])
def test_the_likeliest_colour_is_the_one_most_left_in_the_box(read: list[str], assumed: str
                                                              ) -> None:
    assert likeliest_colour(read) == assumed


@pytest.mark.parametrize(("family", "block", "tower"), [("f061", "Y2", "Y5"),
                                                        ("f161", "Y4", "Y6")])
def test_a_hidden_block_on_a_photo_is_assumed_in_the_colour_the_set_has_most_left(
        family: str, block: str, tower: str) -> None:
    """Tuning photos at 640x480 of a yellow tower on a yellow block (infinifield.md, "Build
    the field": a block may stand on another) where nothing of the lower one shows (its
    side faces toward the camera stand against its neighbours): the reading has already used
    up more whites than yellows of the set, so the block is assumed yellow, as it is,
    and its note, for the players to check, says so."""
    from tests.vision.table3d_reading import read_tune_scene

    scene, reading = read_tune_scene(f"{family}_before")
    truth = scene.blocks[block]
    near = [b for b in reading.blocks if b.level == 1
            and math.dist(b.centre, truth.centre_mm) <= 8.0]
    assert [(b.colour, b.seen) for b in near] == [(truth.colour, "assumed")], near
    counted = [b.colour for b in reading.blocks if b is not near[0]]
    assert likeliest_colour(counted) == truth.colour == "yellow"
    notes = [n for n in reading.notes if getattr(n, "kind", "") == HIDDEN
             and math.dist(n.at, near[0].centre) <= 1.0]
    assert [n.colour for n in notes] == ["yellow"] and "assumed yellow" in notes[0]
    carried = [b for b in reading.blocks if b.level == 2
               and math.dist(b.centre, scene.blocks[tower].centre_mm) <= 8.0]
    assert [b.colour for b in carried] == [scene.blocks[tower].colour]
    assert [reading.blocks[j] for j in carried[0].rests_on] == near
