"""The referee's refusals and event lines in Spanish and Russian (issue 9), without Kivy.

The catalogue's ``refusal.<game>.<code>`` templates are checked against the engines' own
source: every Infinifield and Infinidungeon refusal code has a Spanish and a Russian
template, and no template names a value its call sites do not pass (it would fall back to
English on screen). Then real refusals and events from real sessions are worded.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.controller import TableController
from companion.app.i18n import LANGUAGES, catalogue
from companion.app.journal_shelf import JournalShelf
from companion.app.verdict_text import (
    COMPANION,
    event_text,
    events_line,
    fill,
    placeholders,
    refusal_text,
)
from companion.games.core import Event
from companion.games.infinifield.removal import REFUSALS
from companion.games.registry import GAME_MODULES, available_games, package_name
from tests.app.countdown_setup import register_countdown
from tests.app.refusal_sources import event_sites, params_by_code, refusal_sites

PACKAGES = {name: package_name(name) for name in available_games()
            if GAME_MODULES[name].startswith("companion.games.")}
"""Game name (the catalogue's ``<game>``) -> its package under ``companion/games/``: every
game the registry finds, so a new game's catalogue entries are checked too."""
FULLY_TRANSLATED = tuple(PACKAGES)
"""Games whose every refusal code must have a Spanish and a Russian template (all of them)."""

DYNAMIC: dict[str, dict[str, tuple[frozenset[str], tuple[str, ...]]]] = {
    # flow.py: a refused removal raises the code removal.py's REFUSALS names
    "infinifield": {"code": (frozenset(), tuple(REFUSALS))},
    # targeting.py: the status that forbids the action is the code
    "401": {"status": (frozenset(), ("stunned", "silenced"))},
}
COMPANION_CODES: dict[str, frozenset[str]] = {
    code: frozenset() for code in ("nothing_to_undo", "virtual_roll_stands", "no_chance_pending")
} | {"not_recorded": frozenset({"reason"})}
"""Refusals the session and the engine base class give for any game (session.py, core.py)."""


def codes_of(game: str) -> dict[str, frozenset[str]]:
    return params_by_code(refusal_sites(PACKAGES[game]), DYNAMIC.get(game, {}))


def event_keys_of(game: str) -> dict[str, frozenset[str]]:
    keys: dict[str, frozenset[str]] = {}
    for site in event_sites(PACKAGES[game]):
        assert site.code is not None
        keys[site.code] = keys[site.code] & site.params if site.code in keys else site.params
    return keys


@pytest.mark.parametrize("lang", ["es", "ru"])
@pytest.mark.parametrize("game", FULLY_TRANSLATED)
def test_every_refusal_code_has_a_template(game: str, lang: str) -> None:
    """Issue 9 "every user-visible string translatable": each code raised in the engine's
    source has a ``refusal.<game>.<code>`` template in Spanish and Russian."""
    codes = codes_of(game)
    assert len(codes) > 10
    table = catalogue(lang)
    missing = sorted(code for code in codes if f"refusal.{game}.{code}" not in table)
    assert missing == [], f"{lang}.json lacks refusal templates for {game}: {missing}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_templates_use_only_the_params_their_call_sites_pass(lang: str) -> None:
    """A template names only values every call site of its code passes, and only codes
    that exist (a stale key would never be shown)."""
    table = catalogue(lang)
    known = {game: codes_of(game) for game in PACKAGES} | {COMPANION: COMPANION_CODES}
    events = {game: event_keys_of(game) for game in PACKAGES} | {
        COMPANION: {"undone": frozenset({"action"})}}
    for key, template in table.items():
        prefix, _, rest = key.partition(".")
        if prefix not in ("refusal", "event"):
            continue
        game, _, name = rest.partition(".")
        sites = (known if prefix == "refusal" else events).get(game, {})
        assert name in sites, f"{lang}.json: {key} is not raised by {game}'s engine"
        unknown = placeholders(template) - sites[name]
        assert not unknown, f"{lang}.json: {key} names {sorted(unknown)}, not passed"
        numbers = {param: 1.5 for param in sites[name]}
        assert fill(template, numbers, lang, game), f"{lang}.json: {key} does not format"


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_term_keys_name_a_param_a_template_uses(lang: str) -> None:
    """``term.<game>.<param>.<value>`` only for params some template of the game shows."""
    table = catalogue(lang)
    used: dict[str, set[str]] = {}
    for key, template in table.items():
        prefix, _, rest = key.partition(".")
        if prefix in ("refusal", "event"):
            used.setdefault(rest.partition(".")[0], set()).update(placeholders(template))
    for key in table:
        if key.startswith("term."):
            _, game, param, _value = key.split(".", 3)
            assert param in used.get(game, set()), f"{lang}.json: {key} fills no template"


# -- real refusals and events --------------------------------------------------------------
@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableController]:
    unregister = register_countdown()
    controller = TableController(JournalShelf(tmp_path / "journals"))
    yield controller
    controller.close_game()
    unregister()


