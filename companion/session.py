"""A game in progress: the engine, the current state, the record, the journal and the events.

Sensors *propose* actions; the engine *decides*. :meth:`Session.propose` takes an action (or
its notation) from the keyboard, the touchscreen, the camera or an NFC tap, asks the engine,
appends an accepted action to the journal and fsyncs it, and only then publishes the events
to subscribers (LEDs, buzzer, screen, log). A refusal publishes an ``illegal`` event carrying
the reason and the rule.

Chance is an action too: :meth:`Session.roll` draws the pending roll, shuffle or flip from a
generator seeded from the journal's seed and the number of virtual draws so far, so a resumed
game rolls exactly as the uninterrupted one would have. A virtual roll cannot be undone (that
would let a player roll again for a better result); a mistyped physical roll can.

Nothing recorded is ever lost: when the journal cannot take a record (disk full), the journal
is cut back to its last good record, the action is *not* applied, and the verdict says
"not recorded" (code ``not_recorded``) so the players can make room and enter it again; the
game stays usable. :meth:`Session.resume` replays a journal only if every record is one this
session could have written: record numbers running on without gaps or repeats, known record
types, legal actions; anything else is a :class:`~companion.journal.JournalInvalid` naming the
line, and the file is left untouched.

Example:
    >>> from companion.games.registry import load_game
    >>> game = load_game("infinifield")
    >>> from companion.resources import shipped_sources
    >>> sources = shipped_sources("companion.games.infinifield",
    ...                           {"setup": "fields/quickstart.toml"})
    >>> session = Session.new(game, sources,
    ...                       {"players": ["Ann", "Ben"]}, seed=1)
    >>> session.propose("start Ben W1").legal
    True
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.events import EventBus
from companion.games.core import (
    Event,
    Game,
    IllegalAction,
    NotationError,
    Outcome,
    RuleRef,
    RulesError,
)
from companion.games.registry import UnknownGame, load_game
from companion.journal import (
    Journal,
    JournalContents,
    JournalInvalid,
    JournalWriteFailed,
    TornTail,
    read_journal,
)

SOURCES = ("typed", "touch", "virtual", "camera", "nfc")
"""Where an action came from: typed by a player, tapped on screen, drawn by the companion's
roller, read by the camera, or tapped on the NFC reader."""

UNDO_RULE = RuleRef("companion", "Undo", "a virtual roll stands")
JOURNAL_RULE = RuleRef("companion", "Journal", "nothing recorded is ever lost")
NOT_RECORDED = "not_recorded"
"""The code of a verdict whose action could not be journaled (disk full): not applied."""

RECORD_TYPES = ("action", "undo", "refused")
REPLAY_ERRORS = (RulesError, ValueError, TypeError, KeyError, IndexError, AttributeError)
"""What an engine may raise on a hand-edited record or setup (all become a clear error)."""


@dataclass(frozen=True)
class Verdict:
    """The referee's answer to one proposed action.

    Attributes:
        action: the action in the game's notation (as the player wrote it when unreadable).
        legal: whether it was accepted.
        events: what it caused (for a refusal, the single ``illegal`` event).
        code: the refusal's reason code.
        reason: the refusal's sentence.
        rule: the rulebook section the refusal cites.
        source: where the action came from.
        params: the values the refusal's sentence mentions, so a screen can rebuild the
            sentence from ``code`` in another language.
        notes: extra figures a game adds (e.g. the advisor's odds).
    """

    action: str
    legal: bool
    events: tuple[Event, ...] = ()
    code: str = ""
    reason: str = ""
    rule: str = ""
    source: str = "typed"
    notes: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The verdict as one JSON object (the CLI's ``--json`` line)."""
        data: dict[str, Any] = {"action": self.action, "legal": self.legal,
                                "source": self.source,
                                "events": [event.to_json() for event in self.events]}
        if not self.legal:
            data.update(code=self.code, reason=self.reason, rule=self.rule)
        data.update(self.notes)
        return data


@dataclass(frozen=True)
class RecordedAction:
    """One accepted action of the record: the action, its notation and where it came from."""

    action: Any
    text: str
    source: str


class UndoRefused(IllegalAction):
    """Undo asked for where it is not allowed (nothing to undo, or a virtual roll)."""


class Session:
    """A game in progress. Create with :meth:`new` or :meth:`resume`.

    Attributes:
        game: the rules engine.
        setup: the parsed setup.
        state: the current state.
        record: the accepted actions, in order.
        bus: where events go; subscribe outputs here.
        journal: the open journal, if the game is being recorded.
        resumed_from: the torn tail dropped when resuming, if any.
    """

    def __init__(self, game: Game[Any, Any, Any], sources: Mapping[str, tuple[str, str]],
                 options: Mapping[str, Any], seed: int, journal: Journal | None = None,
                 bus: EventBus | None = None) -> None:
        self.game = game
        self.sources = {role: (name, text) for role, (name, text) in sources.items()}
        self.options = dict(options)
        self.seed = seed
        self.setup = game.load_setup(self.sources, self.options)
        self.state = game.initial_state(self.setup)
        self.record: list[RecordedAction] = []
        self.bus = bus or EventBus()
        self.journal = journal
        self.resumed_from: TornTail | None = None
        self._virtual_draws = 0
        self._numbered = journal is None or journal.header.get("format", 1) != 1

    # -- creation --------------------------------------------------------------------------
    @classmethod
    def new(cls, game: Game[Any, Any, Any], sources: Mapping[str, tuple[str, str]],
            options: Mapping[str, Any] | None = None, *, seed: int | None = None,
            journal_path: Path | str | None = None) -> Session:
        """Start a new game, recorded in a new journal at ``journal_path`` if given.

        Raises:
            SetupError: the setup cannot be used.
            JournalExists: a journal is already at ``journal_path``.
        """
        seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        session = cls(game, sources, options or {}, seed)
        if journal_path is not None:
            session.journal = Journal.create(journal_path, session._header())
            session._numbered = True
        return session

    @classmethod
    def resume(cls, journal_path: Path | str) -> Session:
        """Resume the game recorded at ``journal_path`` exactly where it stopped.

        Every record is checked before anything is written: a torn last line (power cut)
        is then set aside and reported in :attr:`resumed_from`.

        Raises:
            JournalInvalid: a record this session could not have written (a line deleted,
                repeated or moved, an unknown game, a bad seed or setup, an illegal action),
                naming the line; the file is left untouched.
            JournalLocked: another process is writing the journal.
            JournalError: the journal cannot be used (naming why).
        """
        journal = Journal.open(journal_path, repair=False)
        try:
            session = cls._replay(journal)
            journal.repair()
        except BaseException:
            journal.close()
            raise
        session.resumed_from = journal.torn
        return session

    @classmethod
    def _replay(cls, journal: Journal) -> Session:
        """A session for ``journal``'s header with every record replayed and checked."""
        header = journal.header

        def invalid(problem: str) -> JournalInvalid:
            return JournalInvalid(journal.path, 1, problem)

        name = header.get("game")
        if not isinstance(name, str):
            raise invalid("the header names no game")
        try:
            game = load_game(name)
        except UnknownGame as error:
            raise invalid(str(error)) from None
        version = header.get("format", 1)
        if version not in (1, 2) or isinstance(version, bool):
            raise invalid(f"journal format {version!r} is not one this companion reads (1, 2)")
        seed = header.get("seed")
        if seed is None:
            raise invalid("the seed of the virtual dice is missing")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise invalid(f"the seed must be a whole number, got {seed!r}")
        options = header.get("options", {})
        if not isinstance(options, dict):
            raise invalid("the options must be a JSON object")
        raw_sources = header.get("sources")
        if not isinstance(raw_sources, dict):
            raise invalid("the setup sources are missing")
        sources: dict[str, tuple[str, str]] = {}
        for role, pair in raw_sources.items():
            if not (isinstance(pair, list) and len(pair) == 2
                    and all(isinstance(item, str) for item in pair)):
                raise invalid(f"setup source {role!r} must be [file name, text]")
            sources[role] = (pair[0], pair[1])
        try:
            session = cls(game, sources, options, seed, journal=journal)
        except REPLAY_ERRORS as error:
            raise invalid(f"the recorded setup cannot be used ({error})") from None
        for number, record in enumerate(journal.records, start=1):
            session._replay_record(record, number)
        return session

    def _replay_record(self, record: Mapping[str, Any], number: int) -> None:
        """Check and replay record ``number`` (line ``number + 1``) of the journal.

        Raises:
            JournalInvalid: naming the line and what is wrong.
        """
        assert self.journal is not None
        line = number + 1

        def invalid(problem: str) -> JournalInvalid:
            return JournalInvalid(self.journal.path if self.journal else "", line, problem)

        if self._numbered:
            seq = record.get("seq")
            if seq != number or isinstance(seq, bool):
                found = "no record number" if seq is None else f"record number {seq!r}"
                raise invalid(f"{found} where {number} was expected: a line was deleted, "
                              f"repeated or moved")
        kind = record.get("type")
        if kind not in RECORD_TYPES:
            raise invalid(f"unknown record type {kind!r}; expected one of "
                          f"{', '.join(RECORD_TYPES)}")
        text = record.get("action")
        source = record.get("source", "typed")
        if kind != "undo" and (not isinstance(text, str) or not text.strip()):
            raise invalid(f"the {kind} record has no action")
        if source not in SOURCES:
            raise invalid(f"unknown source {source!r}; expected one of {', '.join(SOURCES)}")
        if kind == "action":
            self._check_count(record, len(self.record) + 1, invalid)
            try:
                self._apply_silently(str(text), source)
            except NotationError as error:
                raise invalid(f"{text!r} is not an action of {self.game.name} "
                              f"({error.problem})") from None
            except IllegalAction as refusal:
                raise invalid(f"{text!r} is not legal at this point of the game: "
                              f"{refusal.reason} [{refusal.rule}]") from None
            except REPLAY_ERRORS as error:
                raise invalid(f"{text!r} cannot be replayed ({error})") from None
        elif kind == "undo":
            if not self.record:
                raise invalid("an undo with no action before it to take back")
            last = self.record[-1]
            if last.source == "virtual":
                raise invalid(f"an undo of the virtual roll {last.text!r}, which stands")
            self._check_count(record, len(self.record), invalid)
            if text is not None and text != last.text:
                raise invalid(f"the undo names {text!r} but the last action is {last.text!r}")
            self._rebuild([(e.action, e.text, e.source) for e in self.record[:-1]])

    @staticmethod
    def _check_count(record: Mapping[str, Any], expected: int, invalid: Any) -> None:
        count = record.get("n")
        if count != expected or isinstance(count, bool):
            found = "no action number" if count is None else f"action number {count!r}"
            raise invalid(f"{found} where {expected} was expected: an action line was "
                          f"deleted, repeated or moved")

    def _header(self) -> dict[str, Any]:
        return {"game": self.game.name, "seed": self.seed, "options": self.options,
                "sources": {role: list(pair) for role, pair in self.sources.items()}}

    # -- queries ---------------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else who won and why."""
        return self.game.outcome(self.state)

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.outcome is not None

    def legal_actions(self) -> Sequence[Any]:
        """What may happen next (from the engine)."""
        return self.game.legal_actions(self.state)

    def is_chance(self) -> bool:
        """Whether a roll, shuffle or coin flip is due."""
        return self.game.is_chance(self.state)

    @property
    def history(self) -> list[str]:
        """The accepted actions in notation, in order."""
        return [entry.text for entry in self.record]

    # -- actions ---------------------------------------------------------------------------
    def parse(self, text: str) -> Any:
        """Read an action in the game's notation against the current state.

        Raises:
            NotationError: the text is not an action of this game.
        """
        return self.game.parse_action(self.state, text)

    def propose(self, action: Any, source: str = "typed") -> Verdict:
        """Ask the referee to accept ``action`` (an action object or its notation).

        An accepted action is journaled and fsynced before its events are published.

        Raises:
            NotationError: ``action`` is text that cannot be read (nothing is recorded).
        """
        if source not in SOURCES:
            raise ValueError(f"unknown source {source!r}; expected one of {SOURCES}")
        if isinstance(action, str):
            action = self.parse(action)
        text = self.game.format_action(action)
        try:
            transition = self.game.apply(self.state, action)
        except IllegalAction as refusal:
            return self._refuse(refusal.with_action(text), source)
        try:
            self._commit(action, text, source)
        except JournalWriteFailed as failure:
            return self._not_recorded(text, source, failure)
        self.state = transition.state
        verdict = Verdict(text, True, transition.events, source=source)
        self.bus.publish(transition.events)
        return verdict

    def roll(self) -> Verdict:
        """Let the companion draw the pending chance event (virtual dice, shuffle, coin).

        Raises:
            IllegalAction: nothing is waiting for a roll.
        """
        rng = random.Random(f"{self.seed}/{self._virtual_draws}")
        action = self.game.sample_chance(self.state, rng)
        return self.propose(action, source="virtual")

    def undo(self) -> Verdict:
        """Take back the last accepted action (replaying the record without it).

        Raises:
            UndoRefused: nothing to undo, or the last action is a virtual roll.
        """
        if not self.record:
            raise UndoRefused("nothing_to_undo", "There is nothing to undo yet.", UNDO_RULE)
        last = self.record[-1]
        if last.source == "virtual":
            raise UndoRefused("virtual_roll_stands",
                              "A roll made by the companion cannot be taken back; rolling "
                              "again for a better result is not allowed.", UNDO_RULE, last.text)
        try:
            self._write({"type": "undo", "n": len(self.record), "action": last.text})
        except JournalWriteFailed as failure:
            return self._not_recorded(f"undo {last.text}", "typed", failure)
        self._rebuild([(entry.action, entry.text, entry.source) for entry in self.record[:-1]])
        event = Event("undone", {"action": last.text})
        self.bus.publish([event])
        return Verdict(f"undo {last.text}", True, (event,), source="typed")

    def close(self) -> None:
        """Close the journal. Safe to call more than once."""
        if self.journal is not None:
            self.journal.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- internals -------------------------------------------------------------------------
    def _write(self, record: Mapping[str, Any]) -> None:
        """Journal ``record`` (numbered), if the game is recorded.

        Raises:
            JournalWriteFailed: it could not be written; the journal was cut back.
        """
        if self.journal is None:
            return
        if self._numbered:
            record = {**record, "seq": len(self.journal.records) + 1}
        self.journal.append(record)

    def _commit(self, action: Any, text: str, source: str) -> None:
        self._write({"type": "action", "n": len(self.record) + 1, "action": text,
                     "source": source})
        self.record.append(RecordedAction(action, text, source))
        self._virtual_draws += source == "virtual"

    def _rebuild(self, kept: Sequence[tuple[Any, str, str]]) -> None:
        """Replay the kept actions from the initial state (after an undo)."""
        self.state = self.game.initial_state(self.setup)
        self.record = []
        self._virtual_draws = 0
        for action, text, source in kept:
            self.state = self.game.apply(self.state, action).state
            self.record.append(RecordedAction(action, text, source))
            self._virtual_draws += source == "virtual"

    def _not_recorded(self, text: str, source: str, failure: JournalWriteFailed) -> Verdict:
        """The verdict for an action the journal could not take: nothing was applied."""
        reason = (f"not recorded: {failure.reason}; the game stands as before this action: "
                  f"make room, then enter it again")
        event = Event("illegal", {"action": text, "code": NOT_RECORDED, "reason": reason,
                                  "rule": str(JOURNAL_RULE)})
        self.bus.publish([event])
        return Verdict(text, False, (event,), NOT_RECORDED, reason, str(JOURNAL_RULE), source,
                       params={"reason": failure.reason})

    def _refuse(self, refusal: IllegalAction, source: str) -> Verdict:
        event = Event("illegal", refusal.to_json())
        notes: dict[str, Any] = {}
        try:
            self._write({"type": "refused", "action": refusal.action, "source": source,
                         "code": refusal.code, "rule": str(refusal.rule)})
        except JournalWriteFailed as failure:  # the refusal stands; only its note is lost
            notes[NOT_RECORDED] = failure.reason
        self.bus.publish([event])
        return Verdict(refusal.action, False, (event,), refusal.code, refusal.reason,
                       str(refusal.rule), source, notes=notes, params=refusal.params)

    def _apply_silently(self, text: str, source: str) -> None:
        action = self.game.parse_action(self.state, text)
        self.state = self.game.apply(self.state, action).state
        self.record.append(RecordedAction(action, self.game.format_action(action), source))
        self._virtual_draws += source == "virtual"


def replay_entries(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The accepted actions a journal's records stand for, undos applied.

    Example:
        >>> replay_entries([{"type": "action", "action": "a"}, {"type": "action", "action": "b"},
        ...                 {"type": "undo"}, {"type": "refused", "action": "c"}])
        [{'type': 'action', 'action': 'a'}]
    """
    kept: list[Mapping[str, Any]] = []
    for record in records:
        if record.get("type") == "action":
            kept.append(record)
        elif record.get("type") == "undo" and kept:
            kept.pop()
    return kept


def journal_summary(path: Path | str) -> dict[str, Any]:
    """What the home screen shows for a journal: game, actions so far, finished or not.

    Raises:
        JournalError: the journal cannot be read.
    """
    contents: JournalContents = read_journal(path)
    header = contents.header or {}
    actions = replay_entries(contents.records)
    return {"path": str(path), "game": header.get("game"), "actions": len(actions),
            "options": header.get("options", {}), "torn": contents.torn is not None}


__all__ = ["NOT_RECORDED", "SOURCES", "NotationError", "RecordedAction", "Session",
           "UndoRefused", "Verdict", "journal_summary", "replay_entries"]
