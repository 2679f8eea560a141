"""The table: one game in progress and everything the screens show about it, without Kivy.

The screens are thin views over a :class:`TableController`. It starts or resumes a
:class:`~companion.session.Session`, forwards the players' taps as proposals, keeps the
event log and the last verdict, checks undo before asking for confirmation, and tells its
listeners that something changed. All of it runs on the main loop; sensor threads hand
their proposals over with :class:`companion.app.mainloop.MainLoopInbox` first.

Example:
    >>> import tempfile, pathlib
    >>> from companion.app.journal_shelf import JournalShelf
    >>> table = TableController(JournalShelf(pathlib.Path(tempfile.mkdtemp())))
    >>> table.session is None
    True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app.game_setups import SETUPS
from companion.app.journal_shelf import JournalShelf
from companion.app.verdict_text import events_line, refusal_text
from companion.events import Subscriber
from companion.games.core import Event, IllegalAction, NotationError, RulesError
from companion.games.registry import load_game
from companion.session import Session, Verdict

Listener = Callable[[], object]


@dataclass(frozen=True)
class LogEntry:
    """One line of the event log.

    Attributes:
        number: the action's position in the record (``None`` for a refusal or an undo).
        action: the action in notation.
        source: where it came from (touch, typed, virtual, camera, nfc).
        legal: accepted or refused.
        detail: the events it caused, or the refusal's sentence.
        rule: the rule a refusal cites.
        verdict: the verdict itself, so the log can word it in the players' language
            (``None`` for a line rebuilt from a resumed journal).
    """

    number: int | None
    action: str
    source: str
    legal: bool
    detail: str = ""
    rule: str = ""
    verdict: Verdict | None = None


@dataclass(frozen=True)
class UndoCheck:
    """Whether the last action may be taken back, asked before the confirmation dialog."""

    allowed: bool
    action: str = ""
    code: str = ""
    reason: str = ""
    rule: str = ""


def resumed_log(session: Session) -> list[LogEntry]:
    """The log of a resumed game, rebuilt from its journal.

    Every event's detail and every refusal come back (see :mod:`companion.app.log_rebuild`);
    if the journal cannot be replayed that way, the bare record is listed.
    """
    from companion.app.log_rebuild import rebuild_log

    records = session.journal.records if session.journal is not None else []
    try:
        return rebuild_log(session, records)
    except (RulesError, ValueError, KeyError, TypeError):
        return [LogEntry(number, entry.text, entry.source, True)
                for number, entry in enumerate(session.record, start=1)]


class NoGame(RuntimeError):
    """An action was asked for while no game is open."""


class TableController:
    """One game at the table, its log and its outputs.

    Attributes:
        shelf: where journals are kept.
        session: the game in progress, if any.
        log: the event log, oldest first.
        last_verdict: the referee's last answer (the banner shows it).
        notice: a sentence for the players about the game just opened (a torn journal tail
            set aside after a power cut), or ``""``.
    """

    def __init__(self, shelf: JournalShelf) -> None:
        self.shelf = shelf
        self.session: Session | None = None
        self.log: list[LogEntry] = []
        self.last_verdict: Verdict | None = None
        self.notice = ""
        self._listeners: list[Listener] = []
        self._outputs: list[Subscriber] = []
        self._subscriptions: list[Any] = []

    # -- wiring ----------------------------------------------------------------------------
    def on_change(self, listener: Listener) -> None:
        """Call ``listener()`` after every change (new game, verdict, undo)."""
        self._listeners.append(listener)

    def add_output(self, subscriber: Subscriber) -> None:
        """Send every event of every game to ``subscriber`` (LEDs, buzzer, simulation)."""
        self._outputs.append(subscriber)
        if self.session is not None:
            self._subscriptions.append(self.session.bus.subscribe(subscriber))

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    # -- games -----------------------------------------------------------------------------
    def start(self, game: str, layout: str, players: list[str] | None = None,
              seed: int | None = None, chosen: Mapping[str, Any] | None = None) -> Session:
        """Start a new game of ``game`` from one of its shipped layouts, journaled.

        Raises:
            KeyError: the game or layout is unknown.
            SetupError: the setup cannot be used.
        """
        spec = SETUPS[game]
        session = Session.new(load_game(game), spec.sources(layout),
                              spec.build_options(players, layout, chosen), seed=seed,
                              journal_path=self.shelf.new_path(game))
        self._open(session)
        return session

    def start_from(self, game: str, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any] | None = None, seed: int | None = None) -> Session:
        """Start a new game of ``game`` from setup texts (e.g. a field read by the camera).

        Raises:
            SetupError: the setup cannot be used.
        """
        session = Session.new(load_game(game), sources, options or {}, seed=seed,
                              journal_path=self.shelf.new_path(game))
        self._open(session)
        return session

    def resume(self, path: Path) -> Session:
        """Resume the game in the journal at ``path`` exactly where it stopped.

        Raises:
            JournalError: the journal cannot be used.
        """
        session = Session.resume(path)
        self._open(session)
        if session.resumed_from is not None:
            self.notice = session.resumed_from.describe(path)
        self.log.extend(resumed_log(session))
        self._changed()
        return session

    def resume_latest(self) -> Session | None:
        """Resume the newest unfinished game, if there is one (what a kiosk restart does)."""
        unfinished = self.shelf.unfinished()
        return self.resume(unfinished[0].path) if unfinished else None

    def close_game(self) -> None:
        """Put the game away (its journal stays on the shelf)."""
        for subscription in self._subscriptions:
            subscription.cancel()
        self._subscriptions = []
        if self.session is not None:
            self.session.close()
        self.session = None
        self.log = []
        self.last_verdict = None
        self.notice = ""
        self._changed()

    def _open(self, session: Session) -> None:
        self.close_game()
        self.session = session
        self._subscriptions = [session.bus.subscribe(output) for output in self._outputs]

    # -- actions ---------------------------------------------------------------------------
    def require_session(self) -> Session:
        """The open session.

        Raises:
            NoGame: no game is open.
        """
        if self.session is None:
            raise NoGame("no game is open")
        return self.session

    def propose(self, action: Any, source: str = "touch") -> Verdict:
        """Propose an action (object or notation); unreadable text becomes a refusal too."""
        session = self.require_session()
        try:
            verdict = session.propose(action, source=source)
        except NotationError as error:
            verdict = Verdict(str(action), False, (), "unreadable", error.problem, "", source)
        return self._record(verdict)

    def roll(self) -> Verdict:
        """Let the companion roll the pending chance event (this roll cannot be undone)."""
        session = self.require_session()
        try:
            verdict = session.roll()
        except IllegalAction as refusal:
            verdict = Verdict("roll", False, (), refusal.code, refusal.reason,
                              str(refusal.rule), "virtual", params=refusal.params)
        return self._record(verdict)

    def undo_check(self) -> UndoCheck:
        """Whether undo is allowed now, and what it would take back."""
        session = self.require_session()
        if not session.record:
            return UndoCheck(False, "", "nothing_to_undo", "There is nothing to undo yet.",
                             'companion: "Undo"')
        last = session.record[-1]
        if last.source == "virtual":
            return UndoCheck(False, last.text, "virtual_roll_stands",
                             "A roll made by the companion cannot be taken back; rolling again "
                             "for a better result is not allowed.",
                             'companion: "Undo", a virtual roll stands')
        return UndoCheck(True, last.text)

    def undo(self) -> Verdict:
        """Take back the last action (after the player confirmed); a refusal is a verdict."""
        session = self.require_session()
        try:
            verdict = session.undo()
        except IllegalAction as refusal:
            verdict = Verdict(f"undo {refusal.action}".strip(), False, (), refusal.code,
                              refusal.reason, str(refusal.rule), "touch", params=refusal.params)
            return self._record(verdict)
        self.last_verdict = verdict
        self.log.append(LogEntry(None, verdict.action, "touch", True,
                                 self.describe(verdict.events), verdict=verdict))
        self._changed()
        return verdict

    def record_external(self, verdict: Verdict) -> Verdict:
        """Record a verdict the session gave to another proposer (the NFC tap handler)."""
        return self._record(verdict)

    def _record(self, verdict: Verdict) -> Verdict:
        session = self.require_session()
        self.last_verdict = verdict
        number = len(session.record) if verdict.legal else None
        detail = self.describe(verdict.events) if verdict.legal else verdict.reason
        self.log.append(LogEntry(number, verdict.action, verdict.source, verdict.legal, detail,
                                 verdict.rule, verdict))
        self._changed()
        return verdict

    # -- reading ---------------------------------------------------------------------------
    def describe(self, events: tuple[Event, ...]) -> str:
        """The events in one line, as the engine words them."""
        session = self.require_session()
        return "; ".join(session.game.describe_event(event) for event in events)

    def detail(self, verdict: Verdict, lang: str) -> str:
        """What a verdict caused, or why it was refused, in ``lang``.

        The catalogue's templates (see :mod:`companion.app.verdict_text`) fill in the
        refusal's params or each event's data; where ``lang`` has none, the engine's English
        words are shown.
        """
        session = self.require_session()
        game = session.game.name
        if verdict.legal:
            return events_line(lang, game, verdict.events, session.game.describe_event)
        return refusal_text(lang, game, verdict.code, verdict.params, verdict.reason)

    def legal_texts(self) -> list[str]:
        """The legal actions in notation (sorted, as the engine lists them)."""
        session = self.require_session()
        return [session.game.format_action(action) for action in session.legal_actions()]

    def actions_by_verb(self) -> dict[str, list[str]]:
        """The legal actions grouped by their verb, for the action panel.

        Example: ``{"move": ["move Ann W1 Y1", ...], "remove": [...]}``.
        """
        grouped: dict[str, list[str]] = {}
        for text in self.legal_texts():
            grouped.setdefault(text.split()[0], []).append(text)
        return grouped
