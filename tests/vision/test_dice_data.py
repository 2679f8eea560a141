"""The dice photos' corrected labels and the fixed split (issue 13: "correct them in a
project-side overrides file with the reason"; "photos held out of all training and tuning")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.devtools.dice_data import OVERRIDES, SPLIT_SEED, load_labels, load_split, make_split


def test_every_override_corrects_a_labelled_die_with_its_reason(dice_dir: Path) -> None:
    raw = json.loads((dice_dir / "labels.json").read_text())
    overrides = json.loads(OVERRIDES.read_text())["overrides"]
    assert overrides, "the audit found wrong pip counts"
    labels = load_labels(dice_dir / "labels.json")
    for entry in overrides:
        index = [d["box"] for d in raw[entry["photo"]]].index(entry["box"])
        assert raw[entry["photo"]][index]["pips"] == entry["labelled"] != entry["pips"]
        assert labels[entry["photo"]][index].pips == entry["pips"]
        assert len(entry["reason"]) > 10
    changed = sum(d.pips != r["pips"] for n in raw for d, r in zip(labels[n], raw[n],
                                                                    strict=True))
    assert changed == len(overrides)


def test_a_stale_override_is_refused_naming_the_entry(dice_dir: Path, tmp_path: Path) -> None:
    bad = tmp_path / "overrides.json"
    photo = sorted(json.loads((dice_dir / "labels.json").read_text()))[0]
    bad.write_text(json.dumps({"overrides": [
        {"photo": photo, "box": [0, 0, 1, 1], "labelled": 2, "pips": 3, "reason": "looked"}]}))
    with pytest.raises(ValueError, match=r"overrides\.json: overrides\[0\]: no die at"):
        load_labels(dice_dir / "labels.json", bad)
    bad.write_text('{"overrides": [')
    with pytest.raises(ValueError, match=r"overrides\.json: line 1: not valid JSON"):
        load_labels(dice_dir / "labels.json", bad)


def test_the_split_is_by_photo_seeded_and_recorded(dice_dir: Path) -> None:
    """The shipped file is what the seed draws; no photo is in two parts; every photo is in
    one; the held-out part is 50 photos."""
    names = list(json.loads((dice_dir / "labels.json").read_text()))
    split = load_split()
    assert split == make_split(names, seed=SPLIT_SEED)
    assert sorted(split["held_out"] + split["tune"] + split["train"]) == sorted(names)
    assert len(split["held_out"]) == 50


def test_a_split_sharing_photos_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "split.json"
    path.write_text(json.dumps({"held_out": ["a.jpg"], "tune": [], "train": ["a.jpg"]}))
    with pytest.raises(ValueError, match="'train' shares photos"):
        load_split(path)
