"""Infinity rules settled for issue 17: the reactive Burst, attacks from behind, the Dodge
movement, Partial Cover in the odds, and inf-dice's third-edition figures.

Rulebook: infinity-n3-intro.md "BS Attack Roll and Burst", "Cover", "DODGE", "LINE OF FIRE
(LOF)" and "Rolls" (Face to Face).
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from math import comb

from companion.cli.infinity import odds_sides
from companion.games.infinity import GAME
from companion.games.infinity.odds import Side, exchange_odds
from companion.games.infinity.odds_report import declared_odds
from companion.games.infinity.state import State
from tests.games.infinity.helpers import DUEL, PROFILES, new_state, play, refusal


def _with_profiles(profiles: str, armies: str = DUEL) -> State:
    setup = GAME.load_setup({"setup": ("armies.toml", armies),
                             "profiles": ("profiles.toml", profiles)}, {})
    return GAME.initial_state(setup)


def test_a_cc_aro_rolls_one_die_whatever_the_weapons_burst() -> None:
    """infinity-n3-intro.md "BS Attack Roll and Burst": "The Burst value of the Reactive
    Player is always 1." A CC weapon with Burst 2 in the data rolls 1 die in ARO, and the odds
    of the exchange are computed (no ValueError)."""
    profiles = PROFILES[1].replace('[weapons.knife]\nname = "Knife"\nkind = "cc"\n'
                                   'damage = "PH-1"\nburst = 1',
                                   '[weapons.knife]\nname = "Knife"\nkind = "cc"\n'
                                   'damage = "PH-1"\nburst = 2', 1)
    assert "burst = 2" in profiles
    state = _with_profiles(profiles)
    state, _ = play(state, "move Ann Fusilier 4 contact:Grenzer", "pass Ben",
                    "cc Ann Fusilier knife Grenzer", "aro Ben Grenzer cc knife Fusilier",
                    "pass Ben")
    assert state.phase == "roll"
    reports = declared_odds(state)
    assert reports[0].active.burst == 2 and reports[0].reactive is not None
    assert reports[0].reactive.burst == 1
    assert refusal(state, "roll 3 4 5 6").code == "wrong_dice", "2 + 1 dice, not 2 + 2"
    after, _ = play(state, "roll 3 4 5")
    assert after.phase != "roll"


def test_a_target_shot_from_behind_cannot_shoot_back_or_dodge() -> None:
    """infinity-n3-intro.md "LINE OF FIRE (LOF)": "The target must be within the troop's front
    180º arc", and "DODGE": "a trooper must be in base to base contact with, or have Line of
    Fire to, an attacking enemy"."""
    state, _ = play(new_state(), "shoot Ann Fusilier combi_rifle Grenzer@12+behind")
    shoot = refusal(state, "aro Ben Grenzer shoot combi_rifle Fusilier@12")
    assert shoot.code == "aro_no_lof" and "LINE OF FIRE (LOF)" in str(shoot.rule)
    dodge = refusal(state, "aro Ben Grenzer dodge")
    assert dodge.code == "dodge_no_lof" and "DODGE" in str(dodge.rule)
    assert "front 180º arc" in dodge.reason
    legal = [str(a) for a in GAME.legal_actions(state)]
    assert not [a for a in legal if a.startswith("aro Ben Grenzer")]
    play(state, "aro Ben Daturazi shoot combi_rifle Fusilier@20")  # not attacked: it may react
    front, _ = play(new_state(), "shoot Ann Fusilier combi_rifle Grenzer@12")
    play(front, "aro Ben Grenzer dodge")


def test_a_dodge_move_too_long_is_refused_with_the_dodge_rule() -> None:
    """infinity-n3-intro.md "DODGE": "troopers in their Reactive Turn that Dodge successfully
    may move up to 2 inches" (the refusal cites DODGE, not MOVE)."""
    state, _ = play(new_state(), "shoot Ann Fusilier combi_rifle Grenzer@12",
                    "aro Ben Grenzer dodge", "pass Ben", "roll 16 17 18 5")
    error = refusal(state, "move Ben Grenzer 2.5")
    assert error.code == "dodge_too_far" and str(error.rule) == 'infinity-n3-intro: "DODGE"'
    assert "up to 2 inches after its successful Dodge, not 2.5" in error.reason
    assert refusal(state, "move Ben Grenzer 1 1").code == "dodge_too_far"


