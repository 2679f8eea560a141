"""What the app shows when its files let it down: a journal it cannot use, reset settings.

Nothing here may stop the kiosk. A journal that cannot be created or resumed (disk full,
read-only, another referee holding it, a hand-edited record) is shown on the banner, naming
the file, line and problem, and the screen stays where it was; a settings file that had to
be reset is announced once at start.

:class:`JournalTrouble` is installed in Kivy's ``ExceptionManager``: any
:class:`~companion.journal.JournalError` escaping a button's handler (starting or resuming a
game from any screen) becomes a banner instead of ending the main loop.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.base import ExceptionHandler, ExceptionManager

from companion.journal import JournalError, JournalWriteFailed

log = logging.getLogger(__name__)


def show_journal_problem(app: Any, error: JournalError) -> None:
    """Show ``error`` (which names the journal) on the banner, as a refusal would be."""
    log.warning("journal problem: %s", error)
    key = "banner.not_recorded_start" if isinstance(error, JournalWriteFailed) else \
        "banner.journal_problem"
    banner = getattr(app, "banner", None)
    if banner is not None:
        banner.show(False, app.tr(key), str(error))


def show_settings_reset(app: Any) -> None:
    """Say on the banner that the settings file was reset, and where the bad one went."""
    reset = app.settings.reset
    banner = getattr(app, "banner", None)
    if reset is None or banner is None:
        return
    detail = app.tr("banner.settings_reset_detail", problem=reset.problem, kept=str(reset.kept))
    banner.show(False, app.tr("banner.settings_reset"), detail)


class JournalTrouble(ExceptionHandler):
    """Turns a journal error escaping a UI handler into a banner; everything else passes."""

    def __init__(self, app: Any) -> None:
        super().__init__()
        self.app = app

    def handle_exception(self, inst: BaseException) -> Any:
        """``PASS`` (the main loop goes on) for a journal error, ``RAISE`` otherwise."""
        if isinstance(inst, JournalError):
            show_journal_problem(self.app, inst)
            return ExceptionManager.PASS
        return ExceptionManager.RAISE


def install(app: Any) -> JournalTrouble:
    """Install the handler for ``app`` (once; returns it)."""
    for handler in ExceptionManager.handlers:
        if isinstance(handler, JournalTrouble):
            handler.app = app
            return handler
    handler = JournalTrouble(app)
    ExceptionManager.add_handler(handler)
    return handler
