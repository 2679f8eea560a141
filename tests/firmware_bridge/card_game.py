"""A tiny real game for the NFC tests: play the cards of a hand, one tap at a time.

It follows the engine contract fully (it is not a mock of the session): ``play <card>`` for
every card in hand and ``discard <card>`` for cards marked discardable, so a tap on such a
card is ambiguous. The game is won once the hand is empty.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.core import (
    Event,
    Game,
    IllegalAction,
    NotationError,
    Outcome,
    RuleRef,
    SetupError,
    Transition,
)


@dataclass(frozen=True)
class Hand:
    cards: tuple[str, ...]
    discardable: frozenset[str]


@dataclass(frozen=True)
class Act:
    verb: str
    card: str

    def __str__(self) -> str:
        return f"{self.verb} {self.card}"


class CardTapGame(Game[Hand, Hand, Act]):
    name = "cardtap"
    title = "Card tap (test game)"
    rulebook = "cardtap.md"

    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> Hand:
        source, text = sources["setup"]
        data = tomllib.loads(text)
        if not isinstance(data.get("cards"), list):
            raise SetupError(source, "cards", "expected a list of card names")
        return Hand(tuple(data["cards"]), frozenset(data.get("discardable", [])))

    def initial_state(self, setup: Hand) -> Hand:
        return setup

    def current_actor(self, state: Hand) -> str | None:
        return "solo" if state.cards else None

    def legal_actions(self, state: Hand) -> Sequence[Act]:
        acts = [Act("play", card) for card in state.cards]
        acts += [Act("discard", card) for card in state.cards if card in state.discardable]
        return sorted(acts, key=str)

    def apply(self, state: Hand, action: Act) -> Transition[Hand]:
        if action.card not in state.cards:
            raise IllegalAction("not_in_hand", f"{action.card} is not in the hand.",
                                RuleRef(self.rulebook, "Playing"))
        rest = tuple(card for card in state.cards if card != action.card)
        events = [Event("card_played", {"card": action.card})]
        if not rest:
            events.append(Event("victory", {"winners": ["solo"], "termination": "hand_empty",
                                            "detail": "Every card was played."}))
        return Transition(Hand(rest, state.discardable), tuple(events))

    def outcome(self, state: Hand) -> Outcome | None:
        return None if state.cards else Outcome(("solo",), "hand_empty")

    def parse_action(self, state: Hand, text: str) -> Act:
        words = text.split()
        if len(words) != 2 or words[0].lower() not in ("play", "discard"):
            raise NotationError(text, "expected 'play <card>' or 'discard <card>'")
        return Act(words[0].lower(), words[1])

    def state_to_json(self, state: Hand) -> dict[str, Any]:
        return {"cards": list(state.cards), "discardable": sorted(state.discardable)}

    def state_from_json(self, data: Mapping[str, Any]) -> Hand:
        return Hand(tuple(data["cards"]), frozenset(data["discardable"]))


GAME = CardTapGame()
SETUP = {"setup": ("hand.toml", 'cards = ["fireball", "shield", "goblin-lair"]\n'
                                'discardable = ["shield"]\n')}
