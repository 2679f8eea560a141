"""Which blocks may be removed, and the refusal of each of the others.

Rulebook: infinifield.md "Chase-and-capture" step 7 (bullets 1-4: a block on top, a pawn on
it, removal would split the field, enclosed on all sides).
"""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.core import IllegalAction
from companion.games.infinifield import GAME
from companion.games.infinifield.field import Block, Field, build_field
from companion.games.infinifield.fieldfile import load_field_text
from companion.games.infinifield.removal import (
    cut_vertices,
    removable_blocks,
    removal_refusals,
)
from companion.resources import shipped_text
from tests.games.infinifield.helpers import PACKAGE, explicit_field, new_state, play, row


def _quickstart() -> Field:
    return load_field_text("q", shipped_text(PACKAGE, "fields/quickstart.toml")).field


def test_a_block_with_another_on_top_cannot_be_removed() -> None:
    """infinifield.md "Chase-and-capture" step 7, bullet 1: one or more blocks standing fully
    or partially on top of it."""
    field = build_field([*row("A:red", "B:red", "C:red"),
                         Block.square("T", "white", (60, 0), rests_on=("B", "C"))])
    refusals = removal_refusals(field, removed=(), occupied=())
    assert refusals["C"] == ("block_on_top",)
    assert "T" not in refusals and "A" not in refusals
    assert removable_blocks(field, removed=("T",), occupied=()) == ("A", "C")


def test_a_block_with_a_pawn_on_it_cannot_be_removed() -> None:
    """infinifield.md "Chase-and-capture" step 7, bullet 2: there is a pawn on top of it."""
    field = explicit_field({"A": "white", "B": "red", "C": "white"},
                           [("A", "B"), ("B", "C"), ("A", "C")])
    assert removal_refusals(field, removed=(), occupied=("C",)) == {"C": ("pawn_on_block",)}


def test_a_block_whose_removal_splits_the_field_cannot_be_removed() -> None:
    """infinifield.md "Chase-and-capture" step 7, bullet 3: removal would split the field into
    two or more islands (picture 5)."""
    field = build_field(row("A:white", "B:red", "C:red", "D:white"))
    assert removal_refusals(field, removed=(), occupied=()) == {
        "B": ("would_split",), "C": ("would_split",)}
    assert removal_refusals(field, removed=("A",), occupied=()) == {"C": ("would_split",)}


def test_a_block_enclosed_on_all_sides_cannot_be_removed_until_a_side_opens() -> None:
    """infinifield.md "Chase-and-capture" step 7, bullet 4: a block surrounded by other ones on
    all sides cannot be removed without shifting them. In the quick-start field the middle
    row's inner blocks are enclosed; removing a neighbour frees one."""
    field = _quickstart()
    enclosed = [b for b, codes in removal_refusals(field, (), ()).items() if "enclosed" in codes]
    assert enclosed == ["R2", "Y4", "Y5", "R3", "Y6", "R4"]
    # R2 sits between Y3 and Y4 in the middle row; Y1 and W2 of the first row each run along
    # half of its near side. With Y1 gone that side is half open: a side counts as covered
    # only along most (over half) of its length (docs/infinifield.md), so R2 can be lifted.
    assert "R2" not in removable_blocks(field, removed=(), occupied=())
    assert removal_refusals(field, removed=("Y1",), occupied=()).get("R2") is None
    assert "R2" in removable_blocks(field, removed=("Y1",), occupied=())


def test_refusals_through_the_referee_cite_the_bullet() -> None:
    """infinifield.md "Chase-and-capture" step 7: each refusal names its bullet."""
    field = _quickstart()
    state, _ = play(new_state(field), "start Ben W1", "start Ann W8", "move Ben W1 Y1",
                    "move Ann W8 R6", "move Ben Y1 W2", "move Ann R6 W8", "move Ben W2 Y1")
    expected = {"remove Ben Y1": ("pawn_on_block", "step 7, bullet 2"),
                "remove Ben Y4": ("enclosed", "step 7, bullet 4")}
    for text, (code, detail) in expected.items():
        with pytest.raises(IllegalAction) as refusal:
            GAME.apply(state, GAME.parse_action(state, text))
        assert refusal.value.code == code
        assert str(refusal.value.rule) == f'infinifield: "Chase-and-capture", {detail}'
    legal = {str(a) for a in GAME.legal_actions(state)}
    assert "remove Ben W1" in legal and "remove Ben Y4" not in legal


