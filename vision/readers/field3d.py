"""Reading a three-dimensional field: block tops at every level, stacks, touching, pawns.

Everything is measured through the camera model (:class:`~vision.pose.TablePose`): for each
level ``n`` the frame is resampled onto the plane ``40 n`` mm above the table (lens distortion
undone, one pixel per millimetre, white-balanced from the markers' paper). A block whose top
is at that height shows there as an exact 40 mm square; its side faces smear toward the
camera's nadir, and tops at other heights are seen smaller or larger (by the ratio of their
distances to the camera). So a top face is found as a square region of a block colour,
separated from its side faces and from same-coloured neighbours by the edges between them,
refined to the strongest edges around it, and its level is the one in whose plane it measures
40 mm. A block under another is read from its visible side faces (colour by hue, so shading
does not matter) or, when none shows, assumed and said so in :attr:`FieldReading.notes`.

Example:
    >>> from vision.devtools.render_boxes import BoxScene, render_boxes
    >>> from vision.pose import table_pose
    >>> scene = BoxScene.random(seed=3)
    >>> frame = render_boxes(scene).image
    >>> reading = read_field(frame, table_pose(frame, scene.pose.intrinsics))
    >>> len(reading.blocks) == len(scene.blocks)
    True
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.games.infinifield import Block, Field, build_field, field_toml_text
from vision.geometry import gaps_between, inset, square
from vision.layout import TableLayout
from vision.palette import Palette, default_palette, provisional_ids
from vision.pose import TablePose
from vision.readers.added3d import (
    FirstLevelPhoto,
    added_blocks,
    onto_places,
    places,
    snapped_to_places,
    tower_shown,
    unchanged,
)
from vision.readers.detail import MIN_TOP_PX, camera_detail
from vision.readers.faces3d import (
    FACE_SHADE,
    TopFace,
    anchor_outer,
    face_axes,
    find_faces,
    one_per_top,
)
from vision.readers.grid_cells import missed_in_rows, onto_rows, shaded_place
from vision.readers.ground3d import (
    OFF_PLACE_MM,
    ON_OWN_COLOUR_MM,
    SAME_BLOCK_MM,
    bridges_own_colour,
    off_place,
    rests_half_on_two,
    same_block,
    stands_on_ground,
    unread,
)
from vision.readers.hands3d import HAND_PX_PER_MM, hand_mask
from vision.readers.hidden_colours import likeliest_colour
from vision.readers.levels3d import (
    TOUCH_READ_MM,
    TOUCH_SPREAD_MM,
    camera_depth,
    clean_size,
    column_level,
    contact_evidence,
    face_levels,
    gap_spread,
    prism_hits,
    size_evidence,
)
from vision.readers.notes import (
    HIDDEN,
    TOWER_UNSURE,
    ReadingNote,
    detail_note,
    hidden_block_note,
    relocated,
    tower_unsure_note,
)
from vision.readers.pawn_bridges import pawn_bridges
from vision.readers.pawn_tops import tops_under_pawns
from vision.readers.pawns3d import pawns_on_blocks, unsure_notes
from vision.readers.places3d import chosen_places
from vision.readers.refine3d import refine_reading
from vision.readers.seams3d import hidden_seams, shown_seams
from vision.readers.table_views import (
    TableViews,
    _chroma_refs,
    learn_palette,
)

MAX_LEVEL = 3
"""Tops are looked for up to this many blocks high."""

COLUMN_MAX_JUMP = 1
"""A column (:func:`~vision.readers.levels3d.column_level`) that puts a top further than
this many levels from where its clean size does is not believed: at 640x480 a level adds
1.5-2.5 px to a top's size, so a clean size is off by a level at most. Without a
calibrated camera f245's red top, 38.4 mm where a first-level one shows 37.5, was put
three levels up by its column and two blocks were invented under it."""


@dataclass(frozen=True)
class SeenBlock3D:
    """A block read from the frame.

    Attributes:
        colour: palette class name.
        centre: (x, y) of its top face, in table mm.
        angle: rotation in degrees, in [-45, 45).
        level: 1 on the table, 2 on one block, ...
        outline: (4, 2) corners of its top face in table mm.
        rests_on: indexes (in :attr:`FieldReading.blocks`) of the blocks under it.
        seen: ``top`` (its top face), ``side`` (under another, by a side face) or
            ``assumed`` (under another, nothing of it visible).
        size_mm: the top's measured size at its level (40 when exact).
    """

    colour: str
    centre: tuple[float, float]
    angle: float
    level: int
    outline: np.ndarray
    rests_on: tuple[int, ...] = ()
    seen: str = "top"
    size_mm: float = 40.0


@dataclass(frozen=True)
class SeenPawn3D:
    """A pawn: colour, centre (table mm) and the index of the block it stands on."""

    colour: str
    centre: tuple[float, float]
    block: int | None


@dataclass(frozen=True)
class FieldReading:
    """What one frame shows of a field.

    Attributes:
        blocks: every block, tops first (by colour and reading order), blocks under them
            after.
        pawns: the pawns.
        touching: index pairs ``(i, j)``, ``i < j``: side by side at the same level within
            :data:`SIDE_TOUCH_MM` (or ``layout.touch_mm`` where wider), a level apart within
            :data:`LEVEL_TOUCH_MM`, or one resting on the other.
        hands_in_view: a hand or an arm is over the table.
        notes: what could not be seen and was assumed, for the players to check, and
            whether the camera shows too little of a block to read the field reliably
            (:class:`~vision.readers.notes.ReadingNote`: English text that says what it
            is about, so a screen can say it in the players' language).
        layout: the table.
        unsure_touching: index pairs ``(i, j)``, ``i < j``, of blocks a level apart read
            so near the edge of touching (:data:`LEVEL_UNSURE_MM`) that the camera cannot
            tell; each is in ``touching`` or not as read, for the players to check.
    """

    blocks: tuple[SeenBlock3D, ...]
    pawns: tuple[SeenPawn3D, ...]
    touching: frozenset[tuple[int, int]]
    hands_in_view: bool
    notes: tuple[str, ...] = ()
    layout: TableLayout = field(default_factory=TableLayout)
    unsure_touching: frozenset[tuple[int, int]] = frozenset()

    def block_ids(self) -> list[str]:
        """Provisional ids by colour letter (``W1``, ``Y2``...) in block order."""
        return provisional_ids(b.colour for b in self.blocks)

    def to_field(self, ids: Sequence[str] | None = None, name: str = "seen by the camera"
                 ) -> Field:
        """The engine's field: footprints, stacking and the camera's touching pairs."""
        ids = list(ids) if ids is not None else self.block_ids()
        layout = self.layout
        blocks = [Block(ids[i], b.colour, tuple((float(x), float(y)) for x, y in b.outline),
                        layout.block_height_mm, tuple(ids[j] for j in b.rests_on))
                  for i, b in enumerate(self.blocks)]
        touching = [(ids[i], ids[j]) for i, j in sorted(self.touching)]
        return build_field(blocks, touching, name=name, pawn_diameter=layout.pawn_mm)

    def field_toml(self, name: str = "Field seen by the camera") -> str:
        """A field file (``docs/infinifield.md``) of the reading, stacking included.

        Footprints are the tops' outlines as read, touching pairs the camera's, the notes
        (blocks assumed, pawns unsure) comments at the top.
        """
        return field_toml_text(self.to_field(name=name), comments=(
            f"Written by infinite-vision from one photo of the table: {len(self.blocks)} "
            "blocks.", *[f"note: {n}" for n in self.notes]))

    def summary(self) -> dict[str, Any]:
        """JSON-ready: blocks with level and support, touching pairs, pawns, notes.

        ``unsure_touching``: the pairs a level apart the camera could not tell.
        """
        ids = self.block_ids()
        return {"blocks": [{"id": ids[i], "colour": b.colour, "level": b.level,
                            "centre_mm": [round(b.centre[0], 1), round(b.centre[1], 1)],
                            "angle_deg": round(b.angle, 1), "seen": b.seen,
                            "on": [ids[j] for j in b.rests_on]}
                           for i, b in enumerate(self.blocks)],
                "touching": sorted([ids[i], ids[j]] for i, j in self.touching),
                "unsure_touching": sorted([ids[i], ids[j]] for i, j in self.unsure_touching),
                "pawns": [{"colour": p.colour, "centre_mm": [round(v, 1) for v in p.centre],
                           "on": None if p.block is None else ids[p.block]}
                          for p in self.pawns],
                "hands_in_view": self.hands_in_view, "notes": list(self.notes)}


def _side_colour(views: TableViews, outline: np.ndarray, level: int,
                 others: Sequence[SeenBlock3D] = (),
                 top_too: bool = False) -> tuple[str | None, float]:
    """Majority block colour on the visible side faces of the box at ``level``.

    Each face votes by the area in pixels it covers in the frame (from the camera model),
    so a face seen nearly edge-on, its pixels mostly its neighbours' edges, counts little.

    Side faces are shaded differently from tops, so they are classified by chromaticity
    (each channel's share of the sum), which shading does not change; white is told from
    the table by being brighter than the table next to it. With ``top_too`` the part of
    the box's top that no other block hides counts as well (a block carrying one side of
    a bridge shows a strip of its top beside it, far more than a side face seen nearly
    edge-on); a point of it counts only when the camera sees it
    ``TOP_CLEAR_MM`` clear of every other block, so a neighbour's edge blurred over it
    does not vote.
    """
    layout = views.layout
    pose = views.pose
    cam = pose.camera_position()
    z1 = level * layout.block_height_mm
    z0 = z1 - layout.block_height_mm
    samples: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    centre = outline.mean(axis=0)
    h, w = views.frame.shape[:2]
    for i in range(4):
        a, b = outline[i], outline[(i + 1) % 4]
        mid = (a + b) / 2
        normal = mid - centre
        if normal @ (cam[:2] - mid) <= 0:
            continue
        s = np.linspace(0.2, 0.8, 7)
        zs = np.linspace(z0 + 0.25 * (z1 - z0), z0 + 0.75 * (z1 - z0), 5)
        pts = np.array([[*(a + (b - a) * u), z] for u in s for z in zs])
        # pulled a millimetre out of the face, so its own box does not count as in the way
        pts[:, :2] += normal / max(float(np.linalg.norm(normal)), 1e-9)
        px = pose.project(pts)
        ok = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < w - 1) & (px[:, 1] < h - 1)
        for other in others:
            z_top = other.level * layout.block_height_mm
            ok &= ~prism_hits(pts, cam, np.asarray(other.outline, np.float64),
                              z_top - layout.block_height_mm, z_top)
        if ok.sum() < 5 or np.ptp(px[ok], axis=0).min() < 2.0:
            continue        # a face seen edge-on covers no pixels
        samples.append(_balanced(views, px[ok], pts[ok]))
        # each point stands for its share of the face's area in the frame: a face seen
        # nearly edge-on (under a pixel high) counts for little beside one seen square on
        quad = pose.project(np.array([[*a, z0], [*b, z0], [*b, z1], [*a, z1]]))
        weights.append(np.full(int(ok.sum()), _area_px(quad) / len(pts)))
    if top_too:
        for pixels, each in _top_samples(views, outline, z1, others):
            samples.append(pixels)
            weights.append(np.full(len(pixels), each))
    if not samples:
        return None, 0.0
    bgr = np.concatenate(samples).astype(np.float32)
    weight = np.concatenate(weights)
    names, refs = _chroma_refs(views.palette)
    # the table's colour, balanced as the samples are, where the box stands
    table = np.asarray(views.table_bgr, np.float32) * views.gain_at(centre[None])[0]
    chroma = (bgr + 1) / (bgr.sum(axis=1, keepdims=True) + 3)
    d = np.linalg.norm(chroma[:, None, :] - refs[None, :, :], axis=2)
    best = d.argmin(axis=1)
    bright = bgr.sum(axis=1) > 1.25 * float(table.sum())
    votes: dict[str, float] = {}
    for k, is_bright, dist, wt in zip(best, bright, d[np.arange(len(d)), best], weight,
                                      strict=True):
        name = names[k]
        if dist > 0.08 or (name == "white" and not is_bright):
            continue
        votes[name] = votes.get(name, 0.0) + float(wt)
    if not votes:
        return None, 0.0
    top = max(votes, key=lambda k: votes[k])
    return top, votes[top] / float(weight.sum())


def _area_px(quad: np.ndarray) -> float:
    """The area in pixels of a polygon given by its corners in the frame."""
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * abs(float(x @ np.roll(y, 1) - y @ np.roll(x, 1)))


def _inside(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Which ``points`` (N, 2) lie inside the convex ``polygon`` (its corners in order)."""
    sides = []
    for i in range(len(polygon)):
        a, b = polygon[i], polygon[(i + 1) % len(polygon)]
        sides.append((b[0] - a[0]) * (points[:, 1] - a[1])
                     - (b[1] - a[1]) * (points[:, 0] - a[0]))
    cross = np.stack(sides)
    return np.asarray(np.all(cross >= 0, axis=0) | np.all(cross <= 0, axis=0))


def _top_samples(views: TableViews, outline: np.ndarray, z: float,
                 others: Sequence[SeenBlock3D]) -> list[tuple[np.ndarray, float]]:
    """Pixels of the box's top at height ``z`` that the camera sees clear of ``others``.

    Returned with the area in pixels each one stands for (none, or one group).
    """
    layout = views.layout
    pose = views.pose
    cam = pose.camera_position()
    h, w = views.frame.shape[:2]
    a, b, d = outline[0], outline[1], outline[3]
    s = np.linspace(0.1, 0.9, 9)
    pts = np.array([[*(a + (b - a) * u + (d - a) * v), z] for u in s for v in s])
    px = pose.project(pts)
    ok = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < w - 1) & (px[:, 1] < h - 1)
    shifts = [(0.0, 0.0), (TOP_CLEAR_MM, 0.0), (-TOP_CLEAR_MM, 0.0), (0.0, TOP_CLEAR_MM),
              (0.0, -TOP_CLEAR_MM)]
    for other in others:
        z_top = other.level * layout.block_height_mm
        foot = np.asarray(other.outline, np.float64)
        if z_top >= z:
            ok &= ~_inside(pts[:, :2], foot)    # a point inside another block is not a top
        for dx, dy in shifts:
            moved = pts + np.array([dx, dy, 0.0])
            ok &= ~prism_hits(moved, cam, foot, z_top - layout.block_height_mm, z_top)
    if ok.sum() < 5:
        return []
    area = _area_px(pose.project(np.array([[*c, z] for c in outline])))
    return [(_balanced(views, px[ok], pts[ok]), area / len(pts))]


