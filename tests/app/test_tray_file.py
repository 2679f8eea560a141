"""Issue 13, "A tray region": the tray's outline saved once at set-up (``tray.json`` in the
app's data folder) is what the app reads dice in; a damaged file is not a crash."""

from __future__ import annotations

import pytest

from tests.app.harness import AppDriver
from vision.readers.tray import TrayRegion

pytestmark = pytest.mark.gui


def test_the_saved_tray_outline_is_used_and_a_damaged_one_is_not_a_crash(
        driver: AppDriver) -> None:
    app = driver.app
    tray = app.options.data_dir / "tray.json"
    outline = TrayRegion(((40.0, 30.0), (600.0, 30.0), (600.0, 450.0), (40.0, 450.0)),
                         "outline")
    try:
        outline.save(tray)
        app.__dict__.pop("camera_dice", None)          # built on first use
        assert app.camera_dice.region == outline
        tray.write_text('{"corners": [[1, 2], [3', encoding="utf-8")
        app.__dict__.pop("camera_dice", None)
        assert app.camera_dice.region is None, "the whole frame is read instead"
    finally:
        tray.unlink(missing_ok=True)
        app.__dict__.pop("camera_dice", None)