def test_the_split_refusal_through_the_referee() -> None:
    """infinifield.md "Chase-and-capture" step 7, bullet 3: through the referee, with a reason."""
    field = explicit_field({"W1": "white", "Y1": "yellow", "R1": "red", "Y2": "yellow",
                            "W2": "white", "B1": "blue"},
                           [("W1", "Y1"), ("Y1", "R1"), ("R1", "Y2"), ("Y2", "W2"),
                            ("W2", "B1"), ("B1", "W1")])
    state, _ = play(new_state(field), "start Ben W1", "start Ann W2", "move Ben W1 Y1",
                    "move Ann W2 Y2", "move Ben Y1 W1", "move Ann Y2 W2", "move Ben W1 Y1",
                    "remove Ben B1", "move Ann W2 Y2", "move Ben Y1 W1", "move Ann Y2 R1",
                    "move Ben W1 Y1", "move Ann R1 Y2")
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, GAME.parse_action(state, "remove Ann R1"))
    assert refusal.value.code == "would_split"
    assert refusal.value.reason == "Removing R1 would split the field into disconnected islands."


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=40).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.tuples(st.integers(0, n - 1),
                                                       st.integers(0, n - 1)), max_size=3 * n),
                        st.lists(st.booleans(), min_size=n, max_size=n))))
def test_cut_vertices_agree_with_networkx(case: tuple[int, list[tuple[int, int]],
                                                      list[bool]]) -> None:
    """infinifield.md "Chase-and-capture" step 7, bullet 3: "would split the field" is exactly
    an articulation point of the touching graph (checked against networkx on random graphs,
    with some blocks already removed)."""
    n, edges, present = case
    simple = {(min(a, b), max(a, b)) for a, b in edges if a != b}
    adjacency: list[list[int]] = [[] for _ in range(n)]
    for a, b in simple:
        adjacency[a].append(b)
        adjacency[b].append(a)
    graph = nx.Graph()
    graph.add_nodes_from(i for i in range(n) if present[i])
    graph.add_edges_from((a, b) for a, b in simple if present[a] and present[b])
    expected = set(nx.articulation_points(graph))
    found = cut_vertices(adjacency, present)
    assert {i for i in range(n) if found[i]} == expected


def test_the_block_on_top_refusal_through_the_referee() -> None:
    """infinifield.md "Chase-and-capture" step 7, bullet 1: through the referee, with a reason;
    the block resting on top may go first."""
    field = explicit_field({"W1": "white", "Y1": "yellow", "W2": "white", "Y2": "yellow",
                            "W3": "white", "R1": "red", "R2": "red"},
                           [("W1", "Y1"), ("Y1", "W2"), ("W2", "Y2"), ("Y2", "W3"),
                            ("W3", "R1"), ("R1", "W1")], rests_on={"R2": ("Y2",)})
    state, _ = play(new_state(field), "start Ben W1", "start Ann W2", "move Ben W1 R1",
                    "move Ann W2 Y1", "move Ben R1 W1", "move Ann Y1 W2", "move Ben W1 R1")
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, GAME.parse_action(state, "remove Ben Y2"))
    assert refusal.value.code == "block_on_top"
    assert refusal.value.reason == "A block stands on top of Y2, so Y2 cannot be removed."
    assert str(refusal.value.rule) == 'infinifield: "Chase-and-capture", step 7, bullet 1'
    state, _ = play(state, "remove Ben R2")
    assert "remove Ann Y2" not in [str(a) for a in GAME.legal_actions(state)]
    assert "Y2" in removable_blocks(field, removed=("R2",), occupied=("R1", "W2"))
