"""Marked miniature bases (issue 7, "Dice and bases") and the printable markers sheet."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration import calibrate
from vision.layout import INCH_MM
from vision.markers import detect_markers
from vision.readers.bases import distances, find_bases
from vision.render import BaseSpec, FieldSpec, SceneSpec, render_scene
from vision.sheet import sheet_image, write_sheet


@pytest.mark.parametrize("seed,size", [(1, (640, 480)), (2, (1280, 720)), (3, (640, 480))])
def test_distances_between_bases_are_within_a_tenth_of_an_inch(seed: int,
                                                               size: tuple[int, int]) -> None:
    rng = random.Random(seed)
    spots: list[tuple[float, float]] = []
    while len(spots) < 4:
        p = (rng.uniform(120, 480), rng.uniform(100, 350))
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) > 40 for q in spots):
            spots.append(p)
    bases = tuple(BaseSpec(10 + i, p) for i, p in enumerate(spots))
    scene = render_scene(SceneSpec(seed=seed, size=size, field=FieldSpec(()), bases=bases))
    seen = find_bases(scene.image, calibrate(scene.image))
    assert [b.id for b in seen] == [10, 11, 12, 13]
    for (a, b), d in distances(seen).items():
        (xa, ya), (xb, yb) = spots[a - 10], spots[b - 10]
        true_in = np.hypot(xa - xb, ya - yb) / INCH_MM
        assert abs(d.centre_in - true_in) <= 0.1
        assert d.edge_in == pytest.approx(max(0.0, d.centre_in - 25.0 / INCH_MM))


def test_sheet_markers_are_found_and_printed_to_scale(tmp_path: Path) -> None:
    page = sheet_image(base_ids=range(10, 14), dpi=300)
    found = detect_markers(page, min_perimeter_rate=0.01)
    assert sorted(found) == [0, 1, 2, 3, 10, 11, 12, 13]
    side_px = np.linalg.norm(found[0][1] - found[0][0])
    assert side_px / 300 * 25.4 == pytest.approx(40.0, abs=0.3)     # 40 mm marker
    pdf = write_sheet(tmp_path / "sheet.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 595.28 841.89]" in pdf                    # exactly A4
    png = write_sheet(tmp_path / "sheet.png")
    assert cv2.imread(str(png)).shape[:2] == (3508, 2480)
    with pytest.raises(ValueError, match=r"sheet.svg: the sheet is written as .pdf or .png"):
        write_sheet(tmp_path / "sheet.svg")