def test_an_infinifield_refusal_in_each_language(table: TableController) -> None:
    """infinifield.md "Select starting positions" step 2: a pawn starts on a white block;
    the refusal reads in the players' language, the block's colour word included."""
    table.start("infinifield", "quickstart", ["Ann", "Ben"], seed=1)
    verdict = table.propose("start Ben Y1")
    assert not verdict.legal and verdict.code == "not_white"
    assert table.detail(verdict, "en") == "Pawns start on a white block; Y1 is yellow."
    assert table.detail(verdict, "es") == "Las fichas empiezan en un bloque blanco; Y1 es " \
                                          "amarillo."
    assert table.detail(verdict, "ru") == "Пешки начинают на белом кубике; Y1 — желтый."
    assert table.log[-1].verdict == verdict


def test_a_removal_refusal_and_the_events_of_a_capture(table: TableController) -> None:
    """infinifield.md "Chase-and-capture" step 6 (a capture) and step 7, bullet 2 (a block
    with a pawn on it cannot be removed), worded in Spanish and Russian."""
    table.start("infinifield", "quickstart", ["Ann", "Ben"], seed=1)
    for action in ("start Ben W1", "start Ann W2", "move Ben W1 Y1", "move Ann W2 Y1"):
        assert table.propose(action).legal, action
    capture = table.log[-1].verdict
    assert capture is not None
    english = table.detail(capture, "en")
    assert "Ann captured Ben on Y1" in english
    spanish = table.detail(capture, "es")
    assert "Ann capturó a Ben en Y1" in spanish and "captured" not in spanish
    assert "Ann захватил Ben на Y1" in table.detail(capture, "ru")


def test_a_dungeon_refusal_translates_its_direction_word(table: TableController) -> None:
    """infinidungeon.md "Moving Room": no doorway that way; the direction is translated."""
    assert refusal_text("es", "infinidungeon", "no_doorway",
                        {"direction": "north", "doorways": ["east", "south"]},
                        "The Hall has no doorway to the north (doorways: east, south).") \
        == "Esta sala no tiene puerta al norte (puertas: este, sur)."
    assert refusal_text("ru", "infinidungeon", "out_of_turn", {"phase": "assign"}, "x") \
        == "Сейчас это невозможно: игра ждет распределения кубиков по монстрам."


def test_an_infinity_refusal_with_its_distances(table: TableController) -> None:
    """infinity-n3-intro.md "MOVE": a Move longer than MOV is refused; the Spanish and
    Russian sentences carry the same figures as the engine's."""
    table.start("infinity", "example armies", seed=3)
    verdict = table.propose("move Ann Alguacil 9")
    assert verdict.code == "too_far"
    assert verdict.reason == "Alguacil may move up to 4 inches with its first Move, not 9."
    assert table.detail(verdict, "es") == "Alguacil puede mover hasta 4 pulgadas en su " \
                                          "primer Mover, no 9."
    assert table.detail(verdict, "ru") == "Alguacil может пройти не больше 4 дюймов за " \
                                          "первый Move, а не 9."


