"""The camera keeps the field's first level while the builder lays it out (issue 12;
infinifield.md "Build the field": the builder arranges the blocks, stacked ones on others).

Readings are given as the set-up screen gets them (blocks with colour, centre, angle and
level; a hand or not); the screen's own test drives the whole flow on photoreal photos."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from companion.app.first_level_watch import FirstLevelWatch


def _block(colour: str, x: float, y: float, level: int = 1) -> Any:
    return SimpleNamespace(colour=colour, centre=(x, y), angle=0.0, level=level)


def _reading(*blocks: Any, hands: bool = False) -> Any:
    return SimpleNamespace(present=lambda: list(blocks), hands_in_view=hands)


ROW = (_block("white", 100, 100), _block("red", 141, 100), _block("yellow", 182, 100))


def _kept() -> FirstLevelWatch:
    watch = FirstLevelWatch()
    assert watch.offer(_reading(*ROW)) == "unsteady"
    assert watch.offer(_reading(*ROW)) == "kept"
    return watch


def test_the_first_level_is_kept_once_the_table_stands_still_and_no_hand_is_over_it() -> None:
    watch = FirstLevelWatch()
    assert watch.offer(_reading()) == "empty"
    assert watch.offer(_reading(*ROW[:2])) == "unsteady"
    assert watch.offer(_reading(*ROW)) == "unsteady", "a block was added: not steady yet"
    assert watch.offer(_reading(*ROW, hands=True)) == "hand"
    moved = (ROW[0], ROW[1], _block("yellow", 186, 100))
    assert watch.offer(_reading(*moved)) == "unsteady", "the builder is still moving one"
    assert watch.offer(_reading(*moved)) == "kept"
    assert [(b.colour, b.centre) for b in watch.ground] == [
        ("white", (100.0, 100.0)), ("red", (141.0, 100.0)), ("yellow", (186.0, 100.0))]
    assert not watch.stacking_seen


def test_a_block_going_up_ends_the_watch_and_the_level_kept_stays() -> None:
    watch = _kept()
    bridge = _block("blue", 120, 100, level=2)
    assert watch.offer(_reading(*ROW, bridge)) == "stacked"
    assert watch.stacking_seen and len(watch.ground) == 3
    assert watch.offer(_reading(*ROW[:1])) == "stacked", "nothing changes it any more"
    assert len(watch.ground) == 3


def test_a_block_of_another_colour_where_a_kept_one_stood_is_a_block_set_on_it() -> None:
    """A tower read on the table (its level not told by one photo) covers its block: a
    top of another colour stands where the kept one stood and none of its colour does."""
    watch = _kept()
    tower = _block("blue", 143, 101)
    assert watch.offer(_reading(ROW[0], tower, ROW[2])) == "stacked"
    assert [b.colour for b in watch.ground] == ["white", "red", "yellow"]


def test_a_kept_block_keeps_its_first_place_and_one_taken_away_leaves_the_level() -> None:
    """A block of its own colour set squarely on a kept one reads a few mm off it (the
    parallax of a level): the kept place does not follow it. A block the builder takes
    away before stacking is not kept."""
    watch = _kept()
    shifted = (_block("white", 104, 101), ROW[1])
    assert watch.offer(_reading(*shifted)) == "unsteady"
    assert watch.offer(_reading(*shifted)) == "kept"
    assert [(b.colour, b.centre) for b in watch.ground] == [
        ("white", (100.0, 100.0)), ("red", (141.0, 100.0))]


def test_a_block_read_up_before_any_level_was_kept_does_not_end_the_watch() -> None:
    watch = FirstLevelWatch()
    assert watch.offer(_reading(*ROW, _block("red", 120, 100, level=2))) == "unsteady"
    assert not watch.stacking_seen
    assert watch.offer(_reading(*ROW)) == "unsteady"
    assert watch.offer(_reading(*ROW)) == "kept"


def test_the_photo_kept_is_the_first_of_the_level_kept_not_a_later_one_of_the_same_blocks(
        ) -> None:
    """The reader compares the stacked photo with the first level's (a block set on one of
    its colour, read as that block again, shows only there): the photo kept is the first
    one the level was kept on. A later frame read as the same blocks (a red set squarely on
    the red, unseen) does not replace it; a frame with a block added or moved does."""
    watch = FirstLevelWatch()
    assert watch.offer(_reading(*ROW), "frame 1") == "unsteady"
    assert watch.offer(_reading(*ROW), "frame 2") == "kept"
    assert watch.photo == "frame 2"
    assert watch.offer(_reading(*ROW), "frame 3") == "kept"
    assert watch.photo == "frame 2", "the same first level: its first photo stays"
    more = (*ROW, _block("blue", 223, 100))
    assert watch.offer(_reading(*more), "frame 4") == "unsteady"
    assert watch.offer(_reading(*more), "frame 5") == "kept"
    assert watch.photo == "frame 5", "a block added: the photo shows the level as kept now"
    assert watch.offer(_reading(*more, _block("red", 141, 100, level=2)), "frame 6") \
        == "stacked"
    assert watch.photo == "frame 5"
