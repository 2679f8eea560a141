"""The errors every rules engine raises, and the rulebook reference they cite.

Kept apart from :mod:`companion.games.core` so the data-file reader
(:mod:`~companion.games.datafile`) and the game facts (:mod:`~companion.games.info`) can use
them without an import circle; :mod:`~companion.games.core` re-exports every name.

Example:
    >>> str(RuleRef("401-infinite", "TURNS / ACTIONS"))
    '401-infinite: "TURNS / ACTIONS"'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn


class RulesError(Exception):
    """Base class of every error raised by a rules engine."""


@dataclass(frozen=True)
class RuleRef:
    """A pointer into a rulebook: the game's rulebook file and a section within it.

    Example:
        >>> str(RuleRef("infinifield", "Every 5 turns", "bullet 3"))
        'infinifield: "Every 5 turns", bullet 3'
    """

    game: str
    section: str
    detail: str = ""

    def __str__(self) -> str:
        text = f'{self.game}: "{self.section}"'
        return f"{text}, {self.detail}" if self.detail else text


class IllegalAction(RulesError, ValueError):
    """An action the rules refuse in the current state.

    Attributes:
        code: a stable machine-readable reason code (``"not_adjacent"``).
        reason: one sentence a player understands.
        rule: the rulebook section the refusal cites.
        action: the action as written in the notation, when known.
        params: the values the sentence mentions (block ids, dice...), so a translated
            screen can rebuild the sentence from ``code`` in another language.
    """

    def __init__(self, code: str, reason: str, rule: RuleRef | str, action: str = "",
                 params: Mapping[str, Any] | None = None) -> None:
        self.code = code
        self.reason = reason
        self.rule = rule
        self.action = action
        self.params = dict(params or {})
        super().__init__(f"{action + ': ' if action else ''}{reason} [{rule}]")

    def with_action(self, action: str) -> IllegalAction:
        """Return the same refusal naming ``action``."""
        return IllegalAction(self.code, self.reason, self.rule, action, self.params)

    def to_json(self) -> dict[str, Any]:
        """The refusal as JSON-ready data."""
        return {"action": self.action, "code": self.code, "reason": self.reason,
                "rule": str(self.rule)}


def refuse(code: str, reason: str, rule: RuleRef, /, **params: Any) -> NoReturn:
    """Raise the refusal ``code``: every engine refuses an action through this one function.

    Args:
        code: the stable reason code, usually a member of the game's ``Refusal`` StrEnum
            (its value is the JSON and translation key).
        reason: one sentence a player understands.
        rule: the rulebook section the refusal cites.
        **params: the values the sentence mentions, for translated screens.

    Raises:
        IllegalAction: always; the return type ``NoReturn`` lets mypy catch code that goes
            on after a refusal.

    Example:
        >>> try:
        ...     refuse("not_adjacent", "R2 does not touch W1.", RuleRef("infinifield", "Turns"),
        ...            block="R2")
        ... except IllegalAction as error:
        ...     print(error.code, error.params, error.rule)
        not_adjacent {'block': 'R2'} infinifield: "Turns"
    """
    raise IllegalAction(str(code), reason, rule, params=params)


class NotationError(RulesError, ValueError):
    """Text that is not an action in the game's notation (invalid, not illegal).

    Attributes:
        text: the offending text.
        problem: what is wrong with it, in one sentence.
    """

    def __init__(self, text: str, problem: str) -> None:
        self.text = text
        self.problem = problem
        super().__init__(f"cannot read {text!r}: {problem}")


class AmbiguousAction(NotationError):
    """Text that could mean more than one legal action."""


class SetupError(RulesError, ValueError):
    """A setup (field, deck, board, army list...) that cannot be used.

    Attributes:
        source: the file or name the setup came from.
        where: the key path or line inside it (``"blocks[3].colour"``, ``"line 12"``).
        problem: what is wrong, in one sentence.
    """

    def __init__(self, source: str, where: str, problem: str) -> None:
        self.source = source
        self.where = where
        self.problem = problem
        location = f"{source}: {where}" if where else source
        super().__init__(f"{location}: {problem}")
