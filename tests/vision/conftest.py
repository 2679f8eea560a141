"""Shared fixtures: where the real photos live (skip cleanly when they are absent)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# shared/ stands beside the checkout (../shared/data); INFINITE_SHARED_DATA overrides it.
SHARED_DATA = Path(os.environ.get("INFINITE_SHARED_DATA",
                                  Path(__file__).resolve().parents[3] / "shared" / "data"))


@pytest.fixture(scope="session")
def aruco_dir() -> Path:
    folder = SHARED_DATA / "aruco"
    if not (folder / "labels.json").is_file():
        pytest.skip(f"real ArUco photos not available at {folder}")
    return folder


@pytest.fixture(scope="session")
def dice_dir() -> Path:
    folder = SHARED_DATA / "dice" / "train"
    if not (folder / "labels.json").is_file():
        pytest.skip(f"real dice photos not available at {folder}")
    return folder
