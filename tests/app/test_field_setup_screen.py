"""The set-up screen in the real app (issue 12, "Reading the field (set-up)"): the field read
from a held-out photoreal photo is shown over the picture, corrected by touch, checked by the
engine (infinifield.md "Build the field", step 1) and the match starts on it, journaled."""

from __future__ import annotations

import dataclasses
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.app import theme
from companion.app.camera_replay import CameraReplay
from companion.app.widgets.field_picture import BROKEN, DROPPED, MARK_PX, RING_GAP, TOUCHING
from companion.games.infinifield import COLOURS, load_field_text
from tests.app.harness import AppDriver, close_to, go_home, share_of, too_small_buttons
from vision.calibration import calibrate
from vision.camera_model import Intrinsics
from vision.devtools.table3d_truth import load_scene

pytestmark = pytest.mark.gui

PHOTO = Path(__file__).resolve().parents[1] / "data" / "table3d" / "f007_before"


PHOTO_STACKED = PHOTO.with_name("f036_before")
"""A tuning photo of a stacked field with a block hidden under a bridge (its colour assumed)."""


def _replay_camera(driver: AppDriver, tmp_path: Path, photo: Path) -> Iterator[CameraReplay]:
    """``photo`` as the camera (a replay of that one image) and a table calibration naming
    the camera's intrinsics, as ``calibrate --camera`` saves it."""
    scene = load_scene(photo.with_suffix(".json"))
    folder = tmp_path / "camera"
    folder.mkdir()
    shutil.copy(photo.with_suffix(".jpg"), folder / "frame.jpg")
    data = Path(driver.app.options.data_dir)
    cam = scene.camera
    intrinsics = Intrinsics(np.asarray(cam.K, float), np.asarray(cam.dist, float), cam.size,
                            photo.stem, "calibrated")
    (data / f"{photo.stem}-camera.toml").write_text(intrinsics.to_toml(), encoding="utf-8")
    calibration = data / "table-calibration.json"
    dataclasses.replace(calibrate(scene.image()),
                        camera=f"{photo.stem}-camera.toml").save(calibration)
    replay = CameraReplay(folder, loop=True)
    yield replay
    replay.close()
    calibration.unlink()


@pytest.fixture
def tune_camera(driver: AppDriver, tmp_path: Path, request: pytest.FixtureRequest
                ) -> Iterator[CameraReplay]:
    """The tuning photo a test names (``indirect`` parametrisation) as the camera (tests
    tune on no held-out photo)."""
    photo = request.param
    assert load_scene(photo.with_suffix(".json")).split == "tune"
    yield from _replay_camera(driver, tmp_path, photo)


@pytest.fixture
def camera_table(driver: AppDriver, tmp_path: Path) -> Iterator[CameraReplay]:
    """The held-out photo f007_before as the camera."""
    assert load_scene(PHOTO.with_suffix(".json")).split == "holdout"
    yield from _replay_camera(driver, tmp_path, PHOTO)


@pytest.fixture
def stacked_camera(driver: AppDriver, tmp_path: Path) -> Iterator[CameraReplay]:
    """The stacked field f036_before as the camera."""
    yield from _replay_camera(driver, tmp_path, PHOTO_STACKED)


def _start_match(driver: AppDriver) -> tuple[Any, str, str]:
    """Tap "Start match" on the set-up screen: the game opens on the confirmed field, whose
    text is the session's ``setup`` source, named in the journal; (session, name, text)."""
    draft = driver.screen.capture.draft
    driver.tap(driver.screen.ids.start_button)
    assert driver.screen.name == "game_infinifield"
    session = driver.app.table.session
    assert session is not None
    assert session.state.field == draft.to_field()
    name, text = session.sources["setup"]
    assert name in session.journal.path.read_text(encoding="utf-8")
    return session, name, text


def _until_read(driver: AppDriver) -> None:
    screen = driver.screen
    for _ in range(600):
        if not screen.reading and screen.capture is not None:
            driver.frames(3)
            return
        driver.wait(0.02)
    raise AssertionError(f"the field was never read: {screen.status!r}")


