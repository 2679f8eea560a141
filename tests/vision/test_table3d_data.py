"""The shipped photoreal table set (tests/data/table3d): its ground truth is self-consistent
and agrees with what the images show; the renderer works when bpy is installed."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.games.infinifield.contacts import near_pairs
from companion.games.infinifield.field import build_field
from companion.games.infinifield.field_rules import check_field
from companion.games.infinifield.removal import removable_blocks
from vision.devtools.table3d_scene import (
    LEVELS_CLEAR_FROM,
    BlockPlan,
    outline_clearance,
    plan_family,
    split_of,
)
from vision.devtools.table3d_truth import (
    DEFAULT_DIR,
    CameraTruth,
    SceneTruth,
    TruthError,
    iter_scenes,
    load_scene,
    load_split,
    pairs,
)
from vision.markers import detect_markers


@pytest.fixture(scope="module")
def scenes() -> list[SceneTruth]:
    found = list(iter_scenes(DEFAULT_DIR))
    assert found, f"no shipped scenes in {DEFAULT_DIR}"
    return found


def test_the_set_is_varied_and_split(scenes: list[SceneTruth]) -> None:
    split = load_split(DEFAULT_DIR)
    families = {s.family for s in scenes}
    assert set(split["tune"]) | set(split["holdout"]) == families
    assert not set(split["tune"]) & set(split["holdout"])
    for s in scenes:
        assert s.split == split_of(int(s.family[1:]))
        assert s.family in split[s.split]
    assert split["holdout"], "some families must be held out of tuning"
    assert {s.lighting for s in scenes} >= {"ceiling", "window", "lamp", "dim"}
    assert any(s.stacked for s in scenes) and any(not s.stacked for s in scenes)
    assert any(s.hand for s in scenes)
    kinds = {s.action["kind"] for s in scenes if s.action}
    assert kinds == {"remove", "move"}
    assert {s.camera.size for s in scenes} == {(640, 480), (1280, 960)}


def test_labelled_pixels_are_the_projection_of_the_3d_truth(scenes: list[SceneTruth]) -> None:
    for s in scenes:
        img = s.image()
        assert img.shape[1::-1] == s.camera.size, s.id
        for mid, corners in s.markers_mm.items():
            err = np.abs(s.camera.project(corners) - s.markers_px[mid]).max()
            assert err < 1.0, f"{s.id} marker {mid}: {err:.2f} px"
        w, h = s.camera.size
        for b in s.blocks.values():
            assert np.abs(s.camera.project(b.top_corners_mm) - b.top_corners_px).max() < 1.0
            assert np.allclose(b.top_corners_mm[:, 2], -b.top_mm)
            assert b.top_mm == pytest.approx(40.0 * b.level)
            px = b.top_corners_px
            assert (px >= 0).all() and (px[:, 0] < w).all() and (px[:, 1] < h).all(), \
                f"{s.id} block {b.id} top leaves the image"
        for mid in s.layout.marker_ids:
            assert mid in s.markers_px, f"{s.id}: marker {mid} not labelled"


def test_camera_is_a_table_camera(scenes: list[SceneTruth]) -> None:
    """The issue's set-up: 45-100 cm up, a 60-70 degree lens, small tilt, barrel distortion."""
    for s in scenes:
        cam = s.camera
        assert 450 <= cam.height_mm <= 1000
        assert 59.5 <= cam.hfov_deg <= 70.5, s.id   # the lens drawn 60-70, to rounding
        assert cam.tilt_deg <= 12.5
        assert cam.dist[0] < 0, "barrel distortion"


def test_touching_graph_is_the_engines_and_the_field_is_one_island(
        scenes: list[SceneTruth]) -> None:
    """infinifield.md, Build the field: every block touches another, no islands."""
    for s in scenes:
        assert s.engine_touching() == s.touching, (
            f"{s.id}: the stored touching pairs are not the engine's (did contacts.py change?"
            " rewrite the truth: python -m vision.devtools.render_table --truth-only ...)")
        if s.role == "before":
            seen = {next(iter(s.blocks))}
            todo = list(seen)
            while todo:
                a = todo.pop()
                for pair in s.touching:
                    if a in pair:
                        (b,) = pair - {a}
                        if b not in seen:
                            seen.add(b)
                            todo.append(b)
            assert seen == set(s.blocks), f"{s.id}: the field is split into islands"
        for p in s.pawns:
            assert p.block in s.blocks
            assert p.base_mm[2] == pytest.approx(-s.blocks[p.block].top_mm)


