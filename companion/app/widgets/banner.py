"""The verdict banner: every answer of the referee, with the rule a refusal cites.

Accepted: green, a round badge reading "OK". Refused: red, a square badge reading "NO",
the reason in one sentence and the rule (``infinifield: "Every 5 turns", bullet 3``).
Colour is never the only cue. Tapping the banner hides it.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

from companion.app.kvload import load_kv_beside


class VerdictBanner(ButtonBehavior, BoxLayout):
    """Shows the last verdict.

    Attributes:
        shown: whether the banner is visible.
        legal: accepted (green) or refused (red).
        headline: the action and the word accepted/refused.
        reason: the refusal's sentence (or the events an accepted action caused).
        rule: the rule a refusal cites.
    """

    shown = BooleanProperty(False)
    legal = BooleanProperty(True)
    headline = StringProperty("")
    reason = StringProperty("")
    rule = StringProperty("")

    def on_shown(self, *_args: object) -> None:
        """Join the layout when shown and leave it when hidden (so it never takes touches)."""
        host = getattr(self, "host", None)
        if host is None:
            return
        if self.shown and self.parent is None:
            host.add_widget(self)
        elif not self.shown and self.parent is not None:
            self.parent.remove_widget(self)

    def show(self, legal: bool, headline: str, reason: str = "", rule: str = "") -> None:
        """Show a verdict."""
        self.legal, self.headline, self.reason, self.rule = legal, headline, reason, rule
        self.shown = True

    def hide(self) -> None:
        """Hide the banner."""
        self.shown = False

    def on_release(self) -> None:
        """A tap hides the banner."""
        self.hide()


load_kv_beside(__file__)
