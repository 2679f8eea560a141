"""The event log, newest first, and undo with a confirmation.

Undo asks before it acts and says what it takes back. A roll made by the companion stands
(rolling again for a better result is not allowed); a mistyped physical roll, or any other
action, can be taken back. The session enforces this; the screen shows its refusal in the
banner with the rule.
"""

from __future__ import annotations

import math
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
    """One line of the log.

    Attributes:
        status: ``ok``, ``refused``, ``undo`` (the taking back) or ``undone`` (an action
            that was taken back: dimmed and struck through).
    """

    number = StringProperty("")
    action = StringProperty("")
    source = StringProperty("")
    detail = StringProperty("")
    legal = BooleanProperty(True)
    status = StringProperty("ok")
    badge = StringProperty("OK")


def is_undo(entry: LogEntry) -> bool:
    """Whether ``entry`` is the taking back of an action."""
    if entry.verdict is not None:
        return entry.legal and any(event.kind == "undone" for event in entry.verdict.events)
    return entry.legal and entry.number is None and entry.action.startswith("undo ")


def log_lines(entries: list[LogEntry]) -> list[tuple[LogEntry, int | None, str]]:
    """Each entry with its number in the record and its status, oldest first.

    The number is the action's place in the record when it was played (1, 2, ...), counted
    here so that actions recorded together (two moves seen in one camera frame) never share
    a number; an undo takes the last number back, and the action it took back is marked
    ``undone``.
    """
    lines: list[tuple[LogEntry, int | None, str]] = []
    played: list[int] = []
    for entry in entries:
        if is_undo(entry):
            if played:
                index = played.pop()
                taken, number, _status = lines[index]
                lines[index] = (taken, number, "undone")
            lines.append((entry, None, "undo"))
        elif entry.legal:
            played.append(len(lines))
            lines.append((entry, len(played), "ok"))
        else:
            lines.append((entry, None, "refused"))
    return lines


class UndoDialog(ModalView):
    """Asks "Take back <action>?" with Yes / No."""

    question = StringProperty("")


ROW_TEXT_WIDTH = 640
"""About how wide a row's text column is on the 800 px screen (for its height)."""


def row_height(action: str, detail: str) -> int:
    """How tall a row must be to show its action line and its detail, wrapped.

    Measured in the app font, so the recycled rows never clip a line.
    """
    from kivy.metrics import sp

    from companion.app.widgets.common import text_width

    def lines(text: str, size: float) -> int:
        return sum(max(1, math.ceil(text_width(part, size) / ROW_TEXT_WIDTH))
                   for part in text.split("\n")) if text else 0

    height = lines(action, sp(18)) * sp(18) * 1.25 + lines(detail, sp(15)) * sp(15) * 1.25
    return int(max(52, height + 14))


class LogScreen(Screen):
    """The event log (a recycled list: only the rows on screen are built) and undo."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._rows: dict[tuple[int, str, str, bool], dict[str, Any]] = {}
        self._log_seen: object = None

    def on_kv_post(self, base_widget: Any) -> None:
        """Redraw whenever something changes at the table."""
        App.get_running_app().bind(revision=lambda *_: self.refresh())

    def on_pre_enter(self, *_args: Any) -> None:
        """Redraw before showing."""
        self.refresh()
        self.ids.log_view.scroll_y = 1

    def refresh(self) -> None:
        """List the entries, newest first (rows already worded are reused)."""
        if self.manager is None or self.manager.current != self.name:
            return
        app = App.get_running_app()
        session = app.table.session
        log = app.table.log
        if log is not self._log_seen:
            self._rows = {}
            self._log_seen = log
        lines = log_lines(log)
        first = max(0, len(lines) - SHOWN_ENTRIES)
        data = []
        for index in range(len(lines) - 1, first - 1, -1):
            entry, number, status = lines[index]
            key = (index, status, app.lang, session is not None)
            row = self._rows.get(key)
            if row is None:
                row = self._row(app, entry, number, status)
                self._rows[key] = row
            data.append(row)
        if self.ids.log_view.data != data:
            self.ids.log_view.data = data

    def shown_rows(self) -> list[LogRow]:
        """The rows drawn now, top to bottom."""
        rows = [row for row in self.ids.rows.children if isinstance(row, LogRow)]
        return sorted(rows, key=lambda row: -row.y)

    def _row(self, app: App, entry: LogEntry, number: int | None, status: str
             ) -> dict[str, Any]:
        detail = app.table.detail(entry.verdict, app.lang) \
            if entry.verdict is not None and app.table.session is not None else entry.detail
        if entry.rule:
            detail = f"{detail} [{entry.rule}]"
        if status == "undone":
            detail = app.tr("log.undone_note") + (f" · {detail}" if detail else "")
        action = app.table_action(entry.action)  # a shuffle's order stays in the journal
        if status == "undo" and entry.action.startswith("undo "):
            action = app.tr("log.undo_action",
                            action=app.table_action(entry.action[len("undo "):]))
        badges = {"ok": "log.badge_ok", "refused": "log.badge_no", "undo": "log.badge_undo",
                  "undone": "log.badge_undone"}
        source = app.tr(f"source.{entry.source}")
        return {"number": "" if number is None else str(number), "action": action,
                "source": source, "detail": detail, "legal": entry.legal, "status": status,
                "badge": app.tr(badges[status]),
                "height": row_height(f"{action}   [{source}]", detail)}

    def ask_undo(self) -> UndoDialog | None:
        """Ask for confirmation, or show in the banner why undo is not allowed."""
        app = App.get_running_app()
        if app.table.session is None:
            return None
        check = app.table.undo_check()
        if not check.allowed:
            action = app.tr("log.undo_action", action=app.table_action(check.action)) \
                if check.action else app.tr("log.undo")
            app.table.last_verdict = Verdict(action, False, (), check.code, check.reason,
                                             check.rule, "touch")
            reason = refusal_text(app.lang, app.table.session.game.name, check.code, {},
                                  check.reason)
            app.banner.show(False, app.tr("banner.refused", action=action), reason, check.rule)
            return None
        dialog = UndoDialog(question=app.tr("log.undo_question",
                                            action=app.table_action(check.action)))
        dialog.bind(on_dismiss=lambda *_: None)
        dialog.open()
        return dialog

    def confirm_undo(self, dialog: UndoDialog) -> None:
        """The player said yes: take the last action back."""
        dialog.dismiss()
        App.get_running_app().table.undo()


load_kv_beside(__file__)
