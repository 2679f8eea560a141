"""The Kivy application: screens over one :class:`TableController`, kept alive for systemd.

The app holds no rules. It owns the controller (the game at the table), the translator, the
simulated outputs and the systemd notifier; each screen reads what it shows from the
controller and sends the player's taps back to it. ``READY=1`` goes to systemd only once a
first frame has really been drawn and flipped onto the window, and only then does the main
loop start sending ``WATCHDOG=1`` every half watchdog period: a kiosk that never shows
anything is restarted by the watchdog like a frozen one.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import logging
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.app import theme, trouble
from companion.app.camera_watch import CameraFeed, CameraWatch
from companion.app.controller import TableController
from companion.app.i18n import Translator
from companion.app.journal_shelf import JournalShelf
from companion.app.mainloop import MainLoopInbox
from companion.app.nfc_link import NfcLink, load_pairings, start_reader
from companion.app.sdnotify import SystemdNotifier
from companion.app.settings_store import AppSettings
from companion.app.simulated_outputs import SimulatedOutputs
from companion.journal import JournalError
from companion.session import NOT_RECORDED, Verdict

log = logging.getLogger(__name__)

GENERIC_SCREEN = "companion.app.screens.game_generic:GenericGameScreen"
"""The referee screen of a game without a dedicated one."""
SCREENS_PACKAGE = "companion.app.screens"
"""Where a game's dedicated screen lives: ``companion.app.screens.<package>``, defining one
:class:`~companion.app.screens.referee.RefereeScreen` subclass."""

TRAY_FILE = "tray.json"
"""The dice tray's outline in the data folder (``python -m vision.readers.tray PHOTO --out ...``);
without it, the tray's markers (ids 40-43) or else the whole frame are read."""

CAMERA_POLL_S = 0.25
"""How often the main loop looks at the newest camera frame (4 a second)."""

PLAIN_SCREENS = {
    "home": "companion.app.screens.home:HomeScreen",
    "newgame": "companion.app.screens.newgame:NewGameScreen",
    "settings": "companion.app.screens.settings:SettingsScreen",
    "tools": "companion.app.screens.tools:ToolsScreen",
    "log": "companion.app.screens.log:LogScreen",
    "simulation": "companion.app.screens.simulation:SimulationScreen",
    "field_setup": "companion.app.screens.field_setup:FieldSetupScreen",
}


PREBUILT = ("newgame", "log", "tools")
"""Plain screens built in the background after start (one every
:data:`PREBUILD_EVERY_S`), from :data:`PREBUILD_AFTER_S` after the first frame."""
PREBUILD_AFTER_S = 1.5
PREBUILD_EVERY_S = 0.4

KEPT_GAME_SCREENS = 1
"""Game screens kept built (the open game's; more would let a table switching between
two games skip building a screen, at some 2-6 MB each); older ones are released."""

RELEASED_ON_LEAVE = frozenset({"settings"})
"""Plain screens taken down when the player leaves them (rebuilt when opened again): they
hold nothing the players need kept."""
TRIM_AFTER_S = 0.5
"""Freed memory is handed back this long after a screen change (not inside the tap)."""


@dataclass
class AppOptions:
    """How the app was started (from the command line, see :mod:`companion.app.main`).

    Attributes:
        data_dir: where journals and settings live.
        language: a language to use instead of the saved one.
        resume_latest: resume the newest unfinished game at start (kiosk restarts).
        seed: seed of the virtual dice for new games (tests); random when ``None``.
        fps: the frame-rate cap.
        camera: a camera to watch the table with (``pi``, ``usb:0``, a video or a folder).
        nfc_reader: read the real NFC bridge (the Pi kiosk); else only simulated taps.
    """

    data_dir: Path
    language: str | None = None
    resume_latest: bool = False
    seed: int | None = None
    fps: int = 30
    nfc_reader: bool = False
    camera: str | None = None


