"""Issue 15 item 11: the dice keypad offers the faces of the dice the game waits for, one
tap per six-sided die, a Cancel, and keeps a refused entry to be corrected."""

from __future__ import annotations

import random

import pytest

from companion.app import theme
from companion.app.dice_tools import keypad_kind
from companion.app.game_setups import SETUPS
from companion.games.registry import load_game
from tests.app.harness import AppDriver, close_to, start_game, too_small_buttons

pytestmark = pytest.mark.gui


def _open_keypad(driver: AppDriver):  # type: ignore[no-untyped-def]
    driver.tap(driver.screen.ids.panel.ids.keypad_button)
    driver.wait(0.3)
    return next(w for w in driver.window.children if type(w).__name__ == "DiceKeypad")


def _keys(keypad) -> list[str]:  # type: ignore[no-untyped-def]
    return [b.action for b in reversed(keypad.ids.keypad_keys.children)]


def test_d6_keypad_one_tap_per_die_cancel_and_a_refused_entry_kept(driver: AppDriver) -> None:
    """Countdown rolls one d6 (countdown "Dice"): the pad offers 1-6 only, each tap is a
    die, Cancel proposes nothing, and a refused roll stays on the pad with its reason."""
    start_game(driver, "Countdown")
    session = driver.app.table.session
    assert session is not None
    keypad = _open_keypad(driver)
    assert keypad.kind == "d6"
    assert _keys(keypad) == ["1", "2", "3", "4", "5", "6", "del", "cancel", "enter"]
    for key in ("3", "4"):
        driver.tap(driver.find_button(key, keypad))
    assert keypad.text == "3 4", "one tap per die, the pad separates them"
    image = driver.screenshot("dice_keypad_d6")
    cancel = driver.find_button("Cancel", keypad)
    enter = driver.find_button("Enter", keypad)
    assert close_to(driver.pixel_of(image, cancel, dx=-cancel.width / 3), theme.DANGER, 14)
    assert close_to(driver.pixel_of(image, enter, dx=-enter.width / 3), theme.ACCEPTED, 14)
    assert too_small_buttons(driver) == []
    driver.tap(enter)
    assert keypad.get_parent_window() is not None, "the refused roll stays on the pad"
    assert keypad.text == "3 4" and keypad.problem, "with the referee's reason"
    assert session.history == []
    driver.screenshot("dice_keypad_refused_kept")
    driver.tap(driver.find_button("delete", keypad))
    assert keypad.text == "3" and keypad.problem == ""
    driver.tap(driver.find_button("Enter", keypad))
    driver.wait(0.3)
    assert session.history == ["roll 3"] and keypad.get_parent_window() is None
    verdict = driver.app.propose("take Ann 1", "touch")
    assert verdict.legal, verdict.reason
    driver.frames(3)
    keypad = _open_keypad(driver)
    driver.tap(driver.find_button("5", keypad))
    driver.tap(driver.find_button("Cancel", keypad))
    driver.wait(0.3)
    assert keypad.get_parent_window() is None and session.history == ["roll 3", "take Ann 1"]


def _chance_kinds(game_name: str, steps: int = 300) -> set[tuple[str, str]]:
    game = load_game(game_name)
    spec = SETUPS[game_name]
    layout = next(iter(spec.layouts))
    state = game.initial_state(game.load_setup(spec.sources(layout),
                                               spec.build_options(None, layout)))
    rng = random.Random(1)
    seen = set()
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        if game.is_chance(state):
            action = game.sample_chance(state, rng)
            seen.add((game.format_action(action).split()[0], keypad_kind(game, state)))
        else:
            action = rng.choice(list(game.legal_actions(state)))
        state = game.apply(state, action).state
    return seen


def test_the_keypad_follows_the_dice_each_engine_waits_for() -> None:
    """infinidungeon.md rolls d6 (1-6 keypad); Infinity rolls d20 (digits and "next die");
    a shuffle is not dice (the full pad)."""
    dungeon = _chance_kinds("infinidungeon")
    assert ("roll", "d6") in dungeon and ("shuffle", "any") in dungeon
    assert ("roll", "numbered") in _chance_kinds("infinity")
