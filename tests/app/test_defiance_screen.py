"""Defiance of Fate's screen (rulebook: infinities-defiance-of-fate.md)."""

from __future__ import annotations

import pytest

from companion.app import theme
from companion.app.dice_tools import DIE_KINDS
from companion.games.defiance.state import track_level
from tests.app.harness import AppDriver, close_to, start_game, too_small_buttons

pytestmark = pytest.mark.gui


def test_action_check_dice_leaders_and_map(driver: AppDriver) -> None:
    """infinities-defiance-of-fate.md "2.6.1 - Action checks" (the dice of the check, by
    attribute colour and face letter) and "2.1" attribute tracks, Health, gambit: as the
    engine has them, on the map's hexes with each leader's pawn."""
    start_game(driver, "Infinities: Defiance of Fate", layout="quickplay (2)")
    session = driver.app.table.session
    assert session is not None
    for _ in range(60):
        state = session.state
        if state.phase == "turns" and state.turn.dice:
            break
        panel = driver.widget("panel")
        if panel.mode == "chance":
            driver.tap(panel.ids.roll_button)
            continue
        if "check" in driver.app.table.actions_by_verb() and panel.verb != "check":
            driver.tap(driver.find_button("check", panel))
        driver.tap(driver.widget("panel").ids.actions.children[-1])
    state = session.state
    assert state.phase == "turns" and state.turn.dice
    screen = driver.screen
    faces = [w.text for w in reversed(screen.ids.dice.children)]
    assert faces == [die.face for die in state.turn.dice]
    image = driver.screenshot("defiance_action_check")
    first = screen.ids.dice.children[-1]
    kind = state.turn.dice[0].kind
    assert close_to(driver.pixel_of(image, first, dx=-16, dy=14),
                    (*DIE_KINDS[kind].colour, 1), 14)
    for seat in state.seats:
        levels = " ".join(f"{a[0].upper()}{track_level(state, seat, a)}"
                          for a in ("tide", "power", "fortitude"))
        assert f"{seat.name} ({seat.leader})  Health {seat.health}  {levels}" \
            in screen.leaders_text
    hexes = screen.ids.map
    for index, seat in enumerate(state.seats):
        x, y = hexes.pawn_window_pos(seat.name)
        pixel = tuple(int(v) for v in image[image.shape[0] - 1 - int(y) - 12, int(x)])
        assert close_to(pixel, theme.player_colour(index), 30), seat.name
    assert too_small_buttons(driver) == []


def _setup_by_notation(driver: AppDriver) -> None:
    """Quickplay for two through setup, typed as at the table (decks and Roles by the
    companion): Ann on the Worldspine, Ben on Scrap Dunes, nobody deploys."""
    start_game(driver, "Infinities: Defiance of Fate", layout="quickplay (2)")
    session = driver.app.table.session
    assert session is not None
    while session.state.pending:
        driver.app.roll()
    for line in ("place Ann worldspine 1,0 0", "place Ben scrap-dunes -1,0 0",
                 "leader Ann aster", "leader Ben kael", "ready Ann", "ready Ben"):
        assert driver.app.propose(line, "typed").legal, line
    driver.frames()


