"""The one data-file reader: size cap, deep nesting, NaN, unknown keys with the closest one."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.core import SetupError, parse_setup_toml
from companion.games.datafile import MAX_DATA_BYTES, Table, load_json, load_toml


def test_deeply_nested_toml_is_a_clear_error_not_a_recursion_error() -> None:
    text = "a = " + "[" * 20000 + "]" * 20000
    with pytest.raises(SetupError) as caught:
        parse_setup_toml("field.toml", text)
    assert str(caught.value) == "field.toml: values are nested too deep to read"


def test_deeply_nested_inline_tables_are_a_clear_error() -> None:
    text = "a = " + "{b = " * 5000 + "1" + "}" * 5000
    with pytest.raises(SetupError, match="nested too deep"):
        load_toml("deck.toml", text)


def test_a_file_over_the_cap_is_refused_naming_its_size() -> None:
    text = "x = 1\n" + "#" * MAX_DATA_BYTES
    with pytest.raises(SetupError) as caught:
        load_toml("huge.toml", text)
    assert caught.value.source == "huge.toml"
    assert "at most 1,000,000 bytes" in caught.value.problem


def test_json_refuses_nan_and_infinity_naming_the_line() -> None:
    with pytest.raises(SetupError) as caught:
        load_json("settings.json", '{\n"a": 1,\n"b": Infinity}')
    assert caught.value.where == "line 3"
    with pytest.raises(SetupError, match="line 1: not valid JSON"):
        load_json("settings.json", '{"language": "es"')


def test_unknown_key_names_the_closest_valid_key() -> None:
    table = Table("defiance.toml", {"name": "Ann", "trak_max": 5}, "leaders[2]")
    assert table.text("name") == "Ann"
    assert table.whole("track_max", default=6) == 6
    with pytest.raises(SetupError) as caught:
        table.done()
    assert str(caught.value) == ("defiance.toml: leaders[2].trak_max: unknown key; did you mean "
                                 "'track_max'? (expected one of: name, track_max)")


def test_context_manager_checks_keys_on_clean_exit_only() -> None:
    with pytest.raises(SetupError, match="unknown key"), Table("f.toml", {"wals": []}) as table:
        table.array("walls", default=[])
    with pytest.raises(KeyError), Table("f.toml", {"wals": []}):
        raise KeyError("the reader's own error wins")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_numbers_are_refused(value: float) -> None:
    table = Table("field.toml", {"at": value}, "blocks[1]")
    with pytest.raises(SetupError, match=r"blocks\[1\]\.at: must be a finite number"):
        table.number("at")


def test_nan_parsed_from_toml_text_is_refused() -> None:
    table = Table("field.toml", load_toml("field.toml", "block_size = nan"))
    with pytest.raises(SetupError, match="block_size: must be a finite number"):
        table.number("block_size", positive=True)


def test_booleans_are_not_numbers_and_texts_are_shortened() -> None:
    table = Table("f.toml", {"n": True, "s": "x" * 500, "k": 3})
    with pytest.raises(SetupError, match="must be a number, got true"):
        table.number("n")
    with pytest.raises(SetupError) as caught:
        table.whole("s")
    assert len(str(caught.value)) < 120
    with pytest.raises(SetupError, match="must be at most 2, got 3"):
        table.whole("k", maximum=2)


def test_wrong_shapes_name_their_path() -> None:
    table = Table("army.toml", {"armies": [{"profile": ["iguana"]}], "name": 3})
    (army,) = table.tables("armies")
    with pytest.raises(SetupError) as caught:
        army.text("profile")
    assert str(caught.value) == "army.toml: armies[0].profile: must be text, got an array of 1"
    with pytest.raises(SetupError, match="name: must be text, got 3"):
        table.text("name")
    with pytest.raises(SetupError, match=r"\(top level\): must be a table"):
        Table("army.toml", [1, 2])


def test_choices_and_required_keys() -> None:
    table = Table("options.toml", {"scoring": "fast"})
    with pytest.raises(SetupError, match="'fast' is not one of: points, survival"):
        table.text("scoring", choices=("points", "survival"))
    with pytest.raises(SetupError, match="teams: missing"):
        table.flag("teams")
    assert table.flag("tems", default=False) is False


DEEP = "a = " + "[" * 20000 + "]" * 20000
HUGE = "a = 1\n" + "#" * (MAX_DATA_BYTES + 1)


@pytest.mark.parametrize("text,problem", [(DEEP, "nested too deep"), (HUGE, "at most 1,000,000")])
def test_the_apps_own_toml_files_go_through_the_same_reader(text: str, problem: str) -> None:
    """Issue 14: the guards cover the app-side files too: Infinity base markers and the NFC
    card pairings name the file instead of a RecursionError or a stalled read."""
    from companion.app.base_markers import BaseMarkerError, parse_base_markers
    from firmware_bridge.cards import CardMap, CardMapError

    with pytest.raises(BaseMarkerError, match=problem) as markers:
        parse_base_markers("bases.toml", text)
    assert str(markers.value).startswith("bases.toml: ")
    with pytest.raises(CardMapError, match=problem) as cards:
        CardMap.from_text(text, "cards.toml")
    assert str(cards.value).startswith("cards.toml: ")


@pytest.mark.parametrize("text,problem", [
    ('{"a": ' + "[" * 20000 + "]" * 20000 + "}", "nested too deep"),
    ('{"language": "' + "e" * MAX_DATA_BYTES + '"}', "at most 1,000,000")])
def test_settings_nested_too_deep_or_too_large_are_reset_not_a_crash(
        tmp_path: Path, text: str, problem: str) -> None:
    from companion.app.settings_store import AppSettings

    path = tmp_path / "settings.json"
    path.write_text(text)
    settings = AppSettings.load_or_reset(path)
    assert settings.reset is not None and problem in settings.reset.problem
    assert settings.language == "en"