class _Still:
    """A camera that shows one frame (a photo of the table as it stands now)."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame

    def next_camera_frame(self) -> np.ndarray:
        return self.frame


def _read_in_the_players_language(driver: AppDriver, camera: CameraReplay | _Still) -> None:
    """New Infinifield game, "read the field from the camera" chosen by its label in the
    app's language, started: the set-up screen reads ``camera``'s frame."""
    go_home(driver)
    driver.tap_text("Infinifield")
    driver.app.screen("field_setup").frame_source = camera.next_camera_frame
    driver.tap_text(driver.app.tr("setup.infinifield.camera"), driver.screen.ids.layouts)
    driver.tap(driver.widget("start"))
    _until_read(driver)


def _pixel(image: np.ndarray, x: float, y: float) -> tuple[int, ...]:
    return tuple(int(v) for v in image[image.shape[0] - 1 - int(y), int(x)])


def _mark_pixel(driver: AppDriver, image: np.ndarray, key: int) -> tuple[int, ...]:
    """The screenshot's colour inside block ``key``'s mark, beside its letter."""
    picture = driver.screen.ids.picture
    x, y = picture.window_point(*picture.view.mark(key))
    x += MARK_PX * 0.36
    return tuple(int(v) for v in image[image.shape[0] - 1 - int(y), int(x)])


def test_field_read_from_the_camera_is_corrected_by_touch_and_the_match_starts_on_it(
        driver: AppDriver, camera_table: CameraReplay) -> None:
    """New game, "read the field from the camera": 17 blocks of the held-out photo appear
    over the picture; a tap turns a white block yellow (seen in the pixels), four more drop
    and restore it; in levels mode a tap raises a block (one is assumed under it)
    and two more bring it back, the assumed blocks then dropped by touch; in touching mode
    a tap on a block rings its neighbours and a tap on one unties the pair (its ring thins);
    Start match opens the game on the confirmed field, which the journal holds and a resume
    rebuilds."""
    go_home(driver)
    driver.tap_text("Infinifield")
    assert driver.screen.name == "newgame"
    driver.tap(driver.find_button("2", driver.screen.ids.counts))
    driver.tap_text("read the field from the camera", driver.screen.ids.layouts)
    driver.screenshot("field_setup_newgame")
    assert too_small_buttons(driver) == []
    driver.app.screen("field_setup").frame_source = camera_table.next_camera_frame
    driver.tap(driver.widget("start"))
    assert driver.screen.name == "field_setup"
    _until_read(driver)
    screen = driver.screen
    draft = screen.capture.draft
    assert len(draft.present()) == 17
    assert "17 blocks" in screen.status
    assert "The field keeps the quick start rules" in screen.problems
    assert not screen.ids.start_button.disabled
    assert too_small_buttons(driver) == []
    image = driver.screenshot("field_setup_read")
    white = next(b.key for b in draft.present() if b.colour == "white")
    assert close_to(_mark_pixel(driver, image, white), theme.BLOCK_COLOURS["white"], 40)

    picture = screen.ids.picture
    driver.tap_at(*picture.window_point(*picture.view.mark(white)))
    assert draft.blocks[white].colour == "yellow"
    image = driver.screenshot("field_setup_yellow")
    assert close_to(_mark_pixel(driver, image, white), theme.BLOCK_COLOURS["yellow"], 40)
    for _ in range(3):  # red, blue, then not a block
        driver.tap_at(*picture.window_point(*picture.view.mark(white)))
    assert draft.blocks[white].colour is None
    assert "16 blocks" in screen.status
    image = driver.screenshot("field_setup_dropped")
    assert close_to(_mark_pixel(driver, image, white), DROPPED, 30)
    driver.tap_at(*picture.window_point(*picture.view.mark(white)))  # back, white
    driver.tap_at(*picture.window_point(*picture.view.mark(white)))  # and yellow
    assert draft.blocks[white].colour == "yellow"

    driver.tap(screen.ids.levels_mode)  # a top read on the table put one level up
    red = next(b.key for b in draft.present() if b.colour == "red")
    driver.tap_at(*picture.window_point(*picture.view.mark(red)))
    assert draft.blocks[red].level == 2
    assumed = [b.key for b in draft.present() if b.seen == "assumed"]
    assert len(assumed) == 1 and assumed[0] in draft.supports(red), "a block assumed under"
    assert draft.blocks[assumed[0]].centre == draft.blocks[red].centre, "under its centre"
    assert draft.held(red)
    image = driver.screenshot("field_setup_level")
    rx, ry = picture.window_point(*picture.view.mark(red))
    badge = (rx + MARK_PX * 0.4 - 6, ry + MARK_PX * 0.4)  # left of its digit
    assert close_to(_pixel(image, *badge), theme.ACCENT, 40), "its level badge"
    driver.tap_at(rx, ry)
    driver.tap_at(rx, ry)  # level 3, then back on the table: the assumed blocks now overlap it
    assert draft.blocks[red].level == 1
    assert "overlap: blocks side by side cannot share space" in screen.problems
    assert '"Build the field", step 1' in screen.problems, "each problem cites its rule"
    assert screen.ids.start_button.disabled
    driver.tap(screen.ids.blocks_mode)
    for key in [b.key for b in draft.present() if b.seen == "assumed"]:
        # white -> yellow -> red -> blue -> not a block, from the colour it was assumed in
        taps = 4 - COLOURS.index(draft.blocks[key].colour or "white")
        for _ in range(taps):
            driver.tap_at(*picture.window_point(*picture.view.mark(key)))
        assert draft.blocks[key].colour is None
    assert not screen.ids.start_button.disabled

    driver.tap(screen.ids.touching_mode)
    a, b = sorted(draft.live_touching())[0]
    view = picture.view
    driver.tap_at(*picture.window_point(*view.mark(a)))  # select a: its neighbours ringed
    assert view.selected == a and b in view.partners()
    bx, by = picture.window_point(*view.mark(b))
    ring = (int(bx + MARK_PX / 2 + RING_GAP + 3), int(by))  # inside a thick ring only
    image = driver.screenshot("field_setup_touching")
    assert close_to(_pixel(image, *ring), TOUCHING, 40), "a thick green ring: they touch"
    driver.tap_at(bx, by)
    assert (a, b) not in draft.live_touching()
    image = driver.screenshot("field_setup_untouched")
    assert not close_to(_pixel(image, *ring), TOUCHING, 40), "now a thin ring"
    driver.tap_at(bx, by)
    assert (a, b) in draft.live_touching()
    driver.tap(screen.ids.blocks_mode)

    session, _name, text = _start_match(driver)
    field = session.state.field
    assert sum(b.colour == "yellow" for b in field.blocks) == \
        sum(b.colour == "yellow" for b in draft.present())
    assert "Read by the camera" in text
    journal = session.journal.path
    assert screen.started_path is not None and screen.started_path.read_text() == text
    driver.screenshot("field_setup_game")
    driver.app.table.close_game()
    resumed = driver.app.table.resume(journal)
    assert resumed.state.field == field
    driver.app.open_game_screen()
    go_home(driver)


def test_without_a_camera_picture_the_screen_says_so_and_nothing_starts(
        driver: AppDriver) -> None:
    """No camera (a desktop without --camera): the screen says how to get one, in the
    players' language, and Start match stays disabled."""
    go_home(driver)
    driver.tap_text("Infinifield")
    driver.tap_text("read the field from the camera", driver.screen.ids.layouts)
    driver.app.screen("field_setup").frame_source = lambda: None
    driver.tap(driver.widget("start"))
    screen = driver.screen
    assert screen.name == "field_setup"
    assert "--camera" in screen.status
    assert screen.ids.start_button.disabled
    driver.app.set_language("es")
    try:
        screen.read()
        driver.frames(3)
        assert screen.status.startswith("No hay imagen")
        assert screen.ids.start_button.text == "Empezar partida"
    finally:
        driver.app.set_language("en")
    go_home(driver)


def _to_round_end(driver: AppDriver) -> None:
    """Play the round by proposals (starts, a chase, the first removal allowed) until it
    ends; the round-end panel shows."""
    from companion.app.views.infinifield_view import round_end
    from companion.games.infinifield import GAME
    from tests.app.infinifield_policy import chase_target, start_choice

    session = driver.app.table.session
    assert session is not None
    for _ in range(400):
        state = session.state
        if round_end(state) is not None:
            driver.frames(3)
            return
        player = state.to_act
        legal = [GAME.format_action(a) for a in session.legal_actions()]
        if state.phase == "start":
            wanted = f"start {player} {start_choice(state)}"
        elif state.phase == "move":
            wanted = f"move {player} {state.pawn_of(player)} {chase_target(state, player)}"
        else:
            wanted = legal[0]
        driver.app.propose(wanted if wanted in legal else legal[0])
    raise AssertionError("the round never ended")


