"""Drive the real app in this process: a real SDL2 window (Xvfb), simulated touches, and
screenshots read back from the window and saved under ``artifacts/screenshots/``."""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
SIZE = (800, 480)


class AppDriver:
    """One running CompanionApp, stepped frame by frame by the test."""

    def __init__(self, data_dir: Path, seed: int = 7, language: str = "en") -> None:
        from companion.app.main import configure_kivy

        args = argparse.Namespace(kiosk=False, size=SIZE, fps=200)
        configure_kivy(args, data_dir)
        from kivy.base import EventLoop

        from companion.app.application import AppOptions, CompanionApp

        self.app = CompanionApp(AppOptions(data_dir, language, False, seed, 200))
        self.app._run_prepare()
        self.loop = EventLoop
        self.window = EventLoop.window
        self.frames(5)

    # -- stepping --------------------------------------------------------------------------
    def frames(self, count: int = 2) -> None:
        for _ in range(count):
            self.loop.idle()

    def wait(self, seconds: float) -> None:
        import time

        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.loop.idle()

    # -- finding and touching --------------------------------------------------------------
    @property
    def screen(self) -> Any:
        return self.app.screens.current_screen

    def widget(self, widget_id: str, screen: Any = None) -> Any:
        """The widget with ``widget_id`` in the screen's kv rules or any nested rule's."""
        screen = screen or self.screen
        if widget_id in screen.ids:
            return screen.ids[widget_id]
        for child in screen.walk():
            ids = getattr(child, "ids", {})
            if widget_id in ids:
                return ids[widget_id]
        raise KeyError(f"no widget with id {widget_id!r} on screen {screen.name}")

    def tap_at(self, x: float, y: float) -> None:
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.frames(1)
        touch.touch_up()
        self.frames(3)

    def tap(self, widget: Any) -> None:
        """Touch the centre of ``widget`` as a finger would (it must be visible there)."""
        x, y = widget.to_window(*widget.center)
        assert 0 <= x < self.window.width and 0 <= y < self.window.height, \
            f"{widget!r} is off screen at {(x, y)}"
        self.tap_banner_away(x, y)
        self.tap_at(x, y)

    def tap_banner_away(self, x: float, y: float) -> bool:
        """Where the verdict banner lies over ``(x, y)``, tap it away first, as a player
        would (it overlays the top of the screen; it never moves what is under it)."""
        banner = getattr(self.app, "banner", None)
        if banner is None or banner.parent is None or not banner.collide_point(x, y):
            return False
        for _ in range(3):  # a verdict posted from a sensor thread may arrive just after
            self.tap_at(banner.right - 24, banner.top - 12)
            if banner.parent is None:
                break
        assert banner.parent is None, f"a tap on the banner hides it: {banner.headline!r} " \
            f"{banner.reason!r}"
        return True

    def tap_text(self, text: str, root: Any = None) -> None:
        """Tap the visible button whose text is ``text``."""
        self.tap(self.find_button(text, root))

    def find_button(self, text: str, root: Any = None) -> Any:
        from kivy.uix.button import Button

        root = root or self.app.root
        for widget in root.walk():
            if isinstance(widget, Button) and widget.text == text and not widget.disabled \
                    and widget.opacity > 0 and widget.height > 0:
                return widget
        raise AssertionError(f"no button {text!r} on screen {self.screen.name}")

    def buttons(self, root: Any = None) -> list[Any]:
        from kivy.uix.button import Button

        return [w for w in (root or self.app.root).walk() if isinstance(w, Button)]

    def type_into(self, widget: Any, text: str) -> None:
        widget.text = text
        self.frames(1)

    # -- pixels ----------------------------------------------------------------------------
    def screenshot(self, name: str, frames: int = 3) -> np.ndarray:
        """Save the window as ``artifacts/screenshots/<name>.png``; return it as RGB.

        ``frames`` are stepped first; 0: the frame drawn last, as it was (one whose moment
        matters, e.g. a ring filling while a touch is held).
        """
        self.frames(frames)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        written = Path(self.window.screenshot(str(SCREENSHOTS / f"{name}.png")))
        target = SCREENSHOTS / f"{name}.png"
        shutil.move(written, target)
        image = cv2.imread(str(target), cv2.IMREAD_COLOR)
        assert image is not None, f"{target}: not a readable PNG"
        return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)

    def pixel_of(self, image: np.ndarray, widget: Any, dx: float = 0, dy: float = 0) -> tuple:
        """The screenshot's colour at the centre of ``widget`` (+ offset), as 0-255 RGB."""
        x, y = widget.to_window(widget.center_x + dx, widget.center_y + dy)
        row = image.shape[0] - 1 - int(y)
        return tuple(int(v) for v in image[row, int(x)])

    def stop(self) -> None:
        self.app.stop()
        self.frames(1)


def close_to(colour: tuple, rgba: tuple, tolerance: int = 30) -> bool:
    """Whether a 0-255 RGB pixel matches a 0-1 RGBA theme colour.

    The pixel's values are taken as Python ints: a NumPy ``uint8`` minus a larger number
    wraps round instead of going negative.
    """
    return all(abs(int(c) - round(t * 255)) <= tolerance
               for c, t in zip(colour, rgba[:3], strict=False))


def share_of(image: np.ndarray, rgba: tuple, tolerance: int = 30) -> float:
    """The share of the screenshot's pixels close to a theme colour."""
    target = np.array([round(t * 255) for t in rgba[:3]])
    close = np.all(np.abs(image.astype(int) - target) <= tolerance, axis=2)
    return float(close.mean())


def environment_ready() -> str | None:
    """Why the GUI tests cannot run here, or ``None``."""
    if not os.environ.get("DISPLAY"):
        return "no X display (run under xvfb-run, as scripts/test does)"
    return None


def go_home(driver: AppDriver) -> None:
    """Back to the home screen the way a player would (the Home or back button)."""
    for _ in range(3):
        if driver.screen.name == "home":
            return
        try:
            driver.tap(driver.widget("home_button"))
        except KeyError:
            from kivy.uix.button import Button

            backs = [w for w in driver.screen.walk() if isinstance(w, Button) and w.text == "<"]
            driver.tap(backs[0])
    assert driver.screen.name == "home"


def start_game(driver: AppDriver, title: str, layout: str | None = None,
               players: int | None = None) -> None:
    """From anywhere: home, the game's tile, players and layout, Start (all by touch)."""
    go_home(driver)
    driver.tap_text(title)
    assert driver.screen.name == "newgame"
    if players is not None:
        driver.tap(driver.find_button(str(players), driver.screen.ids.counts))
    if layout is not None:
        driver.tap(driver.find_button(layout, driver.screen.ids.layouts))
    driver.tap(driver.widget("start"))
    assert driver.screen.name.startswith("game_"), driver.screen.ids.get("error")


def too_small_buttons(driver: AppDriver) -> list[str]:
    """Visible buttons of the current screen smaller than 48 px in either direction."""
    from kivy.uix.button import Button

    small = []
    for widget in driver.app.root.walk():
        visible = isinstance(widget, Button) and widget.opacity > 0 and widget.height > 0 \
            and widget.get_root_window() is not None and not widget.disabled
        if visible and (widget.height < 48 or widget.width < 48):
            small.append(f"{widget.text!r} {widget.width:.0f}x{widget.height:.0f}")
    return small
