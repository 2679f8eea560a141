"""Misspelt keys and numbers that are not numbers in Defiance data (issue 14, "Bad input"):
every data file and setup file refuses an unknown key, naming it and the closest valid key,
and a NaN or infinity anywhere a number is read is a clear error naming the key. The notation
reads only plain ASCII whole numbers, so no line can reach ``int`` and crash."""

from __future__ import annotations

import pytest

from companion.games.core import NotationError, SetupError
from companion.games.defiance import GAME
from companion.games.defiance.catalog import (
    read_cards,
    read_chapters,
    read_leaders,
    read_roles,
    read_tiles,
)
from tests.games.defiance.helpers import sources, started

LEADER = ('[[leader]]\nid = "a"\nname = "A"\nfaction = "f"\nstrong = "tide"\naction = "x"\n'
          'empowerment = "y"\n{extra}'
          + "".join(f'[[leader.gambit]]\nlevel = {n}\ncondition = "c"\nreward = "r"\n'
                    for n in (1, 2, 3)))
TILE = ('[[tile]]\nid = "rift"\nname = "Rift"\ntype = "rift"\ninfluence = 1\n'
        '[[tile]]\nid = "t"\nname = "T"\nsetting = "s"\ntype = "city"\ninfluence = 2\n')
CARD = ('[[card]]\nid = "c"\nname = "C"\nfaction = "f"\ncost = 1\nkind = "unit"\n'
        'attributes = ["tide"]\nhealth = 2\n')
ROLE = '[[role]]\nid = "r"\nname = "R"\nobjective = "o"\n'
CHAPTER = ('[[chapter]]\nid = "c"\nname = "C"\n[[chapter.condition]]\nid = "w"\n'
           'scope = "self"\ntext = "t"\n')


def _error(reader, text: str, name: str = "data.toml") -> SetupError:
    with pytest.raises(SetupError) as caught:
        reader((name, text))
    return caught.value


@pytest.mark.parametrize(("reader", "text", "where", "meant"), [
    (read_cards, CARD + "copise = 2\n", "card[0].copise", "copies"),
    (read_leaders, LEADER.format(extra="trak_max = { tide = 6 }\n"), "leader[0].trak_max",
     "track_max"),
    (read_leaders, LEADER.format(extra="track_max = { tdie = 6 }\n"), "leader[0].track_max.tdie",
     "tide"),
    (read_leaders, LEADER.format(extra="") + "[[leader.convert]]\ntrack = \"tide\"\nlevel = 2\n"
     "from = \"P\"\nto = \"T\"\nlevle = 3\n", "leader[0].convert[0].levle", "level"),
    (read_leaders, LEADER.format(extra="").replace('reward = "r"\n', 'reward = "r"\nrewrd = 1\n',
                                                   1), "leader[0].gambit[0].rewrd", "reward"),
    (read_tiles, TILE + "wals = [1]\n", "tile[1].wals", "walls"),
    (read_roles, ROLE + "step = 3\n", "role[0].step", "steps"),
    (read_chapters, CHAPTER + "scpoe = 1\n", "chapter[0].condition[0].scpoe", "scope"),
    (read_chapters, CHAPTER.replace('name = "C"\n', 'name = "C"\nround_limt = 3\n'),
     "chapter[0].round_limt", "round_limit"),
    (read_cards, "[[crad]]\nid = 1\n" + CARD, "crad", "card"),
])
def test_a_misspelt_key_is_refused_naming_it_and_the_closest_valid_key(reader, text, where,
                                                                      meant):
    """Issue 14: "Misspelled keys are silently accepted in Defiance data (copise, trak_max,
    wals: a deck silently loses a card)"; the data formats of infinities-defiance-of-fate.md
    "2.1", "2.4", "2.5", "1.1" and "1.2" as docs/defiance.md writes them."""
    error = _error(reader, text)
    assert (error.source, error.where) == ("data.toml", where)
    assert f"did you mean {meant!r}?" in error.problem


def test_an_ability_card_with_a_misspelt_key_is_refused_too():
    """Ability cards read fewer keys, but a misspelling is still refused (rulebook 2.4)."""
    text = CARD.replace('kind = "unit"\nattributes = ["tide"]\nhealth = 2\n',
                        'kind = "ability"\ntxet = "Draw 1."\n')
    error = _error(read_cards, text)
    assert error.where == "card[0].txet" and "'text'" in error.problem


@pytest.mark.parametrize(("text", "where", "meant"), [
    ('[game]\nmode = "quickplay"\nplyers = ["Ann", "Ben"]\nplayers = ["Ann", "Ben"]\n'
     'settings = { obdija = "wardens", xilsen = "empire" }\n', "game.plyers", "players"),
    ('[gmae]\nmode = "quickplay"\n[game]\nmode = "quickplay"\nplayers = ["Ann", "Ben"]\n'
     'settings = { obdija = "wardens", xilsen = "empire" }\n', "gmae", "game"),
])
def test_a_misspelt_key_in_the_game_setup_is_refused(text, where, meant):
    """Issue 14 (unknown keys everywhere) on the game setup file of docs/defiance.md."""
    files = sources()
    files["setup"] = ("game.toml", text)
    with pytest.raises(SetupError) as caught:
        GAME.load_setup(files, {})
    assert (caught.value.source, caught.value.where) == ("game.toml", where)
    assert f"did you mean {meant!r}?" in caught.value.problem


def test_options_overriding_mode_and_players_leave_the_setup_keys_known():
    """A setup whose mode and players are overridden on the command line still holds valid
    keys: they are not "unknown" (docs/defiance.md, `--players`)."""
    loaded = GAME.load_setup(sources(), {"players": ["Zoe", "Yan"], "mode": "skirmish"})
    assert loaded.players == ("Zoe", "Yan") and loaded.mode == "skirmish"


