"""Facing the room: monsters, pairs, the boss, pools, the vault, crystals (infinidungeon.md)."""

from __future__ import annotations

import random
from dataclasses import replace

from companion.games.core import IllegalAction
from companion.games.infinidungeon import GAME
from companion.games.infinidungeon.setup import deck_from_toml
from companion.games.infinidungeon.state import Phase
from tests.games.infinidungeon.helpers import (
    DEFAULT_TEXT,
    SOURCES,
    at,
    kinds,
    legal_texts,
    play,
    refusal,
)


def _refusal(state, *texts: str) -> IllegalAction:
    """The refusal of the last of ``texts``, played after the others."""
    *before, last = texts
    return refusal(play(state, *before)[0], last)


HALL_FIGHT = at("hall", phase=Phase.FIGHT_ROLL, pile=("spring", "den"))  # ghost [5], slime [1 3]


def test_every_monster_with_a_die_is_defeated_and_nothing_is_lost() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: if all monsters have a dice
    assigned, you defeat them and they don't attack you."""
    after, events = play(HALL_FIGHT, "roll 5 1 2 2 2", "reroll none", "assign 1:slime 5:ghost")
    assert after.dice == 5 and events == []
    assert after.phase == Phase.MOVE and after.defeated


def test_any_monster_left_without_a_die_costs_exactly_one_die() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: any number of monsters with no
    dice assigned -> you are attacked and lose 1 dice."""
    for roll, assignment in (("roll 5 2 2 2 2", "assign 5:ghost"),
                             ("roll 2 4 6 2 2", "assign none")):
        after, events = play(HALL_FIGHT, roll, "reroll none", assignment)
        assert after.dice == 4 and not after.defeated
        assert [e.to_json() for e in events] == [{"kind": "die_lost", "count": 1, "dice": 4}]


def test_every_die_a_monster_accepts_must_be_assigned() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: "assign each dice to one of the
    monsters present": leaving the 1 (the slime takes 1) aside, or `assign none` on a roll
    that wins, is refused, so a crystal flip cannot be dodged."""
    error = _refusal(HALL_FIGHT, "roll 5 1 2 2 2", "reroll none", "assign 5:ghost")
    assert error.code == "die_unassigned"
    assert error.params == {"face": 1, "count": 1, "monsters": ["slime"]}
    assert "1 die showing 1 is not assigned" in error.reason
    assert str(error.rule) == 'infinidungeon: "Facing the Room", Monster Room'
    assert _refusal(HALL_FIGHT, "roll 5 1 2 2 2", "reroll none",
                    "assign none").code == "die_unassigned"
    crypt = at("crypt", phase=Phase.FIGHT_ROLL, pile=("hall",))  # crystal: skeleton 1-2, zombie 5-6
    assert _refusal(crypt, "roll 1 5 3 3 3", "reroll none", "assign none").code \
        == "die_unassigned"


def test_several_dice_may_go_to_one_monster() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: each die goes to one of the
    monsters; nothing limits a monster to one die (two 5s on the ghost, the 1 and 3 on the
    slime)."""
    after, events = play(HALL_FIGHT, "roll 5 1 3 5 2", "reroll none",
                         "assign 1:slime 3:slime 5:ghost 5:ghost")
    assert after.defeated and after.dice == 5 and events == []
    texts = legal_texts(play(HALL_FIGHT, "roll 5 1 3 5 2", "reroll none")[0])
    assert texts == ["assign 1:slime 3:slime 5:ghost 5:ghost"]


def test_a_die_must_show_a_face_below_its_monster() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: the dice face must match one of
    the faces directly below that monster."""
    error = _refusal(HALL_FIGHT, "roll 5 1 2 2 2", "reroll none", "assign 2:ghost")
    assert error.code == "face_not_accepted" and "only accepts 5, not 2" in error.reason
    assert str(error.rule) == 'infinidungeon: "Facing the Room", Monster Room'