def test_the_next_builder_s_field_is_read_from_the_camera_between_rounds(
        driver: AppDriver, camera_table: CameraReplay) -> None:
    """infinifield.md "Playing the game", step 8: the next builder builds a new field. The
    round-end panel offers to read it from the camera; confirmed, it goes to the engine as
    ``rebuild`` with source camera, and round 2 is played on it."""
    go_home(driver)
    driver.tap_text("Infinifield")
    driver.tap_text("read the field from the camera", driver.screen.ids.layouts)
    driver.app.screen("field_setup").frame_source = camera_table.next_camera_frame
    driver.tap(driver.widget("start"))
    _until_read(driver)
    driver.tap(driver.screen.ids.start_button)
    session = driver.app.table.session
    assert driver.screen.name == "game_infinifield" and session is not None
    _to_round_end(driver)
    builder = session.state.builder
    driver.tap_text(f"{builder}'s new field: read it from the camera",
                    driver.widget("round_end_buttons"))
    screen = driver.screen
    assert screen.name == "field_setup" and screen.back_to == "game"
    _until_read(driver)
    driver.screenshot("field_setup_rebuild")
    draft = screen.capture.draft
    red = next(b.key for b in draft.present() if b.colour == "red")
    picture = screen.ids.picture
    driver.tap_at(*picture.window_point(*picture.view.mark(red)))  # red -> blue
    assert screen.ids.start_button.text == "Start round"
    driver.tap(screen.ids.start_button)
    assert driver.app.banner.headline == f"Accepted: rebuild {builder}"
    assert driver.screen.name == "game_infinifield"
    entry = session.record[-1]
    assert entry.source == "camera" and entry.text.startswith(f"rebuild {builder} {{")
    assert session.state.round == 2 and not session.state.removed
    assert session.state.field.blocks == draft.to_field().blocks
    assert screen.capture is None, "the frame is let go once the field is in the game"
    assert driver.widget("board").parent is not None, "round 2 is played on it"
    go_home(driver)


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_the_set_up_screen_in_spanish_and_russian_does_not_clip(
        driver: AppDriver, camera_table: CameraReplay, lang: str) -> None:
    """Every label and button of the set-up screen, in each mode, fits in the players'
    language at 800x480, and every button is a 48 px target."""
    from tests.app.fit import clipped_labels

    driver.app.set_language(lang)
    try:
        _read_in_the_players_language(driver, camera_table)
        screen = driver.screen
        for mode in ("touching_mode", "levels_mode", "move_mode", "blocks_mode"):
            driver.tap(screen.ids[mode])
            assert clipped_labels(screen) == [], mode
            assert too_small_buttons(driver) == []
            if mode == "move_mode":  # a block selected: the arrows are live
                picture = screen.ids.picture
                driver.tap_at(*picture.window_point(*picture.view.mark(
                    screen.capture.draft.present()[0].key)))
                assert not screen.ids.turn_left.disabled
                assert clipped_labels(screen) == [], mode
                assert too_small_buttons(driver) == []
                driver.screenshot(f"field_setup_{lang}_move")
        driver.screenshot(f"field_setup_{lang}")
    finally:
        driver.app.set_language("en")
    go_home(driver)


def test_a_block_moved_by_touch_ends_where_tapped_and_the_journal_holds_the_moved_field(
        driver: AppDriver, camera_table: CameraReplay) -> None:
    """Move mode on the held-out photo: a tap on an edge block's mark selects it (ringed);
    a tap 25 mm out from the field on the picture moves it there: its mark and red outline
    (now apart from the field: "Build the field", step 1, one piece) are drawn at the tapped
    spot in the screenshot, and Start match is disabled. A tap on its old place brings it
    back, an arrow nudges it 2 mm up on screen, and the match starts on that field: the
    journal's field has the block where it was moved, and a resume rebuilds it."""
    go_home(driver)
    driver.tap_text("Infinifield")
    driver.tap(driver.find_button("2", driver.screen.ids.counts))
    driver.tap_text("read the field from the camera", driver.screen.ids.layouts)
    driver.app.screen("field_setup").frame_source = camera_table.next_camera_frame
    driver.tap(driver.widget("start"))
    _until_read(driver)
    screen = driver.screen
    draft = screen.capture.draft
    picture = screen.ids.picture
    view = picture.view
    pose = screen.capture.pose
    driver.tap(screen.ids.move_mode)
    assert screen.mode == "move" and screen.ids.nudge_up.disabled, "nothing selected yet"
    assert too_small_buttons(driver) == []
    level1 = [b for b in draft.present() if b.level == 1]
    middle = np.mean([b.centre for b in level1], axis=0)
    height = draft.layout.block_height_mm
    for block in sorted(level1, key=lambda b: -float(np.hypot(*(np.subtract(b.centre,
                                                                            middle))))):
        out = np.subtract(block.centre, middle)
        target = np.asarray(block.centre) + 25.0 * out / float(np.hypot(*out))
        spot = view.to_screen(pose.project([[target[0], target[1], height]]))[0]
        view.selected = block.key
        free = view.hit(*spot, "move").kind == "move"
        view.selected = None
        if free:
            break
    else:
        raise AssertionError("no edge block has a free spot 25 mm out")
    key, start = block.key, block.centre
    start_spot = view.anchor(key)
    driver.tap_at(*picture.window_point(*view.mark(key)))
    assert view.selected == key and not screen.ids.nudge_up.disabled
    driver.tap_at(*picture.window_point(*spot))
    moved = draft.blocks[key]
    assert moved.centre == pytest.approx(tuple(target), abs=0.5)
    assert np.allclose(view.mark(key), spot, atol=1.0), "its mark went with it"
    assert screen.ids.start_button.disabled
    image = driver.screenshot("field_setup_moved")
    assert close_to(_mark_pixel(driver, image, key), theme.BLOCK_COLOURS[moved.colour], 40)
    corners = view.outline(key)
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        x, y = picture.window_point(*((a + b) / 2))
        near = image[image.shape[0] - 1 - int(y) - 2:image.shape[0] - 1 - int(y) + 3,
                     int(x) - 2:int(x) + 3].reshape(-1, 3)
        assert any(close_to(tuple(int(v) for v in p), BROKEN, 60) for p in near), \
            "its outline is drawn red at the new place"

    driver.tap_at(*picture.window_point(*start_spot))  # back where it was read
    assert draft.blocks[key].centre == pytest.approx(start, abs=0.5)
    driver.tap(screen.ids.nudge_up)
    nudged = draft.blocks[key].centre
    assert float(np.hypot(*np.subtract(nudged, start))) == pytest.approx(2.0, abs=0.6)
    assert view.anchor(key)[1] < start_spot[1], "up on screen"
    assert not screen.ids.start_button.disabled, screen.problems
    session, name, text = _start_match(driver)
    field = session.state.field
    block_id = draft.ids()[key]
    journal = session.journal.path
    journaled = load_field_text(name, text).field
    centre = np.mean(journaled.block(block_id).footprint, axis=0)
    assert centre == pytest.approx(nudged, abs=0.3), "the journal's field has it moved"
    assert float(np.hypot(*(centre - np.asarray(start)))) > 1.5
    driver.app.table.close_game()
    resumed = driver.app.table.resume(journal)
    assert resumed.state.field == field
    driver.app.open_game_screen()
    go_home(driver)


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_a_block_the_camera_could_not_see_is_marked_and_said_in_the_players_language(
        driver: AppDriver, stacked_camera: CameraReplay, lang: str) -> None:
    """infinifield.md "Build the field" (the players confirm the field): f036's bridge hides
    the block under it, whose colour the camera assumes. Its mark carries a "?" badge and
    the screen says, in the players' language and with no table millimetres, that blocks
    marked so are hidden and their colour a guess; once a tap changes its colour, the badge
    and the line go."""
    driver.app.set_language(lang)
    try:
        _read_in_the_players_language(driver, stacked_camera)
        screen = driver.screen
        draft = screen.capture.draft
        guessed = draft.guessed()
        assert len(guessed) == 1
        said = driver.app.tr("fieldsetup.note_hidden", count=1)
        assert said in screen.problems
        assert " mm" not in screen.problems and "assumed" not in screen.problems
        picture = screen.ids.picture
        key = guessed[0].key
        x, y = picture.window_point(*picture.view.mark(key))
        badge = (x - MARK_PX * 0.4 - 6, y + MARK_PX * 0.4)  # left of its "?"
        image = driver.screenshot(f"field_setup_guess_{lang}")
        assert close_to(_pixel(image, *badge), (0.97, 0.97, 0.97, 1), 30), "the ? badge"
        driver.tap_at(x, y)                      # its colour changed by the players
        assert draft.guessed() == []
        assert said not in screen.problems
        image = driver.screenshot(f"field_setup_guess_{lang}_checked")
        assert not close_to(_pixel(image, *badge), (0.97, 0.97, 0.97, 1), 30), "no badge"
    finally:
        driver.app.set_language("en")
    go_home(driver)


