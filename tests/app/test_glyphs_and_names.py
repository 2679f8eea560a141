"""Issue 15 item 6: every character the app can show has a glyph in its font (no empty
boxes), and the names from the data files show in the players' language."""

from __future__ import annotations

import numpy as np
import pytest

from companion.app import theme
from companion.app.names import read_names, translate_line
from companion.games.core import SetupError
from tests.app.harness import AppDriver, close_to, go_home, start_game
from tests.app.ui_strings import every_ui_string

pytestmark = pytest.mark.gui

NOT_A_CHARACTER = "\u0378"
"""An unassigned code point: every font draws its .notdef box for it."""


def _glyph_pixels(font: str, char: str) -> bytes:
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=char, font_name=font, font_size=40)
    label.refresh()
    texture = label.texture
    return bytes(texture.pixels) + str(texture.size).encode()


def test_every_string_the_ui_shows_has_its_glyphs_in_the_app_font(driver: AppDriver) -> None:
    """Each character of every catalogue string (en, es, ru), every translated data name and
    every line the engines and catalogue generate in seeded playouts of every game is drawn
    by the app's font as something other than its .notdef box, in regular and bold."""
    del driver  # the window gives the text renderer its context
    characters: dict[str, str] = {}
    for where, text in every_ui_string():
        for char in text:
            if char.isprintable() and not char.isspace():
                characters.setdefault(char, where)
    assert {"✗", "→", "·", "Ж", "ñ", "“"} <= set(characters), "the sample covers the issue"
    for font in theme.font_files():
        box = _glyph_pixels(font, NOT_A_CHARACTER)
        missing = {char: where for char, where in characters.items()
                   if _glyph_pixels(font, char) == box}
        assert missing == {}, f"{font} draws boxes for {missing}"


def test_roboto_would_have_drawn_boxes(driver: AppDriver) -> None:
    """The check can fail: Kivy's former default font has no "✗" or "→"."""
    import os

    import kivy

    del driver
    roboto = os.path.join(kivy.kivy_data_dir, "fonts", "Roboto-Regular.ttf")
    box = _glyph_pixels(roboto, NOT_A_CHARACTER)
    assert _glyph_pixels(roboto, "✗") == box and _glyph_pixels(roboto, "→") == box
    assert _glyph_pixels(roboto, "A") != box


def test_cross_and_arrow_are_drawn_on_screen(driver: AppDriver) -> None:
    """Issue 15 item 6: an eliminated player's "✗" on the Infinifield screen is a cross,
    not an empty box: its pixels differ from the font's .notdef box drawn the same way."""
    from kivy.core.text import LabelBase
    from kivy.uix.label import Label

    assert LabelBase._fonts["Roboto"][0].endswith("DejaVuSans.ttf"), "the app font is used"
    go_home(driver)
    probe = Label(text="✗ →", font_size="40sp", color=(1, 1, 1, 1), size_hint=(None, None),
                  size=(200, 80), pos=(300, 200))
    driver.window.add_widget(probe)
    try:
        image = driver.screenshot("glyphs_cross_arrow")
        row = image.shape[0] - 1 - int(probe.center_y)
        strip = image[row - 20:row + 20, int(probe.x):int(probe.right)].max(axis=2)
        probe.text = f"{NOT_A_CHARACTER} {NOT_A_CHARACTER}"
        boxes = driver.screenshot("glyphs_notdef")
        box_strip = boxes[row - 20:row + 20, int(probe.x):int(probe.right)].max(axis=2)
    finally:
        driver.window.remove_widget(probe)
    assert (strip > 128).sum() > 50, "the glyphs are drawn"
    assert np.abs(strip.astype(int) - box_strip.astype(int)).sum() > 255 * 40, \
        "cross and arrow are not .notdef boxes"


def test_room_names_translate_from_the_deck_names_file() -> None:
    """Issue 15 item 6 "room data ... stay English": the deck's names file gives them."""
    assert translate_line("es", "infinidungeon", "Den (basic)  ·  monsters") == \
        "Guarida (básica)  ·  monstruos"
    assert translate_line("ru", "infinidungeon", "spider: 1 2\nzombie: 5 6") == \
        "паук: 1 2\nзомби: 5 6"
    assert translate_line("ru", "infinidungeon", "ratatouille") == "ratatouille", \
        "only whole names are replaced"


