"""Tapping an ability card in a real game of 401 Infinite (docs/401-infinite.md "Notation").

``play red Hex -> B1`` names the ability Hex; a tag paired with Hex offers every legal
action in which Hex acts, and the one the players pick is ruled on by the real engine.
"""

from __future__ import annotations

from companion.games.registry import load_game
from companion.resources import shipped_sources
from companion.session import Session
from firmware_bridge.cards import CardMap
from firmware_bridge.messages import TagPresent
from firmware_bridge.taps import TapHandler

TAG = "04A1B2C3D4E5F6"


def session_with_an_ability_to_play() -> tuple[Session, str]:
    game = load_game("401")
    sources = shipped_sources("companion.games.infinite401",
                              {"board": "boards/default.toml", "cards": "cards/default.toml"})
    session = Session.new(game, sources, {"start": "quick"}, seed=3)
    for _ in range(40):
        if session.is_chance():
            session.roll()
            continue
        notations = [game.format_action(a) for a in session.legal_actions()]
        plays = [text for text in notations if text.startswith("play ")]
        if plays:
            return session, plays[0].split()[2]
        session.propose(notations[0])
    raise AssertionError("no ability became playable in 40 actions")


def test_tapping_an_ability_offers_its_legal_uses_and_the_engine_rules_on_the_choice() -> None:
    session, ability = session_with_an_ability_to_play()
    cards = CardMap()
    cards.pair("401", TAG, ability)
    handler = TapHandler(session, cards)
    result = handler.handle(TagPresent(TAG))
    assert result is not None and result.card == ability
    legal = [session.game.format_action(a) for a in session.legal_actions()]
    using = [text for text in legal if text.split()[2:3] == [ability]]
    if len(using) == 1:
        assert result.verdict is not None and result.verdict.action == using[0]
    else:
        assert list(result.choices) == using
        chosen = next(text for text in using if text.startswith("play "))
        verdict = handler.choose(chosen)
        assert verdict.legal and session.history[-1] == chosen
    assert session.record[-1].source == "nfc"