PHOTO_FAR = PHOTO.with_name("f172_before")
"""A tuning photo taken from about a metre at 640x480: a block top under 20 px across."""


@pytest.mark.parametrize("tune_camera", [PHOTO_FAR], indirect=True)
@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_a_camera_too_far_to_read_reliably_is_said_in_the_players_language(
        driver: AppDriver, tune_camera: CameraReplay, lang: str) -> None:
    """infinifield.md "Build the field" (the players confirm the field): f172's camera shows
    a block top under 20 px across, too little to read levels and touching pairs reliably
    (vision.readers.detail). The screen says how many pixels a block shows and what to do,
    in the players' language, without clipping; a near camera's reading (f007 in the other
    tests) says nothing of the kind."""
    from tests.app.fit import clipped_labels
    from vision.readers.notes import DETAIL

    driver.app.set_language(lang)
    try:
        _read_in_the_players_language(driver, tune_camera)
        screen = driver.screen
        notes = [n for n in screen.capture.draft.notes if getattr(n, "kind", None) == DETAIL]
        assert len(notes) == 1
        px = round(notes[0].value)
        assert 17 <= px <= 21
        said = driver.app.tr("fieldsetup.note_detail", px=px)
        assert screen.status.startswith(said) and f"{px}" in said
        assert said not in screen.problems          # said once, above the counts
        assert "camera shows a block top only" not in screen.status + screen.problems
        assert " mm" not in screen.status
        assert clipped_labels(screen) == []
        # the warning, the counts and the problems scroll together: none is squeezed out
        status, problems = screen.ids.status, screen.ids.problems
        assert status.height >= status.texture_size[1] and problems.height > 10
        image = driver.screenshot(f"field_setup_far_{lang}")
        # the warning's first line is drawn where the text column starts, in the text colour
        x0, top = status.to_window(status.x, status.top)
        x1 = status.to_window(status.right, status.top)[0]
        rows = image[image.shape[0] - int(top): image.shape[0] - int(top) + 16, int(x0):int(x1)]
        assert share_of(rows, theme.TEXT, 40) > 0.03, "the warning's first line is not drawn"
    finally:
        driver.app.set_language("en")
    go_home(driver)


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_a_pawn_on_an_unsure_block_is_named_by_its_colour_in_the_players_language(
        lang: str) -> None:
    """infinifield.md "Chase-and-capture" (each pawn starts on a block): when the camera
    was unsure which of two tops a pawn stands on, the screen names the pawn by its colour
    in the players' language, never in the reader's English with table millimetres."""
    from companion.app.field_capture import FieldDraft
    from companion.app.i18n import Translator
    from companion.app.screens.field_setup import note_lines
    from vision.geometry import square
    from vision.readers.field3d import FieldReading, SeenBlock3D
    from vision.readers.notes import pawn_unsure_note

    blocks = tuple(SeenBlock3D(c, (200.0 + 41 * i, 200.0), 0.0, 1,
                               square((200.0 + 41 * i, 200.0), 40.0, 0.0))
                   for i, c in enumerate(["white", "red"]))
    note = pawn_unsure_note("orange", blocks[0].centre, 1, "white", blocks[1].centre, "red")
    draft = FieldDraft.from_reading(FieldReading(blocks, (), frozenset({(0, 1)}), False,
                                                 (note,)))
    translator = Translator(lang)

    class _App:
        def tr(self, key: str, **params: Any) -> str:
            return translator.tr(key, **params)

    lines = note_lines(_App(), draft)
    assert lines == [translator.tr("fieldsetup.note_pawn",
                                   pawn=translator.tr("pawn_colour.orange"))]
    assert "mm" not in lines[0] and "pawn_colour" not in lines[0]
    if lang != "en":
        assert "orange" not in lines[0]


PHOTO_HIDDEN = PHOTO.with_name("f206_before")
"""A tuning photo: a block bridges two, and the camera missed one of them, whose top shows
only in a sliver beside the bridge's top, within a finger of a mark."""


@pytest.mark.parametrize("tune_camera", [PHOTO_HIDDEN], indirect=True)
@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_a_long_press_adds_a_missed_block_whose_place_a_top_and_a_mark_cover(
        driver: AppDriver, tune_camera: CameraReplay, lang: str) -> None:
    """f206: Y5 was missed under the block bridging it. Where its top is, the picture shows
    the bridge's top, so a tap there would change the bridge; blocks mode's hint says, in
    the players' language, to press and hold there. A touch held there adds a block at
    level 1 while still held (its mark drawn in its own 48 px room, nothing else moved) and
    lifting it does nothing more; a short tap there still changes the colour of what it
    hits and adds nothing."""
    from kivy.tests.common import UnitTestTouch

    from companion.app.field_view import HOLD_S, MARK_SPACING_PX

    driver.app.set_language(lang)
    try:
        _read_in_the_players_language(driver, tune_camera)
        screen = driver.screen
        assert screen.mode == "blocks"
        assert driver.app.tr("fieldsetup.hint_blocks") in screen.status
        draft = screen.capture.draft
        picture = screen.ids.picture
        view = picture.view
        hidden = load_scene(PHOTO_HIDDEN.with_suffix(".json")).blocks["Y5"]
        assert hidden.rests_on == () and all(
            float(np.hypot(*np.subtract(b.centre, hidden.centre_mm))) > 15
            for b in draft.present() if b.level == 1), "the camera missed it"
        spot = view.to_screen(screen.capture.pose.project(
            [[hidden.centre_mm[0], hidden.centre_mm[1], hidden.top_mm]]))[0]
        assert view.hit(*spot).kind == "block", "a tap there hits the block on top"
        was = {k: (b.colour, b.centre, b.level) for k, b in draft.blocks.items()}
        marks = {k: view.mark(k) for k in draft.blocks}
        x, y = picture.window_point(*spot)
        touch = UnitTestTouch(x, y)
        pressed = time.monotonic()
        touch.touch_down()
        driver.frames(1)
        if time.monotonic() - pressed < HOLD_S * 0.8:  # (a slow machine may be past it)
            assert len(draft.blocks) == len(was), "nothing yet: it may still be a tap"
        driver.wait(HOLD_S + 0.3)
        added = [k for k in draft.blocks if k not in was]
        assert len(added) == 1, "added while still held"
        touch.touch_up()
        driver.frames(3)
        assert {k: (b.colour, b.centre, b.level) for k, b in draft.blocks.items()
                if k in was} == was, "lifting the finger changed nothing more"
        assert {k: view.mark(k) for k in was} == marks, "no mark moved"
        block = draft.blocks[added[0]]
        assert block.level == 1 and block.present
        assert float(np.hypot(*np.subtract(block.centre, hidden.centre_mm))) < 15
        assert all(float(np.hypot(*np.subtract(view.mark(added[0]), m))) >=
                   MARK_SPACING_PX - 0.5 for m in marks.values()), "its own 48 px room"
        image = driver.screenshot(f"field_setup_hold_{lang}")
        assert close_to(_mark_pixel(driver, image, added[0]),
                        theme.BLOCK_COLOURS[block.colour], 40), "its mark is drawn"
        top = view.hit(*spot)
        colour = draft.blocks[top.key].colour
        driver.tap_at(x, y)  # a short tap there: a colour, as before
        assert draft.blocks[top.key].colour != colour
        assert len(draft.blocks) == len(was) + 1
    finally:
        driver.app.set_language("en")
    go_home(driver)


