"""The Infinidungeon notation (docs/infinidungeon.md, DESIGN.md "Notation")."""

from __future__ import annotations

import pytest

from companion.games.core import NotationError
from companion.games.infinidungeon import GAME
from companion.games.infinidungeon.actions import Assign, Go, Reroll, Roll, Shuffle, Vault
from companion.games.infinidungeon.state import Phase
from tests.games.infinidungeon.helpers import at

HALL = at("hall", phase=Phase.FIGHT_REROLL, rolled=(5, 1, 2, 2, 2), pile=("spring",))


@pytest.mark.parametrize(("text", "action", "printed"), [
    ("go north", Go("north"), "go north"),
    ("GO w", Go("west"), "go west"),
    ("roll 3 5 6 1 2", Roll((3, 5, 6, 1, 2)), "roll 3 5 6 1 2"),
    ("reroll 1 2 -> 4 6", Reroll((1, 2), (4, 6)), "reroll 1 2 -> 4 6"),
    ("reroll 2 1->6 4", Reroll((1, 2), (4, 6)), "reroll 1 2 -> 4 6"),
    ("reroll 3 1", Reroll((1, 3)), "reroll 1 3"),
    ("reroll NONE", Reroll(()), "reroll none"),
    ("assign 5:GHOST 1:slime", Assign(((1, "slime"), (5, "ghost"))), "assign 1:slime 5:ghost"),
    ("assign none", Assign(()), "assign none"),
    ("shuffle DEN hall", Shuffle(("den", "hall")), "shuffle den hall"),
    ("use vault", Vault(True), "use vault"),
    ("Skip Vault", Vault(False), "skip vault"),
])
def test_actions_read_case_insensitively_and_print_back_canonically(text, action, printed):
    """DESIGN.md "Notation": a lowercase verb then arguments; str(action) reads back."""
    parsed = GAME.parse_action(HALL, text)
    assert parsed == action
    assert str(parsed) == printed
    assert GAME.parse_action(HALL, printed) == parsed


@pytest.mark.parametrize(("text", "problem"), [
    ("", "empty action"),
    ("fly north", "expected go, roll"),
    ("go up", "one direction"),
    ("roll 7 1", "'7' is not a die face"),
    ("roll", "needs the dice values"),
    ("reroll 1 1", "named twice"),
    ("reroll 1 2 -> 4", "2 dice rerolled but 1 value given"),
    ("reroll x", "die positions"),
    ("assign 4goblin", "is not face:monster"),
])
def test_text_that_is_not_an_action_says_what_is_wrong(text: str, problem: str) -> None:
    """DESIGN.md "Notation": invalid text is a NotationError with the problem, not a refusal."""
    with pytest.raises(NotationError) as error:
        GAME.parse_action(HALL, text)
    assert problem in error.value.problem
