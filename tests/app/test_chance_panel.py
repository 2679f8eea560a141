"""Shuffles and coin flips are not dice, and a hidden order stays hidden (issue 15, item 4).

Rulebooks: infinidungeon.md "Setup" (the room deck is shuffled face down), 401-infinite.md
(each side's stack is shuffled, a coin flip picks who goes first). The chance panel names
what chance does; the table screen (banner) never shows a shuffled order - the journal keeps
it.
"""

from __future__ import annotations

import pytest

from companion.app import theme
from companion.games.registry import load_game
from tests.app.fit import clipped_labels
from tests.app.harness import AppDriver, close_to, start_game

pytestmark = pytest.mark.gui


def test_the_dungeon_deck_is_shuffled_not_rolled_and_its_order_stays_hidden(
        driver: AppDriver) -> None:
    """infinidungeon.md "Setup": the room deck is shuffled face down; the panel says
    "Shuffle the deck", the banner says how many cards and never their order."""
    start_game(driver, "Infinidungeon")
    session = driver.app.table.session
    assert session is not None and session.is_chance()
    panel = driver.widget("panel")
    assert panel.headline == "Shuffle the deck"
    assert panel.ids.roll_button.text == "Shuffle for me"
    assert panel.ids.physical_row.parent is None, "no dice to type for a shuffle"
    image = driver.screenshot("chance_shuffle_dungeon")
    assert close_to(driver.pixel_of(image, panel.ids.roll_button,
                                     dx=-panel.ids.roll_button.width / 2 + 14), theme.ACCENT, 45)
    assert clipped_labels(panel) == []
    driver.tap(panel.ids.roll_button)
    order = session.record[-1].text.split()[1:]
    assert session.record[-1].text.startswith("shuffle ") and len(order) >= 5
    banner = driver.app.banner
    image = driver.screenshot("chance_shuffle_dungeon_banner")
    shown = " ".join((banner.headline, banner.reason)).lower()
    assert banner.headline == f"Accepted: shuffle ({len(order)} cards, order hidden)"
    assert not [card for card in order if card in shown.split() or f" {card} " in shown], \
        "no card of the hidden order is on the table screen"
    journal = session.journal
    assert journal is not None
    assert " ".join(order) in journal.path.read_text(), "the journal keeps the order"
    for _ in range(6):  # into rooms until dice are due
        if panel.mode == "chance":
            break
        driver.tap(panel.ids.actions.children[-1])  # the first listed
    assert panel.mode == "chance"
    assert panel.headline == "Roll the dice" and panel.ids.roll_button.text == "Roll for me"
    assert panel.ids.physical_row.parent is not None


def test_401_stacks_are_shuffled_then_a_coin_is_flipped(driver: AppDriver) -> None:
    """401-infinite.md setup: both stacks shuffled face down (hidden), then a coin flip; the
    panel says "Flip a coin" and the coin can be typed as the physical coin shows."""
    start_game(driver, "401 Infinite")
    session = driver.app.table.session
    assert session is not None
    panel = driver.widget("panel")
    for _ in range(2):
        assert panel.headline == "Shuffle the deck"
        driver.tap(panel.ids.roll_button)
        side, *order = session.record[-1].text.split()[1:]
        headline = driver.app.banner.headline
        assert headline == f"Accepted: shuffle {side} ({len(order)} cards, order hidden)"
        assert not set(order) & set(headline.replace("(", " ").split())
    assert panel.headline == "Flip a coin" and panel.ids.roll_button.text == "Flip for me"
    assert panel.ids.physical_row.parent is not None
    assert panel.ids.keypad_button.parent is None, "no dice keypad for a coin"
    image = driver.screenshot("chance_flip_401")
    assert clipped_labels(panel) == []
    assert close_to(driver.pixel_of(image, panel.ids.roll_button,
                                     dx=-panel.ids.roll_button.width / 2 + 14), theme.ACCENT, 45)
    driver.type_into(panel.ids.physical, "Red")
    driver.tap(panel.ids.enter_button)
    assert session.history[-1] == "flip red"
    assert session.record[-1].source == "typed"
    assert not session.is_chance()


def test_defiance_decks_are_shuffled_out_of_sight(driver: AppDriver) -> None:
    """Defiance setup shuffles each side's deck face down: the panel says "Shuffle the
    deck" and the banner gives the deck and its size, never its order."""
    start_game(driver, load_game("defiance").title)
    session = driver.app.table.session
    assert session is not None
    panel = driver.widget("panel")
    shuffled = 0
    for _ in range(6):
        if not session.is_chance() or panel.headline != "Shuffle the deck":
            break
        assert panel.ids.roll_button.text == "Shuffle for me"
        driver.tap(panel.ids.roll_button)
        deck, *order = session.record[-1].text.split()[1:]
        headline = driver.app.banner.headline
        assert headline == f"Accepted: shuffle {deck} ({len(order)} cards, order hidden)"
        assert not set(order) & set(headline.replace("(", " ").split())
        shuffled += 1
    assert shuffled >= 1
    assert panel.headline == "Reveal the Roles", "Defiance 1.1: then the Roles are revealed"
    assert panel.ids.roll_button.text == "Reveal for me"
    assert panel.ids.physical_row.parent is None
    driver.screenshot("chance_shuffle_defiance")
