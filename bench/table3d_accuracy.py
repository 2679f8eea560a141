"""The issue-12 table on the photoreal set: blocks, touching, pawns, removals, stacks, hands.

Every figure of issue 12's table, measured on the photoreal renders with ground truth
(``tests/data/table3d`` or ``artifacts/table3d``; format in ``vision/devtools/table3d_truth``),
per lighting and camera height, with the held-out families (``split.json``) reported apart.

The set-up is the documented one: the camera's pose from the four markers of each photo,
colours learnt on the table from the family's set-up photo (``before``), the field read from
that photo; play-time checks use the engine's field (the players confirmed it at set-up) and
the camera model. Intrinsics: the camera's own (standing for ``calibrate-camera``), and
separately none at all (focal length assumed, no distortion model) to show what that costs.

Usage:
    .venv/bin/python bench/table3d_accuracy.py [--folder DIR] [--split holdout|tune|all]
        [--intrinsics true|none] [--families 100-179] [--fields all|stacked|flat]
        [--verbose]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.games.infinifield import Block, Field, build_field
from vision.calibration import CalibrationError, calibrate
from vision.camera_model import Intrinsics, shipped_camera, shipped_cameras
from vision.devtools.table3d_scene import family_numbers
from vision.devtools.table3d_truth import SceneTruth, iter_scenes, load_scene
from vision.layout import TableLayout
from vision.palette import Palette
from vision.pose import PoseError, find_table_markers, solve_pose
from vision.readers.added3d import FirstLevelPhoto
from vision.readers.field3d import FieldReading, SeenBlock3D, read_field
from vision.readers.ground3d import first_level
from vision.readers.notes import TOWER_UNSURE
from vision.readers.table_views import TableViews, learn_palette
from vision.readers.verify import check_blocks, locate_pawn

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = (ROOT / "artifacts" / "table3d", ROOT / "tests" / "data" / "table3d")
MATCH_MM = 15.0
"""A read block matches a true one of the same level within this distance (mm)."""


def height_band(h_mm: float) -> str:
    """The camera-height band a scene is reported in."""
    for lo, hi in ((0, 550), (550, 650), (650, 800)):
        if lo <= h_mm < hi:
            return f"{lo // 10}-{hi // 10} cm"
    return "80+ cm"


def truth_field(scene: SceneTruth) -> Field:
    """The engine's field of a scene (what the players confirmed at set-up)."""
    blocks = [Block.square(b.id, b.colour, b.centre_mm, (b.size_mm[0], b.size_mm[1]),
                           b.angle_deg, b.size_mm[2], b.rests_on)
              for b in scene.blocks.values()]
    pairs = [tuple(sorted(p)) for p in scene.touching]
    return build_field(blocks, pairs)


def pawn_places(scene: SceneTruth) -> dict[str, str | None]:
    """Where the engine has each pawn of a scene (what the tracker knows in play)."""
    return {p.colour: p.block for p in scene.pawns}


SHIPPED_CAMERAS = tuple(shipped_cameras())

INTRINSICS_CHOICES = ("true", "none", *SHIPPED_CAMERAS)
"""What ``--intrinsics`` may name: the render's own camera (standing for
``calibrate-camera``), none (estimated from the markers), or a shipped default named in the
calibration file as a user without a measured camera would (none of them is the render's
lens)."""


def intrinsics_of(scene: SceneTruth, which: str) -> Intrinsics | None:
    """The scene camera's intrinsics (``true``), none (``none``) or a shipped default."""
    if which == "none":
        return None
    if which in SHIPPED_CAMERAS:
        return shipped_camera(which)
    cam = scene.camera
    return Intrinsics(np.asarray(cam.K, float), np.asarray(cam.dist, float), cam.size,
                      "calibrated", "calibrated")