def test_only_rolled_dice_can_be_assigned_each_once() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: assign each dice (you have)."""
    assert _refusal(HALL_FIGHT, "roll 5 1 2 2 2", "reroll none",
                    "assign 3:slime").code == "die_not_rolled"
    assert _refusal(HALL_FIGHT, "roll 5 1 2 2 2", "reroll none",
                    "assign 1:slime 5:ghost 5:ghost").code == "die_not_rolled"


def test_the_pair_mark_needs_two_dice_of_equal_value() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: some monsters require 2 dice of
    equal value."""
    crypt = at("crypt", "advanced", phase=Phase.FIGHT_ROLL, pile=("hall",))  # wraith pair, ghoul
    lost, _ = play(crypt, "roll 4 5 1 2 3", "reroll none",
                   "assign 1:ghoul 2:ghoul 3:ghoul 4:wraith 5:wraith")
    assert not lost.defeated and lost.dice == 4, "4 and 5 are not a pair"
    after, _ = play(crypt, "roll 4 5 1 6 6", "reroll none",
                    "assign 1:ghoul 4:wraith 5:wraith 6:wraith 6:wraith")
    assert after.defeated and after.dice == 5


def test_the_dice_are_rerolled_once_only() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: roll, then reroll as many as you
    like (once); then assign."""
    rolled, _ = play(HALL_FIGHT, "roll 5 1 2 2 2", "reroll 3 4 -> 3 6")
    assert rolled.phase == Phase.ASSIGN and rolled.rolled == (5, 1, 3, 6, 2)
    error = _refusal(rolled, "reroll 5")
    assert error.code == "already_rerolled"
    assert str(error.rule) == 'infinidungeon: "Facing the Room", Monster Room'
    assert _refusal(HALL_FIGHT, "roll 5 1 2 2 2", "reroll 6").code == "no_such_die"


def test_the_fight_rolls_every_available_die() -> None:
    """infinidungeon.md "Facing the Room", Monster Room: roll however many dice you have."""
    state = at("hall", phase=Phase.FIGHT_ROLL, pile=("spring",), dice=3)
    assert _refusal(state, "roll 1 2 3 4 5").code == "wrong_dice_count"
    rolled = GAME.sample_chance(state, random.Random(4))
    assert len(rolled.values) == 3


def test_the_boss_needs_three_equal_dice_and_defeating_it_wins_at_once() -> None:
    """infinidungeon.md "Facing the Room", Boss Room, and "Winning or Losing": three dice of
    equal value; if you defeat it you immediately win."""
    boss = at("throne", "advanced", phase=Phase.FIGHT_ROLL, pile=("hall",))
    lost, _ = play(boss, "roll 3 3 1 2 4", "reroll none",
                   "assign 1:dragon 2:dragon 3:dragon 3:dragon 4:dragon")
    assert lost.dice == 4 and lost.phase == Phase.MOVE, "two 3s are not three of equal value"
    won, events = play(boss, "roll 3 3 1 3 4", "reroll none",
                       "assign 1:dragon 3:dragon 3:dragon 3:dragon 4:dragon")
    assert events[-1].to_json()["kind"] == "victory"
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome.winners == ("player",)
    assert outcome.termination == "boss_defeated"
    over = _refusal(won, "go north")
    assert over.code == "game_over" and str(over.rule) == 'infinidungeon: "Winning or Losing"'


def test_the_boss_cannot_be_defeated_with_fewer_than_three_dice() -> None:
    """infinidungeon.md "Facing the Room", Boss Room: you cannot defeat it with less than 3."""
    boss = at("throne", "advanced", phase=Phase.FIGHT_ROLL, pile=("hall",), dice=2)
    rolled, _ = play(boss, "roll 4 4", "reroll none")
    assert legal_texts(rolled) == ["assign 4:dragon 4:dragon"]
    after, _ = play(rolled, "assign 4:dragon 4:dragon")
    assert after.dice == 1 and after.phase == Phase.MOVE


def test_losing_the_last_die_loses_the_game() -> None:
    """infinidungeon.md "Winning or Losing": if you lose your final dice, you lose."""
    state = at("hall", phase=Phase.FIGHT_ROLL, pile=("spring",), dice=1)
    after, events = play(state, "roll 2", "reroll none", "assign none")  # 2: nobody takes it
    assert after.phase == Phase.OVER
    assert [e.to_json() for e in events] == [
        {"kind": "die_lost", "count": 1, "dice": 0},
        {"kind": "defeat", "losers": ["player"], "termination": "last_die_lost",
         "detail": "The last die was lost to the monsters."}]
    assert GAME.current_actor(after) is None and GAME.legal_actions(after) == []


def test_a_healing_pool_gives_back_one_die_never_above_five() -> None:
    """infinidungeon.md "Facing the Room", Healing Pool: regain 1 lost dice; never more
    than 5."""
    wounded = at("entrance", pile=("spring", "hall"), dice=3)
    after, events = play(wounded, "go west")
    assert after.room == ("spring", "basic") and after.dice == 4
    assert [e.to_json() for e in events] == [{"kind": "die_regained", "count": 1, "dice": 4}]
    healthy, events = play(at("entrance", pile=("spring", "hall")), "go west")
    assert healthy.dice == 5 and events == []


def _won_vault(dice: int = 5):
    vault = at("armoury", "advanced", phase=Phase.FIGHT_ROLL, pile=("hall", "spring"), dice=dice)
    return play(vault, f"roll {' '.join(['4', '4', '6', '1', '1'][:dice])}", "reroll none",
                "assign 4:golem 4:golem 6:guard")[0]


def test_a_defeated_treasure_vault_is_kept_aside_and_recovers_two_dice() -> None:
    """infinidungeon.md "Facing the Room", Treasure Vault: kept aside instead of going back
    in the deck, used on entering a new room to recover up to 2 lost dice, then spent."""
    won = _won_vault(dice=3)
    entered, _ = play(won, "go north")  # north: sun/star -> the Great Hall
    assert entered.room == ("hall", "basic")
    assert all(card != "armoury" for card, _ in entered.pile)
    assert entered.vaults == ("armoury",) and entered.phase == Phase.VAULT
    assert legal_texts(entered) == ["skip vault", "use vault"]
    used, events = play(entered, "use vault")
    assert used.dice == 5 and used.vaults == () and used.spent == ("armoury",)
    assert [e.to_json() for e in events] == [{"kind": "die_regained", "count": 2, "dice": 5}]
    assert used.phase == Phase.FIGHT_ROLL


def test_the_vault_recovers_only_dice_that_were_lost() -> None:
    """infinidungeon.md "Facing the Room", Treasure Vault: up to 2 lost dice (max 5)."""
    won = _won_vault(dice=5)
    entered, _ = play(won, "go north")
    assert entered.phase == Phase.FIGHT_ROLL, "with five dice there is nothing to recover yet"
    hurt, _ = play(entered, "roll 2 2 2 2 2", "reroll none", "assign none")  # hall: 5; 1 3
    assert hurt.dice == 4 and hurt.vaults == ("armoury",)
    moved, _ = play(hurt, "go north")
    used, events = play(moved, "use vault")
    assert used.dice == 5 and [e["count"] for e in events] == [1]


def test_an_unbeaten_vault_goes_back_into_the_deck() -> None:
    """infinidungeon.md "Facing the Room", Treasure Vault: only if you defeat the monsters
    is the card kept aside."""
    vault = at("armoury", "advanced", phase=Phase.FIGHT_ROLL, pile=("hall", "spring"))
    lost, _ = play(vault, "roll 1 2 3 1 2", "reroll none", "assign none", "go north")  # 4-6
    assert lost.vaults == () and lost.pile[-1] == ("armoury", "advanced")


def test_a_crystal_room_flips_on_its_first_defeat_and_new_monsters_attack() -> None:
    """infinidungeon.md "Flipping Rooms": the first time you defeat the monsters in a room
    with a crystal, flip it to its Advanced side and fight the new monsters with a new roll."""
    crypt = at("crypt", phase=Phase.FIGHT_ROLL, pile=("hall",))
    after, events = play(crypt, "roll 1 5 3 3 3", "reroll none", "assign 1:skeleton 5:zombie")
    assert [e.to_json() for e in events] == [
        {"kind": "room_flipped", "card": "crypt", "side": "advanced"},
        {"kind": "crystal", "count": 1}]
    assert after.room == ("crypt", "advanced") and after.crystals == 1
    assert after.phase == Phase.FIGHT_ROLL and GAME.is_chance(after)


def test_the_fourth_crystal_flips_and_shuffles_the_deck_advanced_side_down() -> None:
    """infinidungeon.md "Flipping Rooms": flipping the fourth crystal room flips the rest of
    the deck and shuffles it, Basic sides face-up (Advanced drawn next)."""
    crypt = at("crypt", phase=Phase.FIGHT_ROLL, pile=("hall", "entrance", "spring/advanced"),
               crystals=3)
    flipped, events = play(crypt, "roll 1 5 3 3 3", "reroll none", "assign 1:skeleton 5:zombie")
    assert kinds(events) == ["room_flipped", "crystal"] and events[1]["count"] == 4
    assert flipped.phase == Phase.RESHUFFLE and GAME.is_chance(flipped)
    error = _refusal(flipped, "shuffle hall spring")
    assert error.code == "wrong_cards" and str(error.rule) == 'infinidungeon: "Flipping Rooms"'
    shuffled, events = play(flipped, "shuffle spring entrance hall")
    assert [e.to_json() for e in events] == [
        {"kind": "deck_reshuffled", "cards": ["spring", "entrance", "hall"]}]
    assert shuffled.pile == (("spring", "advanced"), ("entrance", "basic"),
                             ("hall", "advanced"))
    assert shuffled.phase == Phase.FIGHT_ROLL and shuffled.room == ("crypt", "advanced")


def test_no_room_flips_after_the_fourth_crystal() -> None:
    """infinidungeon.md "Flipping Rooms": at this point, no more rooms will flip."""
    crypt = at("crypt", phase=Phase.FIGHT_ROLL, pile=("hall",), crystals=4)
    after, events = play(crypt, "roll 1 5 3 3 3", "reroll none", "assign 1:skeleton 5:zombie")
    assert events == [] and after.room == ("crypt", "basic") and after.phase == Phase.MOVE


def test_the_game_opens_with_a_shuffle_of_the_eight_rooms_basic_side_down() -> None:
    """infinidungeon.md "Introduction": the Entrance in front of you, the other 8 cards
    shuffled with their Basic side facing down."""
    start = GAME.initial_state(GAME.load_setup(SOURCES, {}))
    assert start.room == ("entrance", "basic") and GAME.is_chance(start)
    error = _refusal(start, "shuffle crypt den")
    assert error.code == "wrong_cards" and str(error.rule) == 'infinidungeon: "Introduction"'
    order = "den hall crypt armoury library shrine throne spring"
    shuffled, _ = play(start, f"shuffle {order}")
    assert shuffled.pile == tuple((card, "basic") for card in order.split())
    assert shuffled.phase == Phase.MOVE and shuffled.dice == 5


GUARDED_THRONE = DEFAULT_TEXT.replace('  { name = "dragon", boss = true },',
                                      '  { name = "imp", faces = [6] },\n'
                                      '  { name = "dragon", boss = true },', 1)


def test_defeating_the_boss_wins_at_once_even_with_a_guard_left() -> None:
    """infinidungeon.md "Facing the Room", Boss Room: "if you do defeat it, you immediately
    win the game!" and "Winning or Losing": an imp beside the dragon, left without a die
    (no 6 rolled), does not stop the win."""
    assert GUARDED_THRONE != DEFAULT_TEXT
    deck = deck_from_toml("guarded.toml", GUARDED_THRONE)
    assert [m.name for m in deck.card("throne").side("advanced").monsters] == ["imp", "dragon"]
    boss = replace(at("throne", "advanced", phase=Phase.FIGHT_ROLL, pile=("hall",)), deck=deck)
    won, events = play(boss, "roll 3 3 3 1 2", "reroll none",
                       "assign 1:dragon 2:dragon 3:dragon 3:dragon 3:dragon")
    assert kinds(events) == ["victory"] and won.result == "victory"
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome.termination == "boss_defeated"


def test_the_advisor_counts_a_boss_win_beside_a_guard() -> None:
    """infinidungeon.md "Facing the Room", Boss Room: three equal dice on the boss win, so the
    advisor's odds count 3 3 3 as a win even though the imp (6) gets nothing."""
    from companion.games.infinidungeon.combat import can_defeat, monsters_key

    guarded = deck_from_toml("guarded.toml", GUARDED_THRONE).card("throne").side("advanced")
    key = monsters_key(guarded.monsters)
    assert can_defeat(key, (1, 3, 3, 3)) and not can_defeat(key, (1, 2, 3, 3, 6))
