"""Block tops in a hard shadow, classified against the palette as seen in that shadow.

A hard shadow (a window frame's, a tower's) leaves a top only the ambient light, 3-20 % of
the direct light and often tinted (a blue sky, a warm room): a white top there is a dark
grey, a red one a deep maroon, a yellow one an olive brown, and the palette, whose
references are lit, calls them table or nothing. The table mat is one material all over, so
its colour in the shadows against its colour in the open measures the shadow's light, per
channel: every palette colour times that ratio is how it looks in the shadow. A pixel the
palette left as table or nothing is a block colour in shadow when it matches that colour's
shadow reference better than the shaded table's, and the matches make a top-sized square
(see :func:`vision.readers.shade.regions_shaped`): penumbrae on the mat and the mat lit by a
block's bounce are strips along edges, not squares.

Example:
    >>> import numpy as np
    >>> from vision.palette import default_palette
    >>> pal = default_palette()
    >>> ground = np.full((200, 200, 3), (95, 82, 70), np.uint8)
    >>> ground[:, :100] = (11, 10, 9)                  # a hard shadow (about 12 %)
    >>> light = shadow_light(ground, pal)
    >>> [round(float(v), 2) for v in light]
    [0.13, 0.13, 0.14]
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.palette import UNKNOWN, Palette, bgr_to_lab
from vision.readers.shade import regions_shaped

DEEP_SHADE = 0.5
"""The mat darker than this share of its lit reference (sum of channels) is in a shadow."""

MIN_SHADE_SHARE = 0.025
"""The scene's shadow light is measured only where at least this share of the table's view
is in a shadow: a window frame's or a tower's hard shadow (3-8 % on the tuning photos);
under a ceiling light only the blocks' contact shadows are that dark (about 1 %), and
those measure no shadow's light."""

SHADOW_SCALE = (0.6, 2.2)
"""A pixel matches a colour in shadow when it is this many times that colour's shadow
reference (the same scale on every channel, within :data:`SHADOW_SPREAD`): shadows deepen
where blocks crowd the light and lighten where white blocks bounce it."""

SHADOW_SPREAD = 0.35
"""... with its channels' log-ratios to the reference spread at most this much (standard
deviation, natural log): the colour's hue in the shadow's light."""

CLEAR_OF_LIT_TABLE = 0.75
"""The shadow must leave a white top at most this share of the lit mat's lightness (where a
top in shadow is as light as the open mat the two cannot be told apart by colour), and a
pixel taken for a top in shadow must be darker than this share of the lit mat (the sum of
its channels): the mat half lit (a window frame's penumbra, a corner lit by a lamp alone)
matches a white top's shadow reference scaled up."""

SMOOTH_MM = 3.0
"""Pixels in deep shadow are a few grey levels: their colour is judged on the view smoothed
over this width (mm)."""

NOT_IN_SHADOW = ("blue",)
"""Block colours never looked for in shadows: a blue-grey mat shaded from the sun and lit by
a blue sky turns blue (and a blue top in shade keeps its hue for the palette anyway)."""

DARK_NOISE = 3.0
"""Grey levels added to every channel before ratios are taken: a deep shadow's channels are
a few levels, where a level's noise would swing a plain ratio by half."""

MIN_LEVEL = 12.0
"""Pixels whose channels sum below this (after smoothing) carry too little light to match."""


def shadow_light(ground: np.ndarray, palette: Palette) -> np.ndarray | None:
    """The scene's shadow light per channel (B, G, R): the shaded mat over the lit mat.

    Args:
        ground: the balanced view of the table plane.
        palette: the palette (with a learnt table reference).

    Returns:
        The ratio per channel, or None where there is no table class or no shadow.
    """
    tables = palette.of_kind("table")
    if not tables:
        return None
    lit = np.asarray(cv2.cvtColor(np.array([[palette.classes[tables[0]].lab]], np.float32),
                                  cv2.COLOR_Lab2BGR).reshape(3) * 255, np.float32)
    px = ground.reshape(-1, 3).astype(np.float32)
    cls = palette.classify(ground).reshape(-1)
    mat = np.isin(cls, [*tables, UNKNOWN])
    dark = mat & (px.sum(axis=1) < DEEP_SHADE * float(lit.sum())) & (px.sum(axis=1) > 3)
    if int(dark.sum()) < MIN_SHADE_SHARE * len(px):
        return None
    shade = np.median(px[dark], axis=0)
    return np.clip((shade + 1.0) / (lit + 1.0), 0.02, 1.0).astype(np.float32)


MAT_SPREAD = 0.15
"""A pixel is the mat in the scene's shadow light when its channels' log-ratios to the mat's
shadow reference spread at most this much (at any scale from :data:`MAT_SCALE`): the shaded
mat's hue, which a warm lamp turns yellowish."""

MAT_SCALE = (0.4, 2.5)


def shaded_mat(bgr: np.ndarray, palette: Palette, light: np.ndarray) -> np.ndarray:
    """Which BGR pixels (N, 3) have the mat's colour in the scene's shadow light.

    Args:
        bgr: balanced BGR pixels.
        palette: the palette (with a table class).
        light: the shadow's light per channel (:func:`shadow_light`).
    """
    _index, refs = _lit_refs(palette)
    logs = (np.log(np.asarray(bgr, np.float32).reshape(-1, 3) + DARK_NOISE)
            - np.log(refs[-1] * light + DARK_NOISE))
    scale = logs.mean(axis=1)
    return ((logs.std(axis=1) < MAT_SPREAD) & (scale > np.log(MAT_SCALE[0]))
            & (scale < np.log(MAT_SCALE[1])))


