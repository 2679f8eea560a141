"""Tools for any game: loose dice with a short roll animation, and life-counter trackers.

These are the table's loose dice (house rules, tie-breaks, "low roll on 1 die"): their
result is shown, never recorded. A roll the engine waits for is made on the game screen
(the companion's roll, which stands, or the faces typed from physical dice), so the
record stays exact.

The trackers work like a life-counter app: each starts at a chosen value, moves by 1 or 5
(held down, the button repeats), resets to its start and can be deleted. With a game open
there is one per player, kept beside that game's journal, so they come back with it.
"""

from __future__ import annotations

import math
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.app.dice_tools import (
    DEFAULT_START,
    DIE_KINDS,
    DiceTray,
    TrackerBoard,
    die_kind,
    face_key,
    parse_physical,
    tally,
    trackers_path,
)
from companion.app.kvload import load_kv_beside
from companion.app.widgets.common import BigButton, FitsText

ANIMATION_FRAMES = 6
ANIMATION_STEP = 0.06
DIE_MAX_PX = 76
DIE_MIN_PX = 36
DIE_GAP_PX = 8
SPELLED_OUT = 5
"""Up to this many dice, the result line repeats each face before the total."""
REPEAT_DELAY_S = 0.45
REPEAT_EVERY_S = 0.12


