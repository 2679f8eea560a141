"""Colour classes in CIELAB, configurable and learnt from the table (issue 7, "Robust to
lighting")."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.palette import (
    UNKNOWN,
    adapt_palette,
    bgr_to_lab,
    default_palette,
    load_palette,
    palette_from_json,
)


def test_default_palette_names_the_infinifield_colours_and_rejects_skin() -> None:
    pal = default_palette()
    assert pal.classify_bgr((232, 236, 238)) == "white"
    assert pal.classify_bgr((40, 200, 235)) == "yellow"
    assert pal.classify_bgr((45, 40, 195)) == "red"
    assert pal.classify_bgr((175, 85, 25)) == "blue"
    assert pal.classify_bgr((120, 150, 205)) is None          # a hand
    dim_white = (130, 132, 134)                                # white at ~55 % light
    assert pal.classify_bgr(dim_white) != "white"             # why frames are balanced first


def test_palette_file_is_read_and_its_mistakes_are_named(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"classes": {
        "green": {"kind": "block", "letter": "G", "bgr": [40, 160, 40]},
        "felt": {"kind": "table", "lab": [30, 0, 0]}}}))
    pal = load_palette(path)
    assert [c.name for c in pal.classes] == ["green", "felt"]
    assert pal.classify_bgr((45, 150, 45)) == "green"
    with pytest.raises(ValueError, match=r"classes.green.kind: 'brick' is not one of"):
        palette_from_json({"classes": {"green": {"kind": "brick", "lab": [1, 2, 3]}}})
    with pytest.raises(ValueError, match=r"classes.green: needs 'lab'"):
        palette_from_json({"classes": {"green": {"kind": "block"}}})
    path.write_text("{\n oops")
    with pytest.raises(ValueError, match=r"set.json: line 2"):
        load_palette(path)


def test_learning_from_the_table_moves_a_class_onto_its_real_colour() -> None:
    paler_yellow = (90, 210, 225)                      # this set's yellow is paler
    image = np.full((40, 40, 3), paler_yellow, np.uint8)
    before = default_palette()
    after = adapt_palette(before, image, min_pixels=100, blend=1.0)
    target = bgr_to_lab(paler_yellow)
    i = before.index("yellow")
    assert np.linalg.norm(np.array(after.classes[i].lab) - target) < 1.0
    assert np.linalg.norm(np.array(before.classes[i].lab) - target) > 5.0
    assert after.classes[before.index("red")] == before.classes[before.index("red")]
    assert int(after.classify(image)[0, 0]) == i != UNKNOWN
