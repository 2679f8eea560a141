"""The event log, newest first, and undo with a confirmation.

Undo asks before it acts and says what it takes back. A roll made by the companion stands
(rolling again for a better result is not allowed); a mistyped physical roll, or any other
action, can be taken back. The session enforces this; the screen shows its refusal in the
banner with the rule.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

from companion.app.controller import LogEntry
from companion.app.kvload import load_kv_beside
from companion.app.verdict_text import refusal_text
from companion.session import Verdict

SHOWN_ENTRIES = 80


class LogRow(BoxLayout):
    """One line of the log."""

    number = StringProperty("")
    action = StringProperty("")
    source = StringProperty("")
    detail = StringProperty("")
    legal = BooleanProperty(True)


class UndoDialog(ModalView):
    """Asks "Take back <action>?" with Yes / No."""

    question = StringProperty("")


class LogScreen(Screen):
    """The event log and the undo button."""

    def on_kv_post(self, base_widget: Any) -> None:
        """Redraw whenever something changes at the table."""
        App.get_running_app().bind(revision=lambda *_: self.refresh())

    def on_pre_enter(self, *_args: Any) -> None:
        """Redraw before showing."""
        self.refresh()

    def refresh(self) -> None:
        """List the entries, newest first."""
        if self.manager is None or self.manager.current != self.name:
            return
        app = App.get_running_app()
        rows = self.ids.rows
        rows.clear_widgets()
        for entry in reversed(app.table.log[-SHOWN_ENTRIES:]):
            rows.add_widget(self._row(app, entry))

    def _row(self, app: App, entry: LogEntry) -> LogRow:
        detail = app.table.detail(entry.verdict, app.lang) if entry.verdict is not None \
            else entry.detail
        return LogRow(number="" if entry.number is None else str(entry.number),
                      action=entry.action, source=app.tr(f"source.{entry.source}"),
                      detail=detail if not entry.rule else f"{detail} [{entry.rule}]",
                      legal=entry.legal)

    def ask_undo(self) -> UndoDialog | None:
        """Ask for confirmation, or show in the banner why undo is not allowed."""
        app = App.get_running_app()
        if app.table.session is None:
            return None
        check = app.table.undo_check()
        if not check.allowed:
            action = app.tr("log.undo_action", action=check.action) if check.action \
                else app.tr("log.undo")
            app.table.last_verdict = Verdict(action, False, (), check.code, check.reason,
                                             check.rule, "touch")
            reason = refusal_text(app.lang, app.table.session.game.name, check.code, {},
                                  check.reason)
            app.banner.show(False, app.tr("banner.refused", action=action), reason, check.rule)
            return None
        dialog = UndoDialog(question=app.tr("log.undo_question", action=check.action))
        dialog.bind(on_dismiss=lambda *_: None)
        dialog.open()
        return dialog

    def confirm_undo(self, dialog: UndoDialog) -> None:
        """The player said yes: take the last action back."""
        dialog.dismiss()
        App.get_running_app().table.undo()


load_kv_beside(__file__)