def _on_circle(image: np.ndarray, centre: tuple[float, float], radius: float,
               step: float = 3.0) -> dict[float, tuple[int, ...]]:
    """The screenshot's colours round ``centre`` (window px) at ``radius``: angle in degrees
    clockwise from the top -> 0-255 RGB."""
    return {a: _pixel(image, centre[0] + radius * np.sin(np.radians(a)),
                      centre[1] + radius * np.cos(np.radians(a)))
            for a in np.arange(0.0, 360.0, step)}



def _white_on_ring(image: np.ndarray, centre: tuple[float, float]) -> dict[float, bool]:
    """Angle -> whether the ring's white shows there, round ``centre`` at its radius."""
    from companion.app.widgets.field_picture import HOLD_RING_PX

    return {a: close_to(c, theme.HOLD_RING, 20)
            for a, c in _on_circle(image, centre, HOLD_RING_PX).items()}


def _as_before(before: np.ndarray, now: np.ndarray, centre: tuple[float, float]) -> float:
    """The share of the ring's circle round ``centre`` that looks as it did ``before``."""
    from companion.app.widgets.field_picture import HOLD_RING_PX

    was = _on_circle(before, centre, HOLD_RING_PX)
    same = [max(abs(p - q) for p, q in zip(c, was[a], strict=True)) <= 30
            for a, c in _on_circle(now, centre, HOLD_RING_PX).items()]
    return sum(same) / len(same)

def _held_part_way(driver: AppDriver, picture: Any, points: list[tuple[float, float]],
                   name: str, low: float, high: float = 0.8) -> tuple[list[Any], np.ndarray]:
    """Fingers down at ``points`` (window px) and held, in blocks mode: the screenshot of
    the first frame whose rings are all filled between ``low`` and ``high`` of the circle;
    (touches, screenshot). A slow frame may step past that: the fingers are then held on
    until the long press acts (at a block standing on the table it adds nothing), lifted
    (no tap then) and put down again."""
    from kivy.tests.common import UnitTestTouch

    from companion.app.field_view import HOLD_S

    for _ in range(4):
        touches = [UnitTestTouch(*p) for p in points]
        for touch in touches:
            touch.touch_down()
        assert all(t.uid in picture.rings for t in touches), "a ring from the start"
        while all(t.uid in picture.rings for t in touches):
            driver.frames(1)
            angles = [picture.rings.get(t.uid, 360.0) for t in touches]
            if low * 360 <= min(angles) and max(angles) <= high * 360:
                return touches, driver.screenshot(name, frames=0)
            if max(angles) > high * 360:
                break
        end = time.monotonic() + HOLD_S + 5
        while picture.rings and time.monotonic() < end:
            driver.frames(1)
        for touch in touches:
            touch.touch_up()
        driver.frames(2)
    raise AssertionError("the frames came too slowly to see a ring part-way")


def test_a_touch_held_in_blocks_mode_shows_a_ring_that_fills_until_the_long_press(
        driver: AppDriver, camera_table: CameraReplay) -> None:
    """Blocks mode: a finger held on a block's mark shows a white ring on a dark edge round
    it (larger than a fingertip), its arc filling clockwise from the top; half-way to the
    long press about half the circle is drawn and nothing under it moved. Lifted then, the
    touch is a tap and the ring is gone; held on, the ring goes when the long press acts
    (there: nothing to add, a block stands there). Two fingers get a ring each. In touching
    mode, where a long press is a tap, a held touch shows no ring."""
    from kivy.tests.common import UnitTestTouch

    from companion.app.field_view import HOLD_S
    from companion.app.widgets.field_picture import HOLD_RING_PX

    _read_in_the_players_language(driver, camera_table)
    screen = driver.screen
    assert screen.mode == "blocks"
    picture = screen.ids.picture
    view = picture.view
    draft = screen.capture.draft
    room = HOLD_RING_PX + 10

    def inside(key: int) -> bool:
        x, y = view.mark(key)
        return room < x < view.width - room and room < y < view.height - room

    keys = [b.key for b in draft.present() if b.level == 1 and inside(b.key)]
    assert len(keys) >= 2
    key = keys[0]
    centre = picture.window_point(*view.mark(key))
    was = {k: (b.colour, b.centre, b.level, b.present) for k, b in draft.blocks.items()}
    marks = {k: view.mark(k) for k in draft.blocks}
    before = driver.screenshot("field_setup_hold_ring_before")

    # half-way: about half the circle, clockwise from the top; nothing moved under it
    (touch,), image = _held_part_way(driver, picture, [centre], "field_setup_hold_ring", 0.3)
    angle = picture.rings[touch.uid]  # as drawn in the screenshot
    shown = _white_on_ring(image, centre)
    drawn = [shown[a] for a in shown if 8 <= a <= angle - 8]
    undrawn = [shown[a] for a in shown if angle + 8 <= a <= 352]
    assert sum(drawn) >= 0.9 * len(drawn), f"the white arc from the top to {angle:.0f}"
    assert sum(undrawn) <= 0.05 * len(undrawn), f"no white beyond {angle:.0f}"
    assert _as_before(before, image, centre) < 0.5
    for a in range(20, round(angle) - 19, 20):  # a dark edge each side of the white
        for side in (1, -1):
            edge = [sum(_on_circle(image, centre, HOLD_RING_PX + side * d, 1.0)[a])
                    for d in (2, 3, 4, 5)]
            assert min(edge) < 3 * 60, f"a dark edge ({a} degrees, {side:+}): {edge}"
    assert {k: (b.colour, b.centre, b.level, b.present) for k, b in draft.blocks.items()} \
        == was and {k: view.mark(k) for k in draft.blocks} == marks, "nothing moved"

    # lifted: a tap (the mark's colour changes), and the ring is gone
    touch.touch_up()
    driver.frames(3)
    assert picture.rings == {}
    assert draft.blocks[key].colour != was[key][0], "lifted, it was a tap"
    lifted = driver.screenshot("field_setup_hold_ring_lifted")
    assert _as_before(before, lifted, centre) >= 0.9, "no ring once lifted"
    for _ in range(4):  # back to its colour (after blue: not a block, then white)
        if draft.blocks[key].colour == was[key][0] and draft.blocks[key].present:
            break
        driver.tap_at(*centre)
    assert draft.blocks[key].colour == was[key][0]

    # held on: the ring goes when the long press acts (nothing to add there)
    touch = UnitTestTouch(*centre)
    touch.touch_down()
    assert touch.uid in picture.rings
    driver.wait(HOLD_S + 0.1)
    driver.frames(2)
    assert picture.rings == {}, "the long press acted: no ring"
    pressed = driver.screenshot("field_setup_hold_ring_pressed")
    assert _as_before(before, pressed, centre) >= 0.95
    touch.touch_up()
    driver.frames(3)
    assert {k: (b.colour, b.centre, b.level, b.present) for k, b in draft.blocks.items()} \
        == was, "a long press on a standing block adds nothing, and lifting is no tap"

    # two fingers: a ring each
    other = picture.window_point(*view.mark(keys[1]))
    touches, both = _held_part_way(driver, picture, [centre, other],
                                   "field_setup_hold_rings_two", 0.15)
    assert len(picture.rings) == 2
    for point, touch in zip((centre, other), touches, strict=True):
        arc = _white_on_ring(both, point)
        drawn = [arc[a] for a in arc if 8 <= a <= picture.rings[touch.uid] - 8]
        assert sum(drawn) >= 0.9 * len(drawn), "each finger's own ring"
    for touch in touches:
        touch.touch_up()
    driver.frames(3)
    assert picture.rings == {}

    # touching mode: a long press is a tap, so no ring
    driver.tap(screen.ids.touching_mode)
    assert picture.mode == "touching"
    plain = driver.screenshot("field_setup_hold_touching_before")
    touch = UnitTestTouch(*centre)
    touch.touch_down()
    start = time.monotonic()
    while time.monotonic() - start < HOLD_S / 2:
        driver.frames(1)
    assert picture.rings == {}
    held = driver.screenshot("field_setup_hold_touching", frames=0)
    assert _as_before(plain, held, centre) >= 0.95, "no ring in touching mode"
    touch.touch_up()
    driver.frames(3)
    go_home(driver)


