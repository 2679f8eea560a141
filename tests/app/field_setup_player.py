"""A player who knows the true field corrects the camera's reading by touch (issue 12).

Used by the set-up tests and by ``bench/field_setup_taps.py``: every tap goes through the
set-up screen's own hit test (:class:`companion.app.field_capture.SetupView`), where the screen
shows each thing. A block of the wrong colour is tapped until right, a false block until
dropped, a missed block at level 1 is tapped where its top shows bare (added) then coloured,
touching pairs that differ are toggled in touching mode (one more tap on "Touching"), and a
top read at the wrong height is put at its level in levels mode (one tap on "Levels", one to
come back).
Where the field then still gets another field-building verdict than the true one (a block
read a few mm off its place: touching, overlap and room-for-a-pawn checks fail), the blocks
more than :data:`MOVE_TOLERANCE_MM` off are moved in move mode (one tap on "Move", a tap on
the block's mark, a tap where its top's centre truly shows), and touching pairs are put right
again.
Before anything is dropped or added, a missed block whose place shows no bare spot gets the
way cleared in move mode (:func:`clear_the_way`: the block read off its place there moved
onto it, or a misplaced block covering it put at its true place), as a player does; where
its place still shows none, a long press where its top is adds it (blocks mode).
A missed stacked block or a wrong support cannot be fixed by touch.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from companion.app.field_capture import Capture, FieldDraft
from companion.app.field_view import MOVE_REACH_MM, TAP_RADIUS_PX, SetupView
from companion.games.infinifield import Block, build_field, check_field
from vision.camera_model import Intrinsics
from vision.devtools.table3d_truth import SceneTruth
from vision.geometry import contains

MATCH_MM = 15.0
"""A read block is a true one of the same level within this distance (mm)."""
MOVE_TOLERANCE_MM = 3.0
"""A block read further than this from its true centre is moved when the verdict differs."""
TURN_TOLERANCE_DEG = 3.0
"""... and one turned further than this from its true angle (a square: modulo 90) turned."""
MAX_ARROW_TAPS = 20
"""Arrow taps a player spends on one block at most."""
PICTURE = (540, 400)
"""The set-up picture's size on the 800x480 screen (px)."""


def intrinsics_of(scene: SceneTruth, which: str) -> Intrinsics | None:
    """The scene camera's own intrinsics (``true``, standing for calibrate-camera) or none."""
    if which == "none":
        return None
    cam = scene.camera
    return Intrinsics(np.asarray(cam.K, float), np.asarray(cam.dist, float), cam.size,
                      "calibrated", "calibrated")


def match(draft: FieldDraft, scene: SceneTruth) -> dict[str, int]:
    """True block id -> key of the present draft block of its level nearest it (unique)."""
    cands = sorted((math.dist(b.centre, t.centre_mm), tid, b.key)
                   for tid, t in scene.blocks.items() for b in draft.blocks.values()
                   if b.present and b.level == t.level
                   and math.dist(b.centre, t.centre_mm) <= MATCH_MM)
    out: dict[str, int] = {}
    for _d, tid, key in cands:
        if tid not in out and key not in out.values():
            out[tid] = key
    return out


def truth_verdict(scene: SceneTruth, mode: str) -> list[str]:
    """The field-building verdict of the true field, with its true touching pairs."""
    blocks = [Block.square(b.id, b.colour, b.centre_mm, b.size_mm[:2], b.angle_deg,
                           b.size_mm[2], b.rests_on) for b in scene.blocks.values()]
    field = build_field(blocks, [tuple(sorted(p)) for p in scene.touching])
    return sorted(v.code for v in check_field(field, mode))


def side_pairs(scene: SceneTruth) -> set[frozenset[str]]:
    """True touching pairs side by side (a block always touches what it rests on)."""
    stacked = {frozenset((b.id, s)) for b in scene.blocks.values() for s in b.rests_on}
    return {p for p in scene.touching if p not in stacked}