def _balanced(views: TableViews, px: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The frame's BGR at pixels ``px`` of table points ``points`` (N, 3), balanced.

    White-balanced from the markers' paper, as the views and the palette's references are.
    """
    bgr = views.frame[px[:, 1].astype(int), px[:, 0].astype(int)].astype(np.float32)
    return np.clip(bgr * views.gain_at(points[:, :2]), 0, 255)


LEVEL_TOUCH_MM = TOUCH_READ_MM + 2.0 + TOUCH_SPREAD_MM
"""Blocks a level apart touch when their outlines read this close (mm): the engine's rule
(``companion.games.infinifield.contacts``: an edge meeting an edge a level below, within
its 2 mm tolerance) plus the gap two touching tops read by (their bevels) and its spread.
Side by side, the layout's ``touch_mm`` holds (blocks in a field stand in rows, touching
or clearly apart); a top on a level of its own is often set back a few millimetres from
the blocks beside its supports, which then do not touch it."""


APART_MM = 12.7
"""infinifield.md: blocks not meant to touch are placed "clearly apart (half-inch or more
away from each other)"."""

SIDE_TOUCH_MM = (TOUCH_READ_MM + APART_MM) / 2
"""Tops side by side at one level touch when their outlines read at most this far apart:
halfway between the gap two touching tops read by (their bevels) and the half inch the
rulebook keeps between blocks apart. From a high camera a top's square is placed to a
pixel (2 mm at 95 cm, 640x480), and two such errors put touching tops 5-7 mm apart
(f065, f172); tops set apart by the rules still read 12 mm or more apart."""


LEVEL_UNSURE_MM = (LEVEL_TOUCH_MM - 2.1, LEVEL_TOUCH_MM + 1.9)
"""Blocks a level apart read this far apart (mm, 2.5-6.5) may touch or not: a top on
blocks is placed to about 1.6 mm (sd, against 0.7 for a first-level top), and builders
set such blocks back a few millimetres, in the rulebook's unclear band. On the shipped
tuning families read with their first level, 40 of 1,980 pairs a level apart were read
wrong; this band asks about 74 pairs and holds 26 of the 40 (2.5-5.5 mm: 66 and 22; 2.0-5.5:
116 and 29; 3.0-5.5: 42 and 15): the set-up screen asks the players."""


def _unsure_touching(blocks: Sequence[SeenBlock3D]) -> set[tuple[int, int]]:
    """Pairs a level apart whose read gap lies in :data:`LEVEL_UNSURE_MM`.

    Not a block and one it rests on (those touch).
    """
    n = len(blocks)
    idx = [(i, j) for i in range(n) for j in range(i + 1, n)
           if abs(blocks[i].level - blocks[j].level) == 1
           and i not in blocks[j].rests_on and j not in blocks[i].rests_on]
    if not idx:
        return set()
    gaps = gaps_between(np.stack([blocks[i].outline for i, _ in idx]),
                        np.stack([blocks[j].outline for _, j in idx]))
    lo, hi = LEVEL_UNSURE_MM
    return {p for p, g in zip(idx, gaps, strict=True) if lo <= g <= hi}


def _touching(blocks: Sequence[SeenBlock3D], touch_mm: float) -> set[tuple[int, int]]:
    pairs: set[tuple[int, int]] = set()
    n = len(blocks)
    # the engine's rule (companion.games.infinifield.contacts) in three dimensions: side by
    # side at one level, and a block meeting, edge to edge, one a level below or above it
    # (its bottom edge on that one's top edge), which the plan gap alone measures
    idx = [(i, j) for i in range(n) for j in range(i + 1, n)
           if abs(blocks[i].level - blocks[j].level) <= 1]
    if idx:
        a = np.stack([blocks[i].outline for i, _ in idx])
        b = np.stack([blocks[j].outline for _, j in idx])
        gaps = gaps_between(a, b)
        pairs |= {p for p, g in zip(idx, gaps, strict=True)
                  if g <= (touch_mm if blocks[p[0]].level == blocks[p[1]].level
                           else min(touch_mm, LEVEL_TOUCH_MM))}
    for i, blk in enumerate(blocks):
        for j in blk.rests_on:
            pairs.add((min(i, j), max(i, j)))
    return pairs


