"""Infinidungeon's referee screen: the room, the deck, the dice tray and the advisor's odds.

While a reroll is being chosen, the dice on the table are buttons: tap them to mark the
ones to reroll (marked dice turn amber and show a "R" under their face), then "Reroll"
proposes ``reroll 1 3`` (or ``reroll none``). The advisor's exact odds for the best
choices are listed beside them, the best first.

While dice are due, "Read dice from camera" reads the tray off the main loop
(:mod:`companion.app.camera_dice`) and opens the dice keypad holding the values read, left
to right: the player confirms (Enter) or corrects them, and the roll is proposed with
source ``camera``.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion.app.camera_dice import DiceRead, dungeon_dice_due, keypad_text
from companion.app.kvload import load_kv_beside
from companion.app.screens.referee import RefereeScreen
from companion.app.views.infinidungeon_view import dungeon_view, reroll_text
from companion.app.widgets.common import BigButton
from companion.app.widgets.dice_keypad import DiceKeypad


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
        dice_due: how many dice the engine waits for (0: none; the camera button hides).
        camera_text: what the camera is doing or read.
        camera_keypad: the keypad showing the camera's values, while it is open.
    """

    room_text = StringProperty("")
    details = StringProperty("")
    status = StringProperty("")
    odds_text = StringProperty("")
    choosing = BooleanProperty(False)
    dice_due = NumericProperty(0)
    camera_text = StringProperty("")
    camera_keypad: DiceKeypad | None = None

    def on_kv_post(self, base_widget: Any) -> None:
        """Keep the camera row; it is in the tree only while dice are due.

        A hidden button would still swallow the touches meant for the dice under it.
        """
        super().on_kv_post(base_widget)
        self._camera_row = self.ids.camera_row.__self__
        self.on_dice_due()

    def on_dice_due(self, *_args: Any) -> None:
        """Show the camera row only while the engine waits for dice."""
        row = getattr(self, "_camera_row", None)
        if row is None:
            return
        dice = self.ids.dice
        if self.dice_due and row.parent is None:
            dice.parent.add_widget(row, index=dice.parent.children.index(dice))
        elif not self.dice_due and row.parent is not None:
            row.parent.remove_widget(row)

    def refresh(self) -> None:
        """Redraw from the session."""
        super().refresh()
        app = App.get_running_app()
        session = app.table.session
        if session is None or session.game.name != "infinidungeon" or \
                self.manager is None or self.manager.current != self.name:
            return
        view = dungeon_view(session.state)
        self.room_text = app.translator.data(
            "infinidungeon", f"{view.room}  ·  {view.kind}  ·  {view.symbol}")
        self.details = app.translator.data("infinidungeon",
                                           "\n".join((*view.doorways, *view.monsters)))
        self.status = app.tr("dungeon.status", dice=view.dice_left, deck=view.deck_left,
                             crystals=view.crystals)
        self.choosing = view.choosing_reroll
        self.dice_due = dungeon_dice_due(session.state)
        if not self.dice_due:
            self.camera_text = ""
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

    def read_dice(self, *_args: Any) -> None:
        """Read the dice in the tray with the camera (off the main loop)."""
        app = App.get_running_app()
        frame, reader = app.dice_frame(int(self.dice_due))
        self.camera_text = app.tr("camera.reading")
        app.camera_dice.read(frame, reader, self.show_camera_dice)

    def show_camera_dice(self, result: DiceRead) -> None:
        """On the main loop: show what the camera read on the keypad, to confirm or correct."""
        app = App.get_running_app()
        if result.problem:
            self.camera_text = app.tr("camera.problem", problem=result.problem)
            return
        faces = keypad_text(list(result.values))
        self.camera_text = app.tr("camera.read_result", faces=faces)
        keypad = DiceKeypad(on_enter=self.confirm_camera_roll)
        keypad.text = faces
        keypad.bind(on_dismiss=self._camera_keypad_closed)
        self.camera_keypad = keypad
        keypad.open()

    def confirm_camera_roll(self, typed: str) -> None:
        """Propose the confirmed values as the roll (source ``camera``)."""
        self.camera_text = ""
        App.get_running_app().propose(f"roll {typed}", "camera")


    def _camera_keypad_closed(self, keypad: Any) -> None:
        if self.camera_keypad is keypad:
            self.camera_keypad = None


load_kv_beside(__file__)
