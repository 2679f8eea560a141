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
)
from companion.games.registry import load_game
from companion.journal import Journal, JournalContents, TornTail, read_journal

SOURCES = ("typed", "touch", "virtual", "camera", "nfc")
"""Where an action came from: typed by a player, tapped on screen, drawn by the companion's
roller, read by the camera, or tapped on the NFC reader."""

UNDO_RULE = RuleRef("companion", "Undo", "a virtual roll stands")


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
        return session

    @classmethod
    def resume(cls, journal_path: Path | str) -> Session:
        """Resume the game recorded at ``journal_path`` exactly where it stopped.

        A torn last line (power cut) is set aside and reported in :attr:`resumed_from`.

        Raises:
            JournalError: the journal cannot be used.
        """
        journal = Journal.open(journal_path)
        header = journal.header
        game = load_game(header["game"])
        sources = {role: (pair[0], pair[1]) for role, pair in header["sources"].items()}
        session = cls(game, sources, header.get("options", {}), int(header["seed"]),
                      journal=journal)
        session.resumed_from = journal.torn
        for entry in replay_entries(journal.records):
            session._apply_silently(entry["action"], entry.get("source", "typed"))
        return session

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
        self._commit(action, text, source)
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
        if self.journal is not None:
            self.journal.append({"type": "undo", "n": len(self.record), "action": last.text})
        kept = [(entry.action, entry.text, entry.source) for entry in self.record[:-1]]
        self.state = self.game.initial_state(self.setup)
        self.record = []
        self._virtual_draws = 0
        for action, text, source in kept:
            self.state = self.game.apply(self.state, action).state
            self.record.append(RecordedAction(action, text, source))
            self._virtual_draws += source == "virtual"
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
    def _commit(self, action: Any, text: str, source: str) -> None:
        if self.journal is not None:
            self.journal.append({"type": "action", "n": len(self.record) + 1, "action": text,
                                 "source": source})
        self.record.append(RecordedAction(action, text, source))
        self._virtual_draws += source == "virtual"

    def _refuse(self, refusal: IllegalAction, source: str) -> Verdict:
        event = Event("illegal", refusal.to_json())
        if self.journal is not None:
            self.journal.append({"type": "refused", "action": refusal.action, "source": source,
                                 "code": refusal.code, "rule": str(refusal.rule)})
        self.bus.publish([event])
        return Verdict(refusal.action, False, (event,), refusal.code, refusal.reason,
                       str(refusal.rule), source, params=refusal.params)

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


__all__ = ["SOURCES", "NotationError", "RecordedAction", "Session", "UndoRefused", "Verdict",
           "journal_summary", "replay_entries"]