def read_field(frame: np.ndarray, pose: TablePose, palette: Palette | None = None,
               max_level: int = MAX_LEVEL, px_per_mm: float = 1.0,
               views: TableViews | None = None, ground: Sequence[SeenBlock3D] = (),
               ground_photo: FirstLevelPhoto | None = None) -> FieldReading:
    """Read the whole field from one frame (set-up).

    Tops at every level, stacks, touching pairs, pawns, and whether a hand is in view.

    Args:
        frame: BGR frame from the camera the pose belongs to.
        pose: the camera (:func:`~vision.pose.table_pose`).
        palette: colour classes learnt on this table (:func:`learn_palette`); by default
            learnt from this frame, starting from the Infinifield set.
        max_level: highest level looked for.
        px_per_mm: scale of the views measured in.
        views: views already made of this frame (shared with other readers).
        ground: the field's first level as read on a photo taken before anything was
            stacked on it (:func:`vision.readers.ground3d.first_level` of that reading):
            a top read on the table over one of them stands on it, and one this frame
            hides keeps its colour and place (:mod:`vision.readers.ground3d`); no top's
            level is changed by synthesis (:func:`~vision.readers.refine3d.refine_reading`),
            and, with ``ground_photo``, a block missed in the rows
            (:func:`~vision.readers.grid_cells.missed_in_rows`) where none of them stands
            is read only where that photo shows no empty place in shade
            (:func:`~vision.readers.grid_cells.shaded_place`).
        ground_photo: the photo ``ground`` was read on: a block set a level up since,
            that the stacked frame alone cannot tell (one of a colour on another of it),
            is read where the two photos differ (:mod:`vision.readers.added3d`). Not
            compared with if a hand is over the table in it.
    """
    if palette is None:
        palette = learn_palette(TableViews(frame, pose, default_palette(), px_per_mm))
        views = None
    views = views or TableViews(frame, pose, palette, px_per_mm)
    layout = pose.layout
    h1 = layout.block_height_mm
    faces = one_per_top(find_faces(views, h1), layout.block_mm)
    levels = face_levels(pose, faces, h1, layout.block_mm, max_level)
    by_column = []
    for k, f in enumerate(faces):
        seen_level = column_level(views, f, h1, max_level, levels[k])
        if (seen_level is not None and not f.unsure
                and abs(seen_level - levels[k]) > COLUMN_MAX_JUMP):
            seen_level = None
        by_column.append(seen_level is not None)
        if seen_level is not None:
            levels[k] = seen_level
    nadir = pose.camera_position()[:2]
    raise_by_contact = _contact_levels(pose, faces, levels, by_column)
    blocks: list[SeenBlock3D] = []
    column_seen: set[int] = set()
    full_size: set[int] = set()
    unsure_faces: set[int] = set()
    asks: list[ReadingNote] = []
    for f, level, sure, lift in zip(faces, levels, by_column, raise_by_contact, strict=True):
        anchor_outer(f, nadir)
        if lift:
            level, sure = 2, True
        px = pose.project([[f.centre[0], f.centre[1], h1]])
        c = pose.to_plane(px, level * layout.block_height_mm)[0]
        centre = (float(c[0]), float(c[1]))
        scale = (camera_depth(pose, f.centre, h1)
                 / camera_depth(pose, c, level * layout.block_height_mm))
        blocks.append(SeenBlock3D(f.colour, centre, f.angle, level,
                                  square(centre, layout.block_mm, f.angle), (), "top",
                                  f.size / scale))
        if sure:
            column_seen.add(id(blocks[-1]))
        if level == 1 and not f.unsure and clean_size(f, nadir) >= f.expected > 0:
            full_size.add(id(blocks[-1]))
        if f.unsure:
            unsure_faces.add(id(blocks[-1]))
    # two tops cannot overlap at one level: keep the squarer, fuller one
    if ground:
        blocks = _raised_over_ground(blocks, ground, pose)
    blocks = _no_overlaps(blocks, layout.block_mm)
    before: TableViews | None = None
    if ground:
        if ground_photo is not None:
            before = TableViews(ground_photo.frame, ground_photo.pose, palette, px_per_mm)
            if _hand_in_view(before, ground, ()):
                before = None   # a hand over it, much of it in the mat's class, would
                                # look like blocks set down since
        blocks = _on_ground(blocks, ground, views, column_seen, unsure_faces, asks, before)
    blocks.sort(key=lambda b: (b.colour, round(b.centre[1] / layout.block_mm), b.centre[0]))
    ids_for_notes = {i: (b.colour, b.centre) for i, b in enumerate(blocks)}
    for i, b in enumerate(blocks):
        if b.level == 1 and id(b) not in column_seen:
            # a block bridging two, its level not told by its size: the parts of their
            # tops show on two opposite sides of it, one with its outer edge in view (or,
            # for a top no smaller than a first-level one, wherever their edges are)
            up = _raised(b, pose)
            others = [o for j, o in enumerate(blocks) if j != i and o.seen == "top"]
            scan = _part_scan(views, up, others, [])
            under = [(p, in_view) for p, in_view in scan if p.seen == "part"]
            if _on_two(up, under, edge_seen=id(b) not in full_size):
                blocks[i] = up
    # a top read three or more levels up by its size, whose column has to assume a block
    # under one seen only by a part or a side face (nothing of it shows), is read a level
    # lower: the blocks seen under it are all it stands on
    tops = blocks
    for _ in range(max_level):
        blocks, notes = _columns(views, tops, column_seen, ids_for_notes)
        unsure = _too_high(blocks, len(tops), column_seen)
        if not unsure:
            break
        tops = [_lowered(b, pose) if k in unsure else b for k, b in enumerate(tops)]
    # with the first level known, no top is tried a level up or down by synthesis: that
    # photo says what stands on the table, and the two photos what was set on it (f1528:
    # a first-level top raised onto two blocks made of the side faces round it)
    blocks, notes = refine_reading(views, blocks, notes, levels=not ground)
    # with the first level and its photo, a block missed in the rows where none was read
    # on that photo is one only where the photo shows no empty place in its neighbours'
    # shadow there, dark enough to take a block's class (f2368; f2188: a red block that
    # photo's reading missed, lit like the others)
    blocks += [SeenBlock3D(colour, xy, angle, 1, square(xy, layout.block_mm, angle))
               for colour, xy, angle in missed_in_rows(views, blocks)
               if before is None or same_block(xy, colour, ground) is not None
               or not shaded_place(before, square(xy, layout.block_mm, angle), colour,
                                   ground)]
    moved = onto_rows(blocks, layout.block_mm)
    notes = [_follow(note, blocks, moved) for note in notes]
    blocks = moved
    blocks += [SeenBlock3D(t.colour, t.centre, t.angle, 1,
                           square(t.centre, layout.block_mm, t.angle))
               for t in tops_under_pawns(views, blocks)]
    found = pawns_on_blocks(views, blocks)
    pawns = [SeenPawn3D(p.colour, p.centre, p.top) for p in found]
    notes = [*notes, *unsure_notes(found, blocks), *asks]
    detail = camera_detail(pose)
    if not detail.enough:
        notes.append(detail_note(detail.top_px, (layout.width_mm / 2, layout.height_mm / 2),
                                 MIN_TOP_PX))
    touching = _touching(blocks, max(layout.touch_mm, SIDE_TOUCH_MM))
    hands = _hand_in_view(views, blocks, pawns)
    return FieldReading(tuple(blocks), tuple(pawns), frozenset(touching), hands,
                        tuple(notes), layout, frozenset(_unsure_touching(blocks)))


GROUND_COVER_SHARE = 0.15
"""A first-level block no top was read as is hidden under a top a level up that covers this
share of it (a bridge's support, at least a quarter; a top beside it a few hundredths)."""

SOLID_SHARE = 0.25
"""A top read on the table that covers this share of a first-level block's top (which it is
not) would stand through it: it stands a level up, or is no block (f1678: a red square
read among three red blocks, 13 mm off their bridge's place)."""

GROUND_GONE_SHARE = 0.95
"""... else it is still there (missed, or its top in a shadow or under a pawn) unless the
table shows over this share of where its top was (inset 5 mm): a block the builder moved or
took away after the first level was kept is not put back. Asked that its colour show over
half its top instead, 16 first-level blocks of the tuning families (mostly white ones in
shade) were not put back."""


def _raised_over_ground(tops: list[SeenBlock3D], ground: Sequence[SeenBlock3D],
                       pose: TablePose) -> list[SeenBlock3D]:
    """Tops read on the table over a first-level block read there too, raised a level.

    Two tops of one level cannot overlap (:func:`_no_overlaps` keeps one): a top read on
    the table overlapping one (:data:`OVERLAP_SHARE`) that is a first-level block of another
    colour (:func:`same_block`), that is none itself, is read whole
    (:data:`WHOLE_SIZE_MM`) and, a level up, rests on two as a bridge does
    (:func:`~vision.readers.ground3d.rests_half_on_two`), is a block a level up (a bridge
    near the camera's nadir, whose size tells no level) rather than a second top there.
    """
    block_mm = pose.layout.block_mm
    known = [t for t in tops if t.level == 1 and t.seen == "top"
             and same_block(t.centre, t.colour, ground) is not None]
    out = []
    for top in tops:
        if (top.level == 1 and top.seen == "top" and top not in known
                and abs(top.size_mm - block_mm) <= WHOLE_SIZE_MM
                and any(k.colour != top.colour and np.hypot(
                    k.centre[0] - top.centre[0], k.centre[1] - top.centre[1])
                    < OVERLAP_SHARE * block_mm for k in known)):
            up = _raised(top, pose)
            if rests_half_on_two(up.outline, ground, block_mm):
                top = up
        out.append(top)
    return out


OVERLAP_SHARE = 0.7
"""Two tops of one level whose centres lie nearer than this share of a block overlap."""

WHOLE_SIZE_MM = 6.0
"""A top read within this of a block's size is one whole top (two tops of one colour read
as one are half as large again)."""