def _odds_args(**flags: object) -> argparse.Namespace:
    base: dict[str, object] = {"active": 12, "burst": 3, "damage": 13, "active_arm": 1,
                               "active_cover": False, "reactive": 11, "reactive_damage": None,
                               "reactive_arm": 1, "reactive_cover": False}
    return argparse.Namespace(**{**base, **flags})


def test_partial_cover_never_changes_a_dodgers_ph() -> None:
    """infinity-n3-intro.md "Cover": Partial Cover imposes -3 "to the BS Attribute of their
    attacker"; a Dodge is a PH Roll ("DODGE"), which cover does not modify."""
    _, dodge = odds_sides(_odds_args(active_cover=True))
    assert dodge.target == 11
    _, shot = odds_sides(_odds_args(active_cover=True, reactive_damage=13))
    assert shot.target == 8


def test_the_wounds_match_inf_dice_third_edition_successes() -> None:
    """infinity-n3-intro.md "Rolls" and "ARMOR AND DAMAGE": inf-dice's third-edition success
    rule (inf-dice.c, calc_player_successes: each Critical is a success, each other hit one
    save at DAM/20) over its published hit table (test.pl, BS 9 Burst 3 DAM 4 against BS 12
    Burst 1 DAM 12) gives, as it prints them, P1 1/2/3 successes 22.27%, 2.71%, 0.12% and P2
    1 success 21.83%. DAM is Damage minus ARM: 13 against ARM 9 and 13 against ARM 1."""
    odds = exchange_odds(Side(9, 3, damage=13, arm=1), Side(12, 1, damage=13, arm=9))
    assert odds.wounds_on_reactive is not None and odds.wounds_on_active is not None
    printed = {n: f"{float(p) * 100:.2f}" for n, p in odds.wounds_on_reactive.items() if n}
    assert printed == {1: "22.27", 2: "2.71", 3: "0.12"}
    assert f"{float(odds.wounds_on_active[1]) * 100:.2f}" == "21.83"
    published = {(0, 1): 12045, (0, 2): 807, (0, 3): 19, (1, 0): 39948, (1, 1): 6576,
                 (1, 2): 276, (2, 0): 22524, (2, 1): 1956, (3, 0): 4880}
    successes: dict[int, Fraction] = {}
    for (hits, crits), count in published.items():
        for saved_not in range(hits + 1):
            weight = comb(hits, saved_not) * Fraction(4, 20) ** saved_not \
                * Fraction(16, 20) ** (hits - saved_not)
            successes[crits + saved_not] = successes.get(crits + saved_not, Fraction(0)) \
                + Fraction(count, 160000) * weight
    assert all(odds.wounds_on_reactive[n] == p for n, p in successes.items() if n)


def test_the_fusilier_matches_its_cited_n3_source_and_every_profile_cites_one() -> None:
    """infinity-n3-intro.md "VOLUME AND LINE OF FIRE" names the troopers; their attributes come
    from the data file, which cites a source (or says UNVERIFIED) beside each profile. The
    Fusilier equals infinitythegame/rules data/profiles/fusilier-angus.yml (N3)."""
    from companion.games.infinity.profile_loading import load_catalogue

    text = PROFILES[1]
    fusilier = load_catalogue("profiles.toml", text).profiles["fusilier"]
    assert (fusilier.mov, fusilier.cc, fusilier.bs, fusilier.ph, fusilier.wip, fusilier.arm,
            fusilier.bts, fusilier.w, fusilier.s) == ((4, 4), 13, 12, 10, 12, 1, 0, 1, 2)
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith("[troopers."):
            above = "\n".join(lines[max(0, index - 3):index])
            assert "# Source:" in above, line
            assert "Verified" in above or "UNVERIFIED" in above, line
