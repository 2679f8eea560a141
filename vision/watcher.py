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
from vision.stability import StabilityDetector
from vision.tracker import Candidate, candidate_actions


@dataclass
class WatchReport:
    """What one frame led to.

    Attributes:
        still: the view was still.
        observation: the observation made (None when the view was not still).
        proposed: ``(candidate, verdict)`` for every action proposed to the session.
        status: ``"moving"``, ``"hands"``, ``"recalibrated"``, ``"markers lost"`` or ``"ok"``.
    """

    still: bool
    observation: Observation | None = None
    proposed: list[tuple[Candidate, Any]] = field(default_factory=list)
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
    """

    def __init__(self, session: Any, calib: Calibration, config: ObserveConfig | None = None,
                 owners: Mapping[str, str] | None = None,
                 stability: StabilityDetector | None = None) -> None:
        self.session = session
        self.calib = calib
        self.config = config or ObserveConfig()
        self.owners: dict[str, str] = dict(owners or {})
        self.stability = stability or StabilityDetector()
        self._refused: set[str] = set()

    def feed(self, frame: np.ndarray) -> WatchReport:
        """Take one frame; observe and propose when the view is still and clear."""
        if not self.stability.update(frame):
            return WatchReport(False)
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

    def _propose(self, obs: Observation, report: WatchReport) -> None:
        """Propose candidates one at a time, re-reading the state after each acceptance."""
        refused_now: set[str] = set()
        for _ in range(MAX_ACTIONS_PER_VIEW):
            candidates = candidate_actions(self.session.state, obs, self.owners)
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
