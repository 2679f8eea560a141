"""How long a tap takes to show: the real app in a real 800x480 window, driven by touches,
from the finger's touch to the next frame drawn on the window; next to a bare Kivy button
tapped the same way in the same run (the baseline: what Kivy itself costs on this machine).

Target (issue 15): the 90th percentile under 150 ms.

    .venv/bin/python bench/app_tap_latency.py            # needs a display; starts Xvfb if none
    .venv/bin/python bench/app_tap_latency.py --rounds 5 --fps 30

The tour is what a table does: open a game's new-game screen, start it, tap its actions,
open the log and go back, open the dice tools and the simulation and go back, go home and
resume an unfinished game with a long record, and so on. The first round is reported on its
own (a fresh app builds and draws everything for the first time), then the rounds after
it. Each tap is a
touch down and up at the centre of the button (Kivy's own test touch, dispatched as the
SDL2 input provider would); the time runs from the touch down to the ``on_flip`` of the
next frame drawn after the tap's handler ran, with the frame rate capped as on the Pi.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from virtual_display import ensure_display  # bench/, beside this script

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def prepare_long_game(data_dir: Path, moves: int = 60, seed: int = 3) -> Path:
    """An unfinished Infinifield game with a long record (with refusals), to resume."""
    from companion.app.journal_shelf import JournalShelf
    from companion.games.registry import load_game
    from companion.resources import shipped_sources
    from companion.session import Session

    game = load_game("infinifield")
    sources = shipped_sources("companion.games.infinifield", {"setup": "fields/official.toml"})
    path = JournalShelf(data_dir / "journals").new_path("infinifield", now=0)
    rng = random.Random(seed)
    with Session.new(game, sources, {"players": ["Ann", "Ben", "Cat"]}, seed=seed,
                     journal_path=path) as session:
        for _ in range(moves):
            if session.finished:
                break
            legal = [game.format_action(a) for a in session.legal_actions()]
            session.propose(rng.choice(legal), source="touch")
            session.propose("move Ann W1 W1", source="touch")  # refused: kept in the log
    return path


class Tapper:
    """Taps buttons of the running app and times each tap to the next drawn frame."""

    def __init__(self, app: Any) -> None:
        import kivy.tests.common  # noqa: F401 - imported here, not inside the first timed tap
        from kivy.base import EventLoop
        from kivy.core.window import Window

        self.app = app
        self.loop = EventLoop
        self.window = Window
        self.flipped_at = 0.0
        Window.bind(on_flip=self._flip)
        self.times: dict[str, list[float]] = defaultdict(list)

    def _flip(self, *_args: Any) -> None:
        self.flipped_at = time.perf_counter()

    def settle(self, seconds: float = 0.3) -> None:
        """Let frames run (animations, scheduled work) before the next tap."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.loop.idle()

    def tap(self, widget: Any, label: str) -> float:
        """Touch ``widget``'s centre; return the milliseconds to the next drawn frame."""
        from kivy.tests.common import UnitTestTouch

        x, y = widget.to_window(*widget.center)
        banner = getattr(self.app, "banner", None)
        if banner is not None and banner.parent is not None and banner.collide_point(x, y) \
                and label != "dismiss the banner":
            self.tap(_Spot(banner.right - 24, banner.top - 12), "dismiss the banner")
        touch = UnitTestTouch(x, y)
        started = time.perf_counter()
        touch.touch_down()
        touch.touch_up()
        self.flipped_at = 0.0
        for _ in range(20):
            self.loop.idle()
            if self.flipped_at:
                break
        elapsed = (self.flipped_at or time.perf_counter()) - started
        self.times[label].append(elapsed * 1000)
        self.settle()
        return elapsed * 1000

    def button(self, text: str | None = None, widget_id: str | None = None,
               action: str | None = None) -> Any:
        """A visible, enabled button of the window by text, id or action."""
        from kivy.uix.button import Button

        for root in [*reversed(self.window.children)]:
            for widget in root.walk(restrict=True):
                if not isinstance(widget, Button) or widget.disabled or widget.opacity == 0 \
                        or widget.get_root_window() is None:
                    continue
                if text is not None and widget.text == text:
                    return widget
                if action is not None and getattr(widget, "action", None) == action:
                    return widget
        if widget_id is not None:
            screen = self.app.screens.current_screen
            for child in [screen, *screen.walk()]:
                if widget_id in getattr(child, "ids", {}):
                    return child.ids[widget_id]
        raise LookupError(f"no button {text or widget_id or action!r} on "
                          f"{self.app.screens.current}")


class _Spot:
    """A point of the window to tap (where no widget object is at hand)."""

    def __init__(self, x: float, y: float) -> None:
        self.center = (x, y)

    def to_window(self, x: float, y: float) -> tuple[float, float]:
        return x, y


def baseline(tapper: Tapper, taps: int) -> None:
    """A bare Kivy button on the same window: each tap changes its text."""
    from kivy.uix.button import Button

    button = Button(text="bare Kivy button", size_hint=(None, None), size=(240, 80),
                    pos=(280, 200))
    button.bind(on_release=lambda b: setattr(b, "text", f"tapped {time.monotonic():.3f}"))
    tapper.window.add_widget(button)
    tapper.settle()
    for _ in range(taps):
        tapper.tap(button, "bare Kivy button (baseline)")
    tapper.window.remove_widget(button)
    tapper.settle()


