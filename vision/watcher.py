"""The camera at the referee's side: still views in, candidate actions proposed to a session.

:class:`TableWatcher` is fed frames (from :class:`~vision.grabber.FrameGrabber` or a replay),
waits for a still view without hands, observes it, and proposes each candidate action to the
session with ``source="camera"``. The session's engine accepts or refuses; a refusal
publishes an ``illegal`` event, which the outputs turn into the buzzer. A refused candidate is
not proposed again until the table changes, so the buzzer sounds once per mistake.

Example:
    >>> TableWatcher.__name__
    'TableWatcher'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vision.calibration import Calibration, CalibrationError, calibrate
from vision.observe import Observation, ObserveConfig, observe
from vision.palette import Palette
from vision.pose import (
    DRIFT_LIMIT_PX,
    DriftCheck,
    PoseError,
    TablePose,
    find_markers_near,
    table_pose,
)
from vision.readers.table_views import TableViews
from vision.readers.verify import PlayCheck
from vision.stability import StabilityDetector
from vision.tracker import Candidate, candidate_actions, candidate_actions_3d


@dataclass
class WatchReport:
    """What one frame led to.

    Attributes:
        still: the view was still.
        observation: the observation made (None when the view was not still, or when the
            camera model is used: see ``check``).
        check: with the camera model, every expected block's state (seen, gone, hidden,
            covered).
        drift_px: with the camera model, how far the markers are from where the pose puts
            them.
        proposed: ``(candidate, verdict)`` for every action proposed to the session.
        status: ``"moving"``, ``"hands"``, ``"recalibrated"``, ``"markers lost"`` or ``"ok"``.
    """

    still: bool
    observation: Observation | None = None
    proposed: list[tuple[Candidate, Any]] = field(default_factory=list)
    check: PlayCheck | None = None
    drift_px: float = 0.0
    status: str = "moving"


MAX_ACTIONS_PER_VIEW = 8
"""At most this many actions are read from one still view (a move and a removal, say)."""


class TableWatcher:
    """Feeds a session with what the camera sees.

    Args:
        session: a :class:`companion.session.Session` playing Infinifield.
        calib: the table calibration.
        config: observation settings.
        owners: pawn colour -> player already known (else learnt from ``start`` actions).
        stability: the still-view detector (default: 5 still frames).
        pose: the camera above the table (:mod:`vision.pose`): when given, every expected
            block is checked where the camera model puts its top (blocks have height,
            stacks and towers are understood); without it, the table-plane reader.
        palette: the colours learnt at set-up (with ``pose``; default: the config's).
        reference: with ``pose``, the views of a frame that shows every block of the
            session's field (the set-up photo the field was read from and confirmed on);
            later still views that show every expected block take its place.
    """

    def __init__(self, session: Any, calib: Calibration, config: ObserveConfig | None = None,
                 owners: Mapping[str, str] | None = None,
                 stability: StabilityDetector | None = None,
                 pose: TablePose | None = None, palette: Palette | None = None,
                 reference: TableViews | None = None) -> None:
        self.session = session
        self.calib = calib
        self.config = config or ObserveConfig()
        self.owners: dict[str, str] = dict(owners or {})
        self.stability = stability or StabilityDetector()
        self.pose = pose
        self.palette = palette or self.config.palette
        self._refused: set[str] = set()
        self._drift: DriftCheck | None = None
        # the last still view that showed every block the engine expects (camera model),
        # and the field it showed: a new round's field is compared with none of its views
        self._reference: TableViews | None = reference
        self._reference_field: Any = session.state.field if reference is not None else None

    def use_reference(self, views: TableViews) -> None:
        """Compare later views with ``views``, a frame showing every block now in play.

        The set-up photo the field was read from and confirmed on.
        """
        self._reference = views
        self._reference_field = self.session.state.field

    def feed(self, frame: np.ndarray) -> WatchReport:
        """Take one frame; observe and propose when the view is still and clear."""
        if not self.stability.update(frame):
            return WatchReport(False)
        if self.pose is not None:
            return self._feed_3d(frame, self.pose)
        obs = observe(frame, self.calib, self.config)
        report = WatchReport(True, obs, status="ok")
        if obs.hands_in_view:
            report.status = "hands"
            return report
        if obs.needs_recalibration:
            try:
                self.calib = calibrate(frame, self.calib.layout)
            except CalibrationError:
                report.status = "markers lost"
                return report
            obs = observe(frame, self.calib, self.config)
            report.observation = obs
            report.status = "recalibrated"
        self._propose(obs, report)
        return report

    def _feed_3d(self, frame: np.ndarray, pose: TablePose) -> WatchReport:
        """A still frame through the camera model: drift check, block check, proposals."""
        report = WatchReport(True, status="ok")
        quick = self._drift.drift_px(frame) if self._drift is not None else None
        if quick is not None and quick <= DRIFT_LIMIT_PX:
            drift = quick
        else:
            expected = {i: pose.project([[x, y, 0.0] for x, y in
                                         pose.layout.marker_corners_mm(i)])
                        for i in pose.layout.marker_ids}
            drift = pose.drift_px(find_markers_near(frame, expected))
            self._drift = None
        if drift > DRIFT_LIMIT_PX:
            intrinsics = None if pose.intrinsics.source == "estimated" else pose.intrinsics
            try:
                pose = table_pose(frame, intrinsics, pose.layout)
            except PoseError:
                report.status = "markers lost"
                report.drift_px = drift
                return report
            self.pose = pose
            report.status = "recalibrated"
        report.drift_px = drift
        if self._drift is None:
            # markers checked by detection in this frame: later frames compare against it
            self._drift = DriftCheck(frame, pose)
        views = TableViews(frame, pose, self.palette)
        self._propose(None, report, views)
        if report.check is not None and report.check.hands_in_view:
            report.status = "hands"
        elif report.check is not None and all(
                c.status in ("seen", "covered") for c in report.check.blocks.values()):
            # it confirms the engine's field: later views are compared with it, so a top
            # its colour alone does not show (in a tower's shadow, under glare) is still
            # seen there; a view missing a block (a removal refused) never becomes it
            self._reference = views
            self._reference_field = self.session.state.field
        return report

    def _candidates(self, obs: Observation | None, report: WatchReport,
                    views: TableViews | None) -> list[Candidate]:
        if views is not None:
            state = self.session.state
            reference = self._reference if self._reference_field == state.field else None
            candidates, report.check = candidate_actions_3d(state, views, self.owners,
                                                            reference)
            return candidates
        assert obs is not None
        return candidate_actions(self.session.state, obs, self.owners)

    def _propose(self, obs: Observation | None, report: WatchReport,
                 views: TableViews | None = None) -> None:
        """Propose candidates one at a time, re-reading the state after each acceptance."""
        refused_now: set[str] = set()
        for _ in range(MAX_ACTIONS_PER_VIEW):
            candidates = self._candidates(obs, report, views)
            pending = [c for c in candidates if c.text not in refused_now]
            refused_now |= {c.text for c in pending if c.text in self._refused}
            pending = [c for c in pending if c.text not in self._refused]
            if not pending:
                break
            candidate = pending[0]
            verdict = self.session.propose(candidate.text, source="camera")
            report.proposed.append((candidate, verdict))
            if verdict.legal:
                if candidate.binds is not None:
                    self.owners[candidate.binds[0]] = candidate.binds[1]
            else:
                refused_now.add(candidate.text)
                self._refused.add(candidate.text)
        # forget refusals the table no longer shows, so a later repeat buzzes again
        self._refused &= refused_now
