"""Infinifield readings settled for issue 17: a new field each round, one contact rule,
ambiguous contacts in the official checks, and "enclosed" as covered along most of a side.

Rulebook: infinifield.md "Build the field" step 1 (the builder "should arrange all blocks in
almost any way"), "Chase-and-capture" steps 6-8, "Scoring" and "Official field-building rules"
(bullet 8: "place them clearly apart"). Readings: docs/infinifield.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli.infinifield import inline_field_file
from companion.games.core import IllegalAction, NotationError
from companion.games.infinifield import GAME
from companion.games.infinifield.actions import Rebuild
from companion.games.infinifield.contacts import near_pairs
from companion.games.infinifield.field import Block, build_field
from companion.games.infinifield.field_rules import check_field
from companion.games.infinifield.fieldfile import field_file_data, load_field_data
from companion.games.infinifield.removal import (
    refusal_sentence,
    removable_blocks,
    removal_refusals,
)
from companion.resources import shipped_text
from companion.session import Session
from tests.games.infinifield.helpers import PACKAGE, play

SMALL = """
blocks = [{ id = "W1", colour = "white" }, { id = "Y1", colour = "yellow" },
          { id = "W2", colour = "white" }]
[field]
touching = [["W1", "Y1"], ["Y1", "W2"]]
[match]
players = ["Ann", "Ben"]
rounds = 2
"""


def _field(name: str):
    from companion.games.infinifield.fieldfile import load_field_text

    return load_field_text(name, shipped_text(PACKAGE, f"fields/{name}.toml")).field


def _round_one_over():
    """Ann wins round 1 on SMALL by capturing Ben: 10 + 3 blocks left = 13 points."""
    setup = GAME.load_setup({"setup": ("small.toml", SMALL)}, {})
    state, _ = play(GAME.initial_state(setup), "start Ben W1", "start Ann W2",
                    "move Ben W1 Y1", "move Ann W2 Y1")
    assert state.phase == "rebuild" and state.builder == "Ben"
    assert state.scores() == {"Ann": 13, "Ben": 0}
    return state


def test_a_rebuild_takes_a_new_field_and_the_scores_carry_on() -> None:
    """infinifield.md "Chase-and-capture" step 8 and "Build the field" step 1: the next
    builder arranges all blocks anew; "Scoring": the totals run over the whole match."""
    state = _round_one_over()
    quick = _field("quickstart")
    after = GAME.apply(state, Rebuild("Ben", quick))
    assert after.state.field == quick and after.state.round == 2
    assert after.state.scores() == {"Ann": 13, "Ben": 0}
    assert after.state.phase == "start" and GAME.current_actor(after.state) == "Ann"
    assert [e.to_json() for e in after.events] == [{
        "kind": "field_rebuilt", "player": "Ben", "name": "Quick-start field", "blocks": 24,
        "new": True}]
    moved, _ = play(after.state, "start Ann W8", "start Ben W1")
    assert moved.pawns == (("Ann", "W8"), ("Ben", "W1"))


def test_the_new_field_is_written_out_in_the_notation_and_read_back() -> None:
    """infinifield.md "Build the field" step 1: the journal keeps the field the builder laid
    out (docs/infinifield.md "Notation": ``rebuild PLAYER {...}``)."""
    state = _round_one_over()
    action = Rebuild("Ben", _field("castle3d"))
    text = str(action)
    assert text.startswith('rebuild Ben {"field":') and "\n" not in text
    assert GAME.parse_action(state, text) == action
    assert load_field_data("x", field_file_data(_field("official"))).field == _field("official")


def test_a_rebuild_reads_a_field_file(tmp_path: Path) -> None:
    """infinifield.md "Build the field" step 1, from a field file named on the line."""
    path = tmp_path / "mine.toml"
    path.write_text(shipped_text(PACKAGE, "fields/official.toml"))
    state = _round_one_over()
    action = GAME.parse_action(state, inline_field_file(f"rebuild Ben {path}"))
    assert isinstance(action, Rebuild) and action.field == _field("official")
    with pytest.raises(NotationError) as unread:
        inline_field_file(f"rebuild Ben {tmp_path / 'missing.toml'}")
    assert "no such field file" in unread.value.problem
    (tmp_path / "bad.toml").write_text('[[blocks]]\nid = "W1"\ncolour = "white"\nat = [nan, 0]\n')
    with pytest.raises(NotationError) as bad:
        inline_field_file(f"rebuild Ben {tmp_path / 'bad.toml'}")
    assert "blocks[1] (W1).at: must be a finite number" in bad.value.problem
    with pytest.raises(NotationError) as rules_read_no_files:
        GAME.parse_action(state, f"rebuild Ben {path}")
    assert "the command line also reads a .toml field file" in rules_read_no_files.value.problem


def test_a_new_field_that_breaks_the_building_rules_is_refused() -> None:
    """infinifield.md "Build the field" step 1 (quick-start rules: no islands) and "Select
    starting positions" step 2 (a white block for every pawn)."""
    state = _round_one_over()
    with pytest.raises(IllegalAction) as islands:
        GAME.apply(state, Rebuild("Ben", _field("islands")))
    assert islands.value.code == "field_breaks_rules"
    assert str(islands.value.rule).startswith('infinifield: "Build the field"')
    lone = build_field([Block("W1", "white"), Block("Y1", "yellow")], [("W1", "Y1")])
    with pytest.raises(IllegalAction) as whites:
        GAME.apply(state, Rebuild("Ben", lone))
    assert whites.value.code == "too_few_whites"


