"""Ground truth of the photoreal table set (``tests/data/table3d``): load it, project with it.

Each rendered image ``<id>.jpg`` has ``<id>.json`` beside it (format in ``docs/vision.md``,
"Photoreal test bench"). Coordinates are in the *table frame* of :mod:`vision.layout`:
millimetres, origin at the top-left corner of the play area, x to the right and y down as the
camera sees it, and z *into* the table (right-handed), so a point ``h`` mm above the table is
``(x, y, -h)``. The camera follows OpenCV: ``x_cam = R @ x_table + t``, pixels from
``cv2.projectPoints(points, rvec, tvec, K, dist)`` with the pixel-centre convention (the
top-left pixel's centre is (0, 0)).

The set's ``split.json`` names the scene families that are held out of tuning.

Example:
    >>> cam = CameraTruth.look_down(height_mm=600.0, size=(640, 480), hfov_deg=62.0)
    >>> [round(float(v), 1) for v in cam.project([[300.0, 225.0, 0.0]])[0]]
    [319.5, 239.5]
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.layout import TableLayout

FORMAT = "table3d/1"
"""Value of the ``format`` key of every ground-truth file this module reads."""

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "tests" / "data" / "table3d"
"""Where the shipped part of the set lives in a checkout."""


class TruthError(ValueError):
    """A ground-truth file that cannot be read; the message names the file and the key."""


def table_point(x: float, y: float, height_mm: float = 0.0) -> tuple[float, float, float]:
    """The table-frame point ``height_mm`` above the table at ``(x, y)`` (z points down).

    Example:
        >>> table_point(10, 20, 40)
        (10.0, 20.0, -40.0)
    """
    return (float(x), float(y), -float(height_mm))


@dataclass(frozen=True)
class CameraTruth:
    """The exact camera of one image.

    Attributes:
        size: image (width, height) in pixels.
        K: 3x3 intrinsic matrix.
        dist: OpenCV distortion coefficients ``(k1, k2, p1, p2, k3)``.
        rvec: rotation (Rodrigues) from the table frame to the camera.
        tvec: translation (mm) from the table frame to the camera.
    """

    size: tuple[int, int]
    K: np.ndarray
    dist: np.ndarray
    rvec: np.ndarray
    tvec: np.ndarray

    @property
    def R(self) -> np.ndarray:
        """3x3 rotation, table frame to camera frame."""
        return cv2.Rodrigues(np.asarray(self.rvec, np.float64))[0]

    @property
    def position_mm(self) -> np.ndarray:
        """The camera centre in the table frame (its z is minus the height)."""
        return -self.R.T @ np.asarray(self.tvec, np.float64).reshape(3)

    @property
    def height_mm(self) -> float:
        """Height of the camera centre above the table."""
        return float(-self.position_mm[2])

    @property
    def hfov_deg(self) -> float:
        """Horizontal field of view of the pinhole (before distortion), in degrees."""
        return math.degrees(2 * math.atan(self.size[0] / 2 / float(self.K[0, 0])))

    @property
    def tilt_deg(self) -> float:
        """Angle between the optical axis and the table's normal, in degrees."""
        axis = self.R[2]
        return math.degrees(math.acos(max(-1.0, min(1.0, float(axis[2])))))

    def project(self, points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Image pixels (N, 2) of table-frame points (N, 3), lens distortion included."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 3)
        if len(pts) == 0:
            return np.zeros((0, 2))
        px, _ = cv2.projectPoints(pts, np.asarray(self.rvec, np.float64),
                                  np.asarray(self.tvec, np.float64), self.K, self.dist)
        return px.reshape(-1, 2)

    def in_front(self, points: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """Whether each table-frame point lies in front of the camera."""
        pts = np.asarray(points, np.float64).reshape(-1, 3)
        cam = pts @ self.R.T + np.asarray(self.tvec, np.float64).reshape(1, 3)
        return cam[:, 2] > 0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (with derived figures for readers who want them)."""
        return {"image_size": list(self.size), "K": np.asarray(self.K).tolist(),
                "dist": np.asarray(self.dist).reshape(-1).tolist(),
                "rvec": np.asarray(self.rvec).reshape(-1).tolist(),
                "tvec": np.asarray(self.tvec).reshape(-1).tolist(),
                "R": self.R.tolist(), "position_mm": self.position_mm.tolist(),
                "height_mm": self.height_mm, "hfov_deg": self.hfov_deg,
                "tilt_deg": self.tilt_deg}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "camera") -> CameraTruth:
        """Read :meth:`to_json` output.

        Raises:
            TruthError: naming ``where`` and the key that is missing or malformed.
        """
        try:
            size = (int(data["image_size"][0]), int(data["image_size"][1]))
            K = np.asarray(data["K"], np.float64).reshape(3, 3)
            dist = np.asarray(data["dist"], np.float64).reshape(-1)
            rvec = np.asarray(data["rvec"], np.float64).reshape(3)
            tvec = np.asarray(data["tvec"], np.float64).reshape(3)
        except KeyError as exc:
            raise TruthError(f"{where}: missing key {exc.args[0]!r}") from exc
        except (TypeError, ValueError, IndexError) as exc:
            raise TruthError(f"{where}: malformed camera ({exc})") from exc
        if dist.size not in (4, 5, 8):
            raise TruthError(f"{where}.dist: expected 4, 5 or 8 coefficients, got {dist.size}")
        return cls(size, K, dist, rvec, tvec)

    @classmethod
    def look_down(cls, height_mm: float, size: tuple[int, int] = (640, 480),
                  hfov_deg: float = 62.0, centre_mm: tuple[float, float] = (300.0, 225.0),
                  dist: Sequence[float] = (0.0, 0.0, 0.0, 0.0, 0.0)) -> CameraTruth:
        """A camera straight above ``centre_mm``, image x along table x (for examples)."""
        f = size[0] / 2 / math.tan(math.radians(hfov_deg) / 2)
        K = np.array([[f, 0, (size[0] - 1) / 2], [0, f, (size[1] - 1) / 2], [0, 0, 1.0]])
        centre = np.array([centre_mm[0], centre_mm[1], -height_mm])
        return cls(size, K, np.asarray(dist, np.float64), np.zeros(3), -centre)


def look_at_rotation(direction: Sequence[float] | np.ndarray, roll_deg: float = 0.0) -> np.ndarray:
    """World-to-camera rotation for an optical axis ``direction`` (table frame).

    The image x axis follows the table's x axis as closely as the direction allows, then turns
    by ``roll_deg`` about the optical axis.

    Example:
        >>> look_at_rotation((0, 0, 1)).round(6).tolist()
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    d = np.asarray(direction, np.float64)
    d = d / np.linalg.norm(d)
    x0 = np.array([1.0, 0.0, 0.0]) - d[0] * d
    x0 /= np.linalg.norm(x0)
    y0 = np.cross(d, x0)
    r = math.radians(roll_deg)
    x = math.cos(r) * x0 + math.sin(r) * y0
    y = np.cross(d, x)
    return np.stack([x, y, d])


@dataclass(frozen=True)
class BlockTruth:
    """One block as it stands in the scene.

    Attributes:
        id: engine-style id (``W1``).
        colour: ``white``, ``yellow``, ``red`` or ``blue``.
        level: 1 on the table, 2 resting on blocks of level 1, ...
        centre_mm: footprint centre (x, y) in the table frame.
        angle_deg: rotation of the footprint about the vertical.
        size_mm: (width, depth, height).
        bottom_mm: height of its bottom face above the table.
        rests_on: ids of the blocks it stands on.
        top_corners_mm: the top face's four corners (table frame, z negative).
        top_corners_px: those corners in the image.
        top_visible: fraction of the top face (inside the bevel) seen by the camera.
    """

    id: str
    colour: str
    level: int
    centre_mm: tuple[float, float]
    angle_deg: float
    size_mm: tuple[float, float, float]
    bottom_mm: float
    rests_on: tuple[str, ...]
    top_corners_mm: np.ndarray
    top_corners_px: np.ndarray
    top_visible: float

    @property
    def top_mm(self) -> float:
        """Height of the top face above the table (40 mm per level)."""
        return self.bottom_mm + self.size_mm[2]

    @property
    def top_centre_mm(self) -> tuple[float, float, float]:
        """Centre of the top face (table frame)."""
        return table_point(self.centre_mm[0], self.centre_mm[1], self.top_mm)


@dataclass(frozen=True)
class PawnTruth:
    """One pawn: colour, the block it stands on, where its base and head are."""

    colour: str
    block: str | None
    base_mm: tuple[float, float, float]
    height_mm: float
    head_mm: tuple[float, float, float]
    head_px: tuple[float, float]
    visible: float


@dataclass(frozen=True)
class SceneTruth:
    """Everything known about one rendered image.

    Attributes:
        id: the image's stem (``f012_before``).
        image_path: the JPEG.
        family: scene family (one field, camera and light; several images).
        role: ``before``, ``after`` or ``hand``.
        split: ``tune`` or ``holdout``.
        camera: exact intrinsics, distortion and pose.
        layout: the table layout (markers, sizes).
        blocks: every block present, by id.
        pawns: the pawns on the table.
        touching: pairs of block ids that touch (side by side, or one resting on the other),
            by the engine's own rule (``companion.games.infinifield.contacts``).
        markers_px: corners of each table marker in the image, ``{id: (4, 2)}``.
        markers_mm: the same corners in the table frame, ``{id: (4, 3)}``.
        hand: whether a hand and arm are in view.
        hand_bbox_px: their bounding box (x0, y0, x1, y1), or None.
        lighting: the lighting rig's name (``ceiling``, ``window``, ``lamp``...).
        action: for an ``after`` image, what changed since the family's ``before`` image
            (``{"kind": "remove", "block": "R2"}`` or ``{"kind": "move", "pawn": "green",
            "from": "W1", "to": "Y3"}``), else None.
        raw: the whole JSON document.
    """

    id: str
    image_path: Path
    family: str
    role: str
    split: str
    camera: CameraTruth
    layout: TableLayout
    blocks: Mapping[str, BlockTruth]
    pawns: tuple[PawnTruth, ...]
    touching: frozenset[frozenset[str]]
    markers_px: Mapping[int, np.ndarray]
    markers_mm: Mapping[int, np.ndarray]
    hand: bool
    hand_bbox_px: tuple[float, float, float, float] | None
    lighting: str
    action: Mapping[str, Any] | None
    raw: Mapping[str, Any] = field(repr=False)

    def image(self) -> np.ndarray:
        """The BGR image.

        Raises:
            TruthError: the image file is missing or unreadable.
        """
        img = cv2.imread(str(self.image_path), cv2.IMREAD_COLOR)
        if img is None:
            raise TruthError(f"{self.image_path}: missing or not an image")
        return img

    def engine_blocks(self) -> list[Any]:
        """The blocks as the Infinifield engine's :class:`Block` objects."""
        from companion.games.infinifield.field import Block

        return [Block.square(b.id, b.colour, b.centre_mm, b.size_mm[:2], b.angle_deg,
                             b.size_mm[2], b.rests_on) for b in self.blocks.values()]

    def engine_touching(self) -> frozenset[frozenset[str]]:
        """Touching pairs by the engine's rule as it is now.

        ``touching`` was computed by the rule at render time; the two differ only if the
        rule changed since.
        """
        from companion.games.infinifield.field import build_field

        fld = build_field(self.engine_blocks())
        return frozenset(frozenset((a, b)) for a in fld.by_id for b in fld.neighbours(a))

    @property
    def stacked(self) -> bool:
        """Whether any block stands on another."""
        return any(b.level > 1 for b in self.blocks.values())


def _floats(value: Any, shape: tuple[int, ...], where: str) -> np.ndarray:
    try:
        arr = np.asarray(value, np.float64)
        return arr.reshape(shape)
    except (TypeError, ValueError) as exc:
        raise TruthError(f"{where}: expected numbers shaped {shape} ({exc})") from exc


def _pt2(value: Any, where: str) -> tuple[float, float]:
    a = _floats(value, (2,), where)
    return (float(a[0]), float(a[1]))


def _pt3(value: Any, where: str) -> tuple[float, float, float]:
    a = _floats(value, (3,), where)
    return (float(a[0]), float(a[1]), float(a[2]))


def scene_from_json(data: Mapping[str, Any], image_path: Path, where: str) -> SceneTruth:
    """Build a :class:`SceneTruth` from a parsed ground-truth document.

    Raises:
        TruthError: naming ``where`` and the key that is missing or malformed.
    """
    if data.get("format") != FORMAT:
        raise TruthError(f"{where}: 'format' is {data.get('format')!r}, expected {FORMAT!r}")
    try:
        camera = CameraTruth.from_json(data["camera"], f"{where}: camera")
        layout = TableLayout.from_json(data["layout"], f"{where}: layout")
        blocks: dict[str, BlockTruth] = {}
        for i, b in enumerate(data["blocks"]):
            here = f"{where}: blocks[{i}]"
            size = _floats(b["size_mm"], (3,), f"{here}.size_mm")
            blocks[b["id"]] = BlockTruth(
                str(b["id"]), str(b["colour"]), int(b["level"]),
                _pt2(b["centre_mm"], f"{here}.centre_mm"),
                float(b["angle_deg"]), (float(size[0]), float(size[1]), float(size[2])),
                float(b["bottom_mm"]), tuple(b["rests_on"]),
                _floats(b["top_corners_mm"], (4, 3), f"{here}.top_corners_mm"),
                _floats(b["top_corners_px"], (4, 2), f"{here}.top_corners_px"),
                float(b["top_visible"]))
        pawns = tuple(
            PawnTruth(str(p["colour"]), p["block"],
                      _pt3(p["base_mm"], f"{where}: pawns[{i}].base_mm"),
                      float(p["height_mm"]),
                      _pt3(p["head_mm"], f"{where}: pawns[{i}].head_mm"),
                      _pt2(p["head_px"], f"{where}: pawns[{i}].head_px"),
                      float(p["visible"]))
            for i, p in enumerate(data["pawns"]))
        touching = frozenset(frozenset(pair) for pair in data["touching"])
        markers_px = {int(k): _floats(v["corners_px"], (4, 2), f"{where}: markers.{k}")
                      for k, v in data["markers"].items()}
        markers_mm = {int(k): _floats(v["corners_mm"], (4, 3), f"{where}: markers.{k}")
                      for k, v in data["markers"].items()}
        hand = data["hand"]
        bbox = hand.get("bbox_px")
        return SceneTruth(
            str(data["id"]), image_path, str(data["family"]), str(data["role"]),
            str(data["split"]), camera, layout, blocks, pawns, touching, markers_px,
            markers_mm, bool(hand["present"]),
            None if bbox is None else (float(bbox[0]), float(bbox[1]), float(bbox[2]),
                                       float(bbox[3])),
            str(data["lighting"]["name"]), data.get("action"), data)
    except KeyError as exc:
        raise TruthError(f"{where}: missing key {exc.args[0]!r}") from exc
    except (TypeError, AttributeError) as exc:
        raise TruthError(f"{where}: malformed ground truth ({exc})") from exc


def load_scene(json_path: Path | str) -> SceneTruth:
    """Load one ground-truth file (its image is the ``.jpg`` of the same stem).

    Raises:
        TruthError: the file is missing, is not JSON, or a key is missing or malformed
            (the message names the file, the line or the key).
    """
    path = Path(json_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TruthError(f"{path}: cannot read ({exc.strerror})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TruthError(f"{path}: line {exc.lineno}: {exc.msg}") from exc
    if not isinstance(data, dict):
        raise TruthError(f"{path}: expected a JSON object")
    return scene_from_json(data, path.with_suffix(".jpg"), str(path))


def load_split(folder: Path | str = DEFAULT_DIR) -> dict[str, list[str]]:
    """``{"tune": [family, ...], "holdout": [family, ...]}`` from the set's ``split.json``.

    Raises:
        TruthError: the file is missing or malformed.
    """
    path = Path(folder) / "split.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TruthError(f"{path}: cannot read ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise TruthError(f"{path}: line {exc.lineno}: {exc.msg}") from exc
    try:
        return {"tune": list(data["tune"]), "holdout": list(data["holdout"])}
    except (KeyError, TypeError) as exc:
        raise TruthError(f"{path}: needs lists 'tune' and 'holdout'") from exc


def iter_scenes(folder: Path | str = DEFAULT_DIR, split: str | None = None,
                size: tuple[int, int] | None = None) -> Iterator[SceneTruth]:
    """The scenes of a set folder in name order, optionally one split or one image size.

    Args:
        folder: the set (``*.json`` beside ``*.jpg``, plus ``split.json``).
        split: ``"tune"``, ``"holdout"`` or None for both.
        size: only images of this (width, height).

    Raises:
        TruthError: a file is malformed, or ``split`` is not a known split.
    """
    if split not in (None, "tune", "holdout"):
        raise TruthError(f"split {split!r}: expected 'tune', 'holdout' or None")
    for path in sorted(Path(folder).glob("*.json")):
        if path.name in ("split.json", "index.json"):
            continue
        scene = load_scene(path)
        if split is not None and scene.split != split:
            continue
        if size is not None and scene.camera.size != tuple(size):
            continue
        yield scene


def pairs(scenes: Sequence[SceneTruth]) -> list[tuple[SceneTruth, SceneTruth]]:
    """``(before, after)`` image pairs of the same family among ``scenes``."""
    by_family: dict[str, dict[str, SceneTruth]] = {}
    for s in scenes:
        by_family.setdefault(s.family, {})[s.role] = s
    return [(roles["before"], roles["after"]) for _, roles in sorted(by_family.items())
            if "before" in roles and "after" in roles]
