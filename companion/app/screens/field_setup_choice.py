"""The buttons that read an Infinifield field from the camera (issue 12), kept light.

On the new-game screen (built at start-up: this module imports no OpenCV), the layout
"read the field from the camera" and Start open
:class:`companion.app.screens.field_setup.FieldSetupScreen` (built then, through the app's
screen table) with the players and options chosen. When a round ends, "read the new field
from the camera" opens it for the next builder's field, which goes to the engine as the
``rebuild`` action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.app import App

from companion.app.widgets.common import BigButton

CAMERA_LAYOUT = "camera"
"""The new-game layout that opens the set-up screen instead of a shipped field."""
CAMERA_GAMES = frozenset({"infinifield"})
"""Games whose field can be read from the camera."""


def camera_layout_button(screen: Any) -> BigButton | None:
    """The "read the field from the camera" choice beside the new-game screen's layouts.

    ``None`` for a game whose field the camera cannot read.
    """
    if screen.game not in CAMERA_GAMES:
        return None
    app = App.get_running_app()
    button = BigButton(text=app.translator.label(f"setup.{screen.game}.{CAMERA_LAYOUT}",
                                                 CAMERA_LAYOUT),
                       action=CAMERA_LAYOUT, selected=screen.layout == CAMERA_LAYOUT)
    button.bind(on_release=lambda b: screen.set_layout(b.action))
    return button


def open_field_setup(game: str, players: list[str] | None, chosen: Mapping[str, Any]) -> None:
    """Show the set-up screen for a new game of ``game`` and read the field."""
    app = App.get_running_app()
    screen = app.screen("field_setup")
    screen.prepare(game, players, dict(chosen))
    app.go("field_setup")
    screen.read()


def rebuild_camera_button(builder: str) -> BigButton:
    """The round-end panel's "read the new field from the camera" for ``builder``."""
    app = App.get_running_app()
    button = BigButton(text=app.tr("fieldsetup.rebuild", builder=builder),
                       action=f"camera:{builder}", fill=(0.22, 0.36, 0.52, 1))
    button.bind(on_release=lambda _b: open_field_rebuild(builder))
    return button


def open_field_rebuild(builder: str) -> None:
    """Show the set-up screen for the field ``builder`` laid out for the next round."""
    app = App.get_running_app()
    screen = app.screen("field_setup")
    screen.prepare_rebuild(builder)
    app.go("field_setup")
    app.banner.hide()  # the last move's verdict belongs with the game
    screen.read()