def equal_to_truth(draft: FieldDraft, scene: SceneTruth) -> bool:
    """Same blocks, colours, supports and touching pairs as the true field."""
    m = match(draft, scene)
    present = [b for b in draft.blocks.values() if b.present]
    if len(m) != len(scene.blocks) or len(present) != len(scene.blocks):
        return False
    inv = {k: t for t, k in m.items()}
    for tid, key in m.items():
        block = draft.blocks[key]
        if block.colour != scene.blocks[tid].colour or \
                {inv.get(k) for k in draft.supports(key)} != set(scene.blocks[tid].rests_on):
            return False
    return {frozenset((inv[a], inv[b])) for a, b in draft.live_touching()} == side_pairs(scene)


def tap_mark(view: SetupView, key: int, mode: str = "blocks") -> bool:
    """Tap block ``key``'s mark; whether the tap hit that block."""
    x, y = view.mark(key)
    return view.tap(x, y, mode).key == key


def bare_spot(view: SetupView, t: Any, mode: str = "blocks") -> tuple[float, float] | None:
    """Where a player taps to add a missed block: its top's centre, else the point of its
    top nearest the centre where a tap means "add" (its centre may be under a higher block)."""
    pose = view.capture.pose
    size = t.size_mm[0]
    offsets = sorted(((dx, dy) for dx in np.linspace(-0.35, 0.35, 8)
                      for dy in np.linspace(-0.35, 0.35, 8)), key=lambda o: math.hypot(*o))
    for dx, dy in [(0.0, 0.0), *offsets]:
        a = math.radians(t.angle_deg)
        x = t.centre_mm[0] + size * (dx * math.cos(a) - dy * math.sin(a))
        y = t.centre_mm[1] + size * (dx * math.sin(a) + dy * math.cos(a))
        sx, sy = view.to_screen(pose.project([[x, y, t.top_mm]]))[0]
        if view.hit(float(sx), float(sy), mode).kind == "add":
            return float(sx), float(sy)
    return None