def _shows_own_top(views: TableViews, block: SeenBlock3D,
                   raised: Sequence[SeenBlock3D] = ()) -> bool:
    """Whether ``block`` may still stand where the first level's photo saw it.

    Not where the table shows over :data:`GROUND_GONE_SHARE` of its top (inset 5 mm) in
    the parts none of the ``raised`` blocks hides from the camera; where they hide nearly
    all of it, it may be there.
    """
    pts = inset(block.outline, 5.0)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    xs, ys = np.meshgrid(np.arange(lo[0], hi[0], 2.0), np.arange(lo[1], hi[1], 2.0))
    grid = np.column_stack([xs.ravel(), ys.ravel()])
    grid = grid[_inside(grid, pts)]
    if len(grid) < 8:
        return False
    h1 = views.layout.block_height_mm
    points = np.column_stack([grid, np.full(len(grid), h1)])
    cam = views.pose.camera_position()
    clear = np.ones(len(points), bool)
    for other in raised:
        top = other.level * h1
        clear &= ~prism_hits(points, cam, np.asarray(other.outline, np.float64), top - h1,
                             top)
    if int(clear.sum()) < 8:
        return True
    bgr, ok, _px = views.sample(points[clear])
    if int(ok.sum()) < 8:
        return False
    cls = views.classes_of(bgr, ok)
    table = np.isin(cls, views.palette.of_kind("table"))
    return float(table[ok].mean()) < GROUND_GONE_SHARE


def _on_ground(tops: list[SeenBlock3D], ground: Sequence[SeenBlock3D], views: TableViews,
               column_seen: set[int], unsure: set[int] | None = None,
               asks: list[ReadingNote] | None = None, before: TableViews | None = None
               ) -> list[SeenBlock3D]:
    """The tops read with the first level (:mod:`vision.readers.ground3d`) as known.

    A top read on the table over a first-level block it is not stands a level up; one read
    higher that is a first-level block is that block; one read three or more levels up by
    its size, over the first level with no top read under it, stands on the first level
    (on one block of another colour, or, a level up, on two of any colour: a bridge over two
    of its own colour shows no other colour under it);
    one read on the table over a first-level block of its colour that it neither is nor
    stands on is that block read off its place, and dropped (with the first level's photo,
    a top stands on one of its own colour only where the two photos say so, below:
    ``own_colour`` of :func:`~vision.readers.ground3d.stands_on_ground`); first-level
    blocks no top was read as are added where a top a level up hides them or the frame
    still shows them (not where the builder took one away). Each of these levels is taken as seen
    (``column_seen``). A top read on the table where the first level's photo saw only the
    table is a block set down since, unless its face was no clean top (``unsure``: its
    region ran on or was cut, as a shadow lit by a warm lamp or a lighter patch of the mat
    makes on the tuning photos); such a one is dropped. One read on the table through a
    first-level block it is not (:data:`SOLID_SHARE`) is a bridge over two of its colour
    when its colour over the other says so, else none. A top read as a first-level block of
    its colour that looks, against the first level's photo, as a tower's top over it does
    (:func:`_grown_as_a_tower`) is still read as that block, and ``asks`` gets a note for
    the players to check it (:func:`~vision.readers.notes.tower_unsure_note`). With the
    first level's photo (``before``), a top read a level up where the two photos show
    nothing changed, or nothing changed to a block's colour, is dropped
    (:func:`~vision.readers.added3d.unchanged`), as is one over a groove between two
    first-level blocks of one colour that the stacked photo still shows as it was
    (:func:`~vision.readers.seams3d.shown_seams`), one off every
    place a block can stand there is moved onto the one the two photos show it on
    (:func:`~vision.readers.added3d.onto_places`), and blocks a level up that photo shows
    were set down since (:func:`~vision.readers.added3d.added_blocks`, and on their own
    colour by the grooves they hide: :func:`~vision.readers.seams3d.hidden_seams`, or
    across two of it by the pawn standing on them:
    :func:`~vision.readers.pawn_bridges.pawn_bridges`) are added, each in place of a top
    of its colour read for it on the table where no first-level block stands (a tower's,
    in place of the top read as its block), and no longer asked about. Last, each top a
    level up read near a place there is set exactly on it
    (:func:`~vision.readers.added3d.snapped_to_places`), and moved to a rival place beside
    it where the frame, rendered, says so (a bridge read as a tower on one of its blocks:
    :func:`~vision.readers.places3d.chosen_places`).
    """
    pose = views.pose
    block_mm = pose.layout.block_mm
    out: list[SeenBlock3D] = []
    again: list[SeenBlock3D] = []
    for top in tops:
        if top.seen != "top":
            out.append(top)
            continue
        below = same_block(_lowered(top, pose, 1 - top.level).centre, top.colour, ground)
        if (asks is not None and below is not None and id(top) not in (unsure or set())
                and _grown_as_a_tower(top, below, pose)):
            asks.append(tower_unsure_note(below.colour, below.centre))
        if top.level > 1:
            low = _lowered(top, pose, 1 - top.level)
            two = _lowered(top, pose, 2 - top.level)
            if same_block(low.centre, low.colour, ground) is not None:
                top = low
            elif (id(top) not in column_seen and off_place(low.outline, top.colour, ground)
                  and not stands_on_ground(low.outline, top.colour, ground, block_mm,
                                           two.outline, own_colour=before is None)):
                continue    # a first-level block read again off its place, and high
            elif (top.level > 2 and id(top) not in column_seen
                  and stands_on_ground(low.outline, top.colour, ground, block_mm,
                                       two.outline, own_colour=before is None)
                  and not any(o.level == top.level - 1 and o.seen == "top"
                              and _overlap_mm2(o.outline, top.outline) > SUPPORT_OVERLAP_MM2
                              for o in tops)):
                # read higher by its size, over the first level with no top read under it:
                # a block between would be hidden from both photos
                top = two
        else:
            up = _raised(top, pose)
            if bridges_own_colour(top.outline, top.colour, ground, block_mm, up.outline):
                again.append(top)   # a bridge only if its colour over the other says so
                continue
            if (stands_on_ground(top.outline, top.colour, ground, block_mm, up.outline,
                                 own_colour=before is None)
                    or (before is not None
                        and stands_on_ground(top.outline, top.colour, ground, block_mm,
                                             up.outline)
                        and _own_tower_shown(up, ground, views, before, tops))):
                # on one of its own colour, with the first level's photo, only where the
                # two photos show the strip its top newly covers (f1736, f1961)
                top = up
            elif off_place(top.outline, top.colour, ground):
                again.append(top)   # a first-level block read again, off its place (it is
                continue            # added where the first level's photo saw it), or a bridge
        if top.level == 1 and same_block(top.centre, top.colour, ground) is None:
            if id(top) in (unsure or set()) and not any(
                    _overlap_mm2(top.outline, g.outline) >= GROUND_COVER_SHARE * block_mm ** 2
                    for g in ground):
                continue    # no clean top where the first level's photo saw the table
            if any(_overlap_mm2(top.outline, g.outline) >= SOLID_SHARE * block_mm ** 2
                   for g in ground):
                again.append(top)   # not on the table, through a first-level block: a
                continue            # bridge if its colour over the other says so
            out.append(top)
            continue
        column_seen.add(id(top))
        out.append(top)
    for top in again:
        bridge = _bridge_on_own_colour(top, ground, out, views)
        if bridge is not None:
            out.append(bridge)
            column_seen.add(id(bridge))
    if before is not None:
        gone = unchanged(views, before, out)
        out = [t for t in out if not any(t is g for g in gone)]
        moved = onto_places(views, before, ground, out)
        column_seen.update(id(m) for m, t in zip(moved, out, strict=True)
                           if m is not t and id(t) in column_seen)
        out = moved
        gone = shown_seams(views, before, ground, out)
        out = [t for t in out if not any(t is g for g in gone)]
        added = added_blocks(views, before, ground, out)
        added += hidden_seams(views, before, ground, out + added)
        added += pawn_bridges(views, ground, out + added)
        for block in added:
            read_at = _lowered(block, pose).centre
            base = same_block(block.centre, block.colour, ground)
            out = [t for t in out if not (
                t.level == 1 and t.colour == block.colour and t.seen == "top"
                and ((same_block(t.centre, t.colour, ground) is None
                      and np.hypot(t.centre[0] - read_at[0], t.centre[1] - read_at[1])
                      < OFF_PLACE_MM)
                     or (base is not None
                         and same_block(t.centre, t.colour, ground) is base)))]
            if asks is not None:
                asks[:] = [a for a in asks if not (
                    a.kind == TOWER_UNSURE and a.colour == block.colour
                    and np.hypot(a.at[0] - block.centre[0], a.at[1] - block.centre[1])
                    < SAME_BLOCK_MM)]
            out.append(block)
            column_seen.add(id(block))
    snapped = snapped_to_places(ground, out, block_mm)
    column_seen.update(id(m) for m, t in zip(snapped, out, strict=True)
                       if m is not t and id(t) in column_seen)
    out = snapped
    for g in unread(ground, out):
        covered = any(t.level >= 2 and _overlap_mm2(t.outline, g.outline)
                      >= GROUND_COVER_SHARE * block_mm * block_mm for t in out)
        if not covered and not _shows_own_top(views, g, [t for t in out if t.level > 1]):
            continue    # neither under a top nor in view: moved or taken away since
        out.append(g)
        column_seen.add(id(g))
    moved = chosen_places(views, places(ground), out)
    column_seen.update(id(m) for m, t in zip(moved, out, strict=True)
                       if m is not t and id(t) in column_seen)
    return moved


