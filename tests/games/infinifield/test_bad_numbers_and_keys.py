"""Bad numbers and misspelt keys in a field file or the options: a clear SetupError, no crash.

Rulebook: infinifield.md "Build the field" step 1 (the builder arranges the blocks: the file
must describe a field the referee can picture). Issue 14: NaN or infinity in ``at`` or
``block_size`` crashed; unknown keys are refused naming the closest valid one.
"""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinifield import GAME
from companion.games.infinifield.fieldfile import load_field_text

ONE = 'blocks = [{{ id = "W1", colour = "white", {extra} }}]\n'


@pytest.mark.parametrize(("text", "where"), [
    (ONE.format(extra="at = [nan, 0]"), "blocks[1] (W1).at"),
    (ONE.format(extra="at = [0, inf]"), "blocks[1] (W1).at"),
    (ONE.format(extra="at = [0, 0], size = [-inf, 40]"), "blocks[1] (W1).size"),
    (ONE.format(extra="at = [0, 0], angle = nan"), "blocks[1] (W1).angle"),
    (ONE.format(extra="at = [0, 0], height = inf"), "blocks[1] (W1).height"),
    (ONE.format(extra="footprint = [[0, 0], [nan, 0], [1, 1]]"),
     "blocks[1] (W1).footprint[2]"),
    ('[field]\nblock_size = [nan, 40]\n[[blocks]]\nid = "W1"\ncolour = "white"\nat = [0, 0]\n',
     "field.block_size"),
    ('[field]\npawn_diameter = inf\n[[blocks]]\nid = "W1"\ncolour = "white"\nat = [0, 0]\n',
     "field.pawn_diameter"),
])
def test_nan_and_infinity_are_refused_naming_the_key(text: str, where: str) -> None:
    """infinifield.md "Build the field" step 1: a block placed at NaN cannot be pictured."""
    with pytest.raises(SetupError) as caught:
        load_field_text("bad.toml", text)
    assert caught.value.where == where
    assert "finite number" in caught.value.problem


@pytest.mark.parametrize(("text", "where", "guess"), [
    (ONE.format(extra="at = [0, 0], hieght = 30"), "blocks[1].hieght", "height"),
    ('[field]\nnmae = "x"\n[[blocks]]\nid = "W1"\ncolour = "white"\nat = [0, 0]\n',
     "field.nmae", "name"),
    ('[match]\nplayer = ["A", "B"]\n[[blocks]]\nid = "W1"\ncolour = "white"\nat = [0, 0]\n',
     "match.player", "players"),
    ('blokcs = []\n[[blocks]]\nid = "W1"\ncolour = "white"\nat = [0, 0]\n', "blokcs",
     "blocks"),
])
def test_unknown_keys_name_the_closest_valid_key(text: str, where: str, guess: str) -> None:
    """infinifield.md "Build the field" step 1: a misspelt key is refused, not ignored."""
    with pytest.raises(SetupError) as caught:
        load_field_text("bad.toml", text)
    assert caught.value.where == where
    assert f"did you mean {guess!r}" in caught.value.problem


def test_a_misspelt_option_names_the_closest_option() -> None:
    """infinifield.md "Scoring": ``scorign`` is not silently ignored (points vs rounds)."""
    text = ('[[blocks]]\nid = "W1"\ncolour = "white"\nat = [0, 0]\n'
            '[[blocks]]\nid = "W2"\ncolour = "white"\nat = [100, 0]\n')
    with pytest.raises(SetupError) as caught:
        GAME.load_setup({"setup": ("f.toml", text)},
                        {"players": ["Ann", "Ben"], "scorign": "rounds"})
    assert caught.value.where == "scorign"
    assert "unknown option; did you mean 'scoring'" in caught.value.problem
