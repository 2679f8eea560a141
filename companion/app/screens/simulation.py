"""Simulated hardware for a laptop.

The LED ring, status light and buzzer on screen, the replayed camera feed, and
tap-to-simulate NFC cards. The LEDs and buzzer follow the same events the real devices do
(see :mod:`companion.app.simulated_outputs`). A simulated NFC tap goes through the same
door as the real reader: a thread posts it to the main loop, where the bridge's tap handler
proposes the action and the session decides.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.app.camera_replay import CameraReplay, sample_footage
from companion.app.camera_watch import sample_game_sources
from companion.app.kvload import load_kv_beside
from companion.app.widgets import led_ring as _led_ring  # noqa: F401  (kv rules)
from companion.app.widgets.common import BigButton

CAMERA_FPS = 4


class SimulationScreen(Screen):
    """The simulated outputs and inputs.

    Attributes:
        buzz_text: the last buzzer pattern, as shown.
        camera_text: what the camera panel says (source, frames).
        nfc_note: what the last simulated tap did, when it proposed nothing.
    """

    buzz_text = StringProperty("")
    camera_text = StringProperty("")
    nfc_note = StringProperty("")

    watching = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.replay: CameraReplay | None = None
        self._camera_event: Any = None

    def on_kv_post(self, base_widget: Any) -> None:
        """Redraw whenever something changes at the table."""
        App.get_running_app().bind(revision=lambda *_: self.refresh())

    def on_pre_enter(self, *_args: Any) -> None:
        """Redraw and start the camera replay."""
        self.refresh()
        if self.replay is None:
            self.replay = CameraReplay(sample_footage())
        self.show_next_frame()
        self._camera_event = Clock.schedule_interval(lambda _dt: self.show_next_frame(),
                                                     1 / CAMERA_FPS)

    def on_leave(self, *_args: Any) -> None:
        """Stop the replay while the panel is hidden (no work when nobody looks)."""
        if self._camera_event is not None:
            self._camera_event.cancel()
            self._camera_event = None

    def play_recording(self) -> None:
        """Start the recorded Infinifield game and let the camera referee it from the footage.

        The footage's field becomes a new game; each still view the camera sees is proposed
        to the session exactly as the Pi camera's would be.
        """
        app = App.get_running_app()
        sources = sample_game_sources()
        footage = sample_footage()
        if sources is None or footage is None:
            self.camera_text = app.tr("sim.camera_none")
            return
        app.table.start_from("infinifield", sources, seed=app.options.seed)
        app.outputs.reset()
        if self.replay is not None:
            self.replay.close()
        self.replay = CameraReplay(footage, loop=False)
        self.watching = True

    def show_next_frame(self) -> None:
        """Show the next replayed frame (and let the camera watch it when playing a game)."""
        app = App.get_running_app()
        if app is None:
            return
        camera_frame = self.replay.next_camera_frame() if self.replay is not None else None
        if camera_frame is None and self.watching:
            self.watching = False
            self.replay = CameraReplay(sample_footage())
            camera_frame = self.replay.next_camera_frame()
        elif camera_frame is not None and self.watching:
            app.camera_watch.feed(camera_frame)
        frame = None if camera_frame is None or self.replay is None \
            else self.replay.for_screen(camera_frame)
        if frame is None or self.replay is None or self.replay.source is None:
            self.camera_text = app.tr("sim.camera_none")
            return
        height, width = frame.shape[:2]
        texture = self.ids.camera.texture
        if texture is None or tuple(texture.size) != (width, height):
            texture = Texture.create(size=(width, height), colorfmt="rgb")
            texture.flip_vertical()
        texture.blit_buffer(frame.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.ids.camera.texture = texture
        self.ids.camera.canvas.ask_update()
        self.camera_text = app.tr("sim.camera_frames", source=self.replay.source.name,
                                  frame=self.replay.frames_read)
        if self.watching:
            self.camera_text += "  ·  " + app.tr("sim.camera_sees", status=app.camera_watch.status)

    def refresh(self) -> None:
        """Copy the simulated outputs' state into the widgets."""
        if self.manager is None or self.manager.current != self.name:
            return
        app = App.get_running_app()
        outputs = app.outputs
        self.ids.ring.states = list(outputs.ring)
        self.ids.status_light.state_name = outputs.status
        if outputs.buzz is None:
            self.buzz_text = app.tr("sim.buzzer_quiet")
        else:
            patterns = ", ".join(app.tr(f"buzz.{name}") for name in outputs.recent)
            self.buzz_text = app.tr("sim.buzzer_played", pattern=patterns,
                                    count=outputs.buzz_count)
        self._fill_cards(app)

    def _fill_cards(self, app: Any) -> None:
        grid = self.ids.nfc_cards
        grid.clear_widgets()
        last = app.nfc.last
        self.nfc_note = last.note if last is not None and last.verdict is None else ""
        if last is not None and last.choices:
            for choice in last.choices[:6]:
                button = BigButton(text=choice, action=choice, font_size="15sp")
                button.bind(on_release=lambda b: app.nfc.choose(b.action))
                grid.add_widget(button)
            return
        for card in app.nfc.simulated_cards():
            button = BigButton(text=card, action=card, font_size="16sp", height=50)
            button.bind(on_release=lambda b: app.nfc.simulate_tap(b.action))
            grid.add_widget(button)


load_kv_beside(__file__)
