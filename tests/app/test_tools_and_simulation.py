"""The dice tray, the trackers, the simulation panel and the main-loop door, on screen."""

from __future__ import annotations

import threading

import pytest

from companion.app import theme
from companion.app.dice_tools import DIE_KINDS
from tests.app.harness import AppDriver, close_to, go_home, share_of, start_game
from tests.app.harness import too_small_buttons as small_buttons

pytestmark = pytest.mark.gui


def test_dice_roll_tumbles_then_settles_on_real_faces(driver: AppDriver) -> None:
    """Issue 9 "touchscreen dice (d6, d20, the three action dice, a coin) with a short roll
    animation and the option to enter what physical dice show"."""
    go_home(driver)
    driver.tap(driver.widget("tools_button"))
    assert driver.screen.name == "tools"
    screen = driver.screen
    driver.tap(driver.find_button("Tide", screen.ids.kinds))
    assert screen.kind == "tide"
    driver.tap(driver.find_button("+", screen))
    assert screen.count == 3
    driver.tap(driver.widget("roll_dice"))
    assert screen.rolling == 1 and screen.result == "", "the dice are still tumbling"
    frames_seen = {tuple(screen.faces)}
    for _ in range(30):
        driver.wait(0.05)
        frames_seen.add(tuple(screen.faces))
        if not screen.rolling:
            break
    assert not screen.rolling and len(screen.faces) == 3
    assert all(face in DIE_KINDS["tide"].faces for face in screen.faces)
    assert screen.result.startswith("Tide: " + " ".join(screen.faces) + "  ·  ")
    assert "×" in screen.result, "how many of each face"
    image = driver.screenshot("dice_tide")
    assert share_of(image, (*DIE_KINDS["tide"].colour, 1), 12) > 0.01, "blue Tide dice"
    face = screen.ids.tray.children[0]
    assert face.text in ("T", "F", "P", "0"), "each die shows its letter too"

    driver.tap(driver.find_button("d6", screen.ids.kinds))
    driver.type_into(screen.ids.physical, "4 7")
    driver.tap(driver.widget("enter_physical"))
    assert screen.result == "'7' is not a face of a d6 (1, 2, 3, 4, 5, 6)"
    driver.type_into(screen.ids.physical, "4 6")
    driver.tap(driver.widget("enter_physical"))
    assert screen.faces == ["4", "6"] and screen.result == "Your dice: 4 6  ·  total 10"
    image = driver.screenshot("dice_physical")
    assert close_to(driver.pixel_of(image, screen.ids.tray.children[0], dx=-30),
                    (*DIE_KINDS["d6"].colour, 1), 12)


def test_trackers_count_hit_points_up_and_down(driver: AppDriver) -> None:
    """Issue 9 "HP/wound/health trackers"; issue 15 item 7: a start value, steps of 1 and 5,
    reset, delete after a second tap."""
    if driver.app.table.session is not None:
        driver.app.table.close_game()
    go_home(driver)
    driver.tap(driver.widget("tools_button"))
    screen = driver.screen
    driver.type_into(screen.ids.tracker_name, "Ogre")
    driver.type_into(screen.ids.tracker_start, "25")
    driver.tap(driver.widget("add_tracker"))
    ogre = next(t for t in screen.tracker_rows() if t.name == "Ogre")
    screen.ids.tracker_scroll.scroll_y = 0
    driver.frames(3)
    assert ogre.value == 25 and ogre.start == 25
    driver.tap(ogre.ids.minus5)
    driver.tap(ogre.ids.minus1)
    driver.tap(ogre.ids.minus1)
    driver.tap(ogre.ids.plus1)
    assert ogre.value == 19
    driver.tap(ogre.ids.plus5)
    assert ogre.value == 24
    image = driver.screenshot("tools")
    assert close_to(driver.pixel_of(image, ogre.ids.plus5, dx=-20), theme.ACCEPTED, 12)
    assert close_to(driver.pixel_of(image, ogre.ids.minus5, dx=-20), theme.DANGER, 12)
    assert small_buttons(driver) == []
    driver.tap(ogre.ids.reset)
    assert ogre.value == 25
    names = [t.name for t in screen.tracker_rows()]
    driver.tap(ogre.ids.delete)
    assert [t.name for t in screen.tracker_rows()] == names, "one tap only asks"
    assert ogre.ids.delete.text == "Delete?"
    driver.screenshot("tools_delete_asks")
    driver.tap(ogre.ids.delete)
    assert "Ogre" not in [t.name for t in screen.tracker_rows()]