def _own_tower_shown(up: SeenBlock3D, ground: Sequence[SeenBlock3D], views: TableViews,
                     before: TableViews, tops: Sequence[SeenBlock3D]) -> bool:
    """Whether the two photos show ``up`` (a top raised a level) on a block of its colour.

    The first-level block of its colour nearest it, within
    :data:`~vision.readers.ground3d.ON_OWN_COLOUR_MM`,
    carries a tower there by the strip its top newly covers
    (:func:`~vision.readers.added3d.tower_shown`).
    """
    near = [(float(np.hypot(g.centre[0] - up.centre[0], g.centre[1] - up.centre[1])), k)
            for k, g in enumerate(ground) if g.colour == up.colour]
    near = [(d, k) for d, k in near if d < ON_OWN_COLOUR_MM]
    if not near:
        return False
    block = ground[min(near)[1]]
    return tower_shown(views, before, block, [t for t in tops if t.level >= 2])


TOWER_SHIFT_SHARE = 0.6
"""A top read over a first-level block of its colour looks like a tower's top when, read on
the table, it lies outward from the camera's nadir by this share of the shift a level adds
there..."""

TOWER_GROWTH_SHARE = 0.9
"""... and shows larger than the first level's photo showed the block by this share of the
growth a level adds (both against that photo: the two share the camera, the light and the
reader's biases). The same-coloured towers of the tuning families (8, with f801-f898) pass
both at 0.66-1.95 and 1.04-1.96 of theirs; of 1,516 tops read as their first-level block,
12 pass, 5 of them with a face of sure shape (2 under a bridge of their colour): read as
towers, 3 fields more were right and 3 fewer, so such a top is asked about, not raised."""

TOWER_MIN_SHIFT_MM = 2.0
"""... where that shift is at least this (mm): nearer the nadir a level moves a top less
than a reading's spread, and a tower there cannot be told."""


def _grown_as_a_tower(top: SeenBlock3D, block: SeenBlock3D, pose: TablePose) -> bool:
    """Whether ``top``, read over the first-level ``block`` of its colour, looks like a tower.

    A block on another of its colour shows no other colour between them, and its top, read
    on the table, falls on its block's place (:func:`same_block`). Against the first
    level's photo of that block it lies farther out from the camera's nadir and shows
    larger, by the shift and growth a level adds there (:data:`TOWER_SHIFT_SHARE`,
    :data:`TOWER_GROWTH_SHARE`, :data:`TOWER_MIN_SHIFT_MM`).
    """
    h1 = pose.layout.block_height_mm
    g = np.asarray(block.centre, np.float64)
    outward = g - pose.camera_position()[:2]
    reach = float(np.hypot(*outward))
    if reach < 1e-6:
        return False
    outward /= reach
    shift = float((pose.to_plane(pose.project([[g[0], g[1], 2 * h1]]), h1)[0] - g) @ outward)
    if shift < TOWER_MIN_SHIFT_MM:
        return False
    low = _lowered(top, pose, 1 - top.level)
    if float((np.asarray(low.centre) - g) @ outward) < TOWER_SHIFT_SHARE * shift:
        return False
    size = top.size_mm * (camera_depth(pose, np.asarray(low.centre), h1)
                          / camera_depth(pose, np.asarray(top.centre), top.level * h1))
    growth = camera_depth(pose, g, h1) / camera_depth(pose, g, 2 * h1) - 1.0
    return size / block.size_mm - 1.0 >= TOWER_GROWTH_SHARE * growth


OWN_BRIDGE_SHARE = 0.6
"""A hidden first-level block shows a bridge of its neighbour's colour over it when this
share of the bridge's half over it, a level up, shows that colour."""


def _bridge_on_own_colour(top: SeenBlock3D, ground: Sequence[SeenBlock3D],
                          tops: Sequence[SeenBlock3D], views: TableViews
                          ) -> SeenBlock3D | None:
    """The bridge a top read on the table as a first-level block of its colour is, if any.

    A block bridging one of its own colour (``own``) and a neighbour shows one top where
    the first photo showed ``own`` beside the neighbour: read on the table, that top falls
    on ``own``'s place and is taken for it. It is a bridge over the two when the
    neighbour (of another colour: over one of the top's colour, its own top would show it)
    was not read, no other top a level up covers it, and the half of a bridge over it, a
    level up, shows the top's colour (:data:`OWN_BRIDGE_SHARE`) where, without a bridge,
    the neighbour's own top would show (a pawn on it, or its own colour, says no bridge),
    and the rest of it does not (:func:`_looks_like`).
    Returns that bridge, set halfway over the two (read finer later), or ``None``.
    """
    own = same_block(top.centre, top.colour, ground)
    if own is None:
        return None
    layout = views.layout
    block_mm, h1 = layout.block_mm, layout.block_height_mm
    hidden = unread(ground, [t for t in tops if t is not top])
    raised = [t for t in tops if t.level > 1 and t.seen == "top"]
    colour = views.palette.index(top.colour)
    best: tuple[float, SeenBlock3D] | None = None
    for g in hidden:
        if g is own or g.colour == top.colour or np.hypot(g.centre[0] - own.centre[0],
                                g.centre[1] - own.centre[1]) > block_mm + 2 * TOUCH_READ_MM:
            continue
        if any(_overlap_mm2(t.outline, g.outline) >= GROUND_COVER_SHARE * block_mm ** 2
               for t in raised):
            continue
        centre = ((own.centre[0] + g.centre[0]) / 2, (own.centre[1] + g.centre[1]) / 2)
        bridge = SeenBlock3D(top.colour, centre, own.angle, 2,
                             square(centre, block_mm, own.angle), (), "top", block_mm)
        pts = _grid_in(inset(g.outline, 3.0), inset(bridge.outline, 3.0))
        if len(pts) < 8:
            continue
        pts = np.column_stack([pts, np.full(len(pts), 2 * h1)])
        # only where the neighbour's own top would show without a bridge (a level up, the
        # ray runs on outward from the nadir, onto the block beside it or into its side)
        on_own_top = _inside(views.pose.to_plane(views.pose.project(pts), h1), inset(
            g.outline, 3.0))
        if int(on_own_top.sum()) < 8:
            continue
        bgr, ok, _px = views.sample(pts[on_own_top])
        if int(ok.sum()) < 8:
            continue
        share = float((views.classes_of(bgr, ok)[ok] == colour).mean())
        if share < OWN_BRIDGE_SHARE or _looks_like(views, g, bridge, colour):
            continue
        if best is None or share > best[0]:
            best = (share, bridge)
    return None if best is None else best[1]


def _looks_like(views: TableViews, block: SeenBlock3D, cover: SeenBlock3D, colour: int
                ) -> bool:
    """Whether the part of ``block``'s top that ``cover`` leaves in view shows ``colour``.

    Where it does, the colour over ``block`` is not told to be ``cover``'s: a top the light
    washes toward another colour (a pale red read as white) shows it all over, and another
    top of that colour standing on ``block`` (a bridge read off its place) shows it beyond
    ``cover``.
    """
    pts = inset(block.outline, 3.0)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    xs, ys = np.meshgrid(np.arange(lo[0], hi[0], 2.0), np.arange(lo[1], hi[1], 2.0))
    grid = np.column_stack([xs.ravel(), ys.ravel()])
    grid = grid[_inside(grid, pts) & ~_inside(grid, inset(cover.outline, -3.0))]
    if len(grid) < 8:
        return True
    bgr, ok, _px = views.sample(np.column_stack([grid, np.full(len(grid),
                                                               views.layout.block_height_mm)]))
    if int(ok.sum()) < 8:
        return True
    return float((views.classes_of(bgr, ok)[ok] == colour).mean()) > LOOKS_LIKE_SHARE


LOOKS_LIKE_SHARE = 0.3
"""A top shows a colour all over when over this share of its part in view shows it."""


def _grid_in(a: np.ndarray, b: np.ndarray, step_mm: float = 2.0) -> np.ndarray:
    """Points (N, 2) on a ``step_mm`` grid inside both convex outlines."""
    lo = np.maximum(a.min(axis=0), b.min(axis=0))
    hi = np.minimum(a.max(axis=0), b.max(axis=0))
    if (hi <= lo).any():
        return np.zeros((0, 2))
    xs, ys = np.meshgrid(np.arange(lo[0], hi[0], step_mm), np.arange(lo[1], hi[1], step_mm))
    grid = np.column_stack([xs.ravel(), ys.ravel()])
    return grid[_inside(grid, a) & _inside(grid, b)]


def _follow(note: str, before: Sequence[SeenBlock3D], after: Sequence[SeenBlock3D]) -> str:
    """A hidden block's note moved with its block (to where :func:`onto_rows` put it)."""
    if not isinstance(note, ReadingNote) or note.kind != HIDDEN:
        return note
    for old, new in zip(before, after, strict=True):
        if (old.level == note.level and old.centre != new.centre
                and np.hypot(old.centre[0] - note.at[0], old.centre[1] - note.at[1]) < 0.5):
            return relocated(note, new.centre)
    return note


CONTACT_LLR = 3.0
"""A top is read a level up (a block under it, hidden or not) when the evidence of its
neighbours' gaps and of its size, in log odds, passes this: about the prior odds of a top
standing on a block rather than on the table (a few in a hundred, 1 to 20), so a top is
raised when that is then likelier than not."""


