"""The test kit every game's tests share: play notation, read events, catch refusals.

One shape for all five games (issue 16): ``play`` returns ``(state, events)``, ``kinds`` the
event kinds in order, ``refusal`` the :class:`IllegalAction` an action gets (failing the
test when it is accepted), and ``notation_error`` the :class:`NotationError` of text that is
not an action. Each game's ``helpers.py`` binds these to its ``GAME`` with
:func:`functools.partial` and adds only the builders that game needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.core import Event, Game, IllegalAction, NotationError

AnyGame = Game[Any, Any, Any]


def play(game: AnyGame, state: Any, *texts: str) -> tuple[Any, list[Event]]:
    """Apply actions written in the game's notation, in order.

    Returns:
        The final state and every event the actions caused, in order.
    """
    transition = game.play(state, *texts)
    return transition.state, list(transition.events)


def kinds(events: Iterable[Event]) -> list[str]:
    """The kinds of ``events``, in order."""
    return [event.kind for event in events]


def refusal(game: AnyGame, state: Any, text: str) -> IllegalAction:
    """The refusal of the action ``text`` (fails the test when the action is accepted)."""
    try:
        game.apply(state, game.parse_action(state, text))
    except IllegalAction as error:
        return error
    raise AssertionError(f"{text!r} was accepted")


def notation_error(game: AnyGame, state: Any, text: str) -> NotationError:
    """The :class:`NotationError` of ``text`` (fails the test when it reads as an action)."""
    try:
        action = game.parse_action(state, text)
    except NotationError as error:
        return error
    raise AssertionError(f"{text!r} was read as the action {action}")
