"""The data files and their checkers: every refusal names the file, the key and the problem
(rulebook 2.1 leaders, 2.4 cards, 2.5 tiles, 1.1 Roles, 1.2 chapters)."""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.defiance import GAME
from companion.games.defiance.catalog import read_cards, read_leaders, read_roles, read_tiles
from tests.games.defiance.helpers import rules, sources


def test_shipped_example_set_holds_two_settings_and_eighteen_roles():
    """infinities-defiance-of-fate.md "3. Setup" step 1 (two settings and their factions) and
    "1.1 - Skirmish Mode" (the 18-card Roles deck)."""
    loaded = rules("data/games/skirmish.toml")
    assert loaded.settings == (("obdija", "wardens"), ("xilsen", "empire"))
    assert len(loaded.roles) == 18
    assert loaded.tiles[0].kind == "rift"
    assert {t.setting for t in loaded.tiles[1:]} == {"obdija", "xilsen"}
    assert all(lead.health == 5 for lead in loaded.leaders)


def _error(reader, text, name="x.toml"):
    with pytest.raises(SetupError) as error:
        reader((name, text))
    return error.value


def test_leader_needs_three_gambit_boxes_and_five_health():
    """infinities-defiance-of-fate.md "2.1 - Leader Playmat and Counters": all leaders have 5
    Health; "2.6.2 - Gambits": levels 1 to 3 then the permanent level 4."""
    base = ('[[leader]]\nid = "a"\nname = "A"\nfaction = "f"\nstrong = "tide"\naction = "x"\n'
            'empowerment = "y"\n')
    gambits = "".join(f'[[leader.gambit]]\nlevel = {n}\ncondition = "c"\nreward = "r"\n'
                      for n in (1, 2))
    error = _error(read_leaders, base + gambits, "leaders.toml")
    assert (error.source, error.where) == ("leaders.toml", "leader[0].gambit")
    three = gambits + '[[leader.gambit]]\nlevel = 3\ncondition = "c"\nreward = "r"\n'
    assert read_leaders(("ok.toml", base + three))[0].health == 5
    error = _error(read_leaders, base.replace('empowerment', 'health = 6\nempowerment') + three)
    assert error.where == "leader[0].health" and "5" in error.problem
    error = _error(read_leaders, base.replace('"tide"', '"luck"'))
    assert error.where == "leader[0].strong" and "luck" in error.problem


def test_conversion_faces_are_checked():
    """infinities-defiance-of-fate.md "2.6.1 - Action Checks", Convert: a box converts one
    die result into another."""
    text = ('[[leader]]\nid = "a"\nname = "A"\nfaction = "f"\nstrong = "tide"\naction = "x"\n'
            'empowerment = "y"\n[[leader.convert]]\ntrack = "tide"\nlevel = 2\nfrom = "Q"\n'
            'to = "T"\n')
    error = _error(read_leaders, text)
    assert error.where == "leader[0].convert[0].from"


def test_tiles_need_one_rift_influence_one_to_five_and_edge_walls():
    """infinities-defiance-of-fate.md "2.5 - Setting Tiles": Influence 1-5 (never 0), a type,
    walls on edges; the game begins in the Rift tile."""
    tile = '[[tile]]\nid = "t"\nname = "T"\nsetting = "s"\ntype = "city"\ninfluence = {}\n'
    error = _error(read_tiles, tile.format(0), "tiles.toml")
    assert (error.source, error.where) == ("tiles.toml", "tile[0].influence")
    error = _error(read_tiles, tile.format(2))
    assert "exactly one Rift" in error.problem
    error = _error(read_tiles, tile.format(2) + "walls = [6]\n")
    assert error.where == "tile[0].walls"
    error = _error(read_tiles, tile.format(2) + 'events = { arrival = "x" }\n')
    assert error.where == "tile[0].events.arrival"


def test_units_have_attributes_and_health_abilities_do_not():
    """infinities-defiance-of-fate.md "2.4 - Faction Decks": attribute and Health are on
    unit cards only."""
    card = '[[card]]\nid = "c"\nname = "C"\nfaction = "f"\ncost = 1\n'
    error = _error(read_cards, card + 'kind = "unit"\nattributes = ["tide"]\n')
    assert error.where == "card[0].health"
    error = _error(read_cards, card + 'kind = "ability"\nhealth = 2\n')
    assert error.where == "card[0].kind"
    error = _error(read_cards, card + 'kind = "unit"\nattributes = ["luck"]\nhealth = 1\n')
    assert "luck" in error.problem


def test_the_roles_deck_holds_eighteen_distinct_roles():
    """infinities-defiance-of-fate.md "1.1 - Skirmish Mode": the 18-card Roles Deck."""
    role = '[[role]]\nid = "r{}"\nname = "R"\nobjective = "o"\n'
    error = _error(read_roles, "".join(role.format(n) for n in range(17)), "roles.toml")
    assert error.source == "roles.toml" and "18" in error.problem
    error = _error(read_roles, role.format(1) * 18)
    assert "twice" in error.problem


def test_setup_errors_name_the_file_and_key():
    """infinities-defiance-of-fate.md "3. Setup" step 1 (two settings), cover page (2-6
    players), "1.1 - Skirmish Mode" (teams)."""
    good = sources()
    bad = dict(good, setup=("game.toml", '[game]\nmode = "quickplay"\nplayers = ["Ann"]\n'
                                         'settings = { obdija = "wardens", xilsen = "empire" }'))
    with pytest.raises(SetupError) as error:
        GAME.load_setup(bad, {})
    assert (error.value.source, error.value.where) == ("game.toml", "game.players")
    bad = dict(good, setup=("game.toml", '[game]\nmode = "quickplay"\nplayers = ["A", "B"]\n'
                                         'settings = { obdija = "wardens" }'))
    with pytest.raises(SetupError) as error:
        GAME.load_setup(bad, {})
    assert error.value.where == "game.settings"
    bad = dict(good, setup=("game.toml", '[game]\nmode = "chess"\n'))
    with pytest.raises(SetupError) as error:
        GAME.load_setup(bad, {})
    assert error.value.where == "game.mode" and "chess" in error.value.problem
    with pytest.raises(SetupError) as error:
        GAME.load_setup(dict(good, setup=("game.toml", "[game\n")), {})
    assert error.value.where == "line 1"
    missing = {k: v for k, v in good.items() if k != "cards"}
    with pytest.raises(SetupError) as error:
        GAME.load_setup(missing, {})
    assert error.value.where == "cards"


def test_options_override_players_and_mode():
    """infinities-defiance-of-fate.md "1. Game Modes": determine the type before each
    session."""
    loaded = GAME.load_setup(sources(), {"players": ["Xia", "Yul", "Zed"], "mode": "skirmish"})
    assert loaded.players == ("Xia", "Yul", "Zed") and loaded.reveal == 6
    assert loaded.round_limit == 10
