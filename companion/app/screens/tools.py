"""Tools for any game: loose dice with a short roll animation, and HP/wound/health trackers.

These are the table's loose dice (house rules, tie-breaks, "low roll on 1 die"): their
result is shown, never recorded. A roll the engine waits for is made on the game screen
(the companion's roll, which stands, or the faces typed from physical dice), so the
record stays exact.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import ColorProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.app.dice_tools import DIE_KINDS, DiceTray, die_kind, parse_physical
from companion.app.kvload import load_kv_beside
from companion.app.widgets.common import BigButton

ANIMATION_FRAMES = 6
ANIMATION_STEP = 0.06


class DieFace(Label):
    """One die in the tray: its body colour and the face it shows (a number or a letter)."""

    fill = ColorProperty([1, 1, 1, 1])


class Tracker(BoxLayout):
    """A named counter with - and + (hit points, wounds, health)."""

    name = StringProperty("")
    value = NumericProperty(0)


class ToolsScreen(Screen):
    """The dice tray and the trackers.

    Attributes:
        kind: the die chosen.
        count: how many dice to roll.
        faces: what the dice show (during the animation: tumbling faces).
        result: the line under the dice once they stop.
    """

    kind = StringProperty("d6")
    count = NumericProperty(2)
    faces = ListProperty([])
    result = StringProperty("")
    rolling = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tray = DiceTray()

    def on_kv_post(self, base_widget: Any) -> None:
        """Fill the die picker and the default trackers."""
        for key in DIE_KINDS:
            button = BigButton(action=key, selected=key == self.kind, font_size="17sp")
            button.bind(on_release=lambda b: self.choose(b.action))
            self.ids.kinds.add_widget(button)
        self._label_kinds()
        App.get_running_app().bind(lang=lambda *_: self._label_kinds())
        for name in ("A", "B"):
            self.ids.trackers.add_widget(Tracker(name=name, value=10))

    def _label_kinds(self) -> None:
        app = App.get_running_app()
        for button in self.ids.kinds.children:
            button.text = app.tr(die_kind(button.action).label_key)

    def choose(self, kind: str) -> None:
        """Pick the die to roll."""
        self.kind = kind
        for button in self.ids.kinds.children:
            button.selected = button.action == kind

    def change_count(self, delta: int) -> None:
        """One die more or less (1 to 10)."""
        self.count = max(1, min(10, self.count + delta))

    def roll(self) -> None:
        """Roll the loose dice with a short tumble before the result."""
        if self.rolling:
            return
        final = list(self.tray.roll(self.kind, int(self.count)))
        frames = [self.tray.tumble_frames(self.kind, int(self.count))
                  for _ in range(ANIMATION_FRAMES)]
        self.rolling = 1
        self.result = ""

        def step(_dt: float, index: list[int] = [0]) -> bool:  # noqa: B006 - frame counter
            if index[0] < len(frames):
                self.faces = frames[index[0]]
                index[0] += 1
                return True
            self.faces = final
            self.rolling = 0
            app = App.get_running_app()
            self.result = app.tr("dice.result", die=app.tr(die_kind(self.kind).label_key),
                                 faces=" ".join(final))
            return False

        Clock.schedule_interval(step, ANIMATION_STEP)

    def enter_physical(self) -> None:
        """Show what physical dice show, typed in (checked against the die's faces)."""
        app = App.get_running_app()
        try:
            faces = parse_physical(self.kind, self.ids.physical.text)
        except ValueError as error:
            self.result = str(error)
            return
        self.faces = list(faces)
        self.ids.physical.text = ""
        self.result = app.tr("dice.entered", faces=" ".join(faces))

    def read_camera(self) -> None:
        """Read the d6 in the tray with the camera (off the main loop) into the entry field.

        The player checks or corrects the faces there, then Enter shows them
        (see :mod:`companion.app.camera_dice`).
        """
        app = App.get_running_app()
        if self.kind != "d6":
            self.result = app.tr("camera.d6_only")
            return
        frame, reader = app.dice_frame(int(self.count))
        self.result = app.tr("camera.reading")
        app.camera_dice.read(frame, reader, self._camera_read)

    def _camera_read(self, read: Any) -> None:
        app = App.get_running_app()
        if read.problem:
            self.result = app.tr("camera.problem", problem=read.problem)
            return
        faces = " ".join(str(v) for v in read.values)
        self.ids.physical.text = faces
        self.result = app.tr("camera.read_result", faces=faces)

    def add_tracker(self) -> None:
        """Add a tracker named after the text field (or a letter)."""
        name = self.ids.tracker_name.text.strip() or chr(ord("A") + len(self.ids.trackers.children))
        self.ids.tracker_name.text = ""
        self.ids.trackers.add_widget(Tracker(name=name, value=10))


load_kv_beside(__file__)
