"""Infinidungeon's referee screen: the room, the deck, the dice tray and the advisor's odds.

While a reroll is being chosen, the dice on the table are buttons: tap them to mark the
ones to reroll (marked dice turn amber and show a "R" under their face), then "Reroll"
proposes ``reroll 1 3`` (or ``reroll none``). The advisor's exact odds for the best
choices are listed beside them, the best first.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion.app.kvload import load_kv_beside
from companion.app.screens.referee import RefereeScreen
from companion.app.views.infinidungeon_view import dungeon_view, reroll_text
from companion.app.widgets.common import BigButton


class TrayDie(BigButton):
    """One die on the table: its value, its position, and whether it is marked to reroll."""

    position = NumericProperty(0)
    marked = BooleanProperty(False)


class InfinidungeonScreen(RefereeScreen):
    """Room and dice on the left, actions on the right.

    Attributes:
        room_text: room name, kind and symbol.
        details: doorways and monsters.
        status: dice left, cards in the deck, crystals.
        odds_text: the advisor's best choices.
        choosing: whether dice can be marked for a reroll now.
    """

    room_text = StringProperty("")
    details = StringProperty("")
    status = StringProperty("")
    odds_text = StringProperty("")
    choosing = BooleanProperty(False)

    def refresh(self) -> None:
        """Redraw from the session."""
        super().refresh()
        app = App.get_running_app()
        session = app.table.session
        if session is None or session.game.name != "infinidungeon" or \
                self.manager is None or self.manager.current != self.name:
            return
        view = dungeon_view(session.state)
        self.room_text = f"{view.room}  ·  {view.kind}  ·  {view.symbol}"
        self.details = "\n".join((*view.doorways, *view.monsters))
        self.status = app.tr("dungeon.status", dice=view.dice_left, deck=view.deck_left,
                             crystals=view.crystals)
        self.choosing = view.choosing_reroll
        lines = [f"{i}. {line}" for i, line in enumerate(view.odds, start=1)]
        self.odds_text = app.tr("dungeon.advisor") + "\n" + "\n".join(lines) if lines else ""
        tray = self.ids.dice
        tray.clear_widgets()
        for position, value in enumerate(view.rolled, start=1):
            die = TrayDie(text=str(value), position=position, disabled=not self.choosing)
            die.bind(on_release=self.toggle)
            tray.add_widget(die)

    def toggle(self, die: TrayDie) -> None:
        """Mark or unmark a die for the reroll."""
        die.marked = not die.marked

    def marked_positions(self) -> set[int]:
        """The positions marked for the reroll."""
        return {int(die.position) for die in self.ids.dice.children if die.marked}

    def reroll(self, *_args: Any) -> None:
        """Propose the reroll of the marked dice (``reroll none`` when none is marked)."""
        App.get_running_app().propose(reroll_text(self.marked_positions()), "touch")


load_kv_beside(__file__)
