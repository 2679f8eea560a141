"""The shared Infinity screen shows nothing of a trooper in Hidden Deployment (no Kivy).

Rulebook: infinity-n3-intro.md "OPEN AND PRIVATE INFORMATION" (Private Information stays
secret until a game event discloses it); issue 17: the screen said "+1 in Hidden Deployment".
"""

from __future__ import annotations

import dataclasses

from companion.app.views.infinity_view import infinity_view
from tests.games.infinity.helpers import new_state, play


def test_a_hidden_trooper_is_neither_named_nor_counted() -> None:
    """infinity-n3-intro.md "OPEN AND PRIVATE INFORMATION": Spektr deploys hidden (DUEL)."""
    view = infinity_view(new_state())
    assert [t.name for t in view.troopers if t.owner == "Ben"] == ["Grenzer", "Daturazi"]
    shown = repr(dataclasses.astuple(view))
    assert "Spektr" not in shown and "idden" not in shown
    assert view.players == ("Ann", "Ben")


def test_a_revealed_trooper_appears() -> None:
    """infinity-n3-intro.md "OPEN AND PRIVATE INFORMATION": once it acts it is on the table."""
    state, _ = play(new_state(), "end Ann", "shoot Ben Spektr combi_rifle Fusilier@12")
    assert "Spektr" in [t.name for t in infinity_view(state).troopers]