def match(reading: FieldReading, scene: SceneTruth) -> dict[str, int]:
    """True block id -> index of the read block of its level nearest its centre (unique)."""
    cands = []
    for bid, b in scene.blocks.items():
        for i, s in enumerate(reading.blocks):
            if s.level != b.level:
                continue
            d = math.hypot(s.centre[0] - b.centre_mm[0], s.centre[1] - b.centre_mm[1])
            if d <= MATCH_MM:
                cands.append((d, bid, i))
    out: dict[str, int] = {}
    used: set[int] = set()
    for _d, bid, i in sorted(cands):
        if bid not in out and i not in used:
            out[bid] = i
            used.add(i)
    return out


@dataclass
class Tally:
    """Counts for one group of scenes."""

    c: Counter[str] = field(default_factory=Counter)
    errors: list[float] = field(default_factory=list)
    far: list[tuple[float, str, str]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.c.update(other.c)
        self.errors += other.errors
        self.far += other.far


FAR_MM = 5.0
"""Blocks whose top's centre is read further than this from the truth are listed (verbose)."""


def score_setup(scene: SceneTruth, reading: FieldReading, t: Tally) -> None:
    """Blocks, colours, centres, touching, pawns, stacks of one set-up reading."""
    m = match(reading, scene)
    right = 0
    for bid, b in scene.blocks.items():
        t.c["blocks"] += 1
        if bid in m and reading.blocks[m[bid]].colour == b.colour:
            right += 1
            t.c["blocks_right"] += 1
            s = reading.blocks[m[bid]]
            if s.seen == "top":
                t.errors.append(math.hypot(s.centre[0] - b.centre_mm[0],
                                           s.centre[1] - b.centre_mm[1]))
                if t.errors[-1] > FAR_MM:
                    t.far.append((t.errors[-1], scene.id, bid))
        if b.level == 1 and b.top_visible > 0.5:
            t.c["blocks_top_seen"] += 1
            t.c["blocks_top_seen_right"] += bid in m and reading.blocks[m[bid]].colour == b.colour
    t.c["false_blocks"] += len(reading.blocks) - len(m)
    inv = {i: bid for bid, i in m.items()}
    read_pairs = {frozenset((inv.get(i, f"?{i}"), inv.get(j, f"?{j}"))) for i, j in
                  reading.touching}
    graph_exact = (read_pairs == set(scene.touching) and len(m) == len(scene.blocks)
                   and len(reading.blocks) == len(scene.blocks))
    if not scene.stacked:
        t.c["flat_scenes"] += 1
        t.c["flat_touching_exact"] += graph_exact
    else:
        t.c["stacked_scenes"] += 1
        stacks_right = all(
            bid in m and reading.blocks[m[bid]].colour == b.colour
            and {inv.get(j) for j in reading.blocks[m[bid]].rests_on} == set(b.rests_on)
            for bid, b in scene.blocks.items())
        t.c["stacked_right"] += stacks_right and graph_exact
        # and once the players have settled the pairs asked about (amber on the screen)
        asked = {frozenset((inv.get(i, f"?{i}"), inv.get(j, f"?{j}")))
                 for i, j in reading.unsure_touching}
        settled = (read_pairs - asked) | (asked & set(scene.touching))
        t.c["stacked_right_asked"] += stacks_right and settled == set(scene.touching) and (
            len(m) == len(scene.blocks) == len(reading.blocks))
        for shape, read in raised_tops_read(scene, reading):
            t.c[f"raised {shape}"] += 1
            t.c[f"raised {shape} {read}"] += 1
        wrongs = [] if stacks_right and graph_exact else stacked_wrongs(scene, reading)
        for kind in wrongs:
            t.c[f"wrong: {kind}"] += 1
        if len(wrongs) == 1:
            t.c[f"only wrong: {wrongs[0]}"] += 1
        # right but for colours no camera can see (the set-up screen asks about them)
        t.c["stacked_right_seen"] += graph_exact and (
            stacks_right or wrongs == ["hidden block's colour (assumed)"])
        level_pairs_asked(scene, reading, m, t)
        towers_asked(scene, reading, m, t)
    for p in scene.pawns:
        if p.block is None:
            continue
        t.c["pawns"] += 1
        seen = [q for q in reading.pawns if q.colour == p.colour]
        t.c["pawns_right"] += (len(seen) == 1 and p.block in m
                               and seen[0].block == m[p.block])
    t.c["false_pawns"] += sum(1 for q in reading.pawns
                              if q.colour not in {p.colour for p in scene.pawns})


def level_pairs_asked(scene: SceneTruth, reading: FieldReading, m: dict[str, int],
                      t: Tally) -> None:
    """Pairs of blocks a level apart (both read, neither on the other): read wrong, and
    asked about (``reading.unsure_touching``, the set-up screen's amber lines)."""
    inv = {i: bid for bid, i in m.items()}
    truth = set(scene.touching)
    read = {frozenset((inv[i], inv[j])) for i, j in reading.touching if i in inv and j in inv}
    asked = {frozenset((inv[i], inv[j])) for i, j in reading.unsure_touching
             if i in inv and j in inv}
    ids = list(m)
    for n, a in enumerate(ids):
        for b in ids[n + 1:]:
            ta, tb = scene.blocks[a], scene.blocks[b]
            if abs(ta.level - tb.level) != 1 or a in tb.rests_on or b in ta.rests_on:
                continue
            pair = frozenset((a, b))
            wrong = (pair in read) != (pair in truth)
            t.c["level pairs"] += 1
            t.c["level pairs wrong"] += wrong
            t.c["level pairs asked"] += pair in asked
            t.c["level pairs wrong asked"] += wrong and pair in asked


WRONG_KINDS = (
    "tower top read a level low", "top read a level high", "block missed",
    "block read where none is", "top's colour", "hidden block's colour (side face)",
    "hidden block's colour (assumed)", "hidden block's colour (part of its top)",
    "what a block rests on", f"a block read over {FAR_MM:.0f} mm off its place",
    "touching pairs of blocks read right",
)
"""What can keep a stacked field from being read fully right (see :func:`stacked_wrongs`)."""


RAISED_READS = ("right", "low", "high", "missed")
"""How a top above the first level was read (:func:`raised_tops_read`)."""


def towers_asked(scene: SceneTruth, reading: FieldReading, m: dict[str, int], t: Tally
                 ) -> None:
    """First-level blocks asked about as maybe carrying one of their colour (the set-up
    screen's ``+``, ``tower_unsure`` notes), how many truly do, and the blocks on one of
    their own colour the reading missed, and whether their block was asked about."""
    asked: set[str] = set()
    for note in reading.notes:
        if getattr(note, "kind", None) != TOWER_UNSURE:
            continue
        near = [b for b in scene.blocks.values() if b.level == 1 and b.colour == note.colour
                and math.hypot(b.centre_mm[0] - note.at[0], b.centre_mm[1] - note.at[1])
                < MATCH_MM]
        t.c["tower asks"] += 1
        if near:
            asked.add(near[0].id)
            t.c["tower asks true"] += any(o.colour == near[0].colour and near[0].id in o.rests_on
                                          for o in scene.blocks.values())
    for b in scene.blocks.values():
        if b.level > 1 and b.id not in m and any(
                scene.blocks[s].colour == b.colour for s in b.rests_on):
            t.c["own colour missed"] += 1
            t.c["own colour missed asked"] += any(s in asked for s in b.rests_on)


def raised_tops_read(scene: SceneTruth, reading: FieldReading) -> list[tuple[str, str]]:
    """How each top above the first level was read: ``(shape, read)`` per such top.

    ``shape`` is ``tower`` (on one block) or ``bridge`` (on two or more); ``read`` is
    ``right`` where a read block stands over its column (within :data:`MATCH_MM`) at its
    level, else ``low`` or ``high`` where one stands there a level off (the lowest such,
    as :func:`stacked_wrongs` calls it), else ``missed``. Level cues fail differently on
    the two shapes: a tower's column shows only on its outer sides, a bridge's top rests
    on two tops whose parts show beside it.
    """
    covered = {r for b in scene.blocks.values() for r in b.rests_on}
    out = []
    for bid, b in scene.blocks.items():
        if b.level < 2 or bid in covered:
            continue
        over = [s.level for s in reading.blocks
                if math.hypot(s.centre[0] - b.centre_mm[0], s.centre[1] - b.centre_mm[1])
                <= MATCH_MM]
        read = ("right" if b.level in over else "low" if any(v < b.level for v in over)
                else "high" if over else "missed")
        out.append(("tower" if len(b.rests_on) == 1 else "bridge", read))
    return out


def stacked_wrongs(scene: SceneTruth, reading: FieldReading) -> list[str]:
    """What keeps one stacked field's reading from being fully right, in the order of
    :data:`WRONG_KINDS`; empty when it is right.

    A top read a level off shows as a read block over the true one's column (within
    :data:`MATCH_MM`) at another level; blocks under it then count as missed only when
    nothing else explains them. A hidden block's colour is told apart by how the reading
    saw it (``side``, ``assumed``, ``part``): an assumed colour cannot be seen at all.
    Touching pairs count between blocks read right (matched, colour and support right, the
    centre within :data:`FAR_MM`): a pair lost with a block missed or misplaced is that
    block's fault, not the pairs'.
    """
    m = match(reading, scene)
    inv = {i: bid for bid, i in m.items()}
    found: set[str] = set()
    near_read = set()
    for bid, b in scene.blocks.items():
        if bid in m:
            s = reading.blocks[m[bid]]
            above = [oid for oid, o in scene.blocks.items() if bid in o.rests_on]
            if above and s.seen == "top" and not any(oid in m for oid in above):
                # the top of the tower over it, read a level low, stands in for it (a
                # block under others read as a top whose load is not read: a hidden
                # block the first level's photo saw carries what was read on it)
                found.add("tower top read a level low")
            elif s.colour != b.colour:
                found.add("top's colour" if s.seen == "top" else {
                    "side": "hidden block's colour (side face)",
                    "assumed": "hidden block's colour (assumed)",
                }.get(s.seen, "hidden block's colour (part of its top)"))
            elif {inv.get(j) for j in s.rests_on} != set(b.rests_on):
                found.add("what a block rests on")
            continue
        over = [s for s in reading.blocks
                if math.hypot(s.centre[0] - b.centre_mm[0],
                              s.centre[1] - b.centre_mm[1]) <= MATCH_MM]
        on_top = not any(bid in o.rests_on for o in scene.blocks.values())
        if on_top and any(s.level < b.level for s in over):
            found.add("tower top read a level low")
            near_read.update(id(s) for s in over)
        elif any(s.level > b.level for s in over if s.seen == "top"):
            found.add("top read a level high")
            near_read.update(id(s) for s in over)
        elif not found & {"tower top read a level low", "top read a level high"}:
            found.add("block missed")
    for i, s in enumerate(reading.blocks):
        if i not in inv and id(s) not in near_read:
            # no block of its level there (one over a first-level block of its colour read
            # as a tower on it, a second top read over one block)
            found.add("block read where none is")
    right = {bid for bid, i in m.items()
             if reading.blocks[i].colour == scene.blocks[bid].colour
             and {inv.get(j) for j in reading.blocks[i].rests_on}
             == set(scene.blocks[bid].rests_on)}
    off = {bid for bid in right if math.hypot(
        reading.blocks[m[bid]].centre[0] - scene.blocks[bid].centre_mm[0],
        reading.blocks[m[bid]].centre[1] - scene.blocks[bid].centre_mm[1]) > FAR_MM}
    if off:
        found.add(f"a block read over {FAR_MM:.0f} mm off its place")
    right -= off
    read_pairs = {frozenset((inv[i], inv[j])) for i, j in reading.touching
                  if inv.get(i) in right and inv.get(j) in right}
    if read_pairs != {p for p in scene.touching if p <= right}:
        found.add("touching pairs of blocks read right")
    return [k for k in WRONG_KINDS if k in found]


def score_pair(before: SceneTruth, after: SceneTruth, pose_after: object, palette: Palette,
               frame: np.ndarray, t: Tally, verbose: bool = False,
               reference: TableViews | None = None) -> None:
    """A removal or a pawn move between a family's set-up photo and its after photo.

    ``reference``: the set-up photo's views, the last still view that showed every block
    (as the watcher keeps it during play).
    """
    action = after.action or {}
    fld = truth_field(before)
    views = TableViews(frame, pose_after, palette)  # type: ignore[arg-type]
    if action.get("kind") == "remove":
        t.c["removals"] += 1
        check = check_blocks(frame, pose_after, fld, (), palette, views,  # type: ignore[arg-type]
                             reference, pawn_places(before))
        t.c["removals_right"] += check.removal == action["block"]
        if verbose and check.removal != action["block"]:
            odd = {b: (c.status, round(c.share, 2), round(c.visible, 2))
                   for b, c in check.blocks.items() if c.status not in ("seen", "covered")
                   or b == action["block"]}
            print(f"  {after.id}: removed {action['block']}, read {check.removal}: {odd}"
                  f"{' hands' if check.hands_in_view else ''}")
    elif action.get("kind") == "move":
        t.c["moves"] += 1
        origin = action["from"]
        hyps = [origin, *fld.neighbours(origin)]
        where = locate_pawn(views, fld, action["pawn"], hyps)
        t.c["moves_right"] += where.block == action["to"]
        t.c["moves_unsure"] += where.block is None
        if verbose and where.block != action["to"]:
            print(f"  {after.id}: {action['pawn']} {origin}->{action['to']}, read {where.block}:"
                  f" {({b: round(v, 2) for b, v in where.shares.items()})}")


def first_level_read(scene: SceneTruth, ground_dir: Path | None, which: str,
                     palette: Palette) -> tuple[list[SeenBlock3D], FirstLevelPhoto | None]:
    """The first level read on the family's ``ground`` photo in ``ground_dir``, if any.

    That photo shows the field before anything was stacked on it (rendered for stacked
    families, :mod:`vision.devtools.render_table`); it is read with its own pose and the
    family's palette, as the app reads it at set-up.

    Returns:
        The first level's blocks and the photo with its pose (none without the photo).
    """
    if ground_dir is None:
        return [], None
    path = ground_dir / f"{scene.family}_ground.json"
    if not path.is_file():
        return [], None
    photo = load_scene(path)
    frame = photo.image()
    try:
        pose = solve_pose(find_table_markers(frame, photo.layout), photo.camera.size,
                          intrinsics_of(photo, which), photo.layout)
    except PoseError:
        return [], None
    views = TableViews(frame, pose, palette)
    reading = read_field(frame, pose, palette, views=views)
    return first_level(reading.blocks, views), FirstLevelPhoto(frame, pose)


def evaluate(scenes: Sequence[SceneTruth], which: str, verbose: bool = False,
             ground_dir: Path | None = None, ground_photo: bool = True
             ) -> dict[tuple[str, str], Tally]:
    """Score every scene; tallies keyed by (group kind, group name).

    With ``ground_dir``, a stacked family's set-up photo is read with the first level read
    on its ``ground`` photo there (:func:`first_level_read`), and with that photo itself
    unless ``ground_photo`` is false (the blocks only, as before the photo was kept).
    """
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    families: dict[str, dict[str, SceneTruth]] = defaultdict(dict)
    for s in scenes:
        families[s.family][s.role] = s
    for _family, roles in sorted(families.items()):
        before = roles.get("before")
        if before is None:
            continue
        palette: Palette | None = None
        reference: TableViews | None = None
        for role, scene in sorted(roles.items(), key=lambda kv: kv[0] != "before"):
            if role == "ground":        # read only with its set-up photo (``ground_dir``)
                continue
            t = Tally()
            frame = scene.image()
            markers = find_table_markers(frame, scene.layout)
            all_in_view = all(
                float(scene.raw["markers"][str(i)].get("visible", 1.0)) >= 0.999
                for i in scene.layout.marker_ids)
            if all_in_view:
                t.c["calib_photos"] += 1
            try:
                pose = solve_pose(markers, scene.camera.size, intrinsics_of(scene, which),
                                  scene.layout)
            except PoseError:
                pose = None
            if all_in_view:
                t.c["calib_ok"] += pose is not None
                t.c["calib_all4"] += pose is not None and len(markers) == 4
                t.c["table_calib_ok"] += _table_calibrates(frame, scene.layout)
            if pose is None:
                _add(tallies, scene, t)
                continue
            if palette is None:
                palette = learn_palette(TableViews(frame, pose, _default()))
            views = TableViews(frame, pose, palette)
            if role == "before":
                reference = views
            if role == "before" or (role == "hand"):
                started = time.perf_counter()
                ground, photo = first_level_read(scene, ground_dir, which, palette) \
                    if role == "before" else ([], None)
                t.c["ground_photos"] += bool(ground)
                reading = read_field(frame, pose, palette, views=views, ground=ground,
                                     ground_photo=photo if ground_photo else None)
                t.c["read_ms"] += int((time.perf_counter() - started) * 1000)
                t.c["reads"] += 1
                if role == "before":
                    score_setup(scene, reading, t)
                if scene.hand:
                    t.c["hands"] += 1
                    play = check_blocks(frame, pose, truth_field(before), (), palette, views,
                                         pawns=pawn_places(before))
                    t.c["hands_flagged_setup"] += reading.hands_in_view
                    t.c["hands_flagged_play"] += play.hands_in_view
                    t.c["hands_no_removal"] += play.removal is None
                    if verbose and not (reading.hands_in_view and play.hands_in_view):
                        print(f"  {scene.id}: hand not flagged (set-up/play) "
                              f"{reading.hands_in_view}/{play.hands_in_view}")
                elif role == "before":
                    t.c["clear"] += 1
                    play = check_blocks(frame, pose, truth_field(before), (), palette, views,
                                         pawns=pawn_places(before))
                    t.c["clear_false_hand"] += reading.hands_in_view or play.hands_in_view
                    t.c["clear_nothing_gone"] += not play.gone
                    if verbose and (play.gone or reading.hands_in_view or play.hands_in_view):
                        print(f"  {scene.id}: clear view, gone "
                              f"{[(b, round(play.blocks[b].share, 2)) for b in play.gone]}, "
                              f"hands {reading.hands_in_view}/{play.hands_in_view}")
                if verbose and role == "before":
                    m = match(reading, scene)
                    missing = [b for b in scene.blocks if b not in m]
                    wrong = [b for b, i in m.items()
                             if reading.blocks[i].colour != scene.blocks[b].colour]
                    inv = {i: b for b, i in m.items()}
                    read_pairs = {frozenset((inv.get(i, f"?{i}"), inv.get(j, f"?{j}")))
                                  for i, j in reading.touching}
                    extra = sorted(sorted(p) for p in read_pairs - set(scene.touching))
                    lost = sorted(sorted(p) for p in set(scene.touching) - read_pairs)
                    pawns = [(p.colour, p.block, next((inv.get(q.block) for q in reading.pawns
                                                       if q.colour == p.colour), "unseen"))
                             for p in scene.pawns]
                    faults = stacked_wrongs(scene, reading) if scene.stacked else []
                    print(f"  {scene.id}: {len(reading.blocks)} read / {len(scene.blocks)}, "
                          f"missing {missing}, wrong colour {wrong}, notes {len(reading.notes)}"
                          f"; touching extra {extra} lost {lost}; pawns {pawns}"
                          + (f"; stacked field: {', '.join(faults)}" if faults else ""))
            elif role == "after":
                score_pair(before, scene, pose, palette, frame, t, verbose, reference)
            _add(tallies, scene, t)
    return tallies


_DEFAULT: list[Palette] = []


def _default() -> Palette:
    from vision.palette import default_palette

    return default_palette()


def _add(tallies: dict[tuple[str, str], Tally], scene: SceneTruth, t: Tally) -> None:
    for key in (("all", scene.split), ("lighting", f"{scene.split} {scene.lighting}"),
                ("height", f"{scene.split} {height_band(scene.camera.height_mm)}"),
                ("size", f"{scene.split} {scene.camera.size[0]}x{scene.camera.size[1]}")):
        tallies[key].add(t)


def pct(a: int, b: int) -> str:
    """``a/b (p %)``, or ``-`` when nothing was counted."""
    return "-" if b == 0 else f"{a}/{b} ({100 * a / b:.1f} %)"


def report(name: str, t: Tally) -> str:
    """One line of the table for a group."""
    c = t.c
    err = (f"median {statistics.median(t.errors):.1f} mm, 95th percentile "
           f"{statistics.quantiles(t.errors, n=20)[-1]:.1f} mm, worst {max(t.errors):.1f} mm, "
           f"within 2 mm {pct(sum(e <= 2.0 for e in t.errors), len(t.errors))}"
           if len(t.errors) >= 2 else "-")
    return (f"  {name:28} blocks+colour {pct(c['blocks_right'], c['blocks'])}; "
            f"flat touching exact {pct(c['flat_touching_exact'], c['flat_scenes'])}; "
            f"pawn on block {pct(c['pawns_right'], c['pawns'])}; "
            f"removal {pct(c['removals_right'], c['removals'])}; "
            f"pawn move {pct(c['moves_right'], c['moves'])}; "
            f"stacked fully right {pct(c['stacked_right'], c['stacked_scenes'])} "
            f"(but for assumed colours {c['stacked_right_seen']}); "
            f"hand flagged {pct(c['hands_flagged_play'], c['hands'])}; "
            f"calibration {pct(c['calib_ok'], c['calib_photos'])} (all four markers found "
            f"{c['calib_all4']}; `infinite-vision calibrate` "
            f"{pct(c['table_calib_ok'], c['calib_photos'])}); centre error {err}")


def _table_calibrates(frame: np.ndarray, layout: TableLayout) -> bool:
    """Whether the documented set-up step, ``infinite-vision calibrate``, works on ``frame``."""
    try:
        calibrate(frame, layout)
    except CalibrationError:
        return False
    return True


def folder_with_data(given: str | None) -> Path | None:
    """The set to measure on: the one given, else the full render, else the shipped part."""
    for f in ([Path(given)] if given else list(FOLDERS)):
        if (f / "split.json").is_file():
            return f
    return None


def main(argv: Iterable[str] | None = None) -> None:
    """Print the issue-12 table for the photoreal set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder")
    parser.add_argument("--split", default="all", choices=["tune", "holdout", "all"])
    parser.add_argument("--intrinsics", default="true", choices=INTRINSICS_CHOICES)
    parser.add_argument("--families", help="only these family numbers, e.g. 100-179")
    parser.add_argument("--fields", default="all", choices=["all", "stacked", "flat"],
                        help="only families whose set-up field is stacked (or flat)")
    parser.add_argument("--ground", metavar="DIR",
                        help="read each stacked set-up photo with its first level, read on "
                             "DIR/<family>_ground.jpg (the field before stacking)")
    parser.add_argument("--ground-blocks-only", action="store_true",
                        help="with --ground: read with the first level's blocks only, not "
                             "comparing the two photos (as readers before 2026-11-29 did)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(list(argv) if argv is not None else None)
    folder = folder_with_data(args.folder)
    if folder is None:
        print("photoreal table set: not found (render it with vision/devtools/render_table.py)")
        return
    scenes = list(iter_scenes(folder, None if args.split == "all" else args.split))
    if args.families:
        try:
            wanted = {f"f{n:03d}" for n in family_numbers(args.families)}
        except ValueError:
            parser.error(f"--families {args.families!r}: numbers or ranges, e.g. 100-179")
        scenes = [s for s in scenes if s.family in wanted]
    if args.fields != "all":
        stacked = {s.family for s in scenes if s.role == "before" and s.stacked}
        scenes = [s for s in scenes if (s.family in stacked) == (args.fields == "stacked")]
    named = {"true": "the camera model of each photo",
             "none": "none (estimated from the markers)"}
    print(f"Photoreal table set {folder}: {len(scenes)} images, intrinsics: "
          f"{named.get(args.intrinsics, 'the shipped ' + args.intrinsics)}")
    ground_dir = Path(args.ground) if args.ground else None
    if ground_dir is not None and not ground_dir.is_dir():
        parser.error(f"--ground {args.ground}: no such folder")
    tallies = evaluate(scenes, args.intrinsics, args.verbose, ground_dir,
                       not args.ground_blocks_only)
    for kind in ("all", "size", "lighting", "height"):
        for (k, name), t in sorted(tallies.items()):
            if k == kind:
                print(report(name, t))
    for (k, name), t in sorted(tallies.items()):
        if k == "all":
            c = t.c
            if c["ground_photos"]:
                print(f"  {name}: stacked set-up photos read with their first level "
                      f"{c['ground_photos']}")
            print(f"  {name}: set-up reads {c['reads']} at {c['read_ms'] / max(1, c['reads']):.0f}"
                  f" ms each; pawn moves undecided {c['moves_unsure']}; false blocks "
                  f"{c['false_blocks']}, false pawns {c['false_pawns']}; clear views with a "
                  f"hand flagged wrongly {pct(c['clear_false_hand'], c['clear'])}, with a block "
                  f"seen gone {pct(c['clear'] - c['clear_nothing_gone'], c['clear'])}; hand "
                  f"views with no removal read {pct(c['hands_no_removal'], c['hands'])}, hand "
                  f"flagged at set-up {pct(c['hands_flagged_setup'], c['hands'])}")
            if c["stacked_scenes"] > c["stacked_right"]:
                print(f"  {name}: stacked fields not fully right "
                      f"{c['stacked_scenes'] - c['stacked_right']}/{c['stacked_scenes']}, by "
                      "what is wrong (fields with it, alone): "
                      + "; ".join(f"{k} {c['wrong: ' + k]} ({c['only wrong: ' + k]} alone)"
                                  for k in WRONG_KINDS if c["wrong: " + k]))
            if c["level pairs"]:
                print(f"  {name}: pairs of blocks a level apart {c['level pairs']}, read wrong "
                      f"{c['level pairs wrong']}, of them asked about "
                      f"{c['level pairs wrong asked']}; asked about "
                      f"{c['level pairs asked']} in {c['stacked_scenes']} stacked fields; "
                      f"stacked fields fully right once the players answer them "
                      f"{pct(c['stacked_right_asked'], c['stacked_scenes'])}")
            if c["tower asks"] or c["own colour missed"]:
                print(f"  {name}: first-level blocks asked about as maybe carrying one of "
                      f"their colour (+) {c['tower asks']}, truly carrying one "
                      f"{c['tower asks true']}; blocks on one of their colour missed "
                      f"{c['own colour missed']}, their block asked about "
                      f"{c['own colour missed asked']}")
            if c["raised tower"] + c["raised bridge"]:
                print(f"  {name}: tops above the first level read at their level: "
                      + "; ".join(
                          f"{shape}s {pct(c[f'raised {shape} right'], c[f'raised {shape}'])}"
                          f" (" + ", ".join(f"{read} {c[f'raised {shape} {read}']}"
                                            for read in RAISED_READS[1:]) + ")"
                          for shape in ("tower", "bridge") if c[f"raised {shape}"]))
            if args.verbose and t.far:
                print(f"  {name}: tops read over {FAR_MM:.0f} mm from their centre: "
                      + ", ".join(f"{sid} {bid} {e:.1f}" for e, sid, bid in sorted(t.far)))


if __name__ == "__main__":
    main()