def correct(capture: Capture, scene: SceneTruth, view: SetupView,
            mode: str = "quickstart", moves: bool = True, holds: bool | None = None
            ) -> tuple[int, str]:
    """Tap the draft into the true field; (taps, why not where it cannot be).

    ``mode`` is the field-building rules whose verdict must come out as the true field's;
    without ``moves`` the player does not use move mode (the screen before it had one), nor
    moves what covers a missed block's place out of the way (:func:`clear_the_way`); without
    ``holds`` (as ``moves`` where not given) no long press adds a missed block whose place
    shows no bare spot (the screen before it had them).
    """
    holds = moves if holds is None else holds
    draft = capture.draft
    taps = 0
    m = match(draft, scene)
    levelled = False
    for tid, t in scene.blocks.items():  # a top read at the wrong height: its mark, levels
        if tid in m:  # (each tap there raises it a level, from the top level back to 1)
            continue
        spot = view.to_screen(capture.pose.project([[t.centre_mm[0], t.centre_mm[1],
                                                     t.top_mm]]))[0]
        near = [k for k in draft.blocks if draft.blocks[k].present
                and (draft.blocks[k].level < t.level
                     or (draft.blocks[k].level > t.level and k not in m.values()))
                and (math.dist(view.anchor(k), spot) <= TAP_RADIUS_PX
                     or contains(view.outline(k), spot))]
        if not near:
            continue
        key = min(near, key=lambda k: math.dist(view.anchor(k), spot))
        if not levelled:
            taps += 1  # the "Levels" button
            levelled = True
        while draft.blocks[key].level != t.level:
            if not tap_mark(view, key, "levels"):
                return taps, "a block's mark is not hit in levels mode"
            taps += 1
        m = match(draft, scene)
    if levelled:
        taps += 1  # back to "Blocks"
    if moves:  # a missed block's spot covered: move what covers it, or what was misread, first
        more, why = clear_the_way(view, scene)
        taps += more
        if why:
            return taps, why
        m = match(draft, scene)
    false = [b.key for b in draft.blocks.values() if b.present and b.key not in m.values()]
    for key in sorted(false, key=lambda k: -draft.blocks[k].level):
        while draft.blocks[key].present:
            if not tap_mark(view, key):
                return taps, "a false block's mark is not hit"
            taps += 1
    for tid, t in sorted(scene.blocks.items(), key=lambda kv: kv[1].level):  # supports first
        if tid in m:
            continue
        if t.level > 1:  # in levels mode, a tap where its top shows adds it
            spot = bare_spot(view, t, "levels")
            if spot is None or t.level != 2:
                return taps, "a stacked block was missed"
            view.tap(*spot, "levels")
            taps += 3  # "Levels", the tap, back to "Blocks"
            m = match(draft, scene)
            if tid not in m:
                return taps, "a stacked block was added too far from where it is"
            continue
        spot = bare_spot(view, t)
        if spot is None and not holds:
            return taps, "a missed block shows no bare spot to tap"
        if spot is None:  # a long press where its top is, on what covers it
            centre = view.to_screen(capture.pose.project([[t.centre_mm[0], t.centre_mm[1],
                                                           t.top_mm]]))[0]
            hit = view.hold(float(centre[0]), float(centre[1]))
        else:
            hit = view.tap(*spot)
        taps += 1
        if hit.kind != "add":
            return taps, f"a missed block's tap hit {hit.kind}"
        m = match(draft, scene)
        if tid not in m:
            return taps, "a missed block was added too far from where it is"
    m = match(draft, scene)
    for tid, key in m.items():
        while draft.blocks[key].colour != scene.blocks[tid].colour:
            if not tap_mark(view, key):
                return taps, "a block's mark is not hit"
            taps += 1
    moved = False
    for only in (_wrong_supports(draft, scene, m), None):  # the blocks concerned, then all
        if not moves or not _wrong_supports(draft, scene, m):
            break  # footprints off: what rests on what follows them
        more, why = move_off_blocks(view, scene, m, only)
        taps, moved = taps + more, True
        if why:
            return taps, why
    if _wrong_supports(draft, scene, m):
        return taps, "a block stands on the wrong blocks"
    more, why = fix_touching(view, scene, m)
    taps += more
    if why or not moves or moved or \
            sorted(v.code for v in draft.problems(mode, 0)) == truth_verdict(scene, mode):
        return taps, why
    for only in (_named(draft, m, mode), None):  # the blocks the checks name, then all
        more, why = move_off_blocks(view, scene, m, only)
        taps += more
        if why:
            return taps, why
        more, why = fix_touching(view, scene, match(draft, scene))
        taps += more
        if why or sorted(v.code for v in draft.problems(mode, 0)) == \
                truth_verdict(scene, mode):
            break
    return taps, why


def clear_the_way(view: SetupView, scene: SceneTruth) -> tuple[int, str]:
    """Move mode, before anything is dropped or added: for each missed block whose place
    shows no spot to tap ("add" in blocks mode at level 1, in levels mode above), the
    player moves what is in the way first; (taps, why not).

    A block read at that level off its true place but within a block's width
    (:data:`~companion.app.field_view.MOVE_REACH_MM`) of the missed one's, and matched to no
    true block (a tower's base read beside the top resting on it), is that block read off
    its place: it is moved onto it (and coloured later, with the others). Otherwise a block
    read off its own place whose top or mark covers the missed one's spot is put at its true
    place, which bares the spot for the tap that adds the missed block.
    """
    draft = view.capture.draft
    taps = 0
    for tid, t in sorted(scene.blocks.items(), key=lambda kv: kv[1].level):
        m = match(draft, scene)
        mode = "blocks" if t.level == 1 else "levels"
        if tid in m or bare_spot(view, t, mode) is not None:
            continue
        spare = sorted((math.dist(b.centre, t.centre_mm), b.key) for b in draft.blocks.values()
                       if b.present and b.level == t.level and b.key not in m.values()
                       and math.dist(b.centre, t.centre_mm) <= MOVE_REACH_MM)
        if spare:
            more, why = move_off_blocks(view, scene, {**m, tid: spare[0][1]}, {tid})
            taps += more
            if why:
                return taps, why
            continue
        spot = view.to_screen(view.capture.pose.project(
            [[t.centre_mm[0], t.centre_mm[1], t.top_mm]]))[0]
        covering = {other for other, key in m.items()
                    if contains(view.outline(key), spot)
                    or math.dist(view.mark(key), spot) <= TAP_RADIUS_PX}
        if covering:
            more, why = move_off_blocks(view, scene, m, covering)
            taps += more
            if why:
                return taps, why
    return taps, ""