def _lit_refs(palette: Palette) -> tuple[list[int], np.ndarray]:
    """The block classes' indexes and BGR references, then the table's (last).

    Blue is left out: the mat (blue-grey) in a shadow lit by a blue sky matches it.
    """
    index = [i for i, c in enumerate(palette.classes)
             if c.kind == "block" and c.name not in NOT_IN_SHADOW]
    table = palette.of_kind("table")[0]
    refs = [cv2.cvtColor(np.array([[palette.classes[i].lab]], np.float32),
                         cv2.COLOR_Lab2BGR).reshape(3) * 255 for i in [*index, table]]
    return [*index, table], np.array(refs, np.float32)


PART_AREA = (0.3, 1.3)
"""A region of shadow matches alone is (the shaded part of) a top when its area is this share
of a top's (a top half in a tower's shadow, half lit; the lit half and its neighbours of the
same colour may run together, so the matches are judged on their own too)..."""

PART_FILL = 0.55
"""... it fills this share of the rectangle round it (an L where a shadow's corner falls on
a top) and is no longer than :data:`PART_LONG` block sides."""

PART_LONG = 1.3


MIN_PATCH = 0.1
"""Matches count only in connected patches of at least this share of a top: single pixels
and slivers on a top's rim or in a groove are noise, not the shaded part of a top."""


def _broad(mask: np.ndarray, min_area: float) -> np.ndarray:
    """``mask`` without its connected patches smaller than ``min_area`` pixels."""
    _n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8),
                                                            connectivity=4)
    keep = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= min_area)
    return np.isin(labels, keep[keep > 0])


ATTACHED_LONG = 1.1
"""A patch of matches that touches pixels of its colour (a top's shaded part beside its lit
part, whose lit part runs on into a lit neighbour's) is taken when no side of it is longer
than this many block sides."""


def _attached(mask: np.ndarray, same: np.ndarray, block_px: float) -> np.ndarray:
    """The connected patches of ``mask`` that touch ``same``, none longer than a top."""
    clean = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _n, labels, _stats, _ = cv2.connectedComponentsWithStats(clean, connectivity=4)
    near = cv2.dilate(same.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    touching = np.unique(labels[near & (clean > 0)])
    out = np.zeros(mask.shape, bool)
    for i in touching[touching > 0]:
        ys, xs = np.nonzero(labels == i)
        (w, h) = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))[1]
        if max(w, h) <= ATTACHED_LONG * block_px:
            out[ys, xs] = True
    return out


def _top_parts(mask: np.ndarray, block_px: float) -> np.ndarray:
    """The connected regions of ``mask`` shaped like a top or a broad part of one."""
    return regions_shaped(mask, block_px, PART_AREA, PART_FILL, PART_LONG)


def tops_in_shadow(view: np.ndarray, classes: np.ndarray, palette: Palette,
                   light: np.ndarray, block_px: float) -> np.ndarray:
    """Class indexes for pixels of block tops in a hard shadow (``UNKNOWN`` elsewhere).

    Args:
        view: a balanced BGR view of a plane above the table.
        classes: its palette classes.
        palette: the palette.
        light: the shadow's light per channel (:func:`shadow_light`).
        block_px: a top's side in the view's pixels.
    """
    out = np.full(classes.shape, UNKNOWN, np.uint8)
    tables = palette.of_kind("table")
    index, refs = _lit_refs(palette)
    if "white" in [c.name for c in palette.classes]:
        white = refs[index.index(palette.index("white"))]
        white_l = bgr_to_lab(white * light)[0]
        if white_l > CLEAR_OF_LIT_TABLE * palette.classes[tables[0]].lab[0]:
            return out
    size = max(1, round(SMOOTH_MM * block_px / 40.0) | 1)
    smooth = cv2.blur(view.astype(np.float32), (size, size))
    level = smooth.sum(axis=2)
    # darker than the open mat (which shows as table in penumbrae and half-lit corners)
    dark = level < CLEAR_OF_LIT_TABLE * float(refs[-1].sum())
    open_ = np.isin(classes, [*tables, UNKNOWN]) & dark & (level > MIN_LEVEL)
    if not open_.any():
        return out
    ys, xs = np.nonzero(open_)
    px = smooth[ys, xs]
    ok = np.ones(len(px), bool)
    logs = (np.log(px + DARK_NOISE)[:, None, :]
            - np.log(refs * light + DARK_NOISE)[None, :, :])
    scale = logs.mean(axis=2)
    spread = logs.std(axis=2)
    fits = ((spread < SHADOW_SPREAD) & (scale > np.log(SHADOW_SCALE[0]))
            & (scale < np.log(SHADOW_SCALE[1])))
    cost = np.where(fits, spread + 0.5 * np.abs(scale), np.inf)
    best = cost.argmin(axis=1)
    good = ok & np.isfinite(cost[np.arange(len(px)), best])
    pick = np.array(index, np.uint8)[best]
    is_block = good & (best < len(index) - 1)
    for k in np.unique(pick[is_block]):
        cand = np.zeros(classes.shape, bool)
        sel = is_block & (pick == k)
        cand[ys[sel], xs[sel]] = True
        # a top partly of its colour already, or a shaded top whole (or most of one)
        whole = _top_parts(cand | (classes == k), block_px) & cand
        broad = _broad(cand, MIN_PATCH * block_px * block_px)
        alone = _top_parts(broad, block_px)
        attached = _attached(broad, classes == k, block_px)
        out[whole | alone | attached] = k
    return out