GROUND_STACKED = Path(__file__).resolve().parents[1] / "data" / "table3d_ground" / "f036_ground"
"""f036's first level alone, photographed before the bridge went on (same camera and light)."""


def test_the_first_level_kept_before_stacking_gives_the_hidden_block_its_colour(
        driver: AppDriver, stacked_camera: CameraReplay) -> None:
    """infinifield.md "Build the field" (the players confirm the field): the builder lays out
    f036's first level; the camera reads it and "Keep level 1" keeps it; the bridge goes on
    and "Read again" reads the stacked field on it. The block the bridge hides (W1) keeps the
    colour the first photo saw, so nothing is marked "?" and the field read is f036's own;
    read without the first level, that block's colour is a guess."""
    from vision.readers.ground3d import SAME_BLOCK_MM

    first = load_scene(GROUND_STACKED.with_suffix(".json"))
    stacked = load_scene(PHOTO_STACKED.with_suffix(".json"))
    frames = [first.image(), stacked.image()]
    _read_in_the_players_language(driver, _Still(frames[0]))
    screen = driver.screen
    ground_button = screen.ids.ground_button
    assert not ground_button.disabled
    assert len(screen.capture.draft.present()) == len(first.blocks) == 13
    driver.tap(ground_button)
    assert len(screen.ground) == 13
    kept = driver.app.tr("fieldsetup.first_level_kept", count=13)
    assert kept in screen.status
    assert ground_button.selected
    driver.screenshot("field_setup_first_level_kept")

    screen.frame_source = lambda: frames[1]
    driver.tap(screen.ids.read_button)
    for _ in range(600):                      # the new reading replaces the first one
        if not screen.reading and len(screen.capture.draft.present()) == 14:
            break
        driver.wait(0.02)
    driver.frames(3)
    draft = screen.capture.draft
    assert draft.guessed() == [], "no colour is a guess: the first photo saw them all"
    assert driver.app.tr("fieldsetup.note_hidden", count=1) not in screen.problems
    read = {(b.colour, b.level, round(b.centre[0]), round(b.centre[1]))
            for b in draft.present()}
    for block in stacked.blocks.values():
        assert any(c == block.colour and lv == block.level
                   and np.hypot(x - block.centre_mm[0], y - block.centre_mm[1]) < SAME_BLOCK_MM
                   for c, lv, x, y in read), f"{block.id} read where it stands"
    bridge = next(b for b in draft.present() if b.level == 2)
    under = {draft.blocks[k].colour for k in draft.supports(bridge.key)}
    assert under == {"white", "yellow"}, "the bridge rests on W1 and Y3"
    image = driver.screenshot("field_setup_on_first_level")
    picture = screen.ids.picture
    w1 = stacked.blocks["W1"].centre_mm
    hidden = min((b for b in draft.present() if b.level == 1),
                 key=lambda b: np.hypot(b.centre[0] - w1[0], b.centre[1] - w1[1]))
    assert hidden.colour == "white"
    x, y = picture.window_point(*picture.view.mark(hidden.key))
    badge = (x - MARK_PX * 0.4 - 6, y + MARK_PX * 0.4)
    assert not close_to(_pixel(image, *badge), (0.97, 0.97, 0.97, 1), 30), "no ? badge"

    driver.tap(ground_button)                 # forgotten: the next reading stands alone
    assert screen.ground == [] and kept not in screen.status
    driver.tap(screen.ids.read_button)
    _until_read(driver)
    for _ in range(600):
        if not screen.reading:
            break
        driver.wait(0.02)
    driver.frames(3)
    assert len(screen.capture.draft.guessed()) == 1
    go_home(driver)


PHOTO_OWN_COLOUR_BRIDGE = PHOTO.with_name("f078_before")
"""A tuning photo of a stacked field (86 cm up) whose yellow bridge Y6 stands on yellow Y4
and red R3: read alone, or on the first level's blocks alone, it is not found."""


@pytest.fixture
def own_colour_bridge_camera(driver: AppDriver, tmp_path: Path) -> Iterator[CameraReplay]:
    """The stacked field f078_before as the camera."""
    yield from _replay_camera(driver, tmp_path, PHOTO_OWN_COLOUR_BRIDGE)


