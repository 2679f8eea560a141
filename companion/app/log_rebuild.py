"""The event log of a resumed game, rebuilt from its journal with every detail.

The journal keeps what was played (accepted actions, undos, refusals with their code and
rule), not the sentences the log showed. Replaying its records through the engine gives
them back exactly: each accepted action's events, each refusal's reason and params (the
refused action is tried again on the state it was refused in), each undo. So a log after a
power cut reads the same as before it, in any language. No Kivy here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.app.controller import LogEntry
from companion.games.core import Event, IllegalAction, NotationError
from companion.session import Session, Verdict


def rebuild_log(session: Session, records: Iterable[Mapping[str, Any]]) -> list[LogEntry]:
    """The log entries of ``records`` (a journal's, after its header) for ``session``'s game.

    Args:
        session: the resumed session (its game and setup; its state is not touched).
        records: the journal's records in order.
    """
    game = session.game
    states = [game.initial_state(session.setup)]
    played: list[str] = []
    entries: list[LogEntry] = []
    for record in records:
        kind = record.get("type")
        text = str(record.get("action") or "")
        source = str(record.get("source", "typed"))
        if kind == "action":
            action = game.parse_action(states[-1], text)
            transition = game.apply(states[-1], action)
            states.append(transition.state)
            played.append(text)
            verdict = Verdict(text, True, tuple(transition.events), source=source)
            entries.append(LogEntry(len(played), text, source, True,
                                    _describe(session, transition.events), verdict=verdict))
        elif kind == "undo" and played:
            taken = played.pop()
            states.pop()
            event = Event("undone", {"action": taken})
            verdict = Verdict(f"undo {taken}", True, (event,), source="typed")
            entries.append(LogEntry(None, verdict.action, "touch", True,
                                    _describe(session, (event,)), verdict=verdict))
        elif kind == "refused":
            verdict = _refusal(session, states[-1], text, source, record)
            entries.append(LogEntry(None, text, source, False, verdict.reason, verdict.rule,
                                    verdict))
    return entries


def _describe(session: Session, events: Iterable[Event]) -> str:
    return "; ".join(session.game.describe_event(event) for event in events)


def _refusal(session: Session, state: Any, text: str, source: str,
             record: Mapping[str, Any]) -> Verdict:
    """The refusal of ``text`` in ``state`` again, as the referee gave it then."""
    code = str(record.get("code", ""))
    rule = str(record.get("rule", ""))
    try:
        action = session.game.parse_action(state, text)
        session.game.apply(state, action)
    except NotationError as error:
        return Verdict(text, False, (), code or "unreadable", error.problem, rule, source)
    except IllegalAction as refusal:
        return Verdict(text, False, (Event("illegal", refusal.to_json()),), refusal.code,
                       refusal.reason, str(refusal.rule), source, params=refusal.params)
    # Refused by the session rather than the engine (e.g. an undo of a roll that stands).
    return Verdict(text, False, (), code, str(record.get("reason", code)), rule, source)