def corrected_to_truth(capture: Capture, scene: SceneTruth, view: SetupView,
                       mode: str = "quickstart") -> int:
    """The player corrects the reading to the true field, whose verdict it then has (the
    field-building ``mode``'s checks); returns the taps it took."""
    taps, why = correct(capture, scene, view, mode)
    assert why == ""
    assert equal_to_truth(capture.draft, scene)
    assert sorted(v.code for v in capture.draft.problems(mode, 0)) == truth_verdict(scene, mode)
    return taps


def _named(draft: FieldDraft, m: dict[str, int], mode: str) -> set[str]:
    """True ids of the blocks the field-building checks name now (and their neighbours':
    a pair too close or overlapping may be either block's fault)."""
    inv = {k: t for t, k in m.items()}
    by_id = {block_id: key for key, block_id in draft.ids().items()}
    keys = {by_id[b] for v in draft.problems(mode, 0) for b in v.blocks if b in by_id}
    return {inv[k] for k in keys if k in inv}


def _wrong_supports(draft: FieldDraft, scene: SceneTruth, m: dict[str, int]) -> set[str]:
    """True ids of the matched blocks resting on other blocks than the true ones do, with
    the blocks under them (read and true)."""
    inv = {k: t for t, k in m.items()}
    wrong: set[str] = set()
    for tid, key in m.items():
        read = {inv.get(k) for k in draft.supports(key)}
        if read != set(scene.blocks[tid].rests_on):
            wrong |= {tid, *scene.blocks[tid].rests_on, *(t for t in read if t)}
    return wrong


def _turn_off(angle: float, true_angle: float) -> float:
    """How far (degrees, signed, within +-45) a square at ``angle`` is from ``true_angle``."""
    return (angle - true_angle + 45.0) % 90.0 - 45.0