def test_a_bridge_on_a_block_of_its_colour_is_read_against_the_first_level_kept(
        driver: AppDriver, own_colour_bridge_camera: CameraReplay) -> None:
    """infinifield.md "Build the field": f078's first level is read and "Keep level 1" keeps
    it with its photo; the builder stacks, among others, yellow Y6 across yellow Y4 and red
    R3, and "Read again" reads the stacked field. The camera cannot tell Y6's top from
    Y4's, but where the first photo showed R3's red top and the mat it now shows yellow:
    Y6 is on the screen a level up, on R3 and Y4. With the first level forgotten, the same
    photo read again has no block there."""
    first = load_scene(GROUND_STACKED.with_name("f078_ground").with_suffix(".json"))
    stacked = load_scene(PHOTO_OWN_COLOUR_BRIDGE.with_suffix(".json"))
    frames = [first.image(), stacked.image()]
    _read_in_the_players_language(driver, _Still(frames[0]))
    screen = driver.screen
    assert screen.first_level_photo() is None
    driver.tap(screen.ids.ground_button)
    assert len(screen.ground) == len(first.blocks)
    assert screen.first_level_photo() is not None
    assert screen.first_level_photo().frame is screen.capture.frame

    y6 = stacked.blocks["Y6"]

    def bridges() -> list[Any]:
        draft = screen.capture.draft
        return [b for b in draft.present() if b.level == 2 and b.colour == "yellow"
                and np.hypot(b.centre[0] - y6.centre_mm[0], b.centre[1] - y6.centre_mm[1]) < 6]

    screen.frame_source = lambda: frames[1]
    driver.tap(screen.ids.read_button)
    for _ in range(600):
        if not screen.reading and screen.capture.frame is frames[1]:
            break
        driver.wait(0.02)
    driver.frames(3)
    found = bridges()
    assert len(found) == 1, "Y6 read a level up where it stands"
    draft = screen.capture.draft
    assert sorted(draft.blocks[k].colour for k in draft.supports(found[0].key)) == [
        "red", "yellow"]
    driver.screenshot("field_setup_own_colour_bridge")

    driver.tap(screen.ids.ground_button)        # forgotten: the photo goes with it
    assert screen.ground == [] and screen.first_level_photo() is None
    screen.capture = None
    driver.tap(screen.ids.read_button)
    _until_read(driver)
    assert bridges() == []
    go_home(driver)


PHOTO_UNSURE_PAIRS = PHOTO.with_name("f001_before")
"""A tuning photo of a stacked field: R6, on R3 and R4, is read 2.5-6.5 mm from R1 and R2
beside them (it touches neither: a few millimetres back, in the rulebook's unclear band)."""


@pytest.mark.parametrize("tune_camera", [PHOTO_UNSURE_PAIRS], indirect=True)
def test_pairs_a_level_apart_the_camera_cannot_tell_are_drawn_amber_until_checked(
        driver: AppDriver, tune_camera: CameraReplay) -> None:
    """infinifield.md "Build the field" (blocks meant to touch, or clearly apart): f001's
    top R6 stands a few millimetres from R1 and R2 a level below, too near the edge of
    touching for the camera. Both pairs are drawn in amber (read as touching: thick) and a
    line asks the players to check them; in touching mode a tap on R6, then on R1, unties
    that pair, its line goes and the count drops to one."""
    _read_in_the_players_language(driver, tune_camera)
    screen = driver.screen
    draft = screen.capture.draft
    unsure = draft.unsure_pairs()
    assert len(unsure) == 2
    raised = {k for pair in unsure for k in pair if draft.blocks[k].level == 2}
    assert len(raised) == 1
    top = raised.pop()
    assert all(p in draft.live_touching() for p in unsure), "read as touching"
    assert driver.app.tr("fieldsetup.note_touch", count=2) in screen.problems
    picture = screen.ids.picture
    view = picture.view
    below = [a if b == top else b for a, b in unsure]

    def on_line(image: np.ndarray, a: int, b: int) -> list[tuple[int, ...]]:
        ax, ay = picture.window_point(*view.anchor(a))
        bx, by = picture.window_point(*view.anchor(b))
        return [_pixel(image, ax + (bx - ax) * f + dx, ay + (by - ay) * f + dy)
                for f in (0.3, 0.4, 0.6, 0.7) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]

    image = driver.screenshot("field_setup_unsure_pairs")
    for other in below:
        assert any(close_to(p, theme.ACCENT, 40) for p in on_line(image, top, other)), \
            "an amber line joins the pair"
    green = next(p for p in sorted(draft.live_touching()) if p not in unsure
                 and draft.blocks[p[0]].level == draft.blocks[p[1]].level)
    assert not any(close_to(p, theme.ACCENT, 40) for p in on_line(image, *green))

    driver.tap(screen.ids.touching_mode)
    driver.tap_at(*picture.window_point(*view.mark(top)))
    driver.tap_at(*picture.window_point(*view.mark(below[0])))
    pair = (min(top, below[0]), max(top, below[0]))
    assert pair not in draft.live_touching() and pair not in draft.unsure_pairs()
    assert driver.app.tr("fieldsetup.note_touch", count=1) in screen.problems
    image = driver.screenshot("field_setup_unsure_pair_checked")
    assert not any(close_to(p, theme.ACCENT, 40) for p in on_line(image, top, below[0]))
    assert any(close_to(p, theme.ACCENT, 40) for p in on_line(image, top, below[1]))
    driver.tap(screen.ids.blocks_mode)
    go_home(driver)


def _watch_once(driver: AppDriver) -> None:
    """One of the screen's camera readings for the first level, waited for (the test
    plays the clock: the pause the screen leaves between readings is skipped)."""
    screen = driver.screen
    for _ in range(600):                      # a reading of the screen's own may be running
        if not screen._watching and not screen.reading:
            break
        driver.wait(0.02)
    screen._watch_next = 0.0
    screen._watch_tick()
    for _ in range(600):
        if not screen._watching:
            driver.frames(2)
            return
        driver.wait(0.02)
    raise AssertionError("the watch's reading never came back")


def test_the_camera_keeps_the_first_level_by_itself_while_the_builder_lays_it_out(
        driver: AppDriver, stacked_camera: CameraReplay) -> None:
    """infinifield.md "Build the field": the builder lays out f036's first level with the
    set-up screen open, then puts the bridge on it, and nobody taps "Keep level 1". The
    screen, reading the camera every few seconds, keeps the first level once it stands
    still (the status line says so, the button shows it kept), notices the bridge go up
    and keeps that level as it was; "Read again" then reads the stacked field on it: the
    block under the bridge has the colour the camera saw, not a guess."""
    first = load_scene(GROUND_STACKED.with_suffix(".json"))
    stacked = load_scene(PHOTO_STACKED.with_suffix(".json"))
    camera = _Still(first.image())
    _read_in_the_players_language(driver, camera)
    screen = driver.screen
    watched = driver.app.tr("fieldsetup.first_level_watched", count=13)
    _watch_once(driver)                        # the same table twice: the builder let go
    assert screen.watch.ground and watched in screen.status
    screen._watch_tick()                       # the screen rests twice a reading's time
    assert not screen._watching and screen._watch_next > time.monotonic()
    assert screen.ids.ground_button.selected
    assert screen.first_level() == [], "a field nobody stacked on is read alone"
    driver.screenshot("field_setup_first_level_watched")

    camera.frame = stacked.image()             # the bridge goes on
    _watch_once(driver)
    assert screen.watch.stacking_seen and len(screen.first_level()) == 13
    _watch_once(driver)                        # later readings change nothing
    assert len(screen.watch.ground) == 13
    driver.tap(screen.ids.read_button)
    for _ in range(600):
        if not screen.reading and len(screen.capture.draft.present()) == 14:
            break
        driver.wait(0.02)
    driver.frames(3)
    draft = screen.capture.draft
    assert draft.guessed() == []
    bridge = next(b for b in draft.present() if b.level == 2)
    assert {draft.blocks[k].colour for k in draft.supports(bridge.key)} == {"white", "yellow"}
    driver.screenshot("field_setup_read_on_watched_level")

    driver.tap(screen.ids.ground_button)       # the players take it in hand: theirs now
    assert screen.watch_stopped and watched not in screen.status
    go_home(driver)


