"""Stacked blocks follow the engine's bookkeeping (issue 7, "Tracking": stacks are hard to
see from above). Rule: infinifield.md "Chase-and-capture" step 7 (removing a block)."""

from __future__ import annotations

from companion.games.registry import load_game
from vision.calibration import calibrate
from vision.layout import TableLayout
from vision.observe import observe
from vision.render import BlockSpec, FieldSpec, SceneSpec, render_scene
from vision.tracker import candidate_actions

SIDE = TableLayout().block_mm
ROW = [("W1", "white"), ("Y1", "yellow"), ("R1", "red"), ("W2", "white")]
BRIDGE_X = 250 + 1.5 * (SIDE + 1)
"""B1 bridges Y1 and R1, half on each, leaving room for a pawn on both."""


def _setup() -> str:
    lines = ['[match]', 'players = ["Ann", "Ben"]', '', '[field]', 'block_size = [40, 40]', '']
    for c, (block_id, colour) in enumerate(ROW):
        lines += ["[[blocks]]", f'id = "{block_id}"', f'colour = "{colour}"',
                  f"at = [{250 + c * (SIDE + 1):.1f}, 200.0]", ""]
    lines += ["[[blocks]]", 'id = "B1"', 'colour = "blue"', f"at = [{BRIDGE_X:.1f}, 200.0]",
              'rests_on = ["Y1", "R1"]', ""]
    return "\n".join(lines)


def _frame(with_top: bool):
    blocks = [BlockSpec(block_id, colour, (250 + c * (SIDE + 1), 200.0))
              for c, (block_id, colour) in enumerate(ROW)]
    if with_top:
        blocks.append(BlockSpec("B1", "blue", (BRIDGE_X, 200.0)))
    return render_scene(SceneSpec(seed=41, field=FieldSpec(tuple(blocks)))).image


def test_a_covered_block_is_not_expected_and_the_top_one_is_tracked() -> None:
    game = load_game("infinifield")
    state = game.initial_state(game.load_setup({"setup": ("stack.toml", _setup())}, {}))
    frame = _frame(with_top=True)
    obs = observe(frame, calibrate(frame))
    assert "blue" in [b.colour for b in obs.blocks]
    assert candidate_actions(state, obs, {}) == []                 # Y1, R1 half hidden: fine


def test_top_block_taken_off_is_a_removal_of_the_top_block_only() -> None:
    game = load_game("infinifield")
    state = game.initial_state(game.load_setup({"setup": ("stack.toml", _setup())}, {}))
    frame = _frame(with_top=False)
    obs = observe(frame, calibrate(frame))
    texts = [c.text for c in candidate_actions(state, obs, {})]
    assert texts == [f"remove {state.to_act} B1"]
    after = state.evolve(removed=("B1",))
    assert candidate_actions(after, obs, {}) == []                 # Y1 seen again, as expected