def open_table_outputs() -> Any:
    """The real LED ring, buzzer and status light (gpiozero's mock pins off the Pi).

    A device that cannot be opened is logged and left out: the referee goes on without it.
    """
    try:
        from hardware.outputs import TableOutputs

        return TableOutputs()
    except Exception:  # a broken pin map or GPIO chip must not stop the referee
        log.exception("the table's LEDs and buzzer are not available")
        return None


def _refers_to(callback: Any, target: Any) -> bool:
    """Whether ``callback`` (a lambda or bound method) calls into ``target``."""
    if getattr(callback, "__self__", None) is target:
        return True
    for cell in getattr(callback, "__closure__", None) or ():
        try:
            if cell.cell_contents is target:
                return True
        except ValueError:  # an empty cell
            continue
    return False


def give_back_memory() -> None:
    """Hand freed heap memory back to the system, so the resident size falls.

    glibc's ``malloc_trim``; elsewhere nothing happens.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def load_class(path: str) -> Any:
    """The class named by ``module:Class``."""
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def game_screen_class(game: str) -> Any:
    """The referee screen class of the game called ``game``, found by convention.

    ``companion.app.screens.<package>`` (the game's package name, e.g. ``infinite401``)
    defining one subclass of :class:`~companion.app.screens.referee.RefereeScreen`; the
    generic screen for a game without one.

    Raises:
        TypeError: the module defines no referee screen, or more than one.
    """
    from companion.app.screens.referee import RefereeScreen
    from companion.games.registry import package_name

    module_name = f"{SCREENS_PACKAGE}.{package_name(game)}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        return load_class(GENERIC_SCREEN)
    screens = [value for value in vars(module).values()
               if isinstance(value, type) and issubclass(value, RefereeScreen)
               and value.__module__ == module_name]
    if len(screens) != 1:
        raise TypeError(f"{module_name} must define one RefereeScreen subclass, "
                        f"not {len(screens)}")
    return screens[0]


class RootLayout(BoxLayout):
    """The screens above, the verdict banner below."""


class CompanionApp(App):
    """The touchscreen companion.

    Attributes:
        lang: the current language; ``.kv`` rules pass it to :meth:`tr` so labels follow it.
        revision: bumped after every change at the table; views bind to it to redraw.
    """

    lang = StringProperty("en")
    revision = NumericProperty(0)
    title = "Infinite Table Companion"

    def __init__(self, options: AppOptions, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.options = options
        options.data_dir.mkdir(parents=True, exist_ok=True)
        self.settings = AppSettings.load_or_reset(options.data_dir / "settings.json")
        if options.language:
            self.settings.language = options.language
        self.translator = Translator(self.settings.language)
        self.lang = self.translator.lang
        self.table = TableController(JournalShelf(options.data_dir / "journals"))
        self.outputs = SimulatedOutputs(on_change=self._outputs_changed)
        self.outputs.sound = self.settings.sound
        self.table.add_output(self.outputs)
        self.devices = open_table_outputs()
        if self.devices is not None:
            self.table.add_output(self.devices)
        self.table.on_change(self._table_changed)
        self.inbox = MainLoopInbox()
        cards, cards_path, self.pairings_problem = load_pairings() if options.nfc_reader \
            else (None, None, "")
        self.nfc = NfcLink(self.table, self.inbox.post, cards=cards, cards_path=cards_path,
                           on_change=self._outputs_changed, on_link=self._reader_status)
        self.camera_watch = CameraWatch(self.table)
        self._reader: Any = None
        self._camera: Any = None
        self.notifier = SystemdNotifier()
        self.first_frame_at: float | None = None
        self._trim: Any = None
        self._shown_session: Any = None
        self._recent_games: list[str] = []
        self._heartbeat: Any = None

    # -- camera helpers, built on first use (they load OpenCV: ~45 MB a screen may not need)
    @cached_property
    def camera_dice(self) -> Any:
        """Reads dice trays off the main loop (:class:`companion.app.camera_dice.CameraDice`)."""
        from companion.app.camera_dice import CameraDice

        tray = self.options.data_dir / TRAY_FILE  # the tray's outline, saved once at set-up
        try:
            return CameraDice(self.inbox.post, tray_file=tray)
        except ValueError as error:  # a damaged tray file: read the whole frame, say why
            log.error("dice tray outline not used: %s", error)
            return CameraDice(self.inbox.post)

    @cached_property
    def simulated_dice(self) -> Any:
        """The rendered dice tray that stands in for the camera on a desktop."""
        from companion.app.camera_dice import SimulatedDiceTray

        return SimulatedDiceTray(self.options.seed)

    @cached_property
    def base_markers(self) -> Any:
        """The marked bases of the Infinity armies (the example mapping)."""
        from companion.app.base_markers import example_base_markers

        return example_base_markers()

    @cached_property
    def camera_ranges(self) -> Any:
        """Measures distances between marked bases off the main loop."""
        from companion.app.camera_ranges import CameraRanges

        return CameraRanges(self.inbox.post)

    @cached_property
    def simulated_bases(self) -> Any:
        """The rendered table of marked bases that stands in for the camera on a desktop."""
        from companion.app.camera_ranges import SimulatedBaseTable

        return SimulatedBaseTable(self.base_markers, self.options.seed)

    # -- text ------------------------------------------------------------------------------
    def tr(self, key: str, lang: str | None = None, **params: Any) -> str:
        """The text of ``key`` in the current language (``lang`` is there for kv bindings)."""
        return self.translator.tr(key, **params)

    def set_language(self, lang: str) -> None:
        """Switch every label to ``lang`` and remember the choice."""
        self.translator.set_language(lang)
        self.settings.language = lang
        self.settings.save()
        self.lang = lang
        self.revision += 1

    # -- building --------------------------------------------------------------------------
    def build(self) -> RootLayout:
        """The root: a screen manager over the banner."""
        Window.clearcolor = theme.BACKGROUND
        theme.use_app_font()
        from companion.app.widgets.banner import VerdictBanner
        importlib.import_module("companion.app.widgets.common")
        root = RootLayout(orientation="vertical")
        self.screens = ScreenManager(transition=NoTransition())
        self.screen("home")  # the others are built the first time they are shown
        self.banner = VerdictBanner()
        self.banner.host = root
        root.add_widget(self.screens)
        return root

    def on_start(self) -> None:
        """Resume the latest game if asked, tell systemd we are up, start the heartbeat."""
        trouble.install(self)
        if self.options.resume_latest:
            try:
                session = self.table.resume_latest()
            except JournalError as error:  # shown on the banner; the home screen stays
                session = None
                trouble.show_journal_problem(self, error)
            if session is not None:
                self.open_game_screen()
        trouble.show_settings_reset(self)
        if self.options.nfc_reader:
            self._reader = start_reader(self.nfc)
        if self.options.camera:
            self._camera = CameraFeed(self.options.camera, self.camera_watch, self.inbox.post,
                                      on_status=self._camera_status).start()
            Clock.schedule_interval(lambda _dt: self._camera.poll(), CAMERA_POLL_S)
        Window.bind(on_flip=self._first_flip)
        Window.canvas.ask_update()
        Clock.schedule_once(self._prebuild, PREBUILD_AFTER_S)
        if self.pairings_problem:
            self.banner.show(False, self.tr("nfc.pairings_unreadable"), self.pairings_problem)

    def _prebuild(self, _dt: float) -> None:
        """Build the next screen players open often, one per call, while nobody taps.

        So the first tap on Dice, Log or a game tile is as quick as the next one.
        """
        for name in PREBUILT:
            if name not in self.screens.screen_names:
                self.screen(name)
                Clock.schedule_once(self._prebuild, PREBUILD_EVERY_S)
                return
        gc.collect()
        gc.freeze()

    def _first_flip(self, *_args: Any) -> None:
        """The first frame is on the window: tell systemd we are up, start the heartbeat."""
        import time

        if self.first_frame_at is not None:
            return
        Window.unbind(on_flip=self._first_flip)
        self.first_frame_at = time.monotonic()
        if self.devices is not None:
            self.devices.status.ready()
        self.notifier.ready(self.status_line())
        beat = self.notifier.heartbeat_seconds
        if beat:
            self._heartbeat = Clock.schedule_interval(lambda _dt: self.notifier.heartbeat(),
                                                      beat)
        gc.collect()  # garbage first: what is frozen is never collected
        gc.freeze()  # what start-up built stays: collections skip it (shorter pauses)

    def on_stop(self) -> None:
        """Tell systemd the stop is on purpose and close the journal."""
        self.notifier.stopping()
        if self._reader is not None:
            self._reader.close()
        if self._camera is not None:
            self._camera.close()
        if self.devices is not None:
            self.devices.close()
        if self.table.session is not None:
            self.table.session.close()
        self.notifier.close()

    # -- navigation ------------------------------------------------------------------------
    def go(self, name: str) -> None:
        """Show the screen called ``name`` (``game`` is the open game's screen)."""
        if name == "game":
            self.open_game_screen()
            return
        if name in PLAIN_SCREENS:
            self.screen(name)
        if name not in self.screens.screen_names:
            raise KeyError(f"no screen called {name!r}")
        if name in ("home", "newgame", "settings"):
            self.banner.hide()  # a verdict belongs with its game
        leaving = self.screens.current_screen
        self.screens.current = name
        if leaving is not None and leaving.name in RELEASED_ON_LEAVE and leaving.name != name \
                and not getattr(leaving, "watching", False):
            self.release_screen(leaving)
        elif self._trim is None:  # what the last screen let go goes back to the system
            self._trim = Clock.schedule_once(self._give_memory_back, TRIM_AFTER_S)

    def screen(self, name: str) -> Any:
        """The plain screen ``name`` (home, tools, log...), built the first time it is needed.

        Screens nobody opens take no memory.

        Raises:
            KeyError: there is no such screen.
        """
        if name not in self.screens.screen_names:
            if name not in PLAIN_SCREENS:
                raise KeyError(f"no screen called {name!r}")
            self.screens.add_widget(load_class(PLAIN_SCREENS[name])(name=name))
        return self.screens.get_screen(name)

    def release_screen(self, screen: Any) -> None:
        """Take a screen out and let its memory go.

        The app's observers that call it are unbound, and the freed memory is handed back
        to the system a moment later.
        """
        self.screens.remove_widget(screen)
        for prop in ("revision", "lang"):
            for callback in list(self.get_property_observers(prop)):
                if _refers_to(callback, screen):
                    self.unbind(**{prop: callback})
        if self._trim is None:
            self._trim = Clock.schedule_once(self._give_memory_back, TRIM_AFTER_S)

    def _give_memory_back(self, _dt: float) -> None:
        self._trim = None
        gc.collect()
        give_back_memory()

    def game_screen_name(self) -> str:
        """The screen name of the open game."""
        session = self.table.require_session()
        return f"game_{session.game.name}"

    def open_game_screen(self) -> None:
        """Show the open game's referee screen, creating it the first time."""
        name = self.game_screen_name()
        self._recent_games = [n for n in self._recent_games if n != name][:KEPT_GAME_SCREENS - 1]
        for other in [s for s in self.screens.screens if s.name.startswith("game_")
                      and s.name != name and s.name not in self._recent_games]:
            self.release_screen(other)  # the screens of games played longest ago go
        self._recent_games.insert(0, name)
        session = self.table.require_session()
        if name not in self.screens.screen_names:
            self.screens.add_widget(game_screen_class(session.game.name)(name=name))
        was_showing = self.screens.current == name
        self.screens.current = name
        if session is not self._shown_session or was_showing:
            # A new or resumed game: every view redraws. Coming back from the log, the
            # dice or the simulation, the screen redraws itself on entering (once).
            self._shown_session = session
            self._sync_outputs()
            self.revision += 1

    def _sync_outputs(self) -> None:
        """Light the simulated ring as the game stands (after a resume or an undo)."""
        session = self.table.session
        if session is not None and session.game.name == "infinifield":
            from companion.app.views.infinifield_view import counter_ring

            ring = counter_ring(session.state)
            self.outputs.ring = tuple(ring)
            if self.devices is not None:
                lit = ring.index("due") if "due" in ring else ring.index("lit")
                self.devices.ring.show("X" if lit == 4 else lit + 1, ring[lit] == "due")

    # -- actions (called by the screens) ---------------------------------------------------
    def propose(self, action: str, source: str = "touch") -> Verdict:
        """Propose an action to the referee and show the verdict."""
        return self.table.propose(action, source)

    def roll(self) -> Verdict:
        """Let the companion roll what the game waits for."""
        return self.table.roll()

    def camera_frame(self) -> Any:
        """The camera's newest frame (``None`` without a camera or before its first frame)."""
        return None if self._camera is None else self._camera.grabber.latest()[1]

    def dice_frame(self, count: int) -> tuple[Any, Any]:
        """A frame of the dice tray and how to read its dice.

        With a camera: its newest frame, read by the trained networks. On a desktop: the
        simulated tray with ``count`` freshly rolled dice, read by the pip counter.
        """
        if self._camera is not None:
            from vision.readers.dice import read_die

            return self.camera_frame(), read_die
        return self.simulated_dice.frame(count), self.simulated_dice.reader

    def bases_frame(self) -> Any:
        """A frame of the table with the marked bases.

        The camera's newest, or on a desktop the simulated table with every mapped base.
        """
        return self.camera_frame() if self._camera is not None else self.simulated_bases.frame()

    def table_action(self, action: str) -> str:
        """``action`` as the table screen shows it, a shuffle's hidden order left out.

        The journal keeps the order (issue 15); the log screen may use this too.
        """
        from companion.app.verdict_text import table_action_text

        game = self.table.session.game.name if self.table.session is not None else ""
        return table_action_text(game, action,
                                 lambda count: self.tr("chance.hidden_order", count=count))

    def _table_changed(self) -> None:
        verdict = self.table.last_verdict
        if verdict is not None and hasattr(self, "banner"):
            if verdict.legal:
                headline = self.tr("banner.accepted", action=self.table_action(verdict.action))
                detail = self.table.detail(verdict, self.lang) if self.table.session else ""
                self.banner.show(True, headline, detail)
            else:
                headline = self.tr("banner.not_recorded" if verdict.code == NOT_RECORDED
                                   else "banner.refused", action=self.table_action(verdict.action))
                reason = self.table.detail(verdict, self.lang) if self.table.session \
                    else verdict.reason
                self.banner.show(False, headline, reason, verdict.rule)
        elif hasattr(self, "banner") and self.table.notice:
            self.banner.show(True, self.tr("banner.resumed"), self.table.notice)
        elif hasattr(self, "banner"):
            self.banner.hide()
        self._sync_outputs()
        self.revision += 1
        self.notifier.status(self.status_line())

    def _camera_status(self, status: str) -> None:
        log.warning("camera %s", status)
        self.notifier.status(f"{self.status_line()}; camera {status}")
        if self.devices is not None:
            working = status.startswith(("camera_open", "camera_back"))
            self.devices.status.report("camera", ok=working)

    def _reader_status(self, link: Any) -> None:
        """The NFC bridge's link changed: the status light says whether the reader works."""
        log.warning("NFC bridge %s %s %s", link.state, link.port, link.detail)
        if self.devices is not None:
            self.devices.status.report("reader", ok=link.state == "connected")
        self._outputs_changed()

    def _outputs_changed(self) -> None:
        self.revision += 1

    def status_line(self) -> str:
        """One line for ``systemctl status``: the game at the table and how far it is."""
        session = self.table.session
        if session is None:
            return "home screen, no game open"
        state = "finished" if session.finished else "playing"
        return f"{state} {session.game.name}: {len(session.record)} action(s), journal " \
               f"{session.journal.path if session.journal else '-'}"
