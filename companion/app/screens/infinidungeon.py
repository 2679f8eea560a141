"""Infinidungeon's referee screen: the room, the deck, the dice tray and the advisor's odds.

While a reroll is being chosen, the dice on the table are buttons: tap them to mark the
ones to reroll (marked dice turn amber and show a "R" under their face), then "Reroll"
proposes ``reroll 1 3``; "Keep all" proposes ``reroll none``. The odds of the marked dice
are said in words under them ("you win this room: 45 %"), and the action list beside them
is the advisor's: every choice with its exact odds, best first (issue 15).

Dice always show dark digits on their off-white face, tappable or not. The room's doorways
and monsters stand in two columns that scroll rather than drop a line.

While dice are due, "Read dice from camera" reads the tray off the main loop
(:mod:`companion.app.camera_dice`) and opens the dice keypad holding the values read, left
to right: the player confirms (Enter) or corrects them, and the roll is proposed with
source ``camera``.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion.app.camera_dice import DiceRead, count_problem, dungeon_dice_due, keypad_text
from companion.app.kvload import load_kv_beside
from companion.app.screens.referee import RefereeScreen
from companion.app.views.infinidungeon_view import (
    advice_heading,
    advice_rows,
    current_advice,
    dungeon_view,
    marked_odds,
    reroll_text,
)
from companion.app.widgets.common import BigButton
from companion.app.widgets.dice_crops import DiceCrops
from companion.app.widgets.dice_keypad import DiceKeypad
from companion.session import Session


class TrayDie(BigButton):
    """One die on the table: its value, its position, and whether it is marked to reroll."""

    position = NumericProperty(0)
    marked = BooleanProperty(False)


class InfinidungeonScreen(RefereeScreen):
    """Room and dice on the left, actions on the right.

    Attributes:
        room_text: room name, kind and symbol.
        details: doorways and monsters.
        doorways_text: one line per doorway.
        monsters_text: one line per monster.
        status: dice left, cards in the deck, crystals.
        odds_text: the odds of the dice marked for the reroll, in words.
        choosing: whether dice can be marked for a reroll now.
        dice_due: how many dice the engine waits for (0: none; the camera button hides).
        camera_text: what the camera is doing or read.
        camera_keypad: the keypad showing the camera's values, while it is open.
    """

    room_text = StringProperty("")
    details = StringProperty("")
    doorways_text = StringProperty("")
    monsters_text = StringProperty("")
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
        self._choose_box = self.ids.choose_box.__self__
        self.ids.panel.action_view = self.advisor_list
        self.on_dice_due()
        self.on_choosing()

    def on_choosing(self, *_args: Any) -> None:
        """Show the reroll row (odds, Reroll, Keep all) only while a reroll is chosen."""
        box = getattr(self, "_choose_box", None)
        if box is None:
            return
        panel = self.ids.room_panel
        if self.choosing and box.parent is None:
            panel.add_widget(box, index=0)
        elif not self.choosing and box.parent is not None:
            panel.remove_widget(box)

    def advisor_list(self, actions: list[str]) -> tuple[str, list[tuple[str, str]]] | None:
        """The action list while a reroll is chosen: every choice in words, best first."""
        session = App.get_running_app().table.session
        if session is None or session.game.name != "infinidungeon":
            return None
        advice = current_advice(session.state)
        if advice is None:
            return None
        tr = App.get_running_app().tr
        legal = set(actions)
        rows = [(label, action) for label, action in advice_rows(advice, tr) if action in legal]
        return advice_heading(advice, tr), rows

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

    def redraw(self, session: Session) -> None:
        """Redraw from the session."""
        app = App.get_running_app()
        view = dungeon_view(session.state)
        self.room_text = app.translator.data(
            "infinidungeon", f"{view.room}  ·  {view.kind}  ·  {view.symbol}")
        self.details = app.translator.data("infinidungeon",
                                           "\n".join((*view.doorways, *view.monsters)))
        self.doorways_text = app.translator.data("infinidungeon", "\n".join(view.doorways))
        self.monsters_text = app.translator.data("infinidungeon", "\n".join(view.monsters))
        self.status = app.tr("dungeon.status", dice=view.dice_left, deck=view.deck_left,
                             crystals=view.crystals)
        self.choosing = view.choosing_reroll
        self.dice_due = dungeon_dice_due(session.state)
        if not self.dice_due:
            self.camera_text = ""
        tray = self.ids.dice
        tray.clear_widgets()
        for position, value in enumerate(view.rolled, start=1):
            die = TrayDie(text=str(value), position=position, disabled=not self.choosing)
            die.bind(on_release=self.toggle)
            tray.add_widget(die)
        self.show_marked_odds()

    def toggle(self, die: TrayDie) -> None:
        """Mark or unmark a die for the reroll (the odds of the marking follow)."""
        die.marked = not die.marked
        self.show_marked_odds()

    def show_marked_odds(self) -> None:
        """Say in words what the dice marked now (none: keep all) give."""
        app = App.get_running_app()
        session = app.table.session
        advice = current_advice(session.state) if session is not None and \
            session.game.name == "infinidungeon" else None
        self.odds_text = marked_odds(advice, self.marked_positions(), app.tr) \
            if advice is not None else ""
        self.ids.reroll_button.disabled = not self.marked_positions()  # none: Keep all

    def keep_all(self, *_args: Any) -> None:
        """Keep every die as rolled (``reroll none``)."""
        App.get_running_app().propose(reroll_text(()), "touch")

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
        app.camera_dice.read(frame, reader, self.show_camera_dice, expected=int(self.dice_due))

    def show_camera_dice(self, result: DiceRead) -> None:
        """On the main loop: show what the camera read on the keypad, to confirm or correct."""
        app = App.get_running_app()
        if result.problem:
            self.camera_text = app.tr("camera.problem", problem=result.problem)
            return
        faces = keypad_text(list(result.values))
        self.camera_text = app.tr("camera.read_result", faces=faces)
        if (off := count_problem(result.expected, len(result.values))) is not None:
            self.camera_text = app.tr(off[0], **off[1]) + ". " + self.camera_text
        keypad = DiceKeypad(on_enter=self.confirm_camera_roll)
        keypad.text = faces
        keypad.bind(on_dismiss=self._camera_keypad_closed)
        self.camera_keypad = keypad
        keypad.open()
        self.camera_crops = DiceCrops(result)
        self.camera_crops.attach(keypad)

    def confirm_camera_roll(self, typed: str) -> None:
        """Propose the confirmed values as the roll (source ``camera``)."""
        self.camera_text = ""
        App.get_running_app().propose(f"roll {typed}", "camera")


    def _camera_keypad_closed(self, keypad: Any) -> None:
        if self.camera_keypad is keypad:
            self.camera_keypad = None


load_kv_beside(__file__)