@pytest.mark.parametrize(("reader", "text", "where"), [
    (read_tiles, TILE.replace("influence = 2", "influence = nan"), "tile[1].influence"),
    (read_tiles, TILE + "walls = [inf]\n", "tile[1].walls"),
    (read_cards, CARD.replace("cost = 1", "cost = inf"), "card[0].cost"),
    (read_cards, CARD.replace("health = 2", "health = -inf"), "card[0].health"),
    (read_cards, CARD + "copies = nan\n", "card[0].copies"),
    (read_leaders, LEADER.format(extra="track_max = { tide = nan }\n"),
     "leader[0].track_max.tide"),
    (read_leaders, LEADER.format(extra="health = inf\n"), "leader[0].health"),
    (read_roles, ROLE + "steps = nan\n", "role[0].steps"),
    (read_chapters, CHAPTER.replace('name = "C"\n', 'name = "C"\nround_limit = inf\n'),
     "chapter[0].round_limit"),
])
def test_nan_or_infinity_where_a_number_is_read_is_refused(reader, text, where):
    """Issue 14: "NaN or infinity ... anywhere a number is read crashes": every Defiance
    number (Influence 1-5, rulebook 2.5; cost and Health, 2.4; tracks, 2.1) is a whole number."""
    error = _error(reader, text)
    assert error.where == where
    assert "whole number" in error.problem or "edge numbers" in error.problem


@pytest.mark.parametrize("line", [
    "effect Ann aster damage ² Ben", "effect Ann aster damage nan Ben",
    "effect Ann aster damage 99999999999999999999 Ben", "adjust Ann aster health +inf",
    "adjust Ann aster health +٣", "move Ann 1_0,0", "move Ann ²,0", "reroll Ann ²",
    "convert Ann nan T", "place Ann worldspine 1,0 ²",
])
def test_numbers_in_notation_are_plain_digits_or_a_notation_error(line):
    """docs/defiance.md "Notation": counts, changes and spaces are whole numbers; anything
    else (Unicode digits, NaN, underscores, thousands of digits) is a NotationError naming
    the line, never a crash."""
    state = started()
    with pytest.raises(NotationError) as caught:
        GAME.parse_action(state, line)
    assert line in str(caught.value)


def test_a_huge_unit_slot_or_discovery_rotation_is_refused_with_a_verdict():
    """Slots and rotations that are not small numbers get a verdict, not a crash
    (rulebook "4. Turn Actions", Power actions; "6. Movement", Discover)."""
    from companion.games.core import IllegalAction
    state = started()
    with pytest.raises(IllegalAction):
        GAME.apply(state, GAME.parse_action(state, "damage Ann Ben " + "9" * 5000))
    # Issue 16: a rotation that is not a number is malformed text, a NotationError naming
    # the line (it was a rule refusal before the actions were typed).
    with pytest.raises(NotationError) as caught:
        GAME.parse_action(state, "move Ann 2,0 discover ember-market ²")
    assert "rotation" in caught.value.problem


def test_a_misspelt_option_is_refused_naming_the_option_it_meant():
    """Issue 16: options are checked in one place (GameInfo.check_options): `tems = true`
    must not silently turn a team Skirmish (infinities-defiance-of-fate.md "1.1 - Skirmish
    Mode", teams) into a free-for-all."""
    with pytest.raises(SetupError) as caught:
        GAME.load_setup(sources("data/games/skirmish-teams.toml"), {"tems": False})
    assert (caught.value.source, caught.value.where) == ("options", "tems")
    assert "did you mean 'teams'?" in caught.value.problem


def test_the_teams_option_overrides_the_setup_file():
    """infinities-defiance-of-fate.md "1.1 - Skirmish Mode": leaders play alone or in teams;
    the `teams` option chooses, the setup file's teams table says who is with whom."""
    teams = GAME.load_setup(sources("data/games/skirmish-teams.toml"), {})
    assert teams.teams_mode and teams.team_of("Ann") == teams.team_of("Cid") == "dawn"
    alone = GAME.load_setup(sources("data/games/skirmish-teams.toml"), {"teams": False})
    assert not alone.teams_mode and alone.team_of("Cid") == "Cid"
    with pytest.raises(SetupError) as caught:
        GAME.load_setup(sources("data/games/skirmish.toml"), {"teams": True})
    assert caught.value.where == "game.team" and "two teams" in caught.value.problem


@pytest.mark.parametrize(("options", "where", "problem"), [
    ({"mode": "chess"}, "mode", "'chess' is not one of: skirmish, quickplay, adventure"),
    ({"teams": "yes"}, "teams", "expected true or false"),
    ({"players": "Ann,Ben"}, "players", "expected a list of names"),
])
def test_option_values_are_checked_naming_the_option(options, where, problem):
    """Issue 16: every option's kind and choices are checked by GameInfo (rulebook "1. Game
    Modes": skirmish, quickplay, adventure)."""
    with pytest.raises(SetupError) as caught:
        GAME.load_setup(sources(), options)
    assert (caught.value.source, caught.value.where) == ("options", where)
    assert problem in caught.value.problem


def test_a_data_file_error_names_the_file_and_the_key_path():
    """Issue 16: every Defiance file is read through datafile.Table, whose errors read
    `file: key.path: problem` (here a misspelt key of a tile, rulebook "2.5 - Setting
    Tiles")."""
    error = _error(read_tiles, TILE + "influnce = 3\n", "tiles.toml")
    assert str(error) == ("tiles.toml: tile[1].influnce: unknown key; did you mean "
                          "'influence'? (expected one of: events, id, influence, name, "
                          "setting, type, walls)")
