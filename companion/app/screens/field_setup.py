"""Set-up from the camera (issue 12): the field read, confirmed or corrected by touch, started.

The new-game screen's "read the field from the camera" opens this screen with the players
and options chosen. It takes the camera's newest frame, reads the field on a short-lived
thread (:func:`companion.app.field_capture.capture_field`) and shows it over the picture
(:class:`~companion.app.widgets.field_picture.FieldPicture`). The players tap a block to
change its colour or drop a false one, tap bare table where a block was missed (or press
and hold where its place is covered by a mark or by the top of a block on it); in touching
mode tap a block, then a ringed neighbour to make the two touch or not; in levels mode tap a
top read at the wrong height to put it one level up; in move mode tap a block read a few mm
off its place, then tap where its top's centre really is, or nudge it with the arrows. The
engine's field-building checks run after every tap, each violation listed with its rule;
"Start match" is enabled when there is none. While the screen is open it also reads the
camera every few seconds for the field's first level
(:class:`~companion.app.first_level_watch.FirstLevelWatch`): once the builder has laid it
out and blocks go up on it, the stacked field is read on it, as if "Keep level 1" had been
tapped in time. Starting writes the field as field TOML
(:meth:`~companion.app.field_capture.FieldDraft.field_toml`), keeps a copy in the data
folder's ``fields/``, and starts the session with it as its ``setup`` source, so the journal
holds it and a resumed game has the same field.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.app.field_capture import (
    Capture,
    FieldDraft,
    capture_field,
    table_intrinsics,
    violating_keys,
)
from companion.app.first_level_watch import FirstLevelWatch
from companion.app.kvload import load_kv_beside
from companion.games.core import SetupError
from vision.camera_model import CameraModelError
from vision.pose import PoseError
from vision.readers.notes import DETAIL, HIDDEN, PAWN_UNSURE, TOWER_UNSURE

LOG = logging.getLogger(__name__)


class ReaderFault(Exception):
    """The reader failed on a frame for a reason of its own (a bug: logged with its trace).

    The screen says so and stays usable ("Read again"), rather than reading forever.
    """


WATCH_EVERY_S = 3.0
"""How often the open set-up screen reads the camera for the first level (seconds)."""

WATCH_IDLE_SHARE = 2.0
"""... and at least this many times as long as its last reading took, between readings: a
slower computer (a reading takes about a second here, several on a Pi) reads less often,
and the screen stays free for the players' taps."""

WATCH_QUIET_S = 5.0
"""The watch does not read while the players touch the screen, nor this long after."""


def note_lines(app: Any, draft: FieldDraft) -> list[str]:
    """What the camera could not see, in the players' language.

    Blocks assumed under others are marked ``?`` on the picture (while their colour is the
    camera's guess) and counted in one line, as are the pairs a level apart drawn in amber
    (the camera could not tell whether they touch) and the first-level blocks marked ``+``
    that may carry a block of their own colour (:meth:`FieldDraft.tower_asks`); a pawn whose
    block was unsure is named by its colour. A note of no known kind is shown as it was
    written (a camera too far to read the field reliably is said above the counts,
    :func:`detail_line`).
    """
    lines = []
    guessed = draft.guessed()
    if guessed:
        lines.append(app.tr("fieldsetup.note_hidden", count=len(guessed)))
    unsure = draft.unsure_pairs()
    if unsure:
        lines.append(app.tr("fieldsetup.note_touch", count=len(unsure)))
    towers = draft.tower_asks()
    if towers:
        lines.append(app.tr("fieldsetup.note_tower", count=len(towers)))
    for note in draft.notes:
        kind = getattr(note, "kind", None)
        if kind == PAWN_UNSURE:
            colour = getattr(note, "colour", "")
            lines.append(app.tr("fieldsetup.note_pawn", pawn=app.tr(f"pawn_colour.{colour}")))
        elif kind not in (HIDDEN, DETAIL, TOWER_UNSURE):
            lines.append(app.tr("fieldsetup.note", note=note))
    return lines


