"""Simulated hardware for a laptop.

The LED ring, status light and buzzer on screen, the replayed camera feed, and
tap-to-simulate NFC cards.

The LEDs and buzzer follow the same events the real devices do (see
:mod:`companion.app.simulated_outputs`). A simulated NFC tap or camera observation goes
through the same door as the real sensors: posted to the main loop, then proposed to the
session, which decides.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.app.kvload import load_kv_beside
from companion.app.widgets import led_ring as _led_ring  # noqa: F401  (kv rules)


class SimulationScreen(Screen):
    """The simulated outputs and inputs.

    Attributes:
        buzz_text: the last buzzer pattern, as shown.
        camera_text: what the camera panel says (source, frames).
    """

    buzz_text = StringProperty("")
    camera_text = StringProperty("")

    def on_kv_post(self, base_widget: Any) -> None:
        """Redraw whenever something changes at the table."""
        App.get_running_app().bind(revision=lambda *_: self.refresh())

    def on_pre_enter(self, *_args: Any) -> None:
        """Redraw before showing."""
        self.refresh()

    def refresh(self) -> None:
        """Copy the simulated outputs' state into the widgets."""
        app = App.get_running_app()
        outputs = app.outputs
        self.ids.ring.states = list(outputs.ring)
        self.ids.status_light.state_name = outputs.status
        if outputs.buzz is None:
            self.buzz_text = app.tr("sim.buzzer_quiet")
        else:
            self.buzz_text = app.tr("sim.buzzer_played", pattern=app.tr(f"buzz.{outputs.buzz}"),
                                    count=outputs.buzz_count)


load_kv_beside(__file__)
