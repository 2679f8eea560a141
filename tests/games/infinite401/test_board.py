"""Board files: the shipped default board and the checker's refusals."""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinite401.board import load_board, parse_space, space_name
from companion.games.infinite401.geometry import line_cells
from companion.resources import shipped_text
from tests.games.infinite401.helpers import OPEN_MAP, board_toml

DEFAULT = shipped_text("companion.games.infinite401", "boards/default.toml")


def test_default_board_has_token_on_a_spawner_and_a_base_per_side() -> None:
    """401-infinite.md "THE HP TOKEN" (token moves between two Spawners) and "Runner's Rule"
    (each side has a Base): the default board is consistent with them."""
    board = load_board("default.toml", DEFAULT)
    assert board.token_start in board.spawners
    assert len(set(board.spawners)) == 2
    assert all(len(board.bases[side]) >= 3 for side in ("blue", "red"))
    assert not board.bases["blue"] & board.bases["red"]
    units = {name: (side, space) for name, side, space in board.units}
    assert sorted(units) == ["B1", "B2", "B3", "R1", "R2", "R3"]
    assert all(space in board.bases[side] for side, space in units.values())


def test_default_board_walls_block_a_line_between_the_spawners_rows() -> None:
    """401-infinite.md "TECHNICALITIES" "Straight Line To Target": the default board has walls
    that cut lines, e.g. from b5 straight up the b column."""
    board = load_board("default.toml", DEFAULT)
    crossed = line_cells(parse_space("b5") or (0, 0), parse_space("b8") or (0, 0))
    assert any(cell in board.walls for cell in crossed)


def test_rows_count_from_the_bottom_of_the_map() -> None:
    """docs/401-infinite.md "Board files": the first map line is the top row."""
    board = load_board("b.toml", board_toml())
    assert space_name(board.spawners[0]) == "a4"
    assert parse_space("c4") in board.walls
    assert board.forward("blue") == 1 and board.forward("red") == -1


@pytest.mark.parametrize(("change", "where", "words"), [
    (lambda t: t.replace(". . . . . . .\nS", ". . . . . .\nS", 1), "map line 3", "rectangle"),
    (lambda t: t.replace("S . # .", "S . X .", 1), "map line 4", "unknown character 'X'"),
    (lambda t: t.replace("# . S", "# . .", 1), "map", "two spawners"),
    (lambda t: t.replace('token = "a4"', 'token = "b4"'), "token", "not a spawner"),
    (lambda t: t.replace('B1 = "c1"', 'B1 = "c2"'), "units.blue.B1", "not a blue base space"),
    (lambda t: t.replace('R3 = "e7"', 'b1 = "e7"'), "units.red.b1", "unique"),
    (lambda t: t.replace('B2 = "d1"', 'B2 = "c1"'), "units.blue.B2", "One Object One Space"),
    (lambda t: t.replace('B3 = "e1"\n', ''), "units.blue", "exactly 3 units"),
    (lambda t: t.replace(". . R R R", ". # R R R").replace(". . . . . . .", "# . . . . . .", 1),
     "map", "a7 cannot be reached"),
    (lambda t: t + '[field]\nblue = "south"\nred = "south"\n', "field", "opposite edges"),
    (lambda t: t.replace("R R R", ". R R"), "map", "red base needs at least 3"),
])
def test_the_board_checker_names_the_file_the_place_and_the_problem(change, where,
                                                                    words) -> None:
    """docs/401-infinite.md "Board files": every rule of the format is checked and a bad file
    is refused with the file name, the key or map line, and what is wrong."""
    with pytest.raises(SetupError) as error:
        load_board("bad-board.toml", change(board_toml(OPEN_MAP)))
    assert error.value.source == "bad-board.toml"
    assert error.value.where == where
    assert words in error.value.problem


def test_a_file_that_is_not_toml_is_refused_with_its_name() -> None:
    """docs/401-infinite.md "Board files": the file is TOML."""
    with pytest.raises(SetupError, match=r"broken\.toml: line 2: not valid TOML"):
        load_board("broken.toml", "map = '''\n. .")


def test_the_setup_needs_both_files_a_known_start_and_enough_cards() -> None:
    """401-infinite.md "STARTING THE GAME": Competitor's Start selects 8 Ability Cards and 1
    Passive, so a card file without them cannot be used for it."""
    from companion.games.infinite401 import GAME
    from tests.games.infinite401.helpers import DEFAULT_CARDS

    board = ("b.toml", board_toml())
    with pytest.raises(SetupError, match="no cards file"):
        GAME.load_setup({"board": board}, {})
    with pytest.raises(SetupError, match="not quick or competitor"):
        GAME.load_setup({"board": board, "cards": ("c.toml", DEFAULT_CARDS)},
                        {"start": "fast"})
    few = DEFAULT_CARDS.split("[[passives]]")[0]
    with pytest.raises(SetupError, match="1 passive for Competitor's Start") as error:
        GAME.load_setup({"board": board, "cards": ("few.toml", few)}, {"start": "competitor"})
    assert error.value.source == "few.toml"
    assert GAME.load_setup({"board": board, "cards": ("few.toml", few)}, {}).start == "quick"


def test_the_docstring_examples_use_the_shipped_cards() -> None:
    """The example position's card text is a copy of cards/default.toml; it must not drift."""
    from companion.games.infinite401.cardset import load_cards
    from companion.games.infinite401.examples import EXAMPLE_CARDS_TOML
    from tests.games.infinite401.helpers import DEFAULT_CARDS

    assert load_cards("a", EXAMPLE_CARDS_TOML) == load_cards("b", DEFAULT_CARDS)
