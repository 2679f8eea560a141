"""Profiles and weapons as data: the shipped file, the range bands, the checker's errors."""

from __future__ import annotations

import pytest

from companion.games.core import SetupError
from companion.games.infinity.profile_loading import check_catalogue, load_catalogue
from tests.games.infinity.helpers import PROFILES

NAMED_TROOPERS = {"Fusilier", "Grenzer", "Alguacil", "Iguana", "Spektr", "Reverend Healer",
                  "Dāturazi"}


def test_the_shipped_file_has_every_trooper_the_rulebook_names() -> None:
    """infinity-n3-intro.md "VOLUME AND LINE OF FIRE" names these troopers in its graphics."""
    catalogue = load_catalogue(*PROFILES)
    assert {p.name for p in catalogue.profiles.values()} == NAMED_TROOPERS
    assert catalogue.profiles["fusilier"].mov == (4, 4)


@pytest.mark.parametrize(("distance", "modifier"), [
    (0, 3), (8, 3), (8.01, 3), (16, 3), (16.5, -3), (32, -3), (40, -6), (48, -6), (48.5, None),
])
def test_combi_rifle_range_bands(distance: float, modifier: int | None) -> None:
    """infinity-n3-intro.md "COMBI RIFLE" Distance Modifiers: 0-8 +3, 8-16 +3, 16-32 -3, 32-48 -6,
    beyond 48 out of range; "BS ATTACK": measure, then apply the MOD."""
    rifle = load_catalogue(*PROFILES).weapons["combi_rifle"]
    assert rifle.range_modifier(distance) == modifier
    assert (rifle.damage.value, rifle.burst) == (13, 3)


def test_knife_damage_is_ph_minus_1() -> None:
    """infinity-n3-intro.md "KNIFE": Damage PH-1, Burst 1."""
    knife = load_catalogue(*PROFILES).weapons["knife"]
    assert (str(knife.damage), knife.damage.against(ph=10), knife.burst) == ("PH-1", 9, 1)


def _with(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(("old", "new", "where", "words"), [
    ("burst = 3", "burst = 9", "weapons.combi_rifle.burst", "between 1 and 6"),
    ('damage = "PH-1"', 'damage = "STR"', "weapons.knife.damage", "PH-1"),
    ("{ to = 16, mod = 3 }", "{ to = 6, mod = 3 }", "weapons.combi_rifle.ranges[1].to",
     "greater"),
    ("mov = [4, 4]", "mov = [4]", "troopers.fusilier.mov", "two numbers"),
    ("wip = 12\narm = 1", "wip = 12\narmour = 1", "troopers.fusilier.armour", "unknown key"),
    ('weapons = ["combi_rifle", "knife"]', 'weapons = ["spitfire"]',
     "troopers.fusilier.weapons[0]", "spitfire"),
    ('kind = "cc"', 'kind = "melee"', "weapons.knife.kind", "bs, cc"),
])
def test_the_checker_names_the_file_key_and_problem(old: str, new: str, where: str,
                                                    words: str) -> None:
    """Issue 5 "Profiles as data": a checker for profile files; bad input names the key."""
    text = PROFILES[1]
    with pytest.raises(SetupError) as error:
        check_catalogue("mine.toml", _with(text, old, new))
    assert error.value.source == "mine.toml"
    assert error.value.where == where
    assert words in error.value.problem


def test_the_checker_names_the_line_of_a_toml_syntax_error() -> None:
    """Bad input names the line."""
    with pytest.raises(SetupError) as error:
        check_catalogue("mine.toml", "[troopers.a]\nname = \n")
    assert error.value.where == "line 2"


def test_the_checker_summarises_every_profile_and_weapon() -> None:
    """Issue 5: a checker for profile files (its summary is what `--check` prints)."""
    lines = check_catalogue(*PROFILES)
    assert "weapon combi_rifle: Combi Rifle (BS) Damage 13 Burst 3 ranges -8: +3, -16: +3, " \
           "-32: -3, -48: -6" in lines
    assert any(line.startswith("trooper iguana: Iguana MOV 6-4") for line in lines)