def test_heals_and_the_timeline_choice_are_said_on_screen(driver: AppDriver) -> None:
    """Issue 17 on the screen: infinities-defiance-of-fate.md "8.1 - Damage" (a heal with no
    damage to detach heals nothing, and the banner says so) and "7. Card Properties", The
    Timeline (when the limit, 1 + Tide level, falls, the owner chooses what to destroy: the
    screen names the choice and the action panel offers only `trim`)."""
    _setup_by_notation(driver)
    session = driver.app.table.session
    assert driver.app.propose("effect Ann aster heal 1 Ann", "typed").legal
    verdict = driver.app.propose("step Ann", "typed")
    driver.frames()
    assert verdict.legal and [e.kind for e in verdict.events] == ["nothing_healed"]
    assert driver.app.banner.reason == "Ann has no damage to heal: nothing healed"
    for line in ("adjust Ann aster tide +1", "check Ann tide"):
        assert driver.app.propose(line, "typed").legal, line
    assert driver.app.propose("roll T T T T", "typed").legal
    assert driver.app.propose("lock Ann", "typed").legal
    for card in sorted(session.state.seats[0].hand)[:3]:
        assert driver.app.propose(f"prepare Ann {card}", "typed").legal, card
    screen = driver.screen
    driver.frames()
    assert "timeline 3/3" in screen.leaders_text and screen.choice_text == ""
    verdict = driver.app.propose("adjust Ann aster tide -1", "typed")
    driver.frames()
    assert [e.kind for e in verdict.events] == ["timeline_over_limit"]
    assert "1 + Tide level = 2" in driver.app.banner.reason
    assert screen.choice_text.startswith("Ann: destroy 1 timeline card(s) of your choice")
    assert set(driver.app.table.actions_by_verb()) == {"trim"}
    driver.screenshot("defiance_timeline_choice")
    trim = driver.app.table.actions_by_verb()["trim"][0]
    verdict = driver.app.propose(trim, "touch")
    driver.frames()
    assert [e.kind for e in verdict.events] == ["timeline_card_destroyed"]
    assert screen.choice_text == "" and "timeline 2/2" in screen.leaders_text
    assert too_small_buttons(driver) == []


def test_every_new_consequence_has_its_line_in_spanish_and_russian() -> None:
    """Issue 17 "Silent consequences": a unit destroyed, a heal doing nothing, timeline cards
    destroyed when the limit falls, and each card effect (infinities-defiance-of-fate.md 8.1,
    7, 9) are lines of the players' language, from real engine events."""
    from dataclasses import replace

    from companion.app.verdict_text import event_text
    from companion.games.defiance import GAME
    from companion.games.defiance.state import Prepared, seat, with_seat
    from tests.games.defiance.helpers import give, started, units

    state = give(units(started(), "Ann", "acolyte-of-the-sun", "pilgrim"), "Ann", "ember-oath",
                 "sunlance")
    ann = seat(state, "Ann")
    state = with_seat(state, replace(ann, timeline=(Prepared("mending-light", 0),
                                                    Prepared("fated-flame", 0),
                                                    Prepared("sunlance", 0))))
    state = units(state, "Ben", "runner", "deva-adept")
    lines = ["adjust Ann aster health +1", "adjust Ann aster health -1 acolyte-of-the-sun",
             "adjust Ann aster health -1 acolyte-of-the-sun", "trim Ann fated-flame",
             "check Ann tide", "roll T T P 0", "lock Ann", "play Ann ember-oath",
             "attach Ann ember-oath Ben runner", "effect Ann aster damage 1 Ben",
             "cancel Ben runner", "end Ann", "effect Ben runner discard 1 Ann",
             "step Ben sunlance", "effect Ben runner steal 1 Ann", "step Ben pilgrim",
             "effect Ben runner move 1 Ann", "step Ben 0,0"]
    events = []
    for line in lines:
        transition = GAME.play(state, line)
        state = transition.state
        events.extend(transition.events)
    kinds = {event.kind for event in events}
    assert {"nothing_healed", "unit_destroyed", "timeline_over_limit",
            "timeline_card_destroyed", "card_attached", "canceled", "card_discarded",
            "card_stolen", "forced_move"} <= kinds
    for event in events:
        if event.kind in ("health_changed", "turn_changed", "dice_locked"):
            continue  # older kinds, covered elsewhere
        english = GAME.describe_event(event)
        assert event_text("en", "defiance", event, "") == english
        for lang in ("es", "ru"):
            assert event_text(lang, "defiance", event, english) != english, (lang, event.kind)
    cancel = next(event for event in events if event.kind == "canceled")
    assert event_text("es", "defiance", cancel, "") == "Ben cancela aster (daño)"