def move_off_blocks(view: SetupView, scene: SceneTruth, m: dict[str, int],
                    only: set[str] | None = None) -> tuple[int, str]:
    """Move mode: each block more than :data:`MOVE_TOLERANCE_MM` or
    :data:`TURN_TOLERANCE_DEG` off (of ``only``, true ids, where given) is put at its true
    place.

    Lower blocks first (what rests on them follows from the footprints). Taps: "Move", per
    block its mark, then a tap where its top's centre truly shows; where that spot is
    another block's mark (a tap there would select it), the arrows, 2 mm a tap; then the
    turning arrows, 2 degrees a tap; "Blocks" again.
    """
    draft = view.capture.draft
    pose = view.capture.pose

    def off(tid: str) -> bool:
        b, t = draft.blocks[m[tid]], scene.blocks[tid]
        return math.dist(b.centre, t.centre_mm) > MOVE_TOLERANCE_MM or \
            abs(_turn_off(b.angle, t.angle_deg)) > TURN_TOLERANCE_DEG

    todo = sorted((t.level, tid) for tid, t in scene.blocks.items() if tid in m and off(tid)
                  and (only is None or tid in only))
    if not todo:
        return 0, ""
    view.selected = None  # a mode button lets the last selection go
    taps = 2  # "Move", then "Blocks"
    for _level, tid in todo:
        key, t = m[tid], scene.blocks[tid]
        hit = view.tap(*view.mark(key), "move")
        taps += 1
        if hit.kind != "select" or view.selected != key:
            return taps, "a block's mark is not hit in move mode"
        if math.dist(draft.blocks[key].centre, t.centre_mm) > MOVE_TOLERANCE_MM:
            spot = view.to_screen(pose.project([[t.centre_mm[0], t.centre_mm[1],
                                                 t.top_mm]]))[0]
            if view.hit(float(spot[0]), float(spot[1]), "move").kind == "move":
                view.tap(float(spot[0]), float(spot[1]), "move")
                taps += 1
            else:
                taps += _arrows_to(view, key, spot)
        for _ in range(MAX_ARROW_TAPS):
            turn = _turn_off(draft.blocks[key].angle, t.angle_deg)
            if abs(turn) <= TURN_TOLERANCE_DEG / 2:
                break
            before = draft.blocks[key].angle
            view.turn(True)
            taps += 1
            if abs(_turn_off(draft.blocks[key].angle, t.angle_deg)) > abs(turn):
                view.move(key, draft.blocks[key].centre, before)  # the other way
                view.turn(False)
                view.turn(False)
                taps += 1
        if off(tid):
            return taps, "a block is still off its place after the taps in move mode"
    view.selected = None
    return taps, ""


def _arrows_to(view: SetupView, key: int, spot: np.ndarray) -> int:
    """Tap the arrow pointing nearest the way to screen point ``spot`` until the block's
    top centre is within a step of it; the taps made."""
    taps = 0
    for _ in range(MAX_ARROW_TAPS):
        here = np.asarray(view.anchor(key))
        way = spot - here
        if float(np.hypot(*way)) < 1.5:
            break
        dx, dy = (float(np.sign(way[0])), 0.0) if abs(way[0]) >= abs(way[1]) \
            else (0.0, float(np.sign(way[1])))
        before = float(np.hypot(*way))
        view.nudge(dx, dy)
        taps += 1
        if float(np.hypot(*(spot - np.asarray(view.anchor(key))))) >= before:
            break
    return taps


def fix_touching(view: SetupView, scene: SceneTruth, m: dict[str, int]) -> tuple[int, str]:
    """Touching mode: toggle every pair that differs from the true field's; (taps, why)."""
    draft = view.capture.draft
    view.selected = None
    taps = 0
    want = {tuple(sorted((m[a], m[b]))) for a, b in (sorted(p) for p in side_pairs(scene))}
    wrong = draft.live_touching() ^ want
    if wrong:
        taps += 1  # the "Touching" button
    for pair in sorted(wrong):
        if pair not in draft.pair_candidates():
            blocks = [draft.blocks[k] for k in pair]
            return taps, (f"a touching pair is not a pair on screen (levels "
                          f"{blocks[0].level}/{blocks[1].level}, centres "
                          f"{math.dist(blocks[0].centre, blocks[1].centre):.0f} mm apart)")
    while wrong:  # select the block in most wrong pairs, then tap each of its partners
        counts: dict[int, int] = {}
        for pair in wrong:
            for k in pair:
                counts[k] = counts.get(k, 0) + 1
        chosen = max(sorted(counts), key=lambda k: counts[k])
        if view.selected is not None and chosen in view.partners():
            view.tap(*view.mark(view.selected), "touching")  # let the last one go first
            taps += 1
        hit = view.tap(*view.mark(chosen), "touching")
        taps += 1
        if hit.kind != "select" or view.selected != chosen:
            return taps, "a block's mark is not hit in touching mode"
        for pair in sorted(p for p in wrong if chosen in p):
            other = pair[0] if pair[1] == chosen else pair[1]
            hit = view.tap(*view.mark(other), "touching")
            taps += 1
            if hit.pair != pair:
                return taps, "a neighbour's mark is not hit in touching mode"
            wrong.discard(pair)
    return taps, ""
