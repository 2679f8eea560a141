"""The simulation: the table's hardware on screen, for a laptop.

The LED ring, the status light (labelled with what it says) and the buzzer (its last sound
said in words), the replayed camera feed, and tap-to-simulate NFC cards, in three columns
so the camera picture keeps its size whatever the cards. "Play recorded game" asks before
it replaces a game in progress (which stays among the unfinished games).

The LEDs and buzzer follow the same events the real devices do
(see :mod:`companion.app.simulated_outputs`). A simulated NFC tap goes through the same
door as the real reader: a thread posts it to the main loop, where the bridge's tap handler
proposes the action and the session decides.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.app.application import give_back_memory
from companion.app.camera_replay import HOLD_FRAMES, CameraReplay, sample_footage
from companion.app.camera_watch import sample_game_sources
from companion.app.kvload import load_kv_beside
from companion.app.widgets import led_ring as _led_ring  # noqa: F401  (kv rules)
from companion.app.widgets.common import BigButton

CAMERA_FPS = 4


class PictureReplay:
    """The recorded footage (a folder of pictures) looped with Kivy's own image loader.

    Showing it needs no OpenCV, so a look at the panel costs little memory. The camera
    itself (refereeing the recorded game) reads it through
    :class:`~companion.app.camera_replay.CameraReplay`.

    Attributes:
        source: the footage folder.
        frames_read: frames shown so far.
    """

    PICTURES = (".jpg", ".jpeg", ".png")

    def __init__(self, source: Path | None) -> None:
        self.source = source
        self.frames_read = 0
        self._files = sorted(p for p in source.iterdir() if p.suffix.lower() in self.PICTURES) \
            if source is not None and source.is_dir() else []
        self._texture: Any = None
        self._shown = -1

    @property
    def available(self) -> bool:
        """Whether there is anything to show."""
        return bool(self._files)

    def next_texture(self) -> Any:
        """The picture to show now (each held :data:`HOLD_FRAMES` frames), or ``None``."""
        if not self._files:
            return None
        index = (self.frames_read // HOLD_FRAMES) % len(self._files)
        if index != self._shown:
            from kivy.core.image import Image as CoreImage

            self._texture = CoreImage(str(self._files[index]), nocache=True).texture
            self._shown = index
        self.frames_read += 1
        return self._texture

    def close(self) -> None:
        """Let the picture go."""
        self._texture = None
        self._shown = -1


class ReplaceDialog(ModalView):
    """Asks before the recorded game replaces the open one."""

    question = StringProperty("")


class SimulationScreen(Screen):
    """The simulated outputs and inputs.

    Attributes:
        buzz_text: the buzzer's last sound in words, and the ones before it.
        status_text: what the status light says.
        camera_text: what the camera panel says (source, frames).
        nfc_note: what the last simulated tap did, when it proposed nothing.
    """

    buzz_text = StringProperty("")
    status_text = StringProperty("")
    camera_text = StringProperty("")
    nfc_note = StringProperty("")

    watching = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.replay: CameraReplay | PictureReplay | None = None
        self._camera_event: Any = None
        self._own_texture: Any = None

    def on_kv_post(self, base_widget: Any) -> None:
        """Redraw whenever something changes at the table."""
        App.get_running_app().bind(revision=lambda *_: self.refresh())

    def on_pre_enter(self, *_args: Any) -> None:
        """Redraw and start the camera replay."""
        self.refresh()
        if self.replay is None:
            self.replay = PictureReplay(sample_footage())
        self.show_next_frame()
        self._camera_event = Clock.schedule_interval(lambda _dt: self.show_next_frame(),
                                                     1 / CAMERA_FPS)

    def on_leave(self, *_args: Any) -> None:
        """Stop the replay while the panel is hidden (no work when nobody looks).

        Its decoder and picture go too (memory), unless a recorded game is being refereed.
        """
        if self._camera_event is not None:
            self._camera_event.cancel()
            self._camera_event = None
        if self.replay is not None and not self.watching:
            self.replay.close()
            self.replay = None
            self.ids.camera.texture = None
            self._own_texture = None
            Clock.schedule_once(lambda _dt: give_back_memory(), 0.3)

    def ask_play_recording(self) -> ReplaceDialog | None:
        """Play the recorded game, after asking if a game is in progress."""
        app = App.get_running_app()
        session = app.table.session
        if session is None or session.finished:
            self.play_recording()
            return None
        from companion.games.registry import load_game

        dialog = ReplaceDialog(question=app.tr("sim.replace_question",
                                               game=load_game(session.game.name).title,
                                               moves=len(session.record)))
        dialog.open()
        return dialog

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
        if isinstance(self.replay, PictureReplay) or self.replay is None:
            self._show_picture(app)
            return
        camera_frame = self.replay.next_camera_frame()
        if camera_frame is None and self.watching:
            self.watching = False
            self.replay = PictureReplay(sample_footage())
            self._show_picture(app)
            return
        if camera_frame is not None and self.watching:
            app.camera_watch.feed(camera_frame)
        frame = None if camera_frame is None or self.replay is None \
            else self.replay.for_screen(camera_frame)
        if frame is None or self.replay is None or self.replay.source is None:
            self.camera_text = app.tr("sim.camera_none")
            return
        height, width = frame.shape[:2]
        texture = self._own_texture
        if texture is None or tuple(texture.size) != (width, height):
            texture = Texture.create(size=(width, height), colorfmt="rgb")
            texture.flip_vertical()
            self._own_texture = texture
        texture.blit_buffer(frame.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.ids.camera.texture = texture
        self.ids.camera.canvas.ask_update()
        self.camera_text = app.tr("sim.camera_frames", source=self.replay.source.name,
                                  frame=self.replay.frames_read)
        if self.watching:
            self.camera_text += "  ·  " + app.tr("sim.camera_sees", status=app.camera_watch.status)

    def _show_picture(self, app: Any) -> None:
        replay = self.replay if isinstance(self.replay, PictureReplay) else None
        texture = replay.next_texture() if replay is not None else None
        if replay is None or texture is None or replay.source is None:
            self.camera_text = app.tr("sim.camera_none")
            return
        self.ids.camera.texture = texture
        self.camera_text = app.tr("sim.camera_frames", source=replay.source.name,
                                  frame=replay.frames_read)

    def refresh(self) -> None:
        """Copy the simulated outputs' state into the widgets."""
        if self.manager is None or self.manager.current != self.name:
            return
        app = App.get_running_app()
        outputs = app.outputs
        self.ids.ring.states = list(outputs.ring)
        self.ids.status_light.state_name = outputs.status
        self.status_text = app.tr(f"sim.status_{outputs.status}")
        self.buzz_text = buzzer_words(app, outputs.recent)
        self._fill_cards(app)

    def _fill_cards(self, app: Any) -> None:
        grid = self.ids.nfc_cards
        grid.clear_widgets()
        last = app.nfc.last
        self.nfc_note = last.note if last is not None and last.verdict is None else ""
        grid.cols = 1 if last is not None and last.choices else 3
        if last is not None and last.choices:
            for choice in last.choices[:6]:
                button = BigButton(text=choice, action=choice, font_size="15sp")
                button.bind(on_release=lambda b: app.nfc.choose(b.action))
                grid.add_widget(button)
            return
        game = app.table.session.game.name if app.table.session is not None else ""
        for card in app.nfc.simulated_cards():
            button = BigButton(text=app.translator.term(game, card), action=card,
                               font_size="16sp")
            button.bind(on_release=lambda b: app.nfc.simulate_tap(b.action))
            grid.add_widget(button)


def buzzer_words(app: Any, recent: tuple[str, ...]) -> str:
    """The buzzer's last sound and what it means, then the sounds before it, in words.

    Example (English): ``Buzzer: a tick (the turn counter moved on, or an action was taken
    back)`` over ``before: a capture, a knock``.
    """
    if not recent:
        return app.tr("sim.buzzer_quiet")
    *before, last = recent
    text = app.tr("sim.buzzer_last", sound=app.tr(f"buzz.{last}"),
                  meaning=app.tr(f"buzz_meaning.{last}"))
    if before:
        text += "\n" + app.tr("sim.buzzer_before",
                               sounds=", ".join(app.tr(f"buzz.{n}") for n in reversed(before)))
    return text


load_kv_beside(__file__)
