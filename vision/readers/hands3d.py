"""A hand or an arm over the table, in the view of one plane (issue 12).

The set-up reading (:func:`~vision.readers.field3d.read_field`) and the play check
(:func:`~vision.readers.verify.check_blocks`) both ask it, each with the boxes of the blocks
it expects (read at set-up, the engine's in play): outside those boxes only the table
belongs, so a large region there of no colour the palette knows, of skin, of a block's or a
pawn's colour (a pale hand washed white by the light, a sleeve) or, coming in over the
table's edge, far darker than the mat and off its chroma (a dark arm) is a hand. The mat as
the frame shows it (a lamp's warm pool on it, a brown mat) never is.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.palette import UNKNOWN
from vision.readers.table_views import TableViews, _keepout, papers_at

HAND_MM2 = 2500.0
"""A region larger than this (mm² at the plane it is seen in) is a hand or an arm over the
table."""

HAND_PX_PER_MM = 0.25
"""Scale of the coarse view hands are looked for in (a hand is large)."""

ARM_GAP_PX = 5
"""Parts of an arm coming in over the table's edge are one arm when a square of this many
pixels of the coarse view joins them: each grows 2 pixels (8 mm), so a gap up to 16 mm of
mat-like shade across a dark wrist closes."""

ARM_CLOSE = True
"""Close (3x3) what comes in over the table's edge before opening it."""

SKIN_HAND_MM2 = 4000.0
"""A skin-coloured patch this large (mm², in the plane it is seen in) is a hand, wherever it
is, over the blocks too: a palm seen from above is 5,000-6,000 mm², a top 1,600 (a
lamp-warmed yellow top reads as skin in part, never over 2,500 on the tune scenes). The
boxes cannot explain it away: a dark hand over a brown mat shows skin where it shows at
all, the rest of it near the mat's colour."""


def hand_mask(views: TableViews, height: float, boxes: np.ndarray) -> tuple[np.ndarray, bool]:
    """Where a hand is in the view of the plane ``height`` up, and whether there is one.

    Args:
        views: the frame's views at the coarse scale (:data:`HAND_PX_PER_MM`).
        height: the plane (mm above the table).
        boxes: mask of the expected blocks' boxes in that view (non-zero inside).

    Returns:
        ``(mask, found)``: the hand regions (dilated a little), and whether any is larger
        than :data:`HAND_MM2`.
    """
    layout = views.layout
    ppm = views.px_per_mm
    pose = views.pose
    classes = views.classes(height)
    unknown = (classes == UNKNOWN).astype(np.uint8)
    # outside the expected blocks' boxes only the table belongs: a block's or a pawn's
    # colour there (a pale hand washed to white by the light, a sleeve of a block or pawn
    # colour) is something over the table too; judged on its own, so that it does not join
    # a patch of table the palette leaves unexplained
    foreign = (~np.isin(classes, views.palette.of_kind("table")) & (classes != UNKNOWN)
               ).astype(np.uint8)
    unknown[boxes > 0] = 0
    foreign[boxes > 0] = 0
    off_table = (_keepout(layout, ppm) > 0) | (papers_at(pose, ppm, height, boxes.shape) > 0)
    outside = (boxes == 0) & ~off_table
    # the mat as this frame shows it: a warm or brown mat, or a lamp's warm pool on it, may
    # look like skin or like no colour the palette has; it is still the table
    mat, off_mat = mat_like(views.view(height), outside)
    unknown[mat] = 0
    # a pixel the palette calls table but far darker than the mat and off its chroma is not
    # the mat: a dark arm (its brown near the wooden table's, which the table class also
    # covers); it comes in over the table's edge (a tower's deep shadow beside it does not)
    arm = (off_mat & outside & np.isin(classes, views.palette.of_kind("table"))
           ).astype(np.uint8)
    # skin is no block's colour: over the blocks too it is a hand
    skin = views.skin(height) & ~mat
    unknown[skin] = 1
    foreign[skin] = 0
    arm |= unknown
    for mask in (unknown, foreign, arm):
        mask[off_table] = 0
    big = np.zeros_like(unknown)
    found = False
    h, w = unknown.shape
    # an arm in dim light is a speckle of both (skin read as no colour or as white): each
    # alone falls apart under the opening, together they are the arm; what crosses the
    # table's edge into the view, as an arm does
    both = unknown | foreign
    # an arm comes in over the table's edge: whatever the reading took it for (a pale arm
    # read as a row of white tops at set-up), something of no table colour that crosses
    # the edge is no block, which stands on the table
    reaching = (~np.isin(classes, views.palette.of_kind("table")) | skin) & ~mat & ~off_table
    reaching = reaching.astype(np.uint8) | both
    outside_boxes = boxes == 0
    for mask, from_edge, over_blocks in ((unknown, False, True), (foreign, False, True),
                                         (arm, True, True), (both, True, True),
                                         (reaching, True, False)):
        if from_edge and ARM_CLOSE:
            # a dark hand reads as a speckle of skin, of no colour and of mat-dark pixels:
            # closed first, it stays whole under the opening
            mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8),
                                  iterations=2)
        # an arm coming in over the edge may break where its wrist turns a shade nearer
        # the mat's: parts within a small gap of each other are one arm
        linked = cv2.dilate(opened, np.ones((ARM_GAP_PX, ARM_GAP_PX), np.uint8)) if (
            from_edge) else opened
        n, labels, stats, _c = cv2.connectedComponentsWithStats(linked)
        areas = np.bincount(labels[opened > 0], minlength=n)
        for i in range(1, n):
            x, y, bw, bh, _area = stats[i]
            if from_edge and not (x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1):
                continue
            labels[(labels == i) & (opened == 0)] = 0
            if areas[i] / (ppm * ppm) > HAND_MM2:
                # the blocks an arm reaches are still blocks: only its own pixels hide
                big[(labels == i) & (outside_boxes | over_blocks)] = 1
                found = True
    n, labels, stats, _c = cv2.connectedComponentsWithStats(skin.astype(np.uint8),
                                                            connectivity=8)
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] / (ppm * ppm) >= SKIN_HAND_MM2:
            big[labels == i] = 1
            found = True
    return cv2.dilate(big, np.ones((9, 9), np.uint8)), found


