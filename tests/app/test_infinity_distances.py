"""Distances for Infinity's attacks, by touch or from the camera (issue 5: "Distances between
troopers are entered on the touchscreen or ... taken from the camera; either way the range
band and modifier follow from the weapon's data"; infinity-n3-intro.md, range and BS)."""

from __future__ import annotations

import pytest

from companion.app.base_markers import pair
from companion.games.infinity.odds_report import declared_odds
from tests.app.harness import AppDriver, start_game, too_small_buttons

pytestmark = pytest.mark.gui


def _key_in(driver: AppDriver, digits: str) -> None:
    driver.tap(driver.screen.ids.measure_button)
    keypad = driver.screen.distance_keypad
    assert keypad is not None
    driver.frames(3)
    for key in [*digits, "Enter"]:
        driver.tap_text(key, keypad)
    assert driver.screen.distance_keypad is None, "Enter closes the keypad"
    for _ in range(100):
        if keypad.parent is None:
            break
        driver.wait(0.01)


def _shoot_buttons(driver: AppDriver) -> list[str]:
    panel = driver.widget("panel")
    driver.tap(driver.find_button("shoot", panel))
    return [b.text for b in reversed(panel.ids.actions.children)]


def test_distance_keyed_in_by_touch_sets_the_band_and_the_declared_attack(
        driver: AppDriver) -> None:
    """infinity-n3-intro.md: the Combi Rifle's band at the measured distance gives the BS
    modifier (+3 in 0-8, -3 in 16-32); the declaration carries the distance and the odds
    show BS 12 + modifier as the target."""
    start_game(driver, "Infinity (N3 introductory rules)")
    session = driver.app.table.session
    assert session is not None
    screen = driver.screen
    _key_in(driver, "7.5")
    assert screen.range_text.splitlines() == ["Attacks at 7.5 in (typed):",
                                              "Combi Rifle: 0-8 in, BS +3"]
    _key_in(driver, "20")
    assert screen.range_text.splitlines()[1] == "Combi Rifle: 16-32 in, BS -3"
    shoots = _shoot_buttons(driver)
    assert shoots and all("@20*" in text for text in shoots), shoots
    assert len(shoots) == len(set(shoots)), "one button per attack, not one per band"
    driver.screenshot("infinity_distance_typed")
    assert too_small_buttons(driver) == []
    declared = "shoot Ann Fusilier combi_rifle Grenzer@20*3"
    driver.tap_text(declared)
    assert session.history[-1] == declared
    for _ in range(10):
        if session.state.phase == "roll":
            break
        driver.tap(driver.widget("panel").ids.actions.children[-1])
    assert session.state.phase == "roll"
    lines = screen.odds_text.splitlines()
    assert lines[0].startswith("Fusilier target 9 x3"), lines  # BS 12, -3 at 20 inches
    assert lines == [line for report in declared_odds(session.state) for line in report.lines()]


def test_distances_filled_from_the_camera_follow_the_marked_bases(driver: AppDriver) -> None:
    """The (simulated) camera sees every mapped base; the attacks are listed at the measured
    base-to-base distance, within 0.1 inch of the drawn one."""
    start_game(driver, "Infinity (N3 introductory rules)")
    screen = driver.screen
    driver.tap(screen.ids.camera_distance_button)
    for _ in range(300):
        if screen.camera_distances:
            break
        driver.wait(0.01)
    driver.frames(3)
    truth = driver.app.simulated_bases.true_distances()
    assert set(screen.camera_distances) == set(truth)
    assert all(abs(screen.camera_distances[k] - truth[k]) < 0.1 for k in truth)
    assert "Spektr" not in screen.range_text, "Hidden Deployment stays Private Information"
    expected = screen.camera_distances[pair("Fusilier", "Grenzer")]
    modifier = "+3" if expected <= 16 else "-3" if expected <= 32 else "-6"
    assert f"Fusilier-Grenzer {expected:.1f} in: Combi Rifle {modifier}" in screen.range_text
    assert "Grenzer-Daturazi" not in screen.range_text, "only the active player's shots"
    shoots = _shoot_buttons(driver)
    assert f"shoot Ann Fusilier combi_rifle Grenzer@{expected:g}*3" in shoots
    driver.screenshot("infinity_distance_camera")
