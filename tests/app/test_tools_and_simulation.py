"""The dice tray, the trackers, the simulation panel and the main-loop door, on screen."""

from __future__ import annotations

import threading

import pytest

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
    assert screen.result == "Tide: " + " ".join(screen.faces)
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
    assert screen.faces == ["4", "6"] and screen.result == "Your dice: 4 6"
    image = driver.screenshot("dice_physical")
    assert close_to(driver.pixel_of(image, screen.ids.tray.children[0], dx=-30),
                    (*DIE_KINDS["d6"].colour, 1), 12)


def test_trackers_count_hit_points_up_and_down(driver: AppDriver) -> None:
    """Issue 9 "HP/wound/health trackers"."""
    go_home(driver)
    driver.tap(driver.widget("tools_button"))
    screen = driver.screen
    driver.type_into(screen.ids.tracker_name, "Ogre")
    driver.tap(driver.widget("add_tracker"))
    ogre = next(t for t in screen.ids.trackers.children if t.name == "Ogre")
    minus = next(b for b in ogre.walk() if getattr(b, "text", "") == "-")
    plus = next(b for b in ogre.walk() if getattr(b, "text", "") == "+")
    driver.tap(minus)
    driver.tap(minus)
    driver.tap(plus)
    assert ogre.value == 9
    driver.screenshot("tools")
    assert small_buttons(driver) == []


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
    go_home(driver)
    driver.tap(driver.widget("simulation_button"))
    screen = driver.screen
    driver.tap(screen.ids.play_recording)
    session = driver.app.table.session
    assert session is not None and screen.watching
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