MAT_CHROMA = 6.0
"""CIELAB chroma distance (a*, b*) within which a pixel has the mat's colour."""


OFF_MAT_CHROMA = 10.0
"""CIELAB chroma distance beyond which a pixel is not the mat, whatever its class (the mat's
own pixels, JPEG blocks and shadows included, stay within 6 but for one in a hundred)."""

OFF_MAT_LIGHT = 0.9
"""...and darker than this share of the mat's lightness: a dark arm (a brown arm over a dark
green mat is 0.8 of it). A lamp's warm pool or a red block's light thrown on the mat shifts
its chroma too, but keeps or raises its lightness."""


OFF_MAT_SATURATION = 1.0
"""...or, darker than that, whose chroma distance from the mat passes this share of its
own lightness (both on CIELAB's 0-100 scale): a dark sleeve in dim light (a maroon sleeve
at L* 8 against a grey mat at 27 lies 9 from the mat's chroma). A shadow keeps the mat's
chromaticity, so its chroma distance shrinks with its lightness."""


def mat_like(view: np.ndarray, outside: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of ``view`` with the colour of the mat as this frame shows it, and far off it.

    The mat's colour is the commonest one outside the blocks' boxes (most of what the
    camera sees is mat); a pixel has it when its chroma is within :data:`MAT_CHROMA` of it,
    in light or shade (a hard shadow darkens it, a lamp's pool brightens it). The second
    mask: pixels whose chroma is more than :data:`OFF_MAT_CHROMA` from it (or, for dark
    ones, :data:`OFF_MAT_SATURATION` of their lightness) and that are darker than
    :data:`OFF_MAT_LIGHT` of its lightness (in shadow it keeps its chroma).
    """
    # every other pixel each way (8 mm at the hand view's scale: a hand is far larger)
    lab = cv2.cvtColor(np.ascontiguousarray(view[::2, ::2]), cv2.COLOR_BGR2Lab)  # 8-bit Lab
    pts = lab[outside[::2, ::2]][::3].astype(np.float32)   # a sample tells the mode
    if len(pts) < 50:
        return np.zeros(view.shape[:2], bool), np.zeros(view.shape[:2], bool)
    scale = np.array([100.0 / 255.0, 1.0, 1.0], np.float32)
    pts *= scale
    centre = np.median(pts, axis=0)
    for _ in range(2):
        near = ((pts - centre) ** 2).sum(axis=1) < 144.0
        if near.sum() < 0.2 * len(pts):
            break
        centre = np.median(pts[near], axis=0)
    da = lab[..., 1].astype(np.float32) - centre[1]
    db = lab[..., 2].astype(np.float32) - centre[2]
    light = lab[..., 0].astype(np.float32) * scale[0]
    near = da * da + db * db
    half = (near < MAT_CHROMA ** 2) & (light > 0.4 * centre[0]) & (light < 1.6 * centre[0])
    h, w = view.shape[:2]
    coloured = (near > OFF_MAT_CHROMA ** 2) | (near > (OFF_MAT_SATURATION * light) ** 2)
    far = coloured & (light < OFF_MAT_LIGHT * centre[0])
    return (np.repeat(np.repeat(half, 2, axis=0), 2, axis=1)[:h, :w],
            np.repeat(np.repeat(far, 2, axis=0), 2, axis=1)[:h, :w])
