"""The verdict banner: every answer of the referee, with the rule a refusal cites.

Accepted: green, a round badge reading "OK". Refused: red, a square badge reading "NO",
the reason in one sentence and the rule (``infinifield: "Every 5 turns", bullet 3``).
Colour is never the only cue. Tapping the banner hides it.

The banner *overlays* the top of the screen, from the top edge down (issue 15): it is drawn
on top of the window and never joins a layout, so nothing under it moves and the next tap
lands where the player saw its target. It covers the header bar (the title and the
navigation buttons, which are not needed mid-turn) rather than the board, the dice or the
action buttons; a verdict of one or two lines covers nothing else, a longer refusal reaches
a little further down. Its height follows its text (every line shows); text taller than
:data:`MAX_SHARE` of the window scrolls inside it. An accepted verdict hides itself after
:data:`ACCEPTED_SECONDS` (the log keeps it); a refusal stays until tapped.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.app import theme
from companion.app.kvload import load_kv_beside

MIN_HEIGHT = theme.TOUCH_MIN_PX + 8
"""The banner is at least as high as the header bar it covers."""

MAX_SHARE = 0.5
"""The banner never covers more than this share of the window's height (then it scrolls)."""

ACCEPTED_SECONDS = 6.0
"""How long an accepted verdict stays before it hides itself (refusals stay until tapped)."""


class VerdictBanner(ButtonBehavior, BoxLayout):
    """Shows the last verdict, over the screen.

    Attributes:
        shown: whether the banner is visible.
        legal: accepted (green) or refused (red).
        headline: the action and the word accepted/refused.
        reason: the refusal's sentence (or the events an accepted action caused).
        rule: the rule a refusal cites.
        content_height: the height its text needs (the banner is at most
            :data:`MAX_SHARE` of the window; beyond that the text scrolls).
        auto_hide: seconds after which an accepted verdict hides itself (0: never).
    """

    shown = BooleanProperty(False)
    legal = BooleanProperty(True)
    headline = StringProperty("")
    reason = StringProperty("")
    rule = StringProperty("")
    content_height = NumericProperty(0)
    auto_hide = NumericProperty(ACCEPTED_SECONDS)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._timer: Any = None
        self.bind(height=lambda *_: self.place())

    def on_shown(self, *_args: object) -> None:
        """Lie over the window when shown, leave it when hidden (so it never takes touches).

        ``host`` is any widget of the app's window (the app sets its root); the banner is
        added to that widget's window, above every screen, never to a layout.
        """
        host = getattr(self, "host", None)
        window = host.get_root_window() if host is not None else None
        if self.shown and self.parent is None and window is not None:
            window.add_widget(self)
            window.bind(size=self._window_resized)
            self.place()
        elif not self.shown and self.parent is not None:
            window = self.parent
            window.unbind(size=self._window_resized)
            window.remove_widget(self)

    def _window_resized(self, *_args: Any) -> None:
        self.place()

    def place(self) -> None:
        """Span the window's width from its top edge, as high as the text needs."""
        window = self.parent
        if window is None:
            return
        self.width = window.width
        wanted = max(MIN_HEIGHT, self.content_height + 16)
        self.height = min(wanted, window.height * MAX_SHARE)
        self.x = 0
        self.top = window.height

    def on_content_height(self, *_args: Any) -> None:
        """Grow or shrink with the text."""
        self.place()

    def show(self, legal: bool, headline: str, reason: str = "", rule: str = "") -> None:
        """Show a verdict (an accepted one hides itself after :attr:`auto_hide` seconds)."""
        self.legal, self.headline, self.reason, self.rule = legal, headline, reason, rule
        self.shown = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if legal and self.auto_hide > 0:
            self._timer = Clock.schedule_once(lambda _dt: self.hide(), self.auto_hide)

    def hide(self) -> None:
        """Hide the banner."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.shown = False

    def on_release(self) -> None:
        """A tap hides the banner."""
        self.hide()


load_kv_beside(__file__)
