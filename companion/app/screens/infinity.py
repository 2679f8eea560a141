"""Infinity's referee screen.

Round and Order pool, troopers with Wounds, and the exact odds of the declared exchange
before its dice are rolled.

Distances (issue 5): "Distance" opens a numeric keypad for the inches the players measured;
"From camera" measures base to base between the troopers' marked bases (off the main loop,
:mod:`companion.app.camera_ranges`). The action panel then lists each BS Attack and ARO at
the measured distance (:mod:`companion.app.views.infinity_range`), and the screen names the
range band and BS modifier of each weapon from its data. A measurement holds until a
trooper moves (an accepted ``move``) or a new one is taken.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import NumericProperty, StringProperty

from companion.app.base_markers import Pair, pair
from companion.app.camera_ranges import RangesRead
from companion.app.kvload import load_kv_beside
from companion.app.screens.referee import RefereeScreen
from companion.app.views.infinity_range import measured_texts, pair_bands, weapon_bands
from companion.app.views.infinity_view import infinity_view
from companion.app.widgets.distance_keypad import DistanceKeypad
from companion.games.infinity.actions import Move
from companion.session import Session

PIPS_FONT = "DejaVuSans"
"""Kivy's bundled font with the filled and hollow circles of the Wound pips."""


class InfinityScreen(RefereeScreen):
    """Troopers and odds on the left, actions on the right.

    Attributes:
        turn_text: round, active player, Orders left.
        troopers_text: one line per visible trooper (markup), by player.
        odds_text: the declared exchange's odds, or empty.
        typed_distance: the inches keyed in for the next attack (0: none).
        range_text: the measurement and the bands it falls in, or empty.
        distance_keypad: the distance keypad while it is open.
    """

    turn_text = StringProperty("")
    troopers_text = StringProperty("")
    odds_text = StringProperty("")
    typed_distance = NumericProperty(0)
    range_text = StringProperty("")
    distance_keypad: DistanceKeypad | None = None

    def on_kv_post(self, base_widget: Any) -> None:
        """Let the action panel list attacks at the measured distance."""
        super().on_kv_post(base_widget)
        self.camera_distances: dict[Pair, float] = {}
        self._measured_at = 0
        self.ids.panel.action_filter = self.with_measurements

    def distance_of(self, shooter: str, target: str) -> float | None:
        """The measured inches between two troopers: typed first, else the camera's."""
        if self.typed_distance:
            return float(self.typed_distance)
        return self.camera_distances.get(pair(shooter, target))

    def with_measurements(self, texts: list[str]) -> list[str]:
        """The panel's actions with every measured attack at its distance."""
        session = App.get_running_app().table.session
        if session is None:
            return texts
        return measured_texts(session.state, texts, self.distance_of)

    def open_distance_keypad(self, *_args: Any) -> DistanceKeypad:
        """Key in the measured distance (inches)."""
        keypad = DistanceKeypad(on_enter=self.set_distance)
        keypad.bind(on_dismiss=self._distance_keypad_closed)
        self.distance_keypad = keypad
        keypad.open()
        return keypad

    def _measuring_now(self) -> None:
        session = App.get_running_app().table.session
        self._measured_at = len(session.record) if session is not None else 0

    def set_distance(self, inches: float) -> None:
        """Use ``inches`` for the attacks listed from now on."""
        self.typed_distance = inches
        self.camera_distances = {}
        self._measuring_now()
        self.refresh()

    def read_camera_distances(self, *_args: Any) -> None:
        """Measure between the marked bases with the camera (off the main loop)."""
        app = App.get_running_app()
        app.camera_ranges.read(app.bases_frame(), app.base_markers, self.show_camera_distances)

    def show_camera_distances(self, result: RangesRead) -> None:
        """On the main loop: use the camera's distances, or say why there are none."""
        app = App.get_running_app()
        if result.problem or not result.distances:
            self.range_text = app.tr("camera.problem", problem=result.problem) \
                if result.problem else app.tr("infinity.no_bases")
            return
        self.typed_distance = 0
        self.camera_distances = {key: round(inches, 2) for key, inches in result.distances.items()}
        self._measuring_now()
        self.refresh()

    def _forget_stale(self, session: Any) -> None:
        """A trooper moved since the measurement: it no longer holds."""
        moved = any(isinstance(entry.action, Move)
                    for entry in session.record[self._measured_at:])
        if moved or len(session.record) < self._measured_at:
            self.typed_distance = 0
            self.camera_distances = {}

    def _range_lines(self, state: Any) -> str:
        app = App.get_running_app()
        if self.typed_distance:
            lines = [app.tr("infinity.typed_distance", distance=f"{self.typed_distance:g}")]
            for band in weapon_bands(state, float(self.typed_distance)):
                lines.append(app.tr("infinity.out_of_range", weapon=band.weapon,
                                    range=f"{band.max_range:g}") if band.modifier is None
                             else app.tr("infinity.band", weapon=band.weapon,
                                         start=f"{band.start:g}", end=f"{band.end:g}",
                                         modifier=f"{band.modifier:+d}"))
            return "\n".join(lines)
        if self.camera_distances:
            pairs = [f"{p.shooter}-{p.target} {p.inches:.1f} in: {p.weapon} "
                     + ("-" if p.modifier is None else f"{p.modifier:+d}")
                     for p in pair_bands(state, self.distance_of)]
            return app.tr("infinity.camera_pairs", pairs="; ".join(pairs))
        return ""

    def redraw(self, session: Session) -> None:
        """Redraw from the session."""
        app = App.get_running_app()
        self._forget_stale(session)
        view = infinity_view(session.state)
        self.turn_text = app.tr("infinity.turn", round=view.round, rounds=view.rounds,
                                player=view.active, orders=view.orders)
        lines = []
        for player in view.players:
            lines.append(f"[b]{player}[/b]")
            for trooper in (t for t in view.troopers if t.owner == player):
                line = trooper.text(f"[font={PIPS_FONT}]{trooper.pips}[/font]")
                lines.append(f"   [s]{line}[/s]" if trooper.removed else f"   {line}")
        self.troopers_text = "\n".join(lines)
        self.odds_text = "\n".join(view.odds)
        self.range_text = self._range_lines(session.state)


    def _distance_keypad_closed(self, keypad: Any) -> None:
        if self.distance_keypad is keypad:
            self.distance_keypad = None


load_kv_beside(__file__)
