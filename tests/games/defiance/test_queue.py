"""Protection and the queue (rulebook 5, 8.2 and 8.3), card texts entered by hand."""

from __future__ import annotations

from dataclasses import replace

from companion.games.defiance.state import Prepared, seat, with_seat
from tests.games.defiance.helpers import (
    give,
    kinds,
    locked,
    play,
    play_state,
    refusal,
    started,
    units,
)


def _with_sunlance():
    state = give(started(), "Ann", "sunlance")
    state = locked(state, "T T 0 0")
    return play_state(state, "play Ann sunlance")


def test_the_most_recent_mechanic_resolves_first():
    """infinities-defiance-of-fate.md "8.3 - The Queue": the most recently activated mechanic
    cuts to the start of the queue, then resolve backward."""
    state = _with_sunlance()
    state = units(state, "Ben", "deva-adept")
    state = play_state(state, "effect Ann sunlance damage 2 Ben",
                       "effect Ben deva-adept draw 1 Ben")
    hand = len(seat(state, "Ben").hand)
    state, events = play(state, "step Ann")
    assert events == () and len(seat(state, "Ben").hand) == hand + 1
    state, events = play(state, "step Ann")
    assert kinds(events) == ["health_changed"] and events[0]["unit"] == "deva-adept"


def test_a_multi_step_mechanic_stops_when_its_source_leaves():
    """infinities-defiance-of-fate.md "8.3 - The Queue": if the source of a multi-step
    mechanic is destroyed before it is fully resolved, the remaining steps do not occur."""
    state = units(started(), "Ann", "flame-warden")
    state = play_state(state, "effect Ann flame-warden damage 3 Ben", "step Ann")
    assert seat(state, "Ben").health == 4
    ann = seat(state, "Ann")
    state = with_seat(state, replace(ann, group=()))  # the Flame Warden is destroyed
    state, events = play(state, "step Ann")
    assert events == () and state.queue == () and seat(state, "Ben").health == 4


def test_end_of_turn_waits_for_the_queue():
    """infinities-defiance-of-fate.md "8.3 - The Queue": mechanics resolve one at a time
    before play goes on."""
    state = units(started(), "Ann", "flame-warden")
    state = play_state(state, "effect Ann flame-warden damage 1 Ben")
    assert refusal(state, "end Ann").code == "queue_pending"


def test_block_discards_five_minus_fortitude_and_ignores_the_ability():
    """infinities-defiance-of-fate.md "5. Protection": block by discarding 5 cards, reduced
    by your Fortitude level (minimum 1); ignore the ability for the rest of that turn."""
    state = _with_sunlance()
    state = units(state, "Ben", "aegis-mech")  # two Fortitude icons: level 3 -> 2 cards
    state = play_state(state, "effect Ann sunlance damage 2 Ben")
    assert refusal(state, "block Ben deva-adept").code == "block_cost"
    hand = len(seat(state, "Ben").hand)
    state = play_state(state, "block Ben deva-adept deva-adept")
    assert state.queue == () and len(seat(state, "Ben").hand) == hand - 2
    state = play_state(state, "effect Ann sunlance damage 1 Ben")
    state, events = play(state, "step Ann")
    assert events == () and seat(state, "Ben").health == 5


def test_no_block_once_resolving_and_none_against_fated_or_actions():
    """infinities-defiance-of-fate.md "5. Protection" (actions and Fated mechanics cannot be
    blocked) and "8.2 - Order of Activation" (no blocks once resolving)."""
    state = _with_sunlance()
    state = play_state(state, "effect Ann sunlance damage 2 Ben", "step Ann")
    assert refusal(state, "block Ben aegis-mech aegis-mech deva-adept deva-adept"
                   ).code == "already_resolving"
    state = play_state(state, "step Ann")
    ann = seat(state, "Ann")
    state = with_seat(state, replace(ann, timeline=(Prepared("fated-flame", 0),)))
    state = play_state(state, "effect Ann fated-flame damage 1 Ben")
    assert refusal(state, "block Ben aegis-mech aegis-mech deva-adept deva-adept").code == "fated"
    state = play_state(state, "step Ann")
    # nothing but a dice action is happening
    assert refusal(state, "block Ben aegis-mech").code == "nothing_to_block"


def test_an_effect_needs_its_source_in_play():
    """infinities-defiance-of-fate.md "7. Card Properties", Triggers: units and timeline cards
    must be active for their triggers to activate."""
    assert refusal(started(), "effect Ann flame-warden damage 1 Ben").code == "source_not_in_play"


def test_adjust_logs_a_card_change_to_health_or_tracks():
    """infinities-defiance-of-fate.md "2.1 - Leader Playmat and Counters": attributes rise and
    fall as cards say; "8.1 - Damage": healing detaches damage tokens."""
    state = play_state(started(), "adjust Ann ember-oath power +1")
    assert seat(state, "Ann").track_adjust == (0, 1, 0)
    state, events = play(state, "adjust Ben railgun health -2")
    assert events[0].data == {"leader": "Ben", "old": 5, "new": 3}
    assert refusal(state, "adjust Ben nothing-card health -2").code == "unknown_source"


def test_a_leader_action_spends_dice_and_its_mechanic_cannot_be_blocked():
    """infinities-defiance-of-fate.md "2.1 - Leader Playmat and Counters" (the leader action
    requires spending action dice) and "5. Protection" (actions from leaders which require
    dice spending cannot be blocked)."""
    state = locked(started(), "P P T 0", "power")
    assert refusal(state, "spend Ann kael P P").code == "source_not_in_play"
    assert refusal(state, "spend Ann aster P P P").code == "no_die"
    state = play_state(state, "spend Ann aster p p", "effect Ann aster damage 1 Ben")
    assert state.turn.spent == 2
    assert refusal(state, "block Ben aegis-mech aegis-mech deva-adept deva-adept"
                   ).code == "action_unblockable"
    state, events = play(state, "step Ann")
    assert events[0].data == {"leader": "Ben", "old": 5, "new": 4}
