"""The camera as a player's hands: still views of the table become proposed actions.

For an Infinifield game, frames (from the Pi camera on its grabber thread, or the recorded
footage on the simulation panel) are fed *on the main loop* to vision's
:class:`~vision.watcher.TableWatcher`, which observes still views and proposes the actions
it reads (``start``, ``move``, ``remove``) with source ``camera``. The engine decides; every
verdict lands in the event log and the banner like a tap would, and a refusal sounds the
buzzer once per mistake.

A live camera (:class:`CameraFeed`) watches through the camera model (``model = "3d"``,
:mod:`vision.pose`): the camera's pose from the table markers, its intrinsics from
``table-calibration.json`` in the app's data folder when that file names a camera
(``infinite-vision calibrate --camera pi-camera-2``), else estimated from the markers; the
colours are learnt from the first frame. The recorded footage of the simulation panel is
drawn flat, so it is watched in the table plane (``model = "flat"``).

Example:
    >>> from companion.app.controller import TableController
    >>> from companion.app.journal_shelf import JournalShelf
    >>> import pathlib, tempfile
    >>> watch = CameraWatch(TableController(JournalShelf(pathlib.Path(tempfile.mkdtemp()))))
    >>> watch.status
    'no game watched'
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from companion.app.controller import TableController

WATCHED_GAMES = frozenset({"infinifield"})
"""Games whose actions the camera can read."""


def sample_game_sources() -> dict[str, tuple[str, str]] | None:
    """The field of the recorded footage (``vision.samples/field.toml``), as setup sources."""
    try:
        path = Path(str(resources.files("vision.samples").joinpath("field.toml")))
    except (ModuleNotFoundError, TypeError):
        return None
    if not path.is_file():
        return None
    return {"setup": ("vision.samples/field.toml", path.read_text(encoding="utf-8"))}


class CameraFeed:
    """A live camera on vision's grabber thread, watched from the main loop.

    The grabber keeps only the newest frame; :meth:`poll` (called by a main-loop timer)
    feeds a frame it has not seen yet to the :class:`CameraWatch`. Status changes
    (``camera_lost``...) come from the grabber's thread and are handed to ``post``.
    """

    def __init__(self, spec: str, watch: CameraWatch, post: Any,
                 on_status: Any = None) -> None:
        from vision.capture import open_source
        from vision.grabber import FrameGrabber

        self.watch = watch
        watch.model = "3d"          # a real camera over a real, three-dimensional table
        self.last_status = ""
        self._seen = 0
        self._on_status = on_status
        self.grabber = FrameGrabber(open_source(spec),
                                    on_status=lambda kind, message: post(self._status, kind,
                                                                         message))

    def start(self) -> CameraFeed:
        """Start grabbing frames."""
        self.grabber.start()
        return self

    def _status(self, kind: str, message: str) -> None:
        self.last_status = f"{kind}: {message}"
        if self._on_status is not None:
            self._on_status(self.last_status)

    def poll(self) -> Any:
        """Feed the newest frame, if it is new, to the watcher (main loop only)."""
        number, frame = self.grabber.latest()
        if frame is None or number == self._seen:
            return None
        self._seen = number
        return self.watch.feed(frame)

    def close(self) -> None:
        """Stop the grabber. Safe to call more than once."""
        self.grabber.close()


class CameraWatch:
    """Feeds camera frames of the open game to a table watcher.

    Attributes:
        status: what the camera sees: ``moving``, ``hands``, ``ok``, ``markers lost``...
        proposed: how many actions the camera proposed so far.
    """

    def __init__(self, table: TableController, model: str = "flat") -> None:
        self.table = table
        self.status = "no game watched"
        self.proposed = 0
        self.model = model
        self._watcher: Any = None
        # the set-up photo the next match's field was read from (camera model): the play
        # check's first reference view
        self.reference: Any = None

    def use_reference(self, views: Any) -> None:
        """Give the play check the set-up photo of the field now in play (camera model).

        The watcher of this match compares later views with it, or the next match's.
        """
        watcher = self._watcher
        if watcher is not None and watcher.session is self.table.session:
            watcher.use_reference(views)
        else:
            self.reference = views

    def calibration_path(self) -> Path:
        """Where a saved table calibration (naming the camera) is looked for."""
        return Path(self.table.shelf.directory).parent / "table-calibration.json"

    def _new_watcher(self, session: Any, frame: np.ndarray) -> Any:
        from vision.calibration import calibrate_from_markers
        from vision.pose import find_table_markers
        from vision.watcher import TableWatcher

        calib = calibrate_from_markers(find_table_markers(frame),
                                       (frame.shape[1], frame.shape[0]))
        reference, self.reference = self.reference, None    # for this match only
        if self.model != "3d":
            return TableWatcher(session, calib)
        from vision.calibration import load_calibration
        from vision.camera_model import camera_named
        from vision.palette import default_palette
        from vision.pose import table_pose
        from vision.readers.table_views import TableViews, learn_palette

        intrinsics = None
        path = self.calibration_path()
        if path.is_file():
            saved = load_calibration(path)
            if saved.camera:
                intrinsics = camera_named(saved.camera, path.parent)
        pose = table_pose(frame, intrinsics)
        palette = learn_palette(TableViews(frame, pose, default_palette()))
        return TableWatcher(session, calib, pose=pose, palette=palette, reference=reference)

    def feed(self, frame: np.ndarray) -> Any:
        """Take one BGR frame (main loop only); returns vision's report, or ``None``."""
        session = self.table.session
        if session is None or session.game.name not in WATCHED_GAMES or session.finished:
            self.status = "no game watched"
            return None
        if self._watcher is None or self._watcher.session is not session:
            try:
                self._watcher = self._new_watcher(session, frame)
            except ValueError as error:      # CalibrationError, PoseError, CameraModelError
                self.status = f"markers lost: {error}"
                return None
        report = self._watcher.feed(frame)
        self.status = report.status
        for _candidate, verdict in report.proposed:
            self.proposed += 1
            self.table.record_external(verdict)
        return report