def _contact_levels(pose: TablePose, faces: Sequence[TopFace], levels: Sequence[int],
                    by_column: Sequence[bool]) -> list[bool]:
    """Which tops the gaps to their first-level neighbours put on the second level.

    See :func:`~vision.readers.levels3d.contact_evidence`: a top read on the table, or on
    the second level by its size, that fits snugly among its neighbours only a level up
    stands on a block (in a crowd the block under it is hidden by its neighbours, so
    nothing else may show it). Each footprint is placed from the top's outer edges (those
    facing away from the camera's nadir, which no side face runs on from) for the size a
    top shows at the level supposed: a top's region runs on into its side faces toward the
    nadir, twice as far for a top two blocks up, so its centre as found leans toward the
    neighbours there and would read as cutting into them. Where neighbours weigh in, the
    top's size adds its own evidence (:func:`~vision.readers.levels3d.size_evidence`).
    """
    layout = pose.layout
    h1 = layout.block_height_mm
    nadir = pose.camera_position()[:2]
    lows = [square(_outer_centre(f, nadir, f.expected), layout.block_mm, f.angle)
            for f in faces]
    out = []
    for k, (f, level, sure) in enumerate(zip(faces, levels, by_column, strict=True)):
        if level > 2 or sure or f.unsure:
            out.append(False)
            continue
        at_level = camera_depth(pose, f.centre, level * h1)
        one = _outer_centre(f, nadir, f.expected * at_level / camera_depth(pose, f.centre, h1))
        two = _outer_centre(f, nadir,
                            f.expected * at_level / camera_depth(pose, f.centre, 2 * h1))
        low = square(one, layout.block_mm, f.angle)
        c = pose.to_plane(pose.project([[two[0], two[1], h1]]), 2 * h1)[0]
        high = square((float(c[0]), float(c[1])), layout.block_mm, f.angle)
        near = [j for j, lv in enumerate(levels) if j != k and lv == 1]
        llr = contact_evidence(low, high, nadir, [lows[j] for j in near],
                               layout.block_mm, [faces[j].unsure for j in near],
                               gap_spread(pose, f.centre, h1))
        if llr != 0.0 and f.expected > 0:
            llr += size_evidence(pose, f, level, h1)
        out.append(llr > CONTACT_LLR)
    return out


def _outer_centre(face: TopFace, nadir: np.ndarray, expected: float) -> tuple[float, float]:
    """The centre of ``face`` put back on its outer edges for a top showing ``expected`` mm.

    See :func:`~vision.readers.faces3d.anchor_outer`; the face itself is left as it is.
    """
    placed = copy.copy(face)
    placed.centre = np.array(face.centre, np.float64)
    placed.expected = expected
    anchor_outer(placed, nadir)
    return float(placed.centre[0]), float(placed.centre[1])


def _columns(views: TableViews, tops: Sequence[SeenBlock3D], column_seen: set[int],
             ids_for_notes: dict[int, tuple[str, tuple[float, float]]]
             ) -> tuple[list[SeenBlock3D], list[str]]:
    """The blocks under the tops above the first level: tops, parts of tops, side faces.

    Returns every block (the tops first, in their order) and notes on what was assumed.
    """
    layout = views.layout
    pose = views.pose
    blocks = list(tops)
    notes: list[str] = []
    todo = [i for i, b in enumerate(blocks) if b.level > 1]
    while todo:
        i = todo.pop(0)
        top = blocks[i]
        if top.seen == "top":
            # blocks under a top: read tops its footprint overlaps, then the parts of tops
            # that show beside it (a block bridging two), else the column under it
            found = [j for j, b in enumerate(blocks) if b.level == top.level - 1
                     and b.seen in ("top", "part")
                     and _overlap_mm2(b.outline, top.outline) > SUPPORT_OVERLAP_MM2
                     and not _shows_under(views, b, top)]
            seen_tops = [b for j, b in enumerate(blocks) if j != i and b.seen == "top"]
            scan = _part_scan(views, top, seen_tops, [blocks[j] for j in found])
            parts = [p for p, _v in scan]
            measured = {id(p) for p, in_view in scan if in_view}
            for beside in [p for p in parts if p.seen == "top"]:
                if not any(b.level == beside.level and np.hypot(
                        b.centre[0] - beside.centre[0], b.centre[1] - beside.centre[1])
                        < 0.7 * layout.block_mm for b in blocks):
                    blocks.append(beside)
                    if beside.level > 1:
                        todo.append(len(blocks) - 1)
            parts = _apart(top, _across(top, [p for p in parts if p.seen == "part"]),
                           layout.block_mm)
            if (parts and not found and top.level > 2 and id(top) not in column_seen
                    and not any(_carried(views, p, blocks) for p in parts)):
                # parts a level up must stand on something too: when none does, the top
                # was read too high (its size, at the noise of measuring it)
                blocks[i] = _lowered(top, pose)
                todo.insert(0, i)
                continue
            for part in parts:
                blocks.append(part)
                found.append(len(blocks) - 1)
                if part.level > 1:
                    todo.append(len(blocks) - 1)
            if (len(found) == 1 and (id(blocks[found[0]]) in measured
                                     or blocks[found[0]].seen == "top")
                    and not _over(blocks[found[0]], top.centre, BALANCE_MM)):
                # one block under it, read as a top or from the part of its top beside it
                # seen to its outer edge, and its centre not over that one: it would tip
                # over, so a block on the
                # other side carries it too (the other half of a bridge, hidden under it):
                # as far beyond its centre as the one seen
                other = _other_support(views, top, blocks[found[0]], blocks, i, notes,
                                       ids_for_notes)
                if other is not None:
                    found.append(other)
                    if blocks[other].level > 1 and blocks[other].seen != "top":
                        todo.append(other)
            if found:
                for j in found:
                    blocks[i] = _with_support(blocks[i], j)
                continue
        level = top.level - 1
        others = [b for j, b in enumerate(blocks) if j != i and b.seen != "assumed"
                  and np.hypot(b.centre[0] - top.centre[0],
                               b.centre[1] - top.centre[1]) > 0.5 * layout.block_mm]
        colour, share = _side_colour(views, top.outline, level, others)
        seen = "side"
        if top.seen == "top" and id(top) not in column_seen and (
                colour is None or share < SIDE_SHARE or colour == top.colour):
            # nothing shows under it (no top, no part of one, no side face of another
            # colour: its own side faces look the same) and its column was not seen meet
            # the table: at 640x480 a level is a pixel or two of a top's size, under the
            # noise of measuring it, so it is a level lower
            blocks[i] = _lowered(top, pose)
            if blocks[i].level > 1:
                todo.insert(0, i)
            continue
        if colour is None or share < SIDE_SHARE:
            # a hint of a colour on its side faces, else the colour the set has most left
            colour, seen = colour or likeliest_colour(b.colour for b in blocks), "assumed"
            top_colour, top_at = ids_for_notes.get(i, (top.colour, top.centre))
            notes.append(hidden_block_note(colour, top.centre, level, top_colour,
                                           top_at=top_at))
        blocks.append(SeenBlock3D(colour, top.centre, top.angle, level, top.outline,
                                  (), seen, top.size_mm))
        below = len(blocks) - 1
        blocks[i] = _with_support(blocks[i], below)
        if level > 1:
            todo.append(below)
    return blocks, notes


def _over(block: SeenBlock3D, point: tuple[float, float], margin: float) -> bool:
    """Whether ``point`` lies over ``block``'s top at least ``margin`` mm in from its edges."""
    u, v = face_axes(block.angle)
    d = np.asarray(point, np.float64) - np.asarray(block.centre, np.float64)
    half = float(np.linalg.norm(block.outline[0] - block.outline[1])) / 2
    return max(abs(float(d @ u)), abs(float(d @ v))) <= half - margin


def _other_support(views: TableViews, top: SeenBlock3D, seen: SeenBlock3D,
                   blocks: list[SeenBlock3D], i: int, notes: list[str],
                   ids_for_notes: dict[int, tuple[str, tuple[float, float]]]) -> int | None:
    """The index of the block that carries ``top`` with ``seen``, added when not read.

    It stands beside ``seen`` on the far side of the top's centre, touching it (a block
    can stand no nearer, and the top's centre is then over the two): along the top's side
    nearest that direction, as far across it as the top's centre is from ``seen``'s
    twice over. A block read there already is it (a top read overlapping the place, from
    the strip of its top in view, is moved there), else it is added, its colour from its
    side faces or assumed (noted).
    """
    layout = views.layout
    c = np.asarray(top.centre, np.float64)
    s = np.asarray(seen.centre, np.float64)
    axis = max((a * np.sign(float(a @ (c - s))) for a in face_axes(seen.angle)),
               key=lambda a: float(a @ (c - s)))
    across = np.array([-axis[1], axis[0]])
    place = s + axis * layout.block_mm + across * 2 * float(across @ (c - s))
    xy = (float(place[0]), float(place[1]))
    for j, b in enumerate(blocks):
        if b.level == seen.level and np.hypot(b.centre[0] - xy[0], b.centre[1] - xy[1]) \
                < 0.7 * layout.block_mm:
            if _overlap_mm2(b.outline, top.outline) > SUPPORT_OVERLAP_MM2:
                return j
            if b.seen != "top" or _whole_top_in_view(views, b):
                return None
            # a top read there overlaps the place the second support must take, so it is
            # that support (blocks are solid: no other block fits there), read from the
            # strip of its top the bridge leaves in view as a whole top, half a block off
            blocks[j] = _moved(b, place)
            return j
    outline = square(xy, layout.block_mm, top.angle)
    # the top it carries hides part of its side faces as well as the other tops do
    others = [top, *(b for j, b in enumerate(blocks) if j != i and b.seen != "assumed"
                     and np.hypot(b.centre[0] - xy[0], b.centre[1] - xy[1])
                     > 0.5 * layout.block_mm)]
    colour, share = _side_colour(views, outline, seen.level, others, top_too=True)
    seen_by = "side"
    if colour is None or share < SIDE_SHARE:
        # nothing of it shows: assumed in the colour the set has most left
        colour, seen_by = likeliest_colour(b.colour for b in blocks), "assumed"
        top_colour, top_at = ids_for_notes.get(i, (top.colour, top.centre))
        notes.append(hidden_block_note(colour, xy, seen.level, top_colour, second=True,
                                       top_at=top_at))
    blocks.append(SeenBlock3D(colour, xy, top.angle, seen.level, outline, (), seen_by,
                              layout.block_mm))
    return len(blocks) - 1


