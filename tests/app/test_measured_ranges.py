"""Distances between Infinity troopers without Kivy: marker mapping, the camera's measurement
on a rendered table, and the attacks and bands they give (issue 5; infinity-n3-intro.md
range bands and BS modifiers)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.app.base_markers import (
    BaseMarkerError,
    example_base_markers,
    pair,
    parse_base_markers,
    trooper_distances,
)
from companion.app.camera_dice import CameraDice, DiceRead, SimulatedDiceTray, dungeon_dice_due
from companion.app.camera_ranges import CameraRanges, RangesRead, SimulatedBaseTable
from companion.app.game_setups import SETUPS
from companion.app.views.infinity_range import (
    measured_texts,
    pair_bands,
    ranged_attack,
    weapon_bands,
    with_distance,
)
from companion.games.registry import load_game
from companion.session import Session
from vision.calibration import calibrate
from vision.layout import INCH_MM
from vision.render import BaseSpec, FieldSpec, SceneSpec, render_scene

ARMIES = Path(__file__).resolve().parents[2] / "companion/games/infinity/armies/example.toml"


def _infinity() -> Session:
    setup = SETUPS["infinity"]
    return Session.new(load_game("infinity"), setup.sources("example armies"),
                       setup.build_options(None, "example armies", None))


def test_shipped_mapping_names_every_trooper_of_the_example_armies() -> None:
    """Each example trooper has its own base marker, the Iguana a 40 mm base."""
    markers = example_base_markers()
    names = {name for name, _d in markers.by_marker.values()}
    text = ARMIES.read_text()
    assert names == {n for n in names if f'id = "{n}"' in text} and len(names) == 6
    assert markers.diameters()[12] == 40.0


@pytest.mark.parametrize("text,key,problem", [
    ("[bases]\nFusilier = 3\n", "bases.Fusilier", "below 10"),
    ("[bases]\nA = 10\nB = 10\n", "bases.B", "already on A's base"),
    ("[bases]\nA = { marker = 10, size = 4 }\n", "bases.A.size", "unknown key"),
    ("[bases]\nA = { marker = 10, diameter_mm = -1 }\n", "bases.A", "positive number"),
    ("[bases]\nA = 'ten'\n", "bases.A", "whole number"),
    ("[troopers]\nA = 10\n", "troopers", "expected one [bases] table"),
    ("[bases\n", "(file)", "not valid TOML"),
])
def test_bad_mapping_files_name_the_file_and_key(text: str, key: str, problem: str) -> None:
    with pytest.raises(BaseMarkerError) as error:
        parse_base_markers("bases.toml", text)
    assert error.value.key == key and problem in error.value.problem
    assert str(error.value).startswith(f"bases.toml: {key}: ")


@pytest.mark.parametrize("size", [(640, 480), (1280, 720)])
def test_camera_distances_between_troopers_on_a_rendered_table(size: tuple[int, int]) -> None:
    """Base to base (centres less both radii), within 0.1 inch; unmapped markers ignored."""
    scene = render_scene(SceneSpec(seed=5, size=size, field=FieldSpec(()), bases=(
        BaseSpec(10, (150.0, 150.0)), BaseSpec(12, (400.0, 150.0), diameter=40.0),
        BaseSpec(13, (150.0, 330.0)), BaseSpec(19, (450.0, 330.0)))))
    found = trooper_distances(scene.image, calibrate(scene.image), example_base_markers())
    assert set(found) == {pair("Fusilier", "Iguana"), pair("Fusilier", "Grenzer"),
                          pair("Iguana", "Grenzer")}
    assert found[("Fusilier", "Iguana")] == pytest.approx((250 - 32.5) / INCH_MM, abs=0.1)
    assert found[("Fusilier", "Grenzer")] == pytest.approx((180 - 25) / INCH_MM, abs=0.1)


def test_measured_attacks_replace_the_sampled_bands() -> None:
    """The engine lists each attack once per band; measured, it is offered once, at the
    measured distance, and the other actions stay as they are."""
    session = _infinity()
    texts = [session.game.format_action(a) for a in session.legal_actions()]
    measured = measured_texts(session.state, texts,
                              lambda s, t: 9.25 if {s, t} == {"Fusilier", "Grenzer"} else None)
    assert "shoot Ann Fusilier combi_rifle Grenzer@9.25*3" in measured
    assert not any(t.startswith("shoot Ann Fusilier combi_rifle Grenzer@") and "9.25" not in t
                   for t in measured)
    assert "shoot Ann Fusilier combi_rifle Daturazi@12*3" in measured
    assert session.propose(with_distance(session.parse("shoot Ann Fusilier combi_rifle "
                                                       "Grenzer@12*3"), 9.25),
                           source="touch").legal
    assert ranged_attack(session.parse("move Ann Fusilier 4")) is None
    with pytest.raises(ValueError, match="not a single-target"):
        with_distance(session.parse("end Ann"), 3)


@pytest.mark.parametrize("inches,band", [(8, (0, 8, 3)), (8.01, (8, 16, 3)), (20, (16, 32, -3)),
                                         (48, (32, 48, -6)), (48.5, None)])
def test_bands_follow_the_weapon_data(inches: float, band: tuple[int, int, int] | None) -> None:
    """infinity-n3-intro.md Combi Rifle table (profiles/default.toml): a boundary belongs to
    the nearer band; beyond 48 inches out of range."""
    bands = weapon_bands(_infinity().state, inches)
    assert [b.weapon for b in bands] == ["Combi Rifle"]
    got = bands[0]
    assert (got.modifier is None if band is None
            else (got.start, got.end, got.modifier) == band)


def test_pair_bands_keep_hidden_troopers_private() -> None:
    """Private Information: Spektr (Hidden Deployment) is never listed as a measured pair."""
    bands = pair_bands(_infinity().state, lambda s, t: 10.0)
    assert {b.target for b in bands} == {"Grenzer", "Daturazi"}
    assert {b.shooter for b in bands} == {"Fusilier", "Alguacil", "Iguana"}
    assert all(b.modifier == 3 for b in bands)


def test_camera_reads_happen_off_the_main_thread_and_come_back_posted() -> None:
    """Dice and distances are read on a worker thread; the result is only posted (to the
    main loop's inbox), never applied on the worker."""
    posted: list[tuple[object, tuple[object, ...]]] = []
    threads: list[str] = []

    def post(function: object, *args: object) -> None:
        threads.append(threading.current_thread().name)
        posted.append((function, args))

    tray = SimulatedDiceTray(seed=3)
    dice_thread = CameraDice(post).read(tray.frame(4), tray.reader, print)
    table = SimulatedBaseTable(example_base_markers(), seed=3)
    range_thread = CameraRanges(post).read(table.frame(), example_base_markers(), print)
    assert dice_thread is not None and range_thread is not None
    dice_thread.join(10)
    range_thread.join(10)
    assert sorted(threads) == ["camera-dice", "camera-ranges"]
    results = {type(args[0]): args[0] for _fn, args in posted}
    dice = results[DiceRead]
    ranges = results[RangesRead]
    assert isinstance(dice, DiceRead) and dice.values == tray.values
    assert isinstance(ranges, RangesRead) and set(ranges.distances) == \
        set(table.true_distances())
    CameraDice(post).read(None, tray.reader, print)
    assert posted[-1][1] == (DiceRead((), "no camera frame"),)


def test_dice_due_follow_the_dungeon_phase() -> None:
    """infinidungeon.md: a roll wants every die left; a reroll only the chosen dice; a
    shuffle no dice."""
    setup = SETUPS["infinidungeon"]
    session = Session.new(load_game("infinidungeon"), setup.sources("default deck"),
                          setup.build_options(None, "default deck", None), seed=1)
    assert session.state.phase == "shuffle" and dungeon_dice_due(session.state) == 0
    for _ in range(40):
        if session.state.phase in ("fight_rerolling", "trap_rerolling"):
            break
        if session.state.phase in ("fight_reroll", "trap_reroll"):
            session.propose("reroll 1 2", source="touch")
        elif session.is_chance():
            session.roll()
        else:
            session.propose(session.legal_actions()[0], source="touch")
    assert dungeon_dice_due(session.state) == 2