def tour(tapper: Tapper, rng: random.Random, long_game: Path) -> None:
    """One round of a table's taps."""
    app = tapper.app

    def back() -> None:
        tapper.tap(tapper.button(text="<"), "back to the game")

    def action_buttons(count: int) -> None:
        for _ in range(count):
            panel = app.screens.current_screen.ids.get("panel")
            if panel is None or app.table.session is None or app.table.session.finished:
                return
            if panel.mode == "chance":
                tapper.tap(panel.ids.roll_button, f"{app.table.session.game.name}: roll for me")
                continue
            legal = set(app.table.legal_texts())
            buttons = [b for b in panel.ids.actions.walk(restrict=True)
                       if getattr(b, "action", None) in legal and not b.disabled
                       and visible(b)]
            if not buttons:
                return
            button = rng.choice(buttons)
            game = app.table.session.game.name
            tapper.tap(button, f"{game}: {button.action.split()[0]}")

    home(tapper)
    tapper.tap(tapper.button(text="Infinifield"), "home: pick a game")
    tapper.tap(tapper.button(widget_id="start"), "start a game")
    action_buttons(6)
    for name, label in (("log_button", "open the log"), ("tools_button", "open the dice"),
                        ("sim_button", "open the simulation")):
        tapper.tap(tapper.button(widget_id=name), label)
        back()
    action_buttons(4)
    if app.screens.current.startswith("game_"):
        tapper.tap(tapper.button(widget_id="log_button"), "open the log")
        back()
    home(tapper)
    tapper.tap(tapper.button(action=str(long_game)), "resume a long game")
    action_buttons(3)
    if app.screens.current.startswith("game_"):
        tapper.tap(tapper.button(widget_id="log_button"), "open the log")
        back()
    home(tapper)
    tapper.tap(tapper.button(text="Infinidungeon"), "home: pick a game")
    tapper.tap(tapper.button(widget_id="start"), "start a game")
    action_buttons(6)
    if app.screens.current.startswith("game_"):
        tapper.tap(tapper.button(widget_id="log_button"), "open the log")
        back()


def visible(widget: Any) -> bool:
    """Whether a finger can reach ``widget``'s centre: inside the window and inside every
    scrolled area around it (a list scrolled past it hides it)."""
    from kivy.uix.stencilview import StencilView

    x, y = widget.to_window(*widget.center)
    if not (0 <= x < 800 and 0 <= y < 480):
        return False
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, StencilView):
            left, bottom = parent.to_window(parent.x, parent.y)
            if not (left <= x <= left + parent.width and bottom <= y <= bottom + parent.height):
                return False
        parent = parent.parent
    return True


def home(tapper: Tapper) -> None:
    """Back to the home screen with the Home button."""
    if tapper.app.screens.current != "home":
        tapper.tap(tapper.button(widget_id="home_button"), "go home")


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def report(times: dict[str, list[float]], out: Callable[[str], object] = print) -> float:
    """Print the figures; return the app's 90th percentile."""
    base = times.pop("bare Kivy button (baseline)")
    every = [value for values in times.values() for value in values]
    out(f"\n{'taps':<28} {'n':>4} {'median':>8} {'p90':>8} {'max':>8}  (ms, touch to frame)")
    out(f"{'bare Kivy button (baseline)':<28} {len(base):>4} {statistics.median(base):8.1f} "
        f"{percentile(base, 0.9):8.1f} {max(base):8.1f}")
    for label, values in sorted(times.items(), key=lambda item: -percentile(item[1], 0.9)):
        out(f"{label:<28} {len(values):>4} {statistics.median(values):8.1f} "
            f"{percentile(values, 0.9):8.1f} {max(values):8.1f}")
    p90 = percentile(every, 0.9)
    median = statistics.median(every)
    out(f"\n{'companion app, every tap':<28} {len(every):>4} {median:8.1f} {p90:8.1f} "
        f"{max(every):8.1f}")
    out(f"median x{median / statistics.median(base):.1f} of the bare button; 90th percentile "
        f"{p90:.0f} ms, target < 150 ms: {'OK' if p90 < 150 else 'MISSED'}")
    return p90


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="tours of the app")
    parser.add_argument("--fps", type=int, default=30, help="frame-rate cap (the Pi's)")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    server = ensure_display(160)
    work = Path(tempfile.mkdtemp(prefix="tap-bench-"))
    os.environ.update(KIVY_NO_ARGS="1", KIVY_HOME=str(work / "kivy"))
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    try:
        data_dir = work / "data"
        long_game = prepare_long_game(data_dir)
        from companion.app.main import configure_kivy

        configure_kivy(argparse.Namespace(kiosk=False, size=(800, 480), fps=args.fps),
                       data_dir)
        from companion.app.application import AppOptions, CompanionApp

        app = CompanionApp(AppOptions(data_dir, "en", False, args.seed, args.fps))
        app._run_prepare()
        tapper = Tapper(app)
        tapper.settle(3.0)  # the app builds its often-used screens in the background
        print(f"tap latency bench: {args.rounds} rounds, 800x480, {args.fps} fps cap, "
              f"display {os.environ.get('DISPLAY')}")
        baseline(tapper, 10)
        rng = random.Random(args.seed)
        tour(tapper, rng, long_game)
        first = dict(tapper.times)
        tapper.times = defaultdict(list, {"bare Kivy button (baseline)": []})
        for _ in range(args.rounds):
            tour(tapper, rng, long_game)
        baseline(tapper, 10)
        print("\nfirst round (a fresh app: every screen built and drawn for the first time; "
              "llvmpipe also compiles its shader variants on first use)")
        first["bare Kivy button (baseline)"] = list(first["bare Kivy button (baseline)"])
        report(first)
        print(f"\nthe {args.rounds} rounds after it")
        report(dict(tapper.times))
        app.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if server is not None:
            server.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
