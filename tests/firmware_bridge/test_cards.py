"""Tag pairings (the cards file), learn mode, and tapping a card to propose its action."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session import Session
from firmware_bridge.cards import CardMap, CardMapError, normalise_uid
from firmware_bridge.messages import Heartbeat, TagPresent
from firmware_bridge.taps import TapHandler, actions_naming
from tests.firmware_bridge.card_game import GAME, SETUP

FIREBALL, SHIELD, LAIR, STRANGER = "DEADBEEF", "04A1B2C3D4E5F6", "01020304", "0A0B0C0D"


@pytest.fixture
def handler(tmp_path: Path) -> TapHandler:
    cards = CardMap({"cardtap": {FIREBALL: "fireball", SHIELD: "shield"}}, games=["cardtap"])
    return TapHandler(Session.new(GAME, SETUP, seed=1), cards, tmp_path / "cards.toml")


def test_a_card_with_one_legal_action_is_proposed_to_the_referee(handler: TapHandler) -> None:
    result = handler.handle(TagPresent(FIREBALL))
    assert result is not None and result.verdict is not None
    assert (result.card, result.verdict.action, result.verdict.legal) == (
        "fireball", "play fireball", True)
    assert handler.session.history == ["play fireball"]
    assert handler.session.record[0].source == "nfc"


def test_a_card_with_several_legal_actions_offers_the_choice(handler: TapHandler) -> None:
    result = handler.tap(SHIELD)
    assert result.verdict is None and result.choices == ("discard shield", "play shield")
    assert handler.session.history == []
    assert handler.choose(result.choices[0]).legal
    assert handler.session.history == ["discard shield"]


def test_a_card_no_legal_action_names_is_reported_not_proposed(handler: TapHandler) -> None:
    handler.tap(FIREBALL)
    again = handler.tap(FIREBALL)
    assert again.verdict is None and again.note == "No legal action uses fireball right now."
    assert handler.session.history == ["play fireball"]


def test_learn_mode_pairs_an_unknown_tag_saves_it_and_plays_the_card(
        handler: TapHandler) -> None:
    result = handler.tap(STRANGER)
    assert result.unknown and "choose its card" in result.note
    assert handler.pairing_choices() == ["goblin-lair"]
    played = handler.pair_pending("goblin-lair")
    assert played.verdict is not None and played.verdict.action == "play goblin-lair"
    saved = CardMap.load(handler.cards_path, games=["cardtap"])  # type: ignore[arg-type]
    assert saved.card_for("cardtap", STRANGER) == "goblin-lair"
    with pytest.raises(LookupError, match="no unknown tag is waiting"):
        handler.pair_pending("fireball")


def test_messages_other_than_a_tap_are_ignored(handler: TapHandler) -> None:
    assert handler.handle(Heartbeat(5, 0)) is None


def test_notation_words_match_whole_names_only() -> None:
    notations = ["assign 1:goblin 3:goblin", "assign 1:goblin-king", "go north"]
    assert actions_naming("GOBLIN", notations) == ["assign 1:goblin 3:goblin"]
    assert actions_naming("go", notations) == []   # the verb is not a card


def test_actions_where_the_card_acts_come_before_those_where_it_is_a_target() -> None:
    """docs/nfc-bridge.md "Cards": a tapped trooper moves or shoots; only when it can do
    nothing itself are the actions aimed at it offered."""
    notations = ["move Ann Fusilier 4", "shoot Ann Fusilier combi_rifle Grenzer@12*2+cover",
                 "shoot Ann Fusilier combi_rifle Grenzer@12*1+cover Daturazi@20*1"]
    assert actions_naming("fusilier", notations) == notations
    assert actions_naming("grenzer", notations) == notations[1:]
    assert actions_naming("daturazi", notations) == notations[2:]
    assert actions_naming("Hex", ["cycle red Hex", "play red Hex -> B1", "play red Lunge R1 "
                                  "-> B1"]) == ["cycle red Hex", "play red Hex -> B1"]


def test_the_cards_file_round_trips(tmp_path: Path) -> None:
    cards = CardMap()
    cards.pair("infinidungeon", "04:a1:b2:c3:d4:e5:f6", "goblin-lair")
    cards.pair("401", "deadbeef", "fireball")
    cards.save(tmp_path / "cards.toml")
    again = CardMap.load(tmp_path / "cards.toml")
    assert again.cards("infinidungeon") == {"04A1B2C3D4E5F6": "goblin-lair"}
    assert again.card_for("401", "DEADBEEF") == "fireball"
    assert CardMap.load(tmp_path / "missing.toml").cards("401") == {}


@pytest.mark.parametrize(("text", "message"), [
    ('[401]\nXYZ = "fireball"', r"cards.toml: \[401\] XYZ: 'XYZ' is not a tag UID"),
    ('[chess]\nDEADBEEF = "queen"', r"cards.toml: chess: unknown key; .*expected one of"),
    ('[401]\nDEADBEEF = "fire ball"', r"cards.toml: \[401\] DEADBEEF: the card must be a name"),
    ('[401]\nDEADBEEF = "a"\ndeadbeef = "b"', r"cards.toml: \[401\] deadbeef: this tag is listed"),
    ('[401\nDEADBEEF = "a"', r"cards.toml: .*line 1"),
])
def test_a_bad_cards_file_names_the_file_key_and_problem(text: str, message: str) -> None:
    with pytest.raises(CardMapError, match=message):
        CardMap.from_text(text, "cards.toml")


def test_uids_are_4_7_or_10_bytes() -> None:
    assert normalise_uid("de ad be ef") == "DEADBEEF"
    with pytest.raises(ValueError, match="4, 7 or 10 bytes"):
        normalise_uid("DEADBEEF00")