def die_size(count: int, width: float, height: float, gap: float = DIE_GAP_PX) -> float:
    """The largest die (at most 76 px) that lets ``count`` dice fit in ``width`` x ``height``.

    Example:
        >>> die_size(2, 430, 110), die_size(10, 430, 110)
        (76, 45)
    """
    for size in range(DIE_MAX_PX, DIE_MIN_PX - 1, -1):
        per_row = max(1, int((width + gap) // (size + gap)))
        if math.ceil(count / per_row) * (size + gap) <= height + gap:
            return size
    return DIE_MIN_PX


class DieFace(FitsText, Label):
    """One die in the tray: its body colour and the face it shows (a number, letter or word)."""

    fill = ColorProperty([1, 1, 1, 1])
    fit_whole = True
    fit_margin = 8
    min_font_share = 0.3

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.designed_font_size = self.font_size
        self._fit_bindings()
        self._fit()


class StepButton(BigButton):
    """A tracker's -5/-1/+1/+5: one step per tap; held down, it repeats."""

    step = NumericProperty(1)
    tracker = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._repeat: Any = None

    def on_press(self) -> None:
        """Step once now, and keep stepping while the finger stays down."""
        self.tracker.change(int(self.step))
        self._repeat = Clock.schedule_once(self._start_repeating, REPEAT_DELAY_S)

    def _start_repeating(self, _dt: float) -> None:
        self._repeat = Clock.schedule_interval(
            lambda _dt: self.tracker.change(int(self.step)), REPEAT_EVERY_S)

    def on_release(self) -> None:
        """Stop repeating and save the value."""
        if self._repeat is not None:
            self._repeat.cancel()
            self._repeat = None
        self.tracker.saved()


class Tracker(BoxLayout):
    """One tracker on screen: its name and value, reset, delete (tap twice), and the steps.

    Attributes:
        name: what it counts.
        value: where it stands.
        start: where it started.
        index: its place on the board.
        arming: delete was tapped once; the next tap deletes.
    """

    name = StringProperty("")
    value = NumericProperty(DEFAULT_START)
    start = NumericProperty(DEFAULT_START)
    index = NumericProperty(0)
    arming = BooleanProperty(False)

    def __init__(self, screen: ToolsScreen, **kwargs: Any) -> None:
        self.screen = screen
        super().__init__(**kwargs)

    def change(self, delta: int) -> None:
        """Move by ``delta``."""
        self.screen.board.change(int(self.index), delta)
        self.value = self.screen.board.trackers[int(self.index)].value

    def saved(self) -> None:
        """Keep the board on disk."""
        self.screen.board.save()

    def reset(self) -> None:
        """Back to the start value."""
        self.screen.board.reset(int(self.index))
        self.value = self.start
        self.saved()

    def ask_delete(self) -> None:
        """First tap: ask (the button turns red and asks); second tap: delete."""
        if not self.arming:
            self.arming = True
            Clock.schedule_once(lambda _dt: setattr(self, "arming", False), 3)
            return
        self.screen.delete_tracker(int(self.index))


class ToolsScreen(Screen):
    """The dice tray and the trackers.

    Attributes:
        kind: the die chosen.
        count: how many dice to roll.
        faces: what the dice show (during the animation: tumbling faces).
        result: the line under the dice once they stop (faces and their total).
    """

    kind = StringProperty("d6")
    count = NumericProperty(2)
    faces = ListProperty([])
    result = StringProperty("")
    rolling = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self.tray = DiceTray()
        self.board = TrackerBoard.for_players(["A", "B"])
        self._board_key: str | None = ""
        self._tumble: Any = None
        super().__init__(**kwargs)

    def on_kv_post(self, base_widget: Any) -> None:
        """Fill the die picker; redraw the dice when the tray changes size."""
        for key in DIE_KINDS:
            button = BigButton(action=key, selected=key == self.kind, font_size="17sp")
            button.bind(on_release=lambda b: self.choose(b.action))
            self.ids.kinds.add_widget(button)
        self._label_kinds()
        App.get_running_app().bind(lang=lambda *_: self._label_kinds())
        self.ids.tray.bind(size=lambda *_: self._draw_faces())
        self.bind(faces=lambda *_: self._draw_faces())
        self._show_board()

    def on_pre_enter(self, *_args: Any) -> None:
        """Show the open game's trackers (one per player), or the table's own."""
        app = App.get_running_app()
        session = app.table.session
        journal = session.journal.path if session is not None and session.journal else None
        key = str(journal) if journal is not None else None
        if key == self._board_key:
            return
        self._board_key = key
        if journal is None:
            self.board = TrackerBoard.for_players(["A", "B"])
        else:
            path = trackers_path(journal)
            players = [str(name) for name in session.options.get("players", ())] \
                if session is not None else []
            self.board = TrackerBoard.load(path) or TrackerBoard.for_players(
                players or [app.tr("game.player")], path=path)
        self._show_board()

    def on_leave(self, *_args: Any) -> None:
        """Keep the trackers on disk."""
        self.board.save()

    def _label_kinds(self) -> None:
        app = App.get_running_app()
        for button in self.ids.kinds.children:
            button.text = app.tr(die_kind(button.action).label_key)

    # -- dice ------------------------------------------------------------------------------
    def choose(self, kind: str) -> None:
        """Pick the die to roll; the previous die's results are cleared."""
        if kind != self.kind:
            self._stop_tumbling()
            self.faces = []
            self.result = ""
        self.kind = kind
        for button in self.ids.kinds.children:
            button.selected = button.action == kind

    def change_count(self, delta: int) -> None:
        """One die more or less (1 to 10)."""
        self.count = max(1, min(10, self.count + delta))

    def _draw_faces(self) -> None:
        tray = self.ids.tray
        tray.clear_widgets()
        if not self.faces:
            return
        size = die_size(len(self.faces), tray.width - 8, tray.height - 8)
        app = App.get_running_app()
        colour = (*die_kind(self.kind).colour, 1)
        for face in self.faces:
            key = face_key(self.kind, face)
            text = app.tr(key) if key else face
            tray.add_widget(DieFace(text=text, fill=colour, size=(size, size),
                                    font_size=float(size // 2)))

    def roll(self) -> None:
        """Roll the loose dice with a short tumble before the result."""
        if self.rolling:
            return
        kind, count = self.kind, int(self.count)
        final = list(self.tray.roll(kind, count))
        frames = [self.tray.tumble_frames(kind, count) for _ in range(ANIMATION_FRAMES)]
        self.rolling = 1
        self.result = ""
        index = [0]

        def step(_dt: float) -> bool:
            if index[0] < len(frames):
                self.faces = frames[index[0]]
                index[0] += 1
                return True
            self._tumble = None
            self.faces = final
            self.rolling = 0
            self.result = self.result_line(kind, final)
            return False

        self._tumble = Clock.schedule_interval(step, ANIMATION_STEP)

    def _stop_tumbling(self) -> None:
        if self._tumble is not None:
            self._tumble.cancel()
            self._tumble = None
        self.rolling = 0

    def result_line(self, kind: str, faces: list[str]) -> str:
        """``d6: 3 5 6 · total 14`` (or how many of each face) in the current language."""
        app = App.get_running_app()
        shown = [app.tr(key) if (key := face_key(kind, face)) else face for face in faces]
        counts = tally(kind, faces)
        if "total" in counts:
            summary = app.tr("dice.total", total=counts["total"])
        else:
            summary = ", ".join(
                f"{app.tr(key) if (key := face_key(kind, face)) else face} ×{n}"
                for face, n in counts.items())
        if len(faces) > SPELLED_OUT or kind == "coin":  # the tray shows them; keep room
            return f"{app.tr(die_kind(kind).label_key)}: {summary}"
        return app.tr("dice.result", die=app.tr(die_kind(kind).label_key),
                      faces=" ".join(shown)) + "  ·  " + summary

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
        self.result = app.tr("dice.entered", faces=" ".join(faces)) + "  ·  " + \
            self.result_line(self.kind, list(faces)).split(": ", 1)[1].split("  ·  ")[-1]

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
        app.camera_dice.read(frame, reader, self._camera_read, expected=int(self.count))

    def _camera_read(self, read: Any) -> None:
        app = App.get_running_app()
        if read.problem:
            self.result = app.tr("camera.problem", problem=read.problem)
            return
        faces = " ".join(str(v) for v in read.values)
        self.ids.physical.text = faces
        self.result = app.tr("camera.read_result", faces=faces)
        from companion.app.camera_dice import count_problem  # loads OpenCV: only when used

        if (off := count_problem(read.expected, len(read.values))) is not None:
            self.result = app.tr(off[0], **off[1]) + ". " + self.result

    # -- trackers --------------------------------------------------------------------------
    def _show_board(self) -> None:
        self.ids.tracker_scroll.scroll_y = 1
        rows = self.ids.trackers
        rows.clear_widgets()
        for index, tracker in enumerate(self.board.trackers):
            rows.add_widget(Tracker(self, name=tracker.name, value=tracker.value,
                                    start=tracker.start, index=index))

    def tracker_rows(self) -> list[Tracker]:
        """The trackers on screen, top to bottom."""
        return list(reversed(self.ids.trackers.children))

    def add_tracker(self) -> None:
        """Add a tracker named after the text field (or a letter) at the start value typed."""
        app = App.get_running_app()
        name = self.ids.tracker_name.text.strip() or chr(ord("A") + len(self.board.trackers))
        typed = self.ids.tracker_start.text.strip()
        try:
            start = int(typed) if typed else DEFAULT_START
            self.board.add(name, start)
        except ValueError as error:
            self.result = app.tr("tools.tracker_refused", reason=str(error))
            return
        self.ids.tracker_name.text = ""
        self.board.save()
        self._show_board()

    def delete_tracker(self, index: int) -> None:
        """Remove a tracker (after its delete button was tapped twice)."""
        self.board.delete(index)
        self.board.save()
        self._show_board()


load_kv_beside(__file__)
