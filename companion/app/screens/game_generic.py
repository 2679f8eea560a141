"""The referee screen of a game without a dedicated one: its state as text, and its actions.

Every engine gets a usable screen the moment it lands; a dedicated screen replaces this one
by being there: ``companion/app/screens/<package>.py`` defining one ``RefereeScreen``
subclass (:func:`companion.app.application.game_screen_class`).
"""

from __future__ import annotations

import json
from typing import Any

from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.app.kvload import load_kv_beside
from companion.app.screens.referee import RefereeScreen
from companion.session import Session


def state_lines(data: Any, prefix: str = "", limit: int = 40) -> list[str]:
    """The state's JSON as short ``key: value`` lines (nested keys joined with dots).

    Example:
        >>> state_lines({"pile": 3, "players": {"Ann": {"hp": 2}}})
        ['pile: 3', 'players.Ann.hp: 2']
    """
    lines: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            lines.extend(state_lines(value, f"{prefix}{key}.", limit))
    else:
        text = json.dumps(data, ensure_ascii=False)
        lines.append(f"{prefix[:-1]}: {text if len(text) < 70 else text[:67] + '...'}")
    return lines[:limit]


class StateBoard(BoxLayout):
    """The state of any game, as readable lines."""

    text = StringProperty("")

    def refresh(self, session: Session) -> None:
        """Show the session's current state."""
        self.text = "\n".join(state_lines(session.game.state_to_json(session.state)))


class GenericGameScreen(RefereeScreen):
    """State on the left, actions on the right."""


load_kv_beside(__file__)
