"""From still camera views to actions the engine accepts or refuses (issue 7, "Tracking").

Rules exercised: infinifield.md "Select starting positions" step 2 (a pawn on a white
block), "Chase-and-capture" step 6 (a move to a touching block; capture) and step 7 (every
5 turns a block is removed; illegal removals are refused).
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.infinifield import load_field_text
from companion.games.registry import load_game
from companion.session import Session
from vision.calibration import calibrate
from vision.layout import TableLayout
from vision.observe import observe
from vision.readers.infinifield import check_observed_field, field_toml, observed_field
from vision.render import BlockSpec, FieldSpec, SceneSpec, render_scene
from vision.stability import StabilityDetector
from vision.watcher import TableWatcher

SIDE = TableLayout().block_mm
GRID = [["W1", "Y1", "R1", "W2"],
        ["Y2", "B1", "Y3", "R2"]]
COLOURS = {"W": "white", "Y": "yellow", "R": "red", "B": "blue"}


def _field() -> FieldSpec:
    blocks = []
    for r, row in enumerate(GRID):
        for c, block_id in enumerate(row):
            blocks.append(BlockSpec(block_id, COLOURS[block_id[0]],
                                    (230.0 + c * (SIDE + 1.0), 190.0 + r * (SIDE + 1.0))))
    return FieldSpec(tuple(blocks))


def _frame(field: FieldSpec, hand: bool = False) -> np.ndarray:
    return render_scene(SceneSpec(seed=21, field=field, hand=hand)).image


def _feed(watcher: TableWatcher, frame: np.ndarray) -> list[tuple[str, bool]]:
    proposed = []
    for _ in range(watcher.stability.still_frames + 1):
        report = watcher.feed(frame)
        proposed += [(c.text, v.legal) for c, v in report.proposed]
    return proposed


@pytest.fixture()
def table() -> tuple[TableWatcher, Session, list[str]]:
    frame = _frame(_field())
    calib = calibrate(frame)
    obs = observe(frame, calib)
    text = field_toml(obs)
    session = Session.new(load_game("infinifield"), {"setup": ("camera.toml", text)},
                          {"players": ["Ann", "Ben"]}, seed=1)
    events: list[str] = []
    session.bus.subscribe(lambda e: events.append(e.kind))
    return TableWatcher(session, calib, stability=StabilityDetector(still_frames=2)), \
        session, events


def test_field_from_one_photo_keeps_the_drawn_ids_and_touching() -> None:
    frame = _frame(_field())
    obs = observe(frame, calibrate(frame))
    field = load_field_text("camera.toml", field_toml(obs)).field
    assert sorted(b.id for b in field.blocks) == sorted(i for row in GRID for i in row)
    assert set(field.neighbours("B1")) == {"Y1", "Y2", "Y3", "W1", "R1"}
    assert observed_field(obs).touching == field.touching


def test_engine_checks_the_photographed_field() -> None:
    """infinifield.md "Official field-building rules" bullet 5: each white block must touch
    at least two coloured blocks but no other white block."""
    frame = _frame(_field())
    good = check_observed_field(observe(frame, calibrate(frame)), "official")
    assert good == []
    bad = FieldSpec((*_field().blocks,
                     BlockSpec("W3", "white", (230.0 + 4 * (SIDE + 1), 190.0))))
    frame = _frame(bad)
    codes = {v.code for v in check_observed_field(observe(frame, calibrate(frame)), "official")}
    assert "white_touches_white" in codes


def test_pawns_placed_then_moved_become_start_and_move_actions(table) -> None:
    """infinifield.md "Select starting positions" step 2 and "Chase-and-capture" step 6."""
    watcher, session, _events = table
    first, second = session.state.to_act, None
    field = _field().with_pawn_on("green", "W1")
    assert _feed(watcher, _frame(field)) == [(f"start {first} W1", True)]
    second = session.state.to_act
    field = field.with_pawn_on("magenta", "W2")
    assert _feed(watcher, _frame(field)) == [(f"start {second} W2", True)]
    assert watcher.owners == {"green": first, "magenta": second}
    mover = session.state.to_act
    colour = "green" if mover == first else "magenta"
    origin = session.state.pawn_of(mover)
    target = "Y1" if origin == "W1" else "R1"
    field = field.with_pawn_on(colour, target)
    assert _feed(watcher, _frame(field)) == [(f"move {mover} {origin} {target}", True)]
    assert session.history[-1] == f"move {mover} {origin} {target}"


def test_illegal_move_is_refused_once_with_the_illegal_event(table) -> None:
    """infinifield.md "Chase-and-capture" step 6: only to a block that touches."""
    watcher, session, events = table
    field = _field().with_pawn_on("green", "W1")
    _feed(watcher, _frame(field))
    field = field.with_pawn_on("magenta", "W2")
    _feed(watcher, _frame(field))
    mover = session.state.to_act
    colour = next(c for c, p in watcher.owners.items() if p == mover)
    origin = session.state.pawn_of(mover)
    far = "R2" if origin == "W1" else "Y2"
    jumped = field.with_pawn_on(colour, far)
    proposed = _feed(watcher, _frame(jumped))
    assert proposed == [(f"move {mover} {origin} {far}", False)]
    assert events[-1] == "illegal"
    assert _feed(watcher, _frame(jumped)) == []      # not buzzed again for the same view
    assert session.state.pawn_of(mover) == origin


def test_block_taken_out_of_turn_is_refused(table) -> None:
    """infinifield.md "Chase-and-capture" step 7: a block is removed only every 5 turns."""
    watcher, session, events = table
    field = _field().with_pawn_on("green", "W1")
    _feed(watcher, _frame(field))
    field = field.with_pawn_on("magenta", "W2").without_block("Y2")
    proposed = _feed(watcher, _frame(field))
    assert proposed[0][1] is True
    assert proposed[1] == (f"remove {session.state.to_act} Y2", False)
    assert events[-1] == "illegal"


def test_hands_over_the_table_hold_the_proposal_back(table) -> None:
    watcher, session, _events = table
    field = _field().with_pawn_on("green", "W1")
    assert _feed(watcher, _frame(field, hand=True)) == []
    assert session.history == []