def test_a_names_file_with_a_typo_is_a_clear_error() -> None:
    with pytest.raises(SetupError, match=r"x.names.toml: es.Crpyt: does not occur"):
        read_names("x.names.toml", '[es]\nCrpyt = "Cripta"', 'name = "Crypt"')
    with pytest.raises(SetupError, match=r"x.names.toml: fr: unknown key"):
        read_names("x.names.toml", '[fr]\nCrypt = "Crypte"', 'name = "Crypt"')


def test_action_buttons_tabs_and_setups_in_russian(driver: AppDriver) -> None:
    """Issue 15 item 6: in Russian the new-game screen names setups and options in Russian,
    and the Infinidungeon room line and action buttons show no English data names."""
    driver.app.set_language("ru")
    try:
        go_home(driver)
        driver.tap_text("Infinifield")
        layouts = [b.text for b in driver.screen.ids.layouts.children]
        assert "официальное поле" in layouts and "official" not in layouts
        driver.screenshot("new_game_ru")
        driver.tap(driver.find_button("<"))
        driver.app.set_language("es")
        start_game(driver, "Infinidungeon")
        driver.app.roll()
        driver.frames(3)
        texts = [b.text for b in driver.buttons() if b.get_root_window() is not None]
        assert any(text.startswith("ir ") for text in texts), texts
        driver.screenshot("infinidungeon_es")
    finally:
        driver.app.set_language("en")


def _words_that_break(driver: AppDriver) -> list[str]:
    """Visible buttons where a word is wider than the button (Kivy would break it)."""
    from companion.app.widgets.common import BigButton, text_width

    broken = []
    for widget in driver.app.root.walk():
        if not isinstance(widget, BigButton) or widget.get_root_window() is None \
                or widget.opacity == 0 or widget.width <= 20 or not widget.text:
            continue
        for word in widget.text.split():
            if text_width(word, widget.font_size, widget.bold) > widget.width - 12 + 1:
                broken.append(f"{word!r} in {widget.text!r} ({widget.width:.0f} px)")
    return broken


def _one_line(label) -> bool:  # type: ignore[no-untyped-def]
    """Whether the label's text fits its width on one line, as drawn."""
    from companion.app.widgets.common import text_width

    return len(label._label._cached_lines) == 1 and \
        text_width(label.text, label.font_size, label.bold) <= label.width


def test_russian_words_never_break_and_titles_stay_on_one_line(driver: AppDriver) -> None:
    """Issue 15 item 6: "Перебросить" must not break mid-word; titles must not wrap. On
    every screen in Russian, no button word is wider than its button and each title is one
    line."""
    from companion.app.widgets.common import BigButton

    driver.app.set_language("ru")
    try:
        probe = BigButton(text="Перебросить", size_hint=(None, None), size=(110, 56),
                          pos=(340, 200), font_size="19sp")
        driver.window.add_widget(probe)
        driver.frames(3)
        image = driver.screenshot("ru_long_word_button")
        driver.window.remove_widget(probe)
        assert probe.font_size < probe.designed_font_size, "the word shrank to fit"
        assert probe.texture_size[1] < probe.font_size * 2, "one line: no break"
        assert close_to(driver.pixel_of(image, probe, dx=-50), theme.BUTTON, 14)
        go_home(driver)
        title = driver.widget("app_title")
        assert _one_line(title), "the app title is one line"
        assert _words_that_break(driver) == []
        driver.screenshot("home_ru_title")
        start_game(driver, "Infinidungeon")
        driver.app.roll()
        driver.frames(3)
        assert _words_that_break(driver) == []
        for name in ("tools_button", "log_button", "sim_button"):
            driver.tap(driver.widget(name))
            assert _one_line(driver.widget("title_label")), f"{name}: the title wraps"
            assert _words_that_break(driver) == [], name
            driver.screenshot(f"ru_{driver.screen.name}")
            driver.tap(driver.find_button("<"))
    finally:
        driver.app.set_language("en")