def test_tracker_step_repeats_while_held(driver: AppDriver) -> None:
    """Issue 15 item 7 "long-press repeat": holding +1 keeps counting until released."""
    from kivy.tests.common import UnitTestTouch

    go_home(driver)
    if driver.app.table.session is not None:
        driver.app.table.close_game()
    driver.tap(driver.widget("tools_button"))
    screen = driver.screen
    screen.ids.tracker_scroll.scroll_y = 1
    driver.frames(3)
    first = screen.tracker_rows()[0]
    before = first.value
    x, y = first.ids.plus1.to_window(*first.ids.plus1.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    for _ in range(40):  # up to 4 s: a loaded machine draws few frames, and steps follow frames
        driver.wait(0.1)
        if first.value - before >= 3:
            break
    touch.touch_up()
    driver.frames(2)
    held = first.value - before
    assert held >= 3, f"held down, the tracker moved by {held} (a tap moves it by 1)"
    driver.wait(0.3)
    assert first.value - before == held, "releasing stops the repeat"
    first.reset()


def test_a_game_gets_a_tracker_per_player_kept_with_its_journal(driver: AppDriver) -> None:
    """Issue 15 item 7 "a tracker per player tied to the game": the open game's players,
    kept beside its journal and back when the game is resumed."""
    start_game(driver, "Infinifield", players=3)
    driver.app.propose("start Ben W1")  # a game nobody moved in is put away
    journal = driver.app.table.session.journal.path  # type: ignore[union-attr]
    driver.tap(driver.widget("tools_button"))
    screen = driver.screen
    assert [t.name for t in screen.tracker_rows()] == ["Ann", "Ben", "Cat"]
    ben = screen.tracker_rows()[1]
    driver.tap(ben.ids.minus5)
    assert ben.value == 5
    driver.screenshot("tools_game_trackers")
    go_home(driver)
    driver.app.table.close_game()
    driver.tap(driver.widget("tools_button"))
    assert [t.name for t in driver.screen.tracker_rows()] == ["A", "B"], "no game: the table's"
    go_home(driver)
    item = next(b for b in driver.screen.ids.unfinished.children if b.action == str(journal))
    driver.tap(item)
    driver.tap(driver.widget("tools_button"))
    assert [(t.name, t.value) for t in driver.screen.tracker_rows()] == \
        [("Ann", 10), ("Ben", 5), ("Cat", 10)]


def test_many_dice_stay_in_the_tray_and_old_results_go(driver: AppDriver) -> None:
    """Issue 15 item 7: ten dice fit above the controls, a coin's "heads" fits its tile, the
    total is shown, and changing the die clears the previous results."""
    go_home(driver)
    driver.tap(driver.widget("tools_button"))
    screen = driver.screen
    driver.tap(driver.find_button("d6", screen.ids.kinds))
    for _ in range(10):
        driver.tap(screen.ids.more_dice)
    assert screen.count == 10
    driver.tap(driver.widget("roll_dice"))
    driver.wait(0.8)
    assert len(screen.faces) == 10 and not screen.rolling
    total = sum(int(face) for face in screen.faces)
    assert screen.result == f"d6: total {total}"
    image = driver.screenshot("dice_ten")
    controls_top = screen.ids.result_label.top
    for face in screen.ids.tray.children:
        assert face.y >= controls_top and face.right <= screen.ids.tray.right + 1, \
            "a die lies over the result or the buttons"
        assert close_to(driver.pixel_of(image, face, dx=-face.width / 2 + 4),
                        (*DIE_KINDS["d6"].colour, 1), 14)
    driver.tap(driver.find_button("Coin", screen.ids.kinds))
    assert screen.faces == [] and screen.result == "", "the d6 results are gone"
    driver.tap(screen.ids.roll_dice)
    driver.wait(0.8)
    for face in screen.ids.tray.children:
        assert face.texture_size[0] <= face.width, f"{face.text!r} overflows its tile"
    assert "×" in screen.result
    driver.screenshot("dice_coin")
    while screen.count > 2:
        driver.tap(screen.ids.fewer_dice)


def test_sensor_threads_reach_the_session_only_through_the_main_loop(
        driver: AppDriver) -> None:
    """DESIGN.md: sensors' threads hand work to the main loop (Clock.schedule_once), never
    touching widgets or the session themselves."""
    start_game(driver, "Infinifield", players=2)
    session = driver.app.table.session
    assert session is not None
    ran_on: list[threading.Thread] = []

    def propose_from_camera() -> None:
        ran_on.append(threading.current_thread())
        driver.app.propose("start Ben W1", "camera")

    worker = threading.Thread(target=driver.app.inbox.post, args=(propose_from_camera,))
    worker.start()
    worker.join()
    assert session.history == [] and ran_on == [], "nothing ran on the sensor's thread"
    driver.frames(2)
    assert ran_on == [threading.main_thread()]
    assert session.history == ["start Ben W1"] and session.record[-1].source == "camera"
    assert driver.widget("board").view_of("W1").pawn == "Ben", "the field redrew"


def test_simulation_panel_taps_an_nfc_card(driver: AppDriver) -> None:
    """Issue 9 "tap-to-simulate NFC cards": the tap goes through the bridge's tap handler."""
    start_game(driver, "Infinifield", players=2)
    session = driver.app.table.session
    assert session is not None
    driver.tap(driver.widget("sim_button"))
    cards = driver.screen.ids.nfc_cards
    driver.tap(driver.find_button("W5", cards))
    driver.wait(0.2)
    assert session.history == ["start Ben W5"] and session.record[-1].source == "nfc"
    image = driver.screenshot("simulation")
    assert driver.app.banner.headline == "Accepted: start Ben W5"
    assert small_buttons(driver) == []
    assert image.shape[:2] == (480, 800)


def test_simulation_panel_replays_the_recorded_camera_footage(driver: AppDriver) -> None:
    """Issue 9 "the replayed camera feed": vision's sample footage plays in the panel."""
    from companion.app.camera_replay import sample_footage

    footage = sample_footage()
    if footage is None:
        pytest.skip("vision.samples (the recorded footage) is not installed")
    go_home(driver)
    driver.tap(driver.widget("simulation_button"))
    screen = driver.screen
    driver.wait(0.6)
    camera = screen.ids.camera
    assert camera.texture is not None and screen.replay.frames_read >= 2
    assert screen.camera_text.startswith(f"{footage.name}: frame ")
    image = driver.screenshot("simulation_camera")
    x, y = camera.to_window(*camera.center)
    patch = image[image.shape[0] - int(y) - 40:image.shape[0] - int(y) + 40,
                  int(x) - 60:int(x) + 60]
    assert patch.std() > 20, "a real picture, not a flat panel"


def test_recorded_game_is_refereed_from_the_camera_footage(driver: AppDriver) -> None:
    """DESIGN.md "Sensors propose actions; the engine decides": the recorded footage
    (vision.samples/script.txt) read by the camera becomes start and move actions, and the
    block taken out of turn is refused (infinifield.md "Chase-and-capture" 7) and buzzed."""
    from companion.app.camera_watch import sample_game_sources

    if sample_game_sources() is None:
        pytest.skip("vision.samples (the recorded footage) is not installed")
    start_game(driver, "Infinifield", players=2)
    driver.app.propose("start Ben W1")
    open_game = driver.app.table.session
    driver.tap(driver.widget("sim_button"))
    screen = driver.screen
    driver.tap(screen.ids.play_recording)
    dialog = next(w for w in driver.window.children if type(w).__name__ == "ReplaceDialog")
    assert "Infinifield" in dialog.question, "issue 15 item 12: it asks first"
    driver.screenshot("simulation_asks_before_replacing")
    driver.tap(dialog.ids.keep_button)
    driver.wait(0.3)
    assert driver.app.table.session is open_game and not screen.watching
    driver.tap(screen.ids.play_recording)
    dialog = next(w for w in driver.window.children if type(w).__name__ == "ReplaceDialog")
    driver.tap(dialog.ids.replace_button)
    session = driver.app.table.session
    assert session is not None and session is not open_game and screen.watching
    for _ in range(200):
        if not screen.watching:
            break
        driver.wait(0.1)
    assert session.history == ["start Ann W1", "start Ben W4", "move Ann W1 B1",
                               "move Ben W4 Y5"]
    assert {entry.source for entry in session.record} == {"camera"}
    refused = [entry for entry in driver.app.table.log if not entry.legal]
    assert [entry.action for entry in refused] == ["remove Ann R4"]
    assert refused[0].rule.startswith("infinifield")
    assert "illegal" in driver.app.outputs.recent
    driver.screenshot("simulation_recorded_game")


def test_simulation_panel_is_readable_with_cards_showing(driver: AppDriver) -> None:
    """Issue 15 item 12: with the NFC cards of a game listed, the camera picture stays big;
    the status light says what it shows; the buzzer says its last sound in words; the
    panel has one name (home button, game screen button and title)."""
    from companion.app.camera_replay import sample_footage

    start_game(driver, "Infinifield", players=2)
    assert driver.widget("sim_button").text == "Simulation"
    driver.tap(driver.widget("sim_button"))
    screen = driver.screen
    assert screen.ids.nfc_cards.children, "the game's cards are listed"
    assert driver.widget("title_label").text == "Simulation"
    assert screen.status_text == "Status light: off (nothing yet)"
    driver.tap(driver.find_button("W5", screen.ids.nfc_cards))
    driver.wait(0.4)
    assert driver.app.table.session.history == ["start Ben W5"]  # type: ignore[union-attr]
    assert not driver.app.propose("start Ann W5", "touch").legal  # W5 is taken
    driver.frames(3)
    assert screen.status_text == "Status light: red, last action refused"
    assert screen.buzz_text == "Buzzer: refused (an action was refused)"
    image = driver.screenshot("simulation_cards_and_camera")
    light = screen.ids.status_light
    assert close_to(driver.pixel_of(image, light), theme.REFUSED, 14)
    if sample_footage() is not None:
        camera = screen.ids.camera
        width, height = camera.norm_image_size
        assert width >= 280 and height >= 200, f"camera picture {width:.0f}x{height:.0f}"
    assert small_buttons(driver) == []
    go_home(driver)
    assert driver.widget("simulation_button").text == "Simulation"
