"""``infinite-vision`` commands and the shipped sample footage (issue 7, "Test scenes")."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from vision.cli import main
from vision.recording import SAMPLES_DIR, sample_story
from vision.render import SceneSpec, render_scene


def test_calibrate_then_observe_with_the_saved_calibration(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture) -> None:
    scene = render_scene(SceneSpec(seed=31))
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), scene.image)
    calib = tmp_path / "table.json"
    assert main(["calibrate", str(image), "--out", str(calib), "--learn-palette"]) == 0
    assert "palette" in json.loads(calib.read_text())
    capsys.readouterr()
    assert main(["observe", str(image), "--calibration", str(calib), "--json",
                 "--field-toml", str(tmp_path / "field.toml")]) == 0
    seen = json.loads(capsys.readouterr().out)
    assert sorted(b["colour"] for b in seen["blocks"]) == sorted(
        b.colour for b in scene.field.blocks)
    assert len(seen["touching"]) == len(scene.touching)
    assert (tmp_path / "field.toml").read_text().count("[[blocks]]") == len(scene.field.blocks)


def test_saved_calibration_is_checked_against_a_new_view(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture) -> None:
    same, moved = tmp_path / "same.png", tmp_path / "moved.png"
    cv2.imwrite(str(same), render_scene(SceneSpec(seed=33)).image)
    cv2.imwrite(str(moved), render_scene(SceneSpec(seed=34)).image)   # another camera pose
    calib = tmp_path / "table.json"
    assert main(["calibrate", str(same), "--out", str(calib)]) == 0
    assert main(["check", str(calib), str(same)]) == 0
    assert "still good" in capsys.readouterr().out
    assert main(["check", str(calib), str(moved)]) == 1
    assert "moved: recalibrate" in capsys.readouterr().out


def test_field_check_failure_sets_exit_status_one(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture) -> None:
    """infinifield.md "Official field-building rules": a random scatter breaks them."""
    image = tmp_path / "scatter.png"
    cv2.imwrite(str(image), render_scene(SceneSpec(seed=32)).image)
    assert main(["observe", str(image), "--check", "official"]) == 1
    assert "field check:" in capsys.readouterr().out


def test_unreadable_image_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "x.png").write_text("not an image")
    assert main(["observe", str(tmp_path / "x.png")]) == 2
    assert "x.png: not a readable image" in capsys.readouterr().err


def test_sample_footage_replays_into_the_scripted_actions(capsys: pytest.CaptureFixture) -> None:
    """infinifield.md "Select starting positions" step 2, "Chase-and-capture" steps 6-7."""
    folder = SAMPLES_DIR
    frames = sorted(folder.glob("*.jpg"))
    assert [f.stem for f in frames] == [name for name, *_ in sample_story()]
    assert sum(f.stat().st_size for f in folder.iterdir() if f.is_file()) < 400_000
    assert main(["watch", str(folder), "--setup", str(folder / "field.toml"),
                 "--model", "flat"]) == 0
    out = capsys.readouterr().out
    assert "record: start Ann W1; start Ben W4; move Ann W1 B1; move Ben W4 Y5" in out
    assert "remove Ann R4" in out and "refused" in out