def test_after_images_differ_by_exactly_the_labelled_action(scenes: list[SceneTruth]) -> None:
    """infinifield.md, Chase-and-capture 6 (move to an adjoining block) and 7 (removal)."""
    found = pairs(scenes)
    assert found
    for before, after in found:
        action = after.action
        assert action is not None
        assert after.camera.to_json()["K"] == before.camera.to_json()["K"]
        if action["kind"] == "remove":
            assert set(before.blocks) - set(after.blocks) == {action["block"]}
            assert set(after.blocks) <= set(before.blocks)
            fld = build_field(before.engine_blocks())
            occupied = {p.block for p in before.pawns}
            assert action["block"] in removable_blocks(fld, (), occupied), after.id
        else:
            assert set(before.blocks) == set(after.blocks)
            was = {p.colour: p.block for p in before.pawns}
            now = {p.colour: p.block for p in after.pawns}
            changed = {c for c in was if was[c] != now.get(c)}
            assert changed == {action["pawn"]}
            assert was[action["pawn"]] == action["from"] and now[action["pawn"]] == action["to"]
            assert frozenset((action["from"], action["to"])) in before.touching


def test_the_images_show_what_the_truth_says(scenes: list[SceneTruth]) -> None:
    """Markers found by ArUco sit where labelled; visible block tops have their colour."""
    centre_errors = []
    checked = 0
    for s in scenes:
        img = s.image()
        for mid, corners in detect_markers(img).items():
            if mid in s.markers_px:
                centre_errors.append(np.linalg.norm(corners.mean(0) - s.markers_px[mid].mean(0)))
        if s.lighting == "dim":
            continue
        for b in s.blocks.values():
            if b.top_visible < 1.0 or b.colour == "white":
                continue
            poly = b.top_corners_px
            inner = (poly - poly.mean(0)) * 0.5 + poly.mean(0)
            mask = np.zeros(img.shape[:2], np.uint8)
            cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 1)
            if any(p.block == b.id for p in s.pawns) or mask.sum() < 20:
                continue
            bb, gg, rr = (float(v) for v in cv2.mean(img, mask)[:3])
            total = bb + gg + rr
            if total < 30 or min(bb, gg, rr) > 110:  # deep in shadow, or veiled by glare
                continue
            b_, g_, r_ = bb / total, gg / total, rr / total
            ok = {"red": r_ > 0.45 and r_ > g_ + 0.15,
                  "yellow": r_ > b_ + 0.07 and g_ > b_ + 0.05,
                  "blue": b_ > r_}[b.colour]
            assert ok, f"{s.id} {b.id} ({b.colour}) shows BGR {bb:.0f},{gg:.0f},{rr:.0f}"
            checked += 1
    assert checked >= 10 * len(scenes) // 2, f"only {checked} block tops checked"
    assert len(centre_errors) >= 20
    assert max(centre_errors) < 1.0, f"marker centre off by {max(centre_errors):.2f} px"


def test_loader_names_the_file_and_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "f000_before.json"
    bad.write_text("{\n  \"format\": \"table3d/1\",\n  oops\n}", encoding="utf-8")
    with pytest.raises(TruthError, match=r"f000_before\.json: line 3"):
        load_scene(bad)
    good = json.loads(next(DEFAULT_DIR.glob("f*_before.json")).read_text(encoding="utf-8"))
    del good["camera"]["K"]
    bad.write_text(json.dumps(good), encoding="utf-8")
    with pytest.raises(TruthError, match=r"f000_before\.json: camera: missing key 'K'"):
        load_scene(bad)
    with pytest.raises(TruthError, match="split 'train'"):
        next(iter_scenes(DEFAULT_DIR, split="train"))


def test_plans_are_fixed_by_their_seed() -> None:
    a, b = plan_family(5), plan_family(5)
    assert a.blocks == b.blocks
    assert np.allclose(a.camera.tvec, b.camera.tvec)
    assert CameraTruth.look_down(600.0).project([[300.0, 225.0, 0.0]])[0] == \
        pytest.approx([319.5, 239.5])


def test_level_study_plans_crowd_second_level_tops_without_ambiguity() -> None:
    """The level network's training fields: 5-8 blocks on others, mostly towers, one image.

    Every top rests on blocks of the level below it (infinifield.md pictures 1-2: a bridge
    half on each of two touching blocks, a tower on one), and the test families' plans are
    not changed by the option (their shipped truth still matches them).
    """
    towers = bridges = 0
    for n in range(5000, 5012):
        plan = plan_family(n, level_study=True)
        assert list(plan.images) == ["before"] and plan.kind == "stacked"
        assert plan.camera.size == (640, 480)
        by_id = {b.id: b for b in plan.blocks}
        tops = [b for b in plan.blocks if b.rests_on]
        assert 5 <= len(tops) <= 8
        for t in tops:
            assert t.level == 2 and all(by_id[r].level == 1 for r in t.rests_on)
        towers += sum(len(t.rests_on) == 1 for t in tops)
        bridges += sum(len(t.rests_on) == 2 for t in tops)
    assert towers > bridges > 0
    shipped = json.loads((DEFAULT_DIR / "f001_before.json").read_text(encoding="utf-8"))
    assert sorted(b.id for b in plan_family(1).blocks) == sorted(
        b["id"] for b in shipped["blocks"])