def _too_high(blocks: Sequence[SeenBlock3D], n_tops: int, column_seen: set[int]) -> set[int]:
    """Tops read by their size whose columns had to assume a block two or more levels down.

    Only tops (indexes under ``n_tops``) at level 3 or more whose column was not seen.
    """
    out: set[int] = set()
    for i in range(n_tops):
        top = blocks[i]
        if top.seen != "top" or top.level < 3 or id(top) in column_seen:
            continue
        stack, seen = list(top.rests_on), set()
        while stack:
            j = stack.pop()
            if j in seen:
                continue
            seen.add(j)
            if blocks[j].seen == "assumed" and blocks[j].level <= top.level - 2:
                out.add(i)
                break
            stack.extend(blocks[j].rests_on)
    return out


BALANCE_MM = 5.0
"""A block stands on one block alone only with its centre this far (mm) inside that one's
top; nearer its edge (a bridge's half seen) a second block carries it."""

TOP_CLEAR_MM = 2.0
"""A point of a hidden block's top counts for its colour only when the camera sees it this
far clear of every other block in each direction (a pixel or more at 640x480)."""

SIDE_SHARE = 0.3
"""A block under a top is read from its side faces when this share of them has its colour."""

WHOLE_TOP_SHARE = 0.85
"""A top read whose square shows its colour over at least this share is a whole top in view,
not the strip of a bridge's support read as a top (the bridge hides half of that square)."""


def _whole_top_in_view(views: TableViews, block: SeenBlock3D) -> bool:
    """Whether ``block``'s read square shows its colour all over, in its level's view."""
    plane = block.level * views.layout.block_height_mm
    classes = views.classes(plane)
    mask = np.zeros(classes.shape, np.uint8)
    inner = inset(np.asarray(block.outline, np.float64), 0.1 * views.layout.block_mm)
    cv2.fillPoly(mask, [np.round(inner * views.px_per_mm).astype(np.int32)], 1)
    inside = mask > 0
    n = int(np.count_nonzero(inside))
    own = int(np.count_nonzero(classes[inside] == views.palette.index(block.colour)))
    return n > 0 and own >= WHOLE_TOP_SHARE * n


SUPPORT_OVERLAP_MM2 = 400.0
"""A block one level down whose footprint shares this much (mm²) with a top's carries it: a
quarter of a top (10 mm of its width). A bridge rests about half on each of its blocks; a
top read a level too high moves by the parallax (5-10 mm) onto the neighbour on its nadir
side and shares a strip of 200-250 mm² with it, which carries nothing."""

WHOLE_TOP = 0.9
"""A strip beside a top this share of a block long, in view all along, is a top beside it."""

PART_MIN_MM = 5.0
"""A part of a top beside a block standing on it is read from this width (mm) up."""


def _on_two(top: SeenBlock3D, parts: Sequence[tuple[SeenBlock3D, bool]],
            edge_seen: bool = True) -> bool:
    """Whether parts of tops under ``top`` show on two opposite sides of it (a bridge).

    ``parts``: each with whether its outer edge is in view (:func:`_part_scan`). A block
    resting on two shows a strip of each beside two opposite sides; strips on two
    adjacent sides are the corners of neighbours standing round it, not its supports.
    How far each strip reaches out is no test: a strip of the bridge's own colour, or one
    in the shadow of the bridge, measures short. With ``edge_seen`` one of the two must
    show its outer edge (the other may run under a neighbour); else (a top no smaller than
    a first-level one) neither need.
    """
    mid = np.asarray(top.centre, np.float64)
    sides = [((np.asarray(p.centre, np.float64) - mid), in_view) for p, in_view in parts
             if p.seen == "part"]
    for k, (a, a_seen) in enumerate(sides):
        for b, b_seen in sides[k + 1:]:
            opposite = float(a @ b) < -0.5 * float(np.linalg.norm(a) * np.linalg.norm(b))
            if opposite and (a_seen or b_seen or not edge_seen):
                return True
    return False


def _across(top: SeenBlock3D, parts: Sequence[SeenBlock3D]) -> list[SeenBlock3D]:
    """The parts of a bridge's two supports, when two show on opposite sides of ``top``.

    A block rests on one block, on two (a bridge, across their joint) or on four (over
    their common corner). With strips on two opposite sides it is a bridge, so a strip on
    a third side is a block standing beside one of its supports (a corner of it showing
    past the bridge's edge), not under it; the parts on the bridge's axis are kept.
    Otherwise all parts are kept.
    """
    mid = np.asarray(top.centre, np.float64)
    offsets = [np.asarray(p.centre, np.float64) - mid for p in parts]
    for k, a in enumerate(offsets):
        for b in offsets[k + 1:]:
            na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
            if na > 1e-6 and nb > 1e-6 and float(a @ b) < -0.5 * na * nb:
                axis = a / na
                return [p for p, o in zip(parts, offsets, strict=True)
                        if abs(float(o @ axis)) > 0.5 * float(np.linalg.norm(o))]
    return list(parts)


def _apart(top: SeenBlock3D, parts: Sequence[SeenBlock3D], block_mm: float
           ) -> list[SeenBlock3D]:
    """Parts on opposite sides of ``top`` moved apart until they no longer overlap.

    Blocks are solid: the two blocks carrying a bridge stand a block's size apart at
    least. When the strips beside it read their centres closer than that, the strips
    measured short (the groove and the shadow along the bridge's edge, a strip of the
    bridge's own colour) and tell nothing of where along them the bridge stands: it is
    then taken to stand as a bridge is built, centred over the two, each half a block
    from its centre.
    """
    mid = np.asarray(top.centre, np.float64)
    offsets = [np.asarray(p.centre, np.float64) - mid for p in parts]
    out = list(parts)
    for k, a in enumerate(offsets):
        for m in range(k + 1, len(offsets)):
            b = offsets[m]
            na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
            if na < 1e-6 or nb < 1e-6 or float(a @ b) > -0.5 * na * nb:
                continue
            short = block_mm - (na + nb)
            if short <= 0:
                continue
            out[k] = _moved(out[k], a / na * block_mm / 2 + mid)
            out[m] = _moved(out[m], b / nb * block_mm / 2 + mid)
    return out


def _moved(block: SeenBlock3D, centre: np.ndarray) -> SeenBlock3D:
    """The same block with its centre at ``centre`` (its outline moved with it)."""
    xy = (float(centre[0]), float(centre[1]))
    shift = np.asarray(xy) - np.asarray(block.centre, np.float64)
    return SeenBlock3D(block.colour, xy, block.angle, block.level,
                       np.asarray(block.outline, np.float64) + shift, block.rests_on,
                       block.seen, block.size_mm)


UNCOVERED_SHARE = 0.6
"""A read top that shows its own colour over this share of the strip a raised top would
stand on is not under it: a block resting on it would cover that strip (the camera would
see the raised block's colour there)."""


def _shows_under(views: TableViews, below: SeenBlock3D, top: SeenBlock3D) -> bool:
    """Whether ``below``'s top shows its colour where ``top`` would stand on it.

    Only for a ``below`` of another colour than ``top`` (the same colour tells nothing).
    """
    if below.colour == top.colour:
        return False
    _area, strip = cv2.intersectConvexConvex(np.asarray(below.outline, np.float32),
                                             np.asarray(top.outline, np.float32))
    if strip is None or len(strip) < 3:
        return False
    poly = strip.reshape(-1, 2).astype(np.float64)
    lo, hi = poly.min(axis=0), poly.max(axis=0)
    xs, ys = np.meshgrid(np.arange(lo[0] + 1.5, hi[0] - 1.0, 2.0),
                         np.arange(lo[1] + 1.5, hi[1] - 1.0, 2.0))
    pts = np.column_stack([xs.ravel(), ys.ravel()])
    pts = pts[_inside(pts, poly)]
    if len(pts) < 8:
        return False
    z = below.level * views.layout.block_height_mm
    bgr, ok, _px = views.sample(np.column_stack([pts, np.full(len(pts), z)]))
    if int(ok.sum()) < 8:
        return False
    cls = views.classes_of(bgr, ok)
    own = (cls == views.palette.index(below.colour)) | views.chroma_match(bgr, below.colour)
    return float(own[ok].mean()) >= UNCOVERED_SHARE


def _overlap_mm2(a: np.ndarray, b: np.ndarray) -> float:
    """Area (mm²) two convex footprints share."""
    area, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return float(area)


def _lowered(top: SeenBlock3D, pose: TablePose, by: int = -1) -> SeenBlock3D:
    """The same top a level lower (``by`` -1) or higher (+1).

    Its centre is where the ray through it meets that level's plane.
    """
    h = pose.layout.block_height_mm
    px = pose.project([[top.centre[0], top.centre[1], top.level * h]])
    c = pose.to_plane(px, (top.level + by) * h)[0]
    centre = (float(c[0]), float(c[1]))
    return SeenBlock3D(top.colour, centre, top.angle, top.level + by,
                       square(centre, pose.layout.block_mm, top.angle), top.rests_on, top.seen,
                       top.size_mm)