def test_an_infinity_turn_change_is_an_event_line_of_the_language(
        table: TableController) -> None:
    """infinity-n3-intro.md "INFINITY: GAME SUMMARY": ending the Active Turn hands it over;
    the accepted action's event line is worded in each language."""
    table.start("infinity", "example armies", seed=3)
    verdict = table.propose("end Ann")
    assert verdict.legal and [event.kind for event in verdict.events] == ["turn_changed"]
    assert table.detail(verdict, "en") == "Ben's Active Turn (round 1)"
    assert table.detail(verdict, "es") == "Turno Activo de Ben (ronda 1)"
    assert table.detail(verdict, "ru") == "активный ход: Ben (раунд 1)"


def test_a_401_refusal_names_the_side_in_the_language(table: TableController) -> None:
    """401-infinite.md "TURNS / ACTIONS": only the side to move acts; its colour is a word of
    the chosen language."""
    session = table.start("401", "quick start", seed=2)
    while session.is_chance():  # the opening shuffles and the coin flip
        assert table.roll().legal
    verdict = table.propose("end red")
    assert (verdict.code, verdict.reason) == ("not_your_turn", "it is Blue's turn.")
    assert table.detail(verdict, "es") == "Es el turno del lado azul."
    assert table.detail(verdict, "ru") == "Сейчас ходят синие."


def test_defiance_setup_refusals_in_spanish_and_russian(table: TableController) -> None:
    """infinities-defiance-of-fate.md "3. Setup" step 5: a setting tile of the game, placed
    by the player whose turn it is; both refusals worded in Spanish and Russian."""
    session = table.start("defiance", "quickplay (2)", seed=2)
    while session.is_chance():
        assert table.roll().legal
    turn = table.propose("place Ben arcology -1,0 0")
    assert (turn.code, turn.reason) == ("not_your_turn", "It is Ann's turn, not Ben's.")
    assert table.detail(turn, "es") == "Es el turno de Ann, no de Ben."
    assert table.detail(turn, "ru") == "Сейчас ходит Ann, а не Ben."
    tile = table.propose("place Ann nowhere -1,0 0")
    assert tile.code == "unknown_tile"
    assert table.detail(tile, "es") == "nowhere no es una loseta de escenario de esta partida."


def test_english_falls_back_to_the_engine_sentence() -> None:
    """English has no templates: the engine's own sentence is shown, word for word."""
    assert refusal_text("en", "infinifield", "not_white", {"block": "Y1", "colour": "yellow"},
                        "Pawns start on a white block; Y1 is yellow.") \
        == "Pawns start on a white block; Y1 is yellow."


def test_a_template_the_params_cannot_fill_falls_back_to_english() -> None:
    """Never a blank or a raw key: missing params, unknown codes and games give English."""
    english = "Pawns start on a white block; Y1 is yellow."
    assert refusal_text("es", "infinifield", "not_white", {"block": "Y1"}, english) == english
    assert refusal_text("es", "infinifield", "no_such_code", {}, english) == english
    assert refusal_text("es", "no_such_game", "not_white", {}, english) == english
    assert refusal_text("es", "infinifield", "", {}, english) == english
    assert fill("{block!q}", {"block": "Y1"}, "es", "infinifield") is None
    line = events_line("es", "infinifield", [Event("mystery", {"x": 1}),
                                             Event("removal_due", {"player": "Ann"})],
                       lambda event: f"English {event.kind}")
    assert line == "English mystery; Ann debe quitar un bloque"


def test_companion_refusals_and_undo_in_spanish(table: TableController) -> None:
    """session.py "Undo": a virtual roll stands, said in Spanish for any game."""
    table.start("countdown", "pile of 7", seed=4)
    table.roll()
    refused = table.undo()
    assert not refused.legal
    assert table.detail(refused, "es").startswith("Una tirada hecha por el compañero no se")
    table.close_game()
    table.start("countdown", "pile of 7", seed=4)
    table.propose("roll 3", source="typed")
    undone = table.undo()
    assert table.detail(undone, "ru") == "отменено: roll 3"
    assert event_text("es", "countdown", Event("undone", {"action": "roll 3"}), "x") \
        == "deshecho: roll 3"