def test_new_families_stack_as_a_builder_following_the_official_rules_does() -> None:
    """infinifield.md, official field-building rules, last bullet: blocks not meant to touch
    stand "clearly apart (half-inch or more)". From LEVELS_CLEAR_FROM on, a block a level up
    meets one a level below along an edge (within the engine's 2 mm) or stands clearly apart,
    as pairs on one level always did; towers are still planned (set down again until clear)
    and bridges sit off their supports' middle, as far as leaves each support room for a
    pawn ("Build the field" step 1: no support of a bridge breaks it). The shipped families
    keep their first plans, whose pairs a level apart could fall in the unclear band."""
    def kinds(numbers: range) -> tuple[dict[str, int], int, list[float]]:
        counts = {"touching": 0, "unclear": 0}
        towers, off = 0, []
        for n in numbers:
            plan = plan_family(n)
            if plan.kind != "stacked":
                continue
            by_id = {b.id: b for b in plan.blocks}
            for pair in near_pairs([b.engine_block() for b in plan.blocks]):
                if pair.side_by_side or pair.stacked:
                    continue
                counts["unclear" if pair.unclear else "touching"] += pair.touching or pair.unclear
            for top in plan.blocks:
                towers += len(top.rests_on) == 1
                if len(top.rests_on) == 2:
                    a, b = (by_id[r].centre for r in top.rests_on)
                    off.append(float(np.hypot(top.centre[0] - (a[0] + b[0]) / 2,
                                              top.centre[1] - (a[1] + b[1]) / 2)))
            bases = {b.rests_on[0] for b in plan.blocks if len(b.rests_on) == 1}
            field = build_field([b.engine_block() for b in plan.blocks])
            roomless = {bid for v in check_field(field, "quickstart") if v.code == "no_room"
                        for bid in v.blocks[:1]}
            assert roomless <= bases, f"{plan.family}: no room for a pawn on {roomless - bases}"
        return counts, towers, off

    new, new_towers, new_off = kinds(range(LEVELS_CLEAR_FROM, LEVELS_CLEAR_FROM + 40))
    old, old_towers, old_off = kinds(range(100, 140))   # centred bridges: room too
    assert new["unclear"] == 0 and new["touching"] > 50
    assert old["unclear"] > 0 and max(old_off) < 1e-9
    assert new_towers >= 0.6 * old_towers > 0
    assert max(new_off) > 1.0 and max(new_off) <= 1.5 + 1e-9
    assert plan_family(1).blocks == plan_family(1).blocks
    square = BlockPlan("W1", "white", (0.0, 0.0), 0.0)
    assert outline_clearance(square, BlockPlan("Y1", "yellow", (41.0, 41.0), 45.0)) == \
        pytest.approx((82.0 - 20.0 * np.sqrt(2) - 40.0) / np.sqrt(2), abs=1e-6)


@pytest.mark.skipif(importlib.util.find_spec("bpy") is None,
                    reason="bpy (the optional [render] extra) is not installed")
def test_render_smoke(tmp_path: Path) -> None:
    """A tiny render through Blender: the image and its truth agree on the markers."""
    import io

    from vision.devtools.render_table import render_family

    plan = plan_family(0, size=(320, 240))
    plan = type(plan)(**{**plan.__dict__,
                         "images": {"before": plan.images["before"]}})
    written = render_family(plan, tmp_path, samples=2, log=io.StringIO())
    assert written == ["f000_before"]
    s = load_scene(tmp_path / "f000_before.json")
    img = s.image()
    assert img.shape == (240, 320, 3)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(float)
    for mid, corners in s.markers_px.items():
        # the marker's centre is dark ink or white paper, its paper margin is bright
        paper = np.mean([grey[round(y), round(x)]
                         for x, y in (corners - corners.mean(0)) * 1.25 + corners.mean(0)])
        assert paper > np.median(grey), f"marker {mid}: no paper where labelled"


@pytest.mark.parametrize("name", ["vision.devtools.table3d_truth",
                                  "vision.devtools.table3d_scene",
                                  "vision.devtools.photo_post"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