def _carried(views: TableViews, part: SeenBlock3D, blocks: Sequence[SeenBlock3D]) -> bool:
    """Whether something shows under a block above the first level.

    A read top it overlaps one level down, or side faces of another colour under it.
    """
    if any(b.level == part.level - 1 and b.seen == "top"
           and _overlap_mm2(b.outline, part.outline) > SUPPORT_OVERLAP_MM2 for b in blocks):
        return True
    others = [b for b in blocks if b.seen != "assumed"
              and np.hypot(b.centre[0] - part.centre[0], b.centre[1] - part.centre[1])
              > 0.5 * views.layout.block_mm]
    colour, share = _side_colour(views, part.outline, part.level - 1, others)
    return colour is not None and colour != part.colour and share >= SIDE_SHARE


def _raised(top: SeenBlock3D, pose: TablePose) -> SeenBlock3D:
    """The same top a level higher."""
    return _lowered(top, pose, +1)


def _part_tops(views: TableViews, top: SeenBlock3D, seen_tops: Sequence[SeenBlock3D],
               supports: Sequence[SeenBlock3D], edge_seen: bool = False
               ) -> list[SeenBlock3D]:
    """Blocks under ``top`` read from the parts of their tops that show beside it.

    See :func:`_part_scan`; with ``edge_seen`` only parts whose outer edge is in view.
    """
    return [p for p, in_view in _part_scan(views, top, seen_tops, supports)
            if in_view or not edge_seen]


def _part_scan(views: TableViews, top: SeenBlock3D, seen_tops: Sequence[SeenBlock3D],
               supports: Sequence[SeenBlock3D]) -> list[tuple[SeenBlock3D, bool]]:
    """Blocks under ``top`` from the parts of their tops, each with whether its edge shows.

    A block resting on two (a bridge) hides the middle of their tops; the rest of each
    shows beside it at the level below, as a strip of one colour along one of its sides.
    For each side of ``top`` the plane of the level below is sampled slice by slice
    outward (other blocks' boxes and the top's own box left out); a strip of one block
    colour and one shade is a part top, and its outer edge puts the block under: a block's
    size in from that edge (the edge out of view: as far under ``top`` as beyond it).
    Sides where a block already carries ``top`` are skipped.
    """
    layout = views.layout
    pose = views.pose
    ppm = views.px_per_mm
    size = layout.block_mm
    level = top.level - 1
    plane = level * layout.block_height_mm
    classes = views.classes(plane)
    grey = np.log(cv2.cvtColor(views.view(plane), cv2.COLOR_BGR2GRAY).astype(np.float32)
                  + 12.0)
    hidden = silhouettes(pose, [top, *seen_tops], ppm, plane, pad_mm=1.5,
                         from_mm=plane) > 0
    h, w = classes.shape
    centre = np.asarray(top.centre, np.float64)
    block_kinds = set(views.palette.of_kind("block"))
    steps = np.arange(size / 2 + 1.0, 1.6 * size, 1.0)           # outward from the side
    lateral = np.linspace(-0.4 * size, 0.4 * size, 17)
    parts: list[tuple[SeenBlock3D, bool]] = []
    for d in (*face_axes(top.angle), *(-a for a in face_axes(top.angle))):
        e = np.array([-d[1], d[0]])
        if any(float((np.asarray(b.centre) - centre) @ d) > 0.25 * size for b in supports):
            continue
        pts = (centre[None, None] + steps[:, None, None] * d[None, None]
               + lateral[None, :, None] * e[None, None])
        px = np.floor(pts * ppm).astype(int)
        inside = (px[..., 0] >= 0) & (px[..., 1] >= 0) & (px[..., 0] < w) & (px[..., 1] < h)
        px[..., 0] = np.clip(px[..., 0], 0, w - 1)
        px[..., 1] = np.clip(px[..., 1], 0, h - 1)
        cls = classes[px[..., 1], px[..., 0]]
        usable = inside & ~hidden[px[..., 1], px[..., 0]]
        shade = grey[px[..., 1], px[..., 0]]
        near = steps < size / 2 + 0.6 * size
        kinds = [k for k in np.unique(cls[near][usable[near]]) if int(k) in block_kinds]
        if not kinds:
            continue
        colour_k = max(kinds, key=lambda k: int(((cls == k) & usable)[near].sum()))
        mine = (cls == colour_k) & usable
        if mine[near].sum() < 0.5 * usable[near].sum() or mine[near].sum() < 3 * len(lateral):
            continue
        # slice by slice: the strip goes on while its colour (in one shade) fills the slice
        per_slice = usable.sum(axis=1)
        share = mine.sum(axis=1) / np.maximum(per_slice, 1)
        # the strip's shade is the median of its slices so far: the slice next to the block
        # above lies in its shadow and groove, and the top brightens away from it
        lums: list[float] = []
        end = first = None
        started = False
        for k in range(len(steps)):
            if per_slice[k] < 4:
                if started:
                    end = k
                continue
            lum = float(np.median(shade[k][mine[k]])) if mine[k].any() else 0.0
            if share[k] >= 0.5 and (not lums or abs(lum - float(np.median(lums))) < FACE_SHADE):
                lums.append(lum)
                first = k if first is None else first
                started = True
                end = k
                continue
            if started:
                break
            if steps[k] > size / 2 + 0.5 * size:
                break
        if not started or end is None or first is None:
            continue
        name = views.palette.classes[int(colour_k)].name
        if len(lums) >= WHOLE_TOP * size:      # a slice a millimetre
            # a whole top's length of it in view: a top beside ``top`` (one no face was
            # found for), not one under it
            near_edge = float(steps[first]) - 0.5
            mid = centre + d * (near_edge + size / 2)
            xy = (float(mid[0]), float(mid[1]))
            parts.append((SeenBlock3D(name, xy, top.angle, level, square(xy, size, top.angle),
                                      (), "top", size), True))
            continue
        outer = float(steps[end]) + 0.5
        if outer - size / 2 < PART_MIN_MM:
            continue
        in_view = outer < steps[-1] - 1.0
        if not in_view:
            outer = size                # its outer edge out of view: as far in as out
        offset = outer - size / 2
        mid = centre + d * offset
        xy = (float(mid[0]), float(mid[1]))
        parts.append((SeenBlock3D(name, xy, top.angle, level, square(xy, size, top.angle),
                                  (), "part", size), in_view))
    return parts


def _no_overlaps(blocks: list[SeenBlock3D], block_mm: float) -> list[SeenBlock3D]:
    kept: list[SeenBlock3D] = []
    for b in sorted(blocks, key=lambda b: abs(b.size_mm - block_mm)):
        if any(k.level == b.level and np.hypot(b.centre[0] - k.centre[0],
                                               b.centre[1] - k.centre[1])
               < OVERLAP_SHARE * block_mm
               for k in kept):
            continue
        kept.append(b)
    return kept


def _with_support(block: SeenBlock3D, support: int) -> SeenBlock3D:
    return SeenBlock3D(block.colour, block.centre, block.angle, block.level, block.outline,
                       (*block.rests_on, support), block.seen, block.size_mm)


def silhouettes(pose: TablePose, blocks: Sequence[SeenBlock3D], px_per_mm: float,
                height_mm: float, pad_mm: float = 3.0, from_mm: float = 0.0) -> np.ndarray:
    """Mask (255) of where the blocks' boxes appear in the view of the plane ``height_mm`` up.

    Each box is drawn from ``from_mm`` up (its own bottom when higher): with ``from_mm`` at
    the plane, only what stands in front of the plane (between it and the camera) is
    drawn, a box standing lower showing there only as its own top.
    """
    layout = pose.layout
    w, h = round(layout.width_mm * px_per_mm), round(layout.height_mm * px_per_mm)
    mask = np.zeros((h, w), np.uint8)
    hom = pose.plane_homography(height_mm)
    inv = np.linalg.inv(hom)
    corners = []
    for b in blocks:
        z1 = b.level * layout.block_height_mm
        z0 = min(max(z1 - layout.block_height_mm, from_mm), z1)
        poly = np.asarray(b.outline, np.float64)
        mid = poly.mean(axis=0)
        rad = poly - mid
        big = mid + rad * (1 + pad_mm * 1.4142 / np.linalg.norm(rad, axis=1, keepdims=True))
        corners += [[x, y, z] for x, y in big for z in (z0, z1 + pad_mm)]
    if not corners:
        return mask
    px = pose.project(corners, distort=False)          # all boxes in one projection
    on_plane = cv2.perspectiveTransform(px.reshape(-1, 1, 2), inv).reshape(-1, 8, 2)
    for box in on_plane:
        hull = cv2.convexHull((box * px_per_mm).astype(np.float32)).reshape(-1, 2)
        cv2.fillPoly(mask, [np.round(hull).astype(np.int32)], 255)
    return mask


def _hand_in_view(views: TableViews, blocks: Sequence[SeenBlock3D],
                  pawns: Sequence[SeenPawn3D]) -> bool:
    """A hand or an arm over the table, outside the boxes of the blocks and pawns read.

    The play check's test (:func:`~vision.readers.hands3d.hand_mask`), with the blocks read
    here standing for the engine's: blocks assumed under others explain no pixel.
    """
    layout = views.layout
    h1 = layout.block_height_mm
    coarse = TableViews(views.frame, views.pose, views.palette, HAND_PX_PER_MM)
    ppm = coarse.px_per_mm
    shown = [b for b in blocks if b.seen != "assumed"]
    boxes = silhouettes(views.pose, shown, ppm, h1)
    for p in pawns:
        cv2.circle(boxes, (round(p.centre[0] * ppm), round(p.centre[1] * ppm)),
                   max(1, round(layout.pawn_mm * ppm)), 255, -1)
    return hand_mask(coarse, h1, boxes)[1]