def detail_line(app: Any, draft: FieldDraft) -> str:
    """The reading's warning that the camera shows too little of a block, translated.

    A top too few pixels across to read the field reliably (:mod:`vision.readers.detail`),
    in the players' language; empty without such a note. It heads the screen's text: it
    says the whole reading may be wrong, and what to do.
    """
    for note in draft.notes:
        if getattr(note, "kind", None) == DETAIL:
            return str(app.tr("fieldsetup.note_detail",
                              px=round(getattr(note, "value", None) or 0)))
    return ""


def violation_text(app: Any, violation: Any) -> str:
    """A broken field-building rule in the players' language, naming its blocks.

    The catalogue's ``fieldrule.<code>``; the engine's English sentence where it has none.
    """
    key = f"fieldrule.{violation.code}"
    if not app.translator.has(key):
        return str(violation.message)
    blocks = list(violation.blocks) or ["-"]
    return app.tr(key, first=blocks[0], second=blocks[1] if len(blocks) > 1 else "-",
                  rest=", ".join(blocks[1:]) or "-", blocks=", ".join(blocks),
                  count=len(violation.blocks))


class FieldSetupScreen(Screen):
    """Read, correct, check and start.

    Attributes:
        status: what the screen says above the problems (reading, counts, hints).
        problems: the violations, each with its rule, or the go-ahead.
        frame_source: gives the camera's newest BGR frame (``None`` without one); the app's
            camera by default, a replay of photos in tests.
    """

    status = StringProperty("")
    problems = StringProperty("")
    back_to = StringProperty("newgame")
    rebuild_for = StringProperty("")
    """The next round's field builder, when reading a new field during a match."""
    mode = StringProperty("blocks")
    rules = StringProperty("quickstart")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.capture: Capture | None = None
        self.game = "infinifield"
        self.players: list[str] | None = None
        self.chosen: dict[str, Any] = {}
        self.frame_source: Callable[[], Any] | None = None
        self.reading = False
        self.started_path: Path | None = None
        self.ground: list[Any] = []
        """The first level the players kept before stacking (empty: none)."""
        self.ground_photo: Any = None
        """The frame that first level was read on, with its pose (:meth:`Capture.photo`)."""
        self.watch = FirstLevelWatch()
        """The first level the camera keeps by itself while the builder lays it out."""
        self.watch_stopped = False
        """The players took the first level in hand ("Keep level 1"): the watch is over."""
        self._watching = False
        self._watch_event: Any = None
        self._watch_next = 0.0
        self._last_touch = 0.0

    def on_kv_post(self, base_widget: Any) -> None:
        """Wire the picture's taps and the language to this screen."""
        self.ids.picture.on_tap = self.tap
        self.ids.picture.on_hold = self.hold
        App.get_running_app().bind(lang=lambda *_: self.refresh())

    # -- reading ---------------------------------------------------------------------------
    def prepare(self, game: str, players: list[str] | None, chosen: dict[str, Any]) -> None:
        """Remember who plays and with which options."""
        self.game, self.players, self.chosen = game, players, chosen
        self.rebuild_for, self.back_to = "", "newgame"
        self.capture = None
        self.ground = []
        self.ground_photo = None
        self.watch = FirstLevelWatch()
        self.watch_stopped = False
        self._last_touch = self._watch_next = 0.0
        self.problems = ""
        self.set_mode("blocks")
        self.ids.picture.show(None)

    def on_enter(self, *_args: Any) -> None:
        """Watch the table for the first level while the screen is open."""
        if self._watch_event is None:
            self._watch_event = Clock.schedule_interval(self._watch_tick, WATCH_EVERY_S)

    def on_leave(self, *_args: Any) -> None:
        """Stop watching (the camera's frames go back to the game)."""
        if self._watch_event is not None:
            self._watch_event.cancel()
            self._watch_event = None

    def first_level(self) -> list[Any]:
        """The first level the next reading stands on (empty: it is read alone).

        The one the players kept, else the one the camera kept once it saw blocks go up on
        it (a field never stacked is read alone, as it always was).
        """
        if self.ground or self.watch_stopped:
            return list(self.ground)
        return list(self.watch.ground) if self.watch.stacking_seen else []

    def first_level_photo(self) -> Any:
        """The frame the first level of :meth:`first_level` was read on (None: none)."""
        if self.ground or self.watch_stopped:
            return self.ground_photo if self.ground else None
        return self.watch.photo if self.watch.stacking_seen else None

    def _watch_tick(self, *_args: Any) -> None:
        """Read the camera's newest frame for the watch, off the main loop."""
        now = time.monotonic()
        if (self.watch_stopped or self.watch.stacking_seen or self.reading or self._watching
                or now - self._last_touch < WATCH_QUIET_S or now < self._watch_next):
            return
        app = App.get_running_app()
        frame = (self.frame_source or app.camera_frame)()
        if frame is None:
            return
        try:
            intrinsics = table_intrinsics(app.camera_watch.calibration_path())
        except (ValueError, OSError):
            return      # said on screen by the players' own reading
        self._watching = True

        def work() -> None:
            started = time.monotonic()
            try:
                result: Any = capture_field(frame, intrinsics)
            except Exception as error:  # no markers, or a fault of the reader's (logged)
                if not isinstance(error, (PoseError, CameraModelError)):
                    LOG.exception("the first-level watch could not read a frame")
                result = error
            took = time.monotonic() - started
            self._watch_next = time.monotonic() + WATCH_IDLE_SHARE * took
            app.inbox.post(self._watched, result)

        threading.Thread(target=work, name="field-setup-watch", daemon=True).start()

    def _watched(self, result: Any) -> None:
        self._watching = False
        if isinstance(result, Exception) or self.watch_stopped:
            return
        before = (len(self.watch.ground), self.watch.stacking_seen)
        self.watch.offer(result.draft, result.photo())
        if (len(self.watch.ground), self.watch.stacking_seen) != before:
            self.refresh()

    def prepare_rebuild(self, builder: str) -> None:
        """Read the field ``builder`` laid out for the next round of the open match.

        The match's players and field-building rules stay; Start proposes
        ``rebuild <builder> <the field>`` (source ``camera``), which the engine accepts or
        refuses with its rule.
        """
        session = App.get_running_app().table.require_session()
        self.prepare(session.game.name, list(session.state.rules.players), {})
        self.rebuild_for, self.back_to = builder, "game"
        self.set_rules(str(session.state.rules.mode))

    def read(self, *_args: Any) -> None:
        """Take the camera's newest frame and read the field off the main loop."""
        app = App.get_running_app()
        source = self.frame_source or app.camera_frame
        frame = source()
        if frame is None:
            self.capture = None
            self.ids.picture.show(None)
            self.status = app.tr("fieldsetup.no_camera")
            self.problems = ""
            self._update_buttons()
            return
        try:
            intrinsics = table_intrinsics(app.camera_watch.calibration_path())
        except (ValueError, OSError) as error:
            intrinsics = None
            self.problems = app.tr("fieldsetup.camera_file", problem=str(error))
        self.reading = True
        self.status = app.tr("fieldsetup.reading")
        self._update_buttons()

        ground = self.first_level()
        ground_photo = self.first_level_photo()

        def work() -> None:
            try:
                result: Any = capture_field(frame, intrinsics, ground, ground_photo)
            except (PoseError, CameraModelError) as error:  # said on screen
                result = error
            except Exception as error:  # a fault of the reader's: logged, said, screen usable
                LOG.exception("reading the field from the camera failed")
                result = ReaderFault(str(error))
            app.inbox.post(self._read_done, result, not ground)

        threading.Thread(target=work, name="field-setup-read", daemon=True).start()

    def _read_done(self, result: Any, alone: bool = True) -> None:
        self.reading = False
        if isinstance(result, Exception):
            self.capture = None
            self.ids.picture.show(None)
            app = App.get_running_app()
            self.status = (app.tr("fieldsetup.reader_fault") if isinstance(result, ReaderFault)
                           else app.tr("fieldsetup.no_markers", problem=str(result)))
            self.problems = ""
            self._update_buttons()
            return
        self.capture = result
        self.ids.picture.show(result)
        if alone and not self.watch_stopped:
            self.watch.offer(result.draft, result.photo())
        self.refresh()

    def keep_first_level(self, *_args: Any) -> None:
        """Keep the blocks on the table now as the first level, or forget the one kept.

        For a stacked field: the builder lays out the first level, the camera reads it (the
        players correct it if need be) and it is kept; then the builder stacks and the
        field is read again on it, so a block that ends up hidden keeps the colour and place
        seen here, and a top over one of them is read standing on it. The camera's own watch
        (:class:`~companion.app.first_level_watch.FirstLevelWatch`) is over from then on:
        what the players keep (as read and corrected on screen) replaces what it kept.
        """
        self.watch_stopped = True
        if self.ground:
            self.ground, self.ground_photo = [], None
        elif self.capture is not None and not self.reading:
            self.ground = self.capture.draft.first_level()
            self.ground_photo = self.capture.photo()
        self.refresh()

    # -- touching --------------------------------------------------------------------------
    def tap(self, x: float, y: float) -> None:
        """A tap on the picture at ``(x, y)`` (px, y down): cycle, toggle or add."""
        self._last_touch = time.monotonic()
        view = self.ids.picture.view
        if view is None or self.reading:
            return
        view.tap(x, y, self.mode)
        self.refresh()

    def hold(self, x: float, y: float) -> None:
        """A long press on the picture at ``(x, y)``: add a missed block, or a tap.

        In blocks mode it adds a block the camera missed whose top is there, even where a
        mark or another block's top covers the spot; in the other modes it is a tap.
        """
        self._last_touch = time.monotonic()
        view = self.ids.picture.view
        if view is None or self.reading:
            return
        view.hold(x, y, self.mode)
        self.refresh()

    def set_mode(self, mode: str) -> None:
        """What taps on the picture do.

        ``blocks`` (change blocks), ``touching`` (toggle pairs), ``levels`` (put a block
        one level up) or ``move`` (select a block, then tap its place or nudge it). A
        block selected in one mode is let go in the next.
        """
        self.mode = mode
        picture = self.ids.picture
        picture.mode = mode
        if picture.view is not None:
            picture.view.selected = None
        self.refresh()

    def nudge(self, dx: float, dy: float) -> None:
        """Move mode: an arrow moves the selected block a step that way on screen."""
        self._last_touch = time.monotonic()
        view = self.ids.picture.view
        if view is None or self.reading or self.mode != "move":
            return
        view.nudge(dx, dy)
        self.refresh()

    def turn(self, clockwise: bool) -> None:
        """Move mode: a turning arrow turns the selected block a step as it points."""
        self._last_touch = time.monotonic()
        view = self.ids.picture.view
        if view is None or self.reading or self.mode != "move":
            return
        view.turn(clockwise)
        self.refresh()

    def set_rules(self, rules: str) -> None:
        """The field-building rules checked: ``quickstart`` or ``official``."""
        self.rules = rules
        self.refresh()

    # -- showing ---------------------------------------------------------------------------
    def player_count(self) -> int:
        """How many players need a white block to start on."""
        return len(self.players) if self.players else 2

    def refresh(self) -> None:
        """Check the field and say what stands in the way of starting."""
        app = App.get_running_app()
        picture = self.ids.picture
        capture = self.capture
        if capture is None:
            picture.broken = set()
            picture.redraw()
            self._update_buttons()
            return
        draft = capture.draft
        found = draft.problems(self.rules, self.player_count())
        picture.broken = violating_keys(draft, found)
        picture.redraw()
        hint = app.tr(f"fieldsetup.hint_{self.mode}")
        counts = app.tr("fieldsetup.counts", blocks=len(draft.present()),
                        pairs=len(draft.live_touching()), taps=draft.taps)
        if self.mode == "move" and picture.view is not None and \
                picture.view.selected is not None:
            hint = ""  # a block is selected: the arrows take the room, the problems show
        warning = detail_line(app, draft)
        kept = app.tr("fieldsetup.first_level_kept", count=len(self.ground)) \
            if self.ground else ""
        if not kept and not self.watch_stopped and self.watch.ground:
            kept = app.tr("fieldsetup.first_level_watched", count=len(self.watch.ground))
        self.status = "\n".join(t for t in (warning, counts, kept, hint) if t)
        lines = []
        if draft.hands_in_view:
            lines.append(app.tr("fieldsetup.hands"))
        if found:
            lines.append(app.tr("fieldsetup.problems", count=len(found)))
            lines += [f"- {violation_text(app, v)} ({v.rule})" for v in found]
        else:
            lines.append(app.tr("fieldsetup.ready", rules=app.tr(f"choice.mode.{self.rules}")))
        lines += note_lines(app, draft)
        self.problems = "\n".join(lines)
        self._update_buttons(not found)

    def _update_buttons(self, ready: bool = False) -> None:
        ids = self.ids
        ids.start_button.disabled = not ready or self.reading or self.capture is None
        ids.read_button.disabled = self.reading
        watched = not self.watch_stopped and bool(self.watch.ground)
        ids.ground_button.disabled = self.reading or (self.capture is None and not self.ground
                                                      and not watched)
        ids.ground_button.selected = bool(self.ground) or watched
        for name, button in (("blocks", ids.blocks_mode), ("touching", ids.touching_mode),
                             ("levels", ids.levels_mode), ("move", ids.move_mode)):
            button.selected = self.mode == name
        view = self.ids.picture.view
        can_nudge = self.mode == "move" and view is not None and view.selected is not None
        for button in ids.nudge_row.children:
            button.disabled = not can_nudge or self.reading
        for name, button in (("quickstart", ids.quick_rules), ("official", ids.official_rules)):
            button.selected = self.rules == name
            button.disabled = self.mode == "move"  # the arrows stand in their place

    # -- starting --------------------------------------------------------------------------
    def start(self, *_args: Any) -> None:
        """Start the match on the confirmed field (written as field TOML, journaled)."""
        app = App.get_running_app()
        if self.capture is None or self.capture.draft.problems(self.rules, self.player_count()):
            return
        from companion.app.game_setups import SETUPS

        text = self.capture.draft.field_toml(self.rules)
        if self.rebuild_for:
            self._rebuild(text)
            return
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = f"camera-field-{stamp}.toml"
        folder = Path(app.options.data_dir) / "fields"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
            self.started_path = folder / name
        except OSError as error:  # the journal still holds the field
            self.problems = app.tr("fieldsetup.not_saved", problem=str(error))
        spec = SETUPS[self.game]
        try:
            app.table.start_from(self.game, {"setup": (name, text)},
                                 spec.build_options(self.players, "", self.chosen),
                                 seed=app.options.seed)
        except (SetupError, ValueError) as error:
            self.problems = str(error)
            return
        app.outputs.reset()
        self._photo_to_camera(app)
        self._let_go()
        app.open_game_screen()

    def _photo_to_camera(self, app: Any) -> None:
        """Hand the photo to the camera watch: it shows every block of the confirmed field.

        The play check compares later views with it (its own views, without the reader's
        cached planes).
        """
        watch = getattr(app, "camera_watch", None)
        if watch is None or self.capture is None:
            return
        from vision.palette import default_palette
        from vision.readers.table_views import TableViews

        views = self.capture.views
        watch.use_reference(TableViews(self.capture.frame, self.capture.pose,
                                       views.palette if views is not None
                                       else default_palette()))

    def _let_go(self) -> None:
        """Drop the frame and its views once the field is in the game (memory)."""
        self.capture = None
        self.ids.picture.show(None)

    def _rebuild(self, text: str) -> None:
        """Propose the new round's field; back to the game when the engine accepts it.

        The field goes as the field file's data in JSON, as the notation reads it.
        """
        app = App.get_running_app()
        data = {key: value for key, value in tomllib.loads(text).items() if key != "match"}
        verdict = app.table.propose(f"rebuild {self.rebuild_for} "
                                    f"{json.dumps(data, separators=(',', ':'))}", "camera")
        if not verdict.legal:
            self.problems = f"{verdict.reason} ({verdict.rule})"
            return
        self._photo_to_camera(app)
        self._let_go()
        app.open_game_screen()
        # the banner names the action without the field's data (the log keeps it whole)
        app.banner.show(True, app.tr("banner.accepted", action=f"rebuild {self.rebuild_for}"),
                        app.table.detail(verdict, app.lang))


load_kv_beside(__file__)