def test_a_fault_of_the_reader_is_said_and_reading_again_works(
        driver: AppDriver, camera_table: CameraReplay, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader that fails on a frame (as it once did on the unseen f838, with "max() arg
    is an empty sequence") leaves the screen saying so in the players' language, not
    reading forever nor naming Python's words; "Read again" reads the next frame."""
    import companion.app.screens.field_setup as field_setup

    real = field_setup.capture_field

    def failing(*_args: Any, **_kwargs: Any) -> Any:
        raise ValueError("max() arg is an empty sequence")

    monkeypatch.setattr(field_setup, "capture_field", failing)
    go_home(driver)
    driver.tap_text("Infinifield")
    driver.app.screen("field_setup").frame_source = camera_table.next_camera_frame
    driver.tap_text(driver.app.tr("setup.infinifield.camera"), driver.screen.ids.layouts)
    driver.tap(driver.widget("start"))
    screen = driver.screen
    for _ in range(600):
        if not screen.reading:
            break
        driver.wait(0.02)
    driver.frames(3)
    assert screen.status == driver.app.tr("fieldsetup.reader_fault")
    assert "max()" not in screen.status + screen.problems
    assert not screen.ids.read_button.disabled and screen.ids.start_button.disabled
    driver.screenshot("field_setup_reader_fault")
    monkeypatch.setattr(field_setup, "capture_field", real)
    driver.tap(screen.ids.read_button)
    _until_read(driver)
    assert screen.capture is not None and screen.capture.draft.present()
    go_home(driver)


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_blocks_that_may_carry_one_of_their_colour_are_counted_in_the_players_language(
        lang: str) -> None:
    """infinifield.md "Build the field" step 1 (a "little 3D castle"): where the camera asks
    whether a block carries one of its colour, the screen says so in the players' language
    and counts the blocks marked ``+``, never in the reader's English with millimetres."""
    from companion.app.field_capture import FieldDraft
    from companion.app.i18n import Translator
    from companion.app.screens.field_setup import note_lines
    from vision.geometry import square
    from vision.readers.field3d import FieldReading, SeenBlock3D
    from vision.readers.notes import tower_unsure_note

    blocks = tuple(SeenBlock3D(c, (200.0 + 41 * i, 200.0), 0.0, 1,
                               square((200.0 + 41 * i, 200.0), 40.0, 0.0))
                   for i, c in enumerate(["white", "red"]))
    draft = FieldDraft.from_reading(FieldReading(
        blocks, (), frozenset({(0, 1)}), False, (tower_unsure_note("red", (241.0, 200.0)),)))
    translator = Translator(lang)

    class _App:
        def tr(self, key: str, **params: Any) -> str:
            return translator.tr(key, **params)

    lines = note_lines(_App(), draft)
    assert lines == [translator.tr("fieldsetup.note_tower", count=1)]
    assert "mm" not in lines[0] and "+" in lines[0] and "1" in lines[0]


STACKS = Path(__file__).resolve().parents[1] / "data" / "table3d_stacks"
TOWER_OF_ONE_COLOUR = STACKS / "f773_before"
"""A tuning photo of a stacked field: the white W5 stands on the white W2 (7 cm from the
point under the camera, 95 cm up); ``f773_ground`` is its first level alone."""


def test_a_block_that_may_carry_one_of_its_colour_is_marked_and_lifted_by_one_tap(
        driver: AppDriver, tmp_path: Path) -> None:
    """infinifield.md "Build the field" (the players confirm the field): f773's first level
    is kept, W5 goes on W2 and the stacked field is read on it. The camera reads W5's top as
    W2 (no other colour shows between them) but asks: W2's mark carries an amber ``+`` and a
    line says why. In levels mode one tap on that mark lifts the block a level onto a white
    block: the field has W5 on W2, the ``+`` and the line go."""
    first = load_scene(TOWER_OF_ONE_COLOUR.with_name("f773_ground").with_suffix(".json"))
    stacked = load_scene(TOWER_OF_ONE_COLOUR.with_suffix(".json"))
    assert stacked.split == "tune"
    frames = [first.image(), stacked.image()]
    cameras = _replay_camera(driver, tmp_path, TOWER_OF_ONE_COLOUR)
    next(cameras)               # its calibration and intrinsics, as the app keeps them
    try:
        _lift_the_block_asked_about(driver, stacked, frames, len(first.blocks))
    finally:
        next(cameras, None)
    go_home(driver)


def _lift_the_block_asked_about(driver: AppDriver, stacked: Any, frames: list[np.ndarray],
                                first_blocks: int) -> None:
    _read_in_the_players_language(driver, _Still(frames[0]))
    screen = driver.screen
    driver.tap(screen.ids.ground_button)
    assert len(screen.ground) == first_blocks
    screen.frame_source = lambda: frames[1]
    driver.tap(screen.ids.read_button)
    for _ in range(600):
        if not screen.reading and screen.capture.draft.tower_asks():
            break
        driver.wait(0.02)
    driver.frames(3)
    draft = screen.capture.draft
    asked = draft.tower_asks()
    w2 = stacked.blocks["W2"].centre_mm
    assert [b.colour for b in asked] == ["white"]
    assert np.hypot(asked[0].centre[0] - w2[0], asked[0].centre[1] - w2[1]) < 6.0
    line = driver.app.tr("fieldsetup.note_tower", count=1)
    assert line in screen.problems
    picture = screen.ids.picture
    image = driver.screenshot("field_setup_tower_asked")
    x, y = picture.window_point(*picture.view.mark(asked[0].key))
    badge = (x - MARK_PX * 0.4 - 5, y + MARK_PX * 0.4 + 5)
    assert close_to(_pixel(image, *badge), theme.ACCENT, 40), "an amber + badge"

    driver.tap(screen.ids.levels_mode)
    driver.tap_at(x, y)
    driver.frames(3)
    lifted = draft.blocks[asked[0].key]
    assert lifted.level == 2
    assert [draft.blocks[k].colour for k in draft.supports(lifted.key)] == ["white"]
    assert draft.tower_asks() == [] and line not in screen.problems
    image = driver.screenshot("field_setup_tower_lifted")
    x, y = picture.window_point(*picture.view.mark(lifted.key))
    assert not close_to(_pixel(image, x - MARK_PX * 0.4 - 5, y + MARK_PX * 0.4 + 5),
                        theme.ACCENT, 40), "no + badge once lifted"
