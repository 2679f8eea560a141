"""The engine contract every game follows.

A game engine is a pure reducer over data (OpenSpiel's State API with python-chess's naming
and boardgame.io's typed refusals):

- state is a frozen dataclass (or plain values) that serialises to JSON;
- :meth:`Game.legal_actions` lists what may happen next, deterministic and sorted;
- :meth:`Game.apply` returns a :class:`Transition` (next state + events) or raises
  :class:`IllegalAction` carrying a reason code, a sentence a player understands, and the
  rulebook section it cites;
- chance is an action: :meth:`Game.is_chance` says a die roll, shuffle or coin flip is due and
  :meth:`Game.sample_chance` draws one from a ``random.Random`` *owned by the caller*, so the
  same action can equally come from physical dice typed in or read by the camera;
- :meth:`Game.outcome` is ``None`` or an :class:`Outcome`.

Nothing here (or anywhere under ``companion.games``) touches files, clocks, threads or the
global random module; a test enforces it.

Example:
    >>> from companion.games.core import Event
    >>> Event("counter_advanced", {"position": 3}).to_json()
    {'kind': 'counter_advanced', 'position': 3}
"""

from __future__ import annotations

import abc
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from companion.games import codec
from companion.games.datafile import load_toml
from companion.games.errors import (
    AmbiguousAction,
    IllegalAction,
    NotationError,
    RuleRef,
    RulesError,
    SetupError,
    refuse,
)

if TYPE_CHECKING:  # pragma: no cover - typing only, never imported at run time
    import random

    from companion.games.info import GameInfo

__all__ = ["CHANCE", "AmbiguousAction", "Event", "Game", "IllegalAction", "NotationError",
           "Outcome", "RuleRef", "RulesError", "SetupError", "Transition", "parse_setup_toml",
           "refuse"]

S = TypeVar("S")
A = TypeVar("A")
Setup = TypeVar("Setup")


def parse_setup_toml(source: str, text: str) -> dict[str, Any]:
    r"""Parse a setup file's TOML text, naming the file and line of a syntax error.

    The same as :func:`companion.games.datafile.load_toml`: size-capped, and nesting too deep
    for the parser is an error, not a crash.

    Raises:
        SetupError: the text is too large, nested too deep, or not valid TOML.

    Example:
        >>> parse_setup_toml("field.toml", "blocks = 24")
        {'blocks': 24}
        >>> try:
        ...     parse_setup_toml("field.toml", "a = 1\nb = ")
        ... except SetupError as error:
        ...     print(error.source, error.where, error.problem[:14])
        field.toml line 2 not valid TOML
    """
    return load_toml(source, text)


@dataclass(frozen=True)
class Event:
    """Something that happened, for the outputs (LEDs, buzzer, screen, log).

    Event kinds are listed, per game, in ``docs/events.md``.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The event as one flat JSON object: ``kind`` plus its data."""
        return {"kind": self.kind, **dict(self.data)}

    def __getitem__(self, key: str) -> Any:
        return self.data[key]


@dataclass(frozen=True)
class Transition(Generic[S]):
    """The result of applying an action: the next state and the events it caused."""

    state: S
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    Attributes:
        winners: the winning players or sides (empty for a loss in a solo game or a draw).
        termination: a short reason code, e.g. ``"last_pawn_standing"``, ``"boss_defeated"``.
        detail: one sentence for the players.
        scores: final scores when the game keeps them.
    """

    winners: tuple[str, ...]
    termination: str
    detail: str = ""
    scores: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON-ready data."""
        return {"winners": list(self.winners), "termination": self.termination,
                "detail": self.detail, "scores": dict(self.scores)}


CHANCE = "chance"
"""The actor name of chance (dice, shuffles, coin flips) in :meth:`Game.current_actor`."""


