"""The referee's refusal in the players' language, on the real 800x480 window (issue 9).

Rulebook: /work/shared/rules/infinifield.md "Select starting positions" step 2 (a pawn
starts on a white block). The language is chosen in Settings by touch, a new Infinifield game
is started by touch, a yellow block is tapped for a starting position, and the banner (and
the log) words the engine's refusal from the catalogue's template, with the block's colour
translated too.
"""

from __future__ import annotations

import pytest

from companion.app import theme
from tests.app.harness import AppDriver, close_to, go_home, start_game

pytestmark = pytest.mark.gui

EXPECTED = {
    "es": ("Rechazado", "Las fichas empiezan en un bloque blanco; {block} es amarillo."),
    "ru": ("Отклонено", "Пешки начинают на белом кубике; {block} — желтый."),
}


def _choose_language(driver: AppDriver, lang: str) -> None:
    go_home(driver)
    driver.tap(driver.widget("settings_button"))
    driver.tap(driver.widget(f"lang_{lang}"))
    assert driver.app.lang == lang


def _tap_block(driver: AppDriver, block: str) -> None:
    driver.tap_at(*driver.widget("board").block_window_pos(block))


def _refuse_a_yellow_start(driver: AppDriver, lang: str) -> str:
    """Start Infinifield by touch, tap a yellow block; the expected reason for ``lang``."""
    start_game(driver, "Infinifield", players=2)
    session = driver.app.table.session
    assert session is not None and session.state.phase == "start"
    yellow = next(block.id for block in session.state.field.blocks
                  if block.colour == "yellow")
    _tap_block(driver, yellow)
    verdict = driver.app.table.last_verdict
    assert verdict is not None and not verdict.legal and verdict.code == "not_white"
    assert verdict.reason == f"Pawns start on a white block; {yellow} is yellow."
    return EXPECTED[lang][1].format(block=yellow)


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_refused_start_reads_in_the_chosen_language(driver: AppDriver, lang: str) -> None:
    """infinifield.md "Select starting positions" step 2, refused in Spanish / Russian: the
    banner shows the translated sentence, red with its square "NO" badge and the rule; the
    log shows the same sentence."""
    try:
        _choose_language(driver, lang)
        expected = _refuse_a_yellow_start(driver, lang)
        banner = driver.app.banner
        image = driver.screenshot(f"banner_refused_{lang}")
        assert banner.parent is not None and not banner.legal
        assert banner.reason == expected
        assert banner.headline.startswith(EXPECTED[lang][0])
        assert banner.rule == 'infinifield: "Select starting positions", step 2'
        assert close_to(driver.pixel_of(image, banner, dx=banner.width / 2 - 20),
                        theme.REFUSED, 12)
        driver.tap(driver.widget("log_button"))
        assert driver.screen.name == "log"
        details = [row.detail for row in driver.screen.ids.rows.children]
        assert details and details[0].startswith(expected)
    finally:
        driver.app.set_language("en")
        driver.frames(2)
        go_home(driver)
