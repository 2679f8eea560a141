"""Bad army and profile data: a clear SetupError naming the key, never a TypeError or a crash.

Rulebook: infinity-n3-intro.md "INFINITY: GAME SUMMARY" (each player builds an Army List of
troops) and "BS ATTACK" (a weapon's range bands grow with distance). Issue 14: ``profile =
["iguana"]`` crashed with a TypeError; a NaN band was accepted; army-level keys were not
checked.
"""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinity import GAME
from companion.games.infinity.profile_loading import load_catalogue
from tests.games.infinity.helpers import DUEL, PROFILES


def _load(armies: str) -> None:
    GAME.load_setup({"setup": ("armies.toml", armies), "profiles": PROFILES}, {})


@pytest.mark.parametrize(("old", "new", "where"), [
    ('profile = "iguana"', 'profile = ["iguana"]', "armies[0].troopers[1].profile"),
    ('profile = "iguana"', 'profile = {a = 1}', "armies[0].troopers[1].profile"),
    ('profile = "iguana", cost = 40', 'profile = "iguana", cost = 40, weapons = [["x"]]',
     "armies[0].troopers[1].weapons[0]"),
])
def test_a_profile_or_weapon_that_is_not_a_name_is_refused(old: str, new: str,
                                                          where: str) -> None:
    """infinity-n3-intro.md "INFINITY: GAME SUMMARY": each trooper is one troop profile."""
    with pytest.raises(SetupError) as caught:
        _load(DUEL.replace(old, new, 1))
    assert caught.value.where == where


@pytest.mark.parametrize(("old", "new", "where", "guess"), [
    ("rounds = 2", "rouns = 2", "game.rouns", "rounds"),
    ('player = "Ann"', 'player = "Ann"\nplyer = "X"', "armies[0].plyer", "player"),
    ("[game]", "armys = []\n[game]", "armys", "armies"),
    ("cost = 40 }", "cost = 40, hiden = true }", "armies[0].troopers[1].hiden", "hidden"),
])
def test_a_misspelt_army_key_is_refused_naming_the_closest(old: str, new: str, where: str,
                                                           guess: str) -> None:
    """infinity-n3-intro.md "OPEN AND PRIVATE INFORMATION": a misspelt ``hiden`` would deploy
    a trooper in plain sight; every key is checked."""
    with pytest.raises(SetupError) as caught:
        _load(DUEL.replace(old, new, 1))
    assert caught.value.where == where
    assert f"did you mean {guess!r}" in caught.value.problem


@pytest.mark.parametrize("bad", ["nan", "inf"])
def test_a_range_band_that_does_not_grow_is_refused(bad: str) -> None:
    """docs/infinity.md "Profile data": each band ends further than the one before (a NaN
    end does not)."""
    text = PROFILES[1].replace("ranges = [", f"ranges = [{{ to = {bad}, mod = 0 }}, ", 1)
    with pytest.raises(SetupError) as caught:
        load_catalogue("profiles.toml", text)
    assert caught.value.where.endswith("[0].to")


def test_a_misspelt_profile_key_names_the_closest() -> None:
    """infinity-n3-intro.md troop profile attributes (MOV CC BS PH WIP ARM BTS W S)."""
    text = PROFILES[1].replace("[troopers.fusilier]", "[troopers.fusilier]\nwpi = 13", 1)
    with pytest.raises(SetupError) as caught:
        load_catalogue("profiles.toml", text)
    assert caught.value.where == "troopers.fusilier.wpi"
    assert "did you mean 'wip'" in caught.value.problem


def test_an_option_is_refused_since_the_game_takes_none() -> None:
    """infinity-n3-intro.md "INFINITY: GAME SUMMARY": the army file decides the game."""
    with pytest.raises(SetupError) as caught:
        GAME.load_setup({"setup": ("armies.toml", DUEL), "profiles": PROFILES}, {"rounds": 2})
    assert caught.value.where == "rounds"