def test_a_resumed_journal_replays_the_new_field_without_its_file(tmp_path: Path) -> None:
    """infinifield.md "Build the field" step 1; DESIGN.md "Session, journal": nothing recorded
    is lost, the new field included, even once its file is gone."""
    path = tmp_path / "round2.toml"
    path.write_text(shipped_text(PACKAGE, "fields/quickstart.toml"))
    journal = tmp_path / "match.journal"
    with Session.new(GAME, {"setup": ("small.toml", SMALL)}, {}, journal_path=journal) as one:
        for text in ("start Ben W1", "start Ann W2", "move Ben W1 Y1", "move Ann W2 Y1",
                     inline_field_file(f"rebuild Ben {path}"), "start Ann W8"):
            assert one.propose(text).legal, text
        field = one.state.field
    path.unlink()
    with Session.resume(journal) as two:
        assert two.state.field == field and two.state.scores() == {"Ann": 13, "Ben": 0}
        assert two.state.pawns == (("Ann", "W8"),)


def _grid(n: int = 3):
    colours = ["white", "yellow", "red"]
    return build_field([Block.square(f"B{r}{c}", colours[(r + c) % 3], (40 * c, 40 * r))
                        for r in range(n) for c in range(n)])


def test_corner_only_contacts_touch_and_are_flagged_ambiguous_in_the_official_check() -> None:
    """infinifield.md "Chase-and-capture" step 6 (a pawn moves to any block that touches) and
    "Official field-building rules" bullet 8 ("place them clearly apart"): blocks meeting only
    at a corner touch, and the official check reports them so the builder decides."""
    grid = _grid()
    assert grid.touches("B00", "B11"), "a corner meeting counts as touching"
    ambiguous = [v.blocks for v in check_field(grid, "official")
                 if v.code == "ambiguous_contact"]
    assert ("B00", "B11") in ambiguous and ("B01", "B10") in ambiguous
    assert len(ambiguous) == 8, "the 8 diagonal pairs of a 3x3 grid, no face contact"
    assert all(v.code != "ambiguous_contact" for v in check_field(grid, "quickstart"))
    message = next(v.message for v in check_field(grid, "official")
                   if v.code == "ambiguous_contact")
    assert "meet only at a corner" in message and "12.7 mm" in message


def test_an_edge_met_from_another_level_touches_and_is_flagged_too() -> None:
    """infinifield.md "Official field-building rules" bullet 8, one contact rule for lines
    (docs/infinifield.md "Touching"): T stands on A; its bottom edge meets B's top edge."""
    blocks = [Block.square("A", "red", (0, 0)), Block.square("B", "yellow", (40, 0)),
              Block.square("T", "white", (0, 0), rests_on=("A",))]
    field = build_field(blocks)
    assert field.touches("T", "B")
    pair = next(p for p in near_pairs(field.blocks) if {p.first, p.second} == {"T", "B"})
    assert pair.edge_only and not pair.side_by_side
    flagged = [v for v in check_field(field, "official") if v.code == "ambiguous_contact"]
    assert [v.blocks for v in flagged] == [("B", "T")]
    assert "along an edge" in flagged[0].message


def test_the_shipped_castle_has_only_face_contacts_and_meets_the_official_rules() -> None:
    """infinifield.md pictures 1-2 and "Official field-building rules": the 3D castle no longer
    has a bridge meeting a white block along an edge (issue 17: W1 met W5 that way)."""
    castle = _field("castle3d")
    assert check_field(castle, "official") == []
    assert not [p for p in near_pairs(castle.blocks) if p.edge_only or p.unclear]
    assert castle.resting_on("Y5") == ("W1",) and castle.neighbours("W1") == (
        "Y5", "Y7", "R3", "B2")


def test_a_block_with_a_side_half_open_can_be_removed() -> None:
    """infinifield.md "Chase-and-capture" step 7, bullet 4 ("surrounded by other ones on all
    sides"), read as: every side covered along most of its length. On the official field W7
    has two sides half open (20 mm), so `remove Ben W7` is allowed."""
    official = _field("official")
    assert "enclosed" not in removal_refusals(official, (), ()).get("W7", ())
    assert "W7" in removable_blocks(official, removed=(), occupied=())
    assert "more than half its length" in refusal_sentence("enclosed", "Y4")