class Game(abc.ABC, Generic[Setup, S, A]):
    """A game's rules. Subclasses are stateless; every method is a pure function of its input.

    Class attributes:
        name: the game's short name used on the command line and in journals.
        title: the game's name as printed on the box.
        rulebook: the stem of the rulebook file under ``shared/rules`` that refusals cite
            (``RuleRef.game`` of every refusal is this same string).
        info: players, setup files, options and shipped setups (:class:`~.info.GameInfo`),
            from which the CLI's flags and the app's new-game screen are built.
        state_type: the state's class, which the default codec rebuilds from JSON.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    rulebook: ClassVar[str]
    info: ClassVar[GameInfo]
    state_type: ClassVar[type[Any]]

    # -- setup -----------------------------------------------------------------------------
    @abc.abstractmethod
    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> Setup:
        """Read a setup from TOML texts.

        Args:
            sources: role -> (source name for error messages, TOML text), e.g.
                ``{"setup": ("fields/quickstart.toml", "...")}``.
            options: extra choices made outside the files (players, mode, ...).

        Raises:
            SetupError: naming the source, the key or line, and what is wrong.
        """

    @abc.abstractmethod
    def initial_state(self, setup: Setup) -> S:
        """The state before the first action."""

    # -- flow ------------------------------------------------------------------------------
    @abc.abstractmethod
    def current_actor(self, state: S) -> str | None:
        """Who acts next: a player name, :data:`CHANCE`, or ``None`` once the game is over."""

    def is_chance(self, state: S) -> bool:
        """Whether the next action is a chance event (roll, shuffle, flip)."""
        return self.current_actor(state) == CHANCE

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """Draw the pending chance action with ``rng`` (owned and seeded by the caller).

        Raises:
            IllegalAction: when no chance event is pending.
        """
        refuse("no_chance_pending", "Nothing is waiting for a roll right now.",
               RuleRef(self.rulebook, "turn order"))

    @abc.abstractmethod
    def legal_actions(self, state: S) -> Sequence[A]:
        """Every action the current actor may take, deterministic and sorted.

        At a chance node this may list the outcomes when they are few, or be empty when they
        are too many to list (use :meth:`sample_chance`).
        """

    @abc.abstractmethod
    def apply(self, state: S, action: A) -> Transition[S]:
        """Apply ``action`` to ``state``.

        Raises:
            IllegalAction: with the reason code, sentence and rule.
        """

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """``None`` while the game goes on, else who won and why."""

    # -- notation --------------------------------------------------------------------------
    @abc.abstractmethod
    def parse_action(self, state: S, text: str) -> A:
        """Read one action in the game's notation; ``str(action)`` prints it back.

        Raises:
            NotationError: the text is not an action of this game.
        """

    def describe_event(self, event: Event) -> str:
        """One short English line for an event, for the CLI and the log."""
        details = ", ".join(f"{k}={v}" for k, v in event.data.items())
        return f"{event.kind}({details})" if details else event.kind

    def format_action(self, action: A) -> str:
        """The action in the game's notation (``str(action)`` by default)."""
        return str(action)

    # -- serialisation ---------------------------------------------------------------------
    def state_to_json(self, state: S) -> dict[str, Any]:
        """The state as JSON-ready data, written by the type-driven :mod:`~.codec`."""
        data = codec.to_json(state)
        if not isinstance(data, dict):
            raise codec.CodecError(f"{self.name}: a state must be written as a JSON object")
        return data

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state from :meth:`state_to_json` output, from the types of :attr:`state_type`.

        Raises:
            CodecError: the data does not fit the state's types.
        """
        state: S = codec.from_json(self.state_type, data)
        return state

    # -- helpers shared by every game ------------------------------------------------------
    def replay(self, setup: Setup, actions: Sequence[A]) -> S:
        """Apply ``actions`` in order from the initial state and return the final state."""
        state = self.initial_state(setup)
        for action in actions:
            state = self.apply(state, action).state
        return state

    def play(self, state: S, *texts: str) -> Transition[S]:
        """Apply actions written in the notation, in order.

        Returns:
            The final state and every event the actions caused, in order.

        Raises:
            NotationError: a text is not an action of this game.
            IllegalAction: an action is refused (nothing after it is applied).
        """
        events: list[Event] = []
        for text in texts:
            transition = self.apply(state, self.parse_action(state, text))
            state = transition.state
            events.extend(transition.events)
        return Transition(state, tuple(events))

    def state_json_text(self, state: S) -> str:
        """Canonical JSON text of a state (sorted keys), handy for comparisons and hashes."""
        return json.dumps(self.state_to_json(state), sort_keys=True, separators=(",", ":"))
