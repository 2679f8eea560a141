"""A tiny two-player dice game used to test the session, journal and CLI runner on their own.

Players Ann and Bea share a pile of counters. A turn is a chance action ``roll D`` (one d6)
followed by ``take P K``: the player takes 1..min(D, pile) counters. Whoever takes the last
counter wins. Small, but it has everything the machinery must handle: chance, refusals with
rules, an outcome, notation, JSON state.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.core import (
    CHANCE,
    Event,
    Game,
    IllegalAction,
    NotationError,
    Outcome,
    RuleRef,
    SetupError,
    Transition,
)

PLAYERS = ("Ann", "Bea")


@dataclass(frozen=True)
class Roll:
    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


@dataclass(frozen=True)
class Take:
    player: str
    count: int

    def __str__(self) -> str:
        return f"take {self.player} {self.count}"


@dataclass(frozen=True)
class State:
    pile: int
    turn: int = 0
    rolled: int | None = None
    winner: str | None = None


class Countdown(Game[int, State, Roll | Take]):
    name = "countdown"
    title = "Countdown"
    rulebook = "countdown"

    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> int:
        name, text = sources["setup"]
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise SetupError(name, "", str(error)) from error
        pile = data.get("pile")
        if not isinstance(pile, int) or pile < 1:
            raise SetupError(name, "pile", "must be a whole number of at least 1")
        return pile

    def initial_state(self, setup: int) -> State:
        return State(setup)

    def current_actor(self, state: State) -> str | None:
        if state.winner:
            return None
        return CHANCE if state.rolled is None else PLAYERS[state.turn]

    def sample_chance(self, state: State, rng: Any) -> Roll | Take:
        if state.rolled is not None or state.winner:
            return super().sample_chance(state, rng)
        return Roll(rng.randint(1, 6))

    def legal_actions(self, state: State) -> Sequence[Roll | Take]:
        if state.winner:
            return []
        if state.rolled is None:
            return [Roll(v) for v in range(1, 7)]
        player = PLAYERS[state.turn]
        return [Take(player, k) for k in range(1, min(state.rolled, state.pile) + 1)]

    def apply(self, state: State, action: Roll | Take) -> Transition[State]:
        if state.winner:
            raise IllegalAction("game_over", "The game is over.", RuleRef("countdown", "End"))
        if isinstance(action, Roll):
            if state.rolled is not None:
                raise IllegalAction("already_rolled", "The die is already rolled this turn.",
                                    RuleRef("countdown", "Turn", "roll once"))
            if not 1 <= action.value <= 6:
                raise IllegalAction("bad_face", "A d6 shows 1 to 6.", RuleRef("countdown", "Dice"))
            return Transition(State(state.pile, state.turn, action.value),
                              (Event("rolled", {"value": action.value}),))
        if state.rolled is None:
            raise IllegalAction("roll_first", "Roll the die before taking counters.",
                                RuleRef("countdown", "Turn", "roll first"))
        if action.player != PLAYERS[state.turn]:
            raise IllegalAction("not_your_turn", f"It is {PLAYERS[state.turn]}'s turn.",
                                RuleRef("countdown", "Turn"))
        if not 1 <= action.count <= min(state.rolled, state.pile):
            raise IllegalAction("too_many", "Take at least one counter and no more than the "
                                "die shows or the pile holds.", RuleRef("countdown", "Turn",
                                                                         "take"),
                                params={"rolled": state.rolled, "pile": state.pile})
        pile = state.pile - action.count
        events = [Event("took", {"player": action.player, "count": action.count})]
        winner = action.player if pile == 0 else None
        if winner:
            events.append(Event("victory", {"winners": [winner], "termination": "last_counter",
                                            "detail": f"{winner} took the last counter"}))
        return Transition(State(pile, 1 - state.turn, None, winner), tuple(events))

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome((state.winner,), "last_counter", f"{state.winner} took the last counter")

    def parse_action(self, state: State, text: str) -> Roll | Take:
        words = text.split()
        try:
            if words[0].lower() == "roll" and len(words) == 2:
                return Roll(int(words[1]))
            if words[0].lower() == "take" and len(words) == 3:
                player = {p.lower(): p for p in PLAYERS}[words[1].lower()]
                return Take(player, int(words[2]))
        except (KeyError, ValueError, IndexError):
            pass
        raise NotationError(text, "expected `roll D` or `take PLAYER K`")

    def state_to_json(self, state: State) -> dict[str, Any]:
        return {"pile": state.pile, "turn": state.turn, "rolled": state.rolled,
                "winner": state.winner}

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State(data["pile"], data["turn"], data["rolled"], data["winner"])


GAME = Countdown()
SETUP = {"setup": ("countdown.toml", "pile = 30\n")}


def register() -> None:
    """Make the registry (and so Session.resume) know this test game."""
    from companion.games import registry

    registry.GAME_MODULES.setdefault("countdown", "tests.support.countdown")
