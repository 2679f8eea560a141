"""The frame seen on the table's planes, white-balanced and classified by colour.

:class:`TableViews` resamples the frame onto the plane ``40 n`` mm above the table for each
level ``n`` (lens distortion undone, one pixel per millimetre), white-balances it from the
markers' paper and classifies every pixel by the palette, keeping a block colour's hue through
shade and glare. :func:`learn_palette` learns the colours on this table at set-up. The field
reader (:mod:`vision.readers.field3d`) and the play check (:mod:`vision.readers.verify`) both
read the frame through these views.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.layout import TableLayout
from vision.palette import UNKNOWN, Palette
from vision.pose import TablePose
from vision.readers.hard_shadow import shaded_mat, shadow_light, tops_in_shadow
from vision.readers.shade import MIN_BLOCK_PX, whites_in_shade
from vision.rectify import (
    PAPER_RING_MM,
    WHITE_TARGET,
    _gain_field,
    _paper_masks,
    marker_keepout,
)

HUE_COSINE = 0.9
"""A sample has a block colour in shade or glare when its chromaticity (each channel's share
of the sum, less grey) points within this cosine of the colour's reference."""

WHITE_OVER_TABLE = 1.0
"""Pixels the palette calls white (its lightness counts little) but no lighter than the lit
mat (sum of channels) are taken for the mat: a mat in a warm lamp's light in the sun's
shadow falls within the palette's reach of a lamp-warmed white."""

WHITE_CHROMA = 0.04
"""... and white when its chromaticity is this close to grey (and brighter than the table)."""

SEAM_MIN = 6.0
"""Grey levels a thin line must be darker than its surroundings to count as a seam."""

GLARE_COSINE = 0.9
"""A top washed by glare (a glossy top under a big overhead light) has its block colour when
its chromaticity in linear light points within this cosine of that colour's (washed tops of
the tuning photos: 0.93-1.0 at a top's corners), nearer to it than to any other."""

GLARE_CHROMA = 0.1
"""... and when its chromaticity in linear light is at least this far from grey: a white
top's stays under 0.08 (lamp-warmed, median of a top, tuning photos), a washed coloured
top's is 0.11 or more."""

GLARE_LIGHT = 0.4
"""... and when it is lit at least this share of the way from the table's lightness to the
white blocks': glare brightens what it washes, while a white top in shade, a shadow and the
mat (even a blue-grey or brown one) stay dark."""

GLARE_AREA = 0.35
"""Washed pixels count only in connected areas of at least this share of a top's: glare
covers a top or a broad part of it, whereas mixed pixels on a rim or in a groove, or a strip
of tinted shade on a white top, make thin or small areas."""

GLARE_SMOOTH_MM = 5.0
"""Glare is judged on the view smoothed (a median) over this width (mm), and its areas closed
over it: the noise of a pale, washed top speckles its pixels across the limits."""

GLARE_THIN_MM = 3.0
"""Washed lines this thin (mm; a rim, a groove) are opened away before areas are measured."""


def _odd_px(mm: float, px_per_mm: float) -> int:
    """An odd kernel size in pixels covering ``mm`` (1: none, in coarse views)."""
    return max(1, round(mm * px_per_mm) | 1)

TABLE_NOT_SKIN = 10.0
"""Pixels this close to the table's reference (the palette's weighted CIELAB distance) are
table even where skin-like: a brown or lamp-warmed mat is no hand. The mat's own pixels lie
within about 6 of it, a hand's 20 or more."""


@lru_cache(maxsize=32)
def _lab_to_bgr(lab: tuple[float, float, float]) -> tuple[float, float, float]:
    bgr = cv2.cvtColor(np.array([[lab]], np.float32), cv2.COLOR_Lab2BGR).reshape(3) * 255
    return (float(bgr[0]), float(bgr[1]), float(bgr[2]))


@lru_cache(maxsize=8)
def _chroma_refs(palette: Palette) -> tuple[tuple[str, ...], np.ndarray]:
    names, refs = [], []
    for c in palette.classes:
        if c.kind != "block":
            continue
        lab = np.array([[c.lab]], np.float32)
        bgr = cv2.cvtColor(lab, cv2.COLOR_Lab2BGR).reshape(3) * 255
        names.append(c.name)
        refs.append((bgr + 1) / (bgr.sum() + 3))
    return tuple(names), np.array(refs, np.float32)


def linear_chroma(bgr: np.ndarray) -> np.ndarray:
    """Each channel's share of the sum, less a third, of sRGB-encoded BGR (N, 3) in linear light.

    Glare adds the light's own (about white) colour to a surface's: in linear light that
    adds the same amount to every channel, which shortens the share vector but keeps its
    direction; in the camera's gamma-encoded values it also turns it (a washed blue drifts
    toward lavender), so the hue is compared in linear light.

    Example:
        >>> v = linear_chroma(np.array([[200.0, 100.0, 50.0], [255.0, 200.0, 180.0]]))
        >>> bool(v[0] @ v[1] / np.linalg.norm(v[0]) / np.linalg.norm(v[1]) > 0.9)
        True
    """
    x = np.asarray(bgr, np.float32) / 255.0
    lin = np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)
    return (lin + 0.004) / (lin.sum(axis=-1, keepdims=True) + 0.012) - 1 / 3


@lru_cache(maxsize=8)
def _hue_refs(palette: Palette) -> tuple[np.ndarray, np.ndarray, float, float] | None:
    """What :func:`washed_by_glare` compares with.

    Returns the coloured block classes' indexes and unit chromaticity directions (linear
    light), the table's and the white blocks' CIELAB lightness; None without a table, a
    white class or a coloured block class.
    """
    tables = [c.lab[0] for c in palette.classes if c.kind == "table"]
    whites = [c.lab[0] for c in palette.classes if c.name == "white"]
    index, hues = [], []
    for i, c in enumerate(palette.classes):
        if c.kind == "block" and c.name != "white":
            hue = linear_chroma(np.asarray(_lab_to_bgr(c.lab), np.float32))
            index.append(i)
            hues.append(hue / max(float(np.linalg.norm(hue)), 1e-9))
    if not tables or not whites or not hues:
        return None
    return (np.array(index, np.uint8), np.array(hues, np.float32), float(tables[0]),
            float(whites[0]))


def washed_by_glare(bgr: np.ndarray, palette: Palette) -> np.ndarray:
    """Block class indexes of BGR pixels (N, 3) washed by glare (``UNKNOWN`` where none).

    Glare adds the light's own colour to a top's: lightness rises and saturation drops,
    but the chromaticity in linear light (:func:`linear_chroma`) still points toward the
    block colour. A pixel is washed when it is lit well above the table
    (:data:`GLARE_LIGHT`), keeps some chroma (:data:`GLARE_CHROMA`) and points to a
    coloured block class, nearer than to any other (:data:`GLARE_COSINE`).
    """
    out = np.full(len(bgr), UNKNOWN, np.uint8)
    refs = _hue_refs(palette)
    if not len(bgr) or refs is None:
        return out
    index, hues, table_l, white_l = refs
    px = np.asarray(bgr, np.float32).reshape(-1, 3)
    light = cv2.cvtColor(px.reshape(-1, 1, 3) / 255.0, cv2.COLOR_BGR2Lab)[:, 0, 0]
    chroma = linear_chroma(px)
    strength = np.linalg.norm(chroma, axis=1)
    cos = (chroma @ hues.T) / np.maximum(strength[:, None], 1e-9)
    best = cos.argmax(axis=1)
    ok = ((cos[np.arange(len(px)), best] > GLARE_COSINE) & (strength > GLARE_CHROMA)
          & (light > table_l + GLARE_LIGHT * (white_l - table_l)))
    out[ok] = index[best[ok]]
    return out


@lru_cache(maxsize=32)   # 32 KB each; a game has one palette, a benchmark many
def _washed_lut(palette: Palette) -> np.ndarray:
    """:func:`washed_by_glare` over BGR at 5 bits per channel (32768 entries), per palette."""
    levels = np.arange(32, dtype=np.float32) * 8 + 4
    b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
    return washed_by_glare(np.stack([b, g, r], axis=-1).reshape(-1, 3), palette)


class TableViews:
    """The frame resampled onto the table's planes (``40 n`` mm up), white-balanced.

    Args:
        frame: the BGR frame.
        pose: the camera.
        palette: colour classes.
        px_per_mm: scale of every view.
    """

    def __init__(self, frame: np.ndarray, pose: TablePose, palette: Palette,
                 px_per_mm: float = 1.0) -> None:
        self.frame = frame
        self.pose = pose
        self.palette = palette
        self.px_per_mm = px_per_mm
        self.layout = pose.layout
        self._views: dict[float, np.ndarray] = {}
        self._classes: dict[float, np.ndarray] = {}
        self._skin: dict[float, np.ndarray] = {}
        self._grey: dict[float, np.ndarray] = {}
        self._table: tuple[float, float, float] | None = None
        self._seams: dict[float, np.ndarray] = {}
        self._gain_ready = False
        self._shadow_ready = False
        self._shadow: np.ndarray | None = None
        self._gain: np.ndarray | None = None
        self._marker_gains: dict[int, np.ndarray] | None = None

    def raw(self, height_mm: float) -> np.ndarray:
        """The plane ``height_mm`` up, before white balance."""
        m1, m2 = self.pose.plane_maps(float(height_mm), self.px_per_mm)
        return cv2.remap(self.frame, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def _ensure_gain(self) -> None:
        if not self._gain_ready:
            self._gain = self._balance()
            self._gain_ready = True

    def paper_gains(self) -> dict[int, np.ndarray]:
        """Per marker, the gains that bring its paper to white (sampled in the frame)."""
        if self._marker_gains is None:
            gains: dict[int, np.ndarray] = {}
            ids, pts = _paper_rings(self.layout)
            # every marker's ring in one projection
            px = self.pose.project(pts)
            h, w = self.frame.shape[:2]
            x = np.round(px[:, 0]).astype(int)
            y = np.round(px[:, 1]).astype(int)
            ok = (x >= 0) & (y >= 0) & (x < w) & (y < h)
            for marker_id in self.layout.marker_ids:
                sel = ok & (ids == marker_id)
                if int(sel.sum()) >= 8:
                    mean = np.median(self.frame[y[sel], x[sel]].astype(np.float32), axis=0)
                    if min(mean) > 20:
                        gains[marker_id] = WHITE_TARGET / np.maximum(mean, 1.0)
            self._marker_gains = gains
        return self._marker_gains

    def gain_at(self, xy: np.ndarray) -> np.ndarray:
        """White-balance gains (N, 3) at table points (N, 2): bilinear through the markers."""
        gains = self.paper_gains()
        if not gains:
            return np.ones((len(xy), 3), np.float32)
        lay = self.layout
        centres = _marker_centres(lay)
        tl, tr, br, bl = lay.marker_ids
        mean = np.mean(list(gains.values()), axis=0)
        g = {i: gains.get(i, mean) for i in lay.marker_ids}
        u = ((xy[:, 0] - centres[tl][0]) / (centres[tr][0] - centres[tl][0]))[:, None]
        v = ((xy[:, 1] - centres[tl][1]) / (centres[bl][1] - centres[tl][1]))[:, None]
        out = ((1 - u) * (1 - v) * g[tl] + u * (1 - v) * g[tr] + u * v * g[br]
               + (1 - u) * v * g[bl])
        return np.clip(out, 0.5, 4.0).astype(np.float32)

    def sample_bgr(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Balanced BGR (N, 3) at table points (N, 3), and which points are in the frame."""
        bgr, ok, _px = self.sample(points)
        return bgr, ok

    def sample(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Balanced BGR (N, 3) at table points (N, 3), which are in the frame, their pixels.

        One projection serves the colours, the classes (:meth:`classes_of`) and whatever
        else needs the pixels.
        """
        pts = np.asarray(points, np.float64).reshape(-1, 3)
        px = self.pose.project(pts)
        h, w = self.frame.shape[:2]
        x = np.round(px[:, 0]).astype(int)
        y = np.round(px[:, 1]).astype(int)
        ok = (x >= 0) & (y >= 0) & (x < w) & (y < h)
        bgr = np.zeros((len(pts), 3), np.float32)
        if ok.any():
            bgr[ok] = self.frame[y[ok], x[ok]].astype(np.float32) * self.gain_at(pts[ok, :2])
        return np.clip(bgr, 0, 255), ok, px

    def classes_of(self, bgr: np.ndarray, ok: np.ndarray) -> np.ndarray:
        """Class indexes of balanced samples (from :meth:`sample`).

        ``UNKNOWN`` for skin and for samples outside the frame.
        """
        out = np.full(len(bgr), UNKNOWN, np.uint8)
        if ok.any():
            img = bgr[ok].astype(np.uint8).reshape(-1, 1, 3)
            cls = self.palette.classify(img).reshape(-1)
            cls[self.skin_of(img).reshape(-1)] = UNKNOWN
            out[ok] = cls
        return out

    def _by_hue(self, bgr: np.ndarray) -> np.ndarray:
        """Class indexes of BGR pixels (N, 3) by hue alone (``UNKNOWN`` where none).

        Only the coloured (not white) block classes, strictly.
        """
        out = np.full(len(bgr), UNKNOWN, np.uint8)
        names, refs = _chroma_refs(self.palette)
        px = bgr.astype(np.float32)
        chroma = (px + 1) / (px.sum(axis=1, keepdims=True) + 3) - 1 / 3
        strength = np.linalg.norm(chroma, axis=1)
        best = np.full(len(bgr), -1.0)
        for name, ref in zip(names, refs, strict=True):
            if name == "white":
                continue
            r = ref - 1 / 3
            cos = chroma @ r / np.maximum(strength * np.linalg.norm(r), 1e-9)
            take = (cos > max(HUE_COSINE, 0.95)) & (cos > best) & (strength > 0.08) & (
                px.sum(axis=1) > 60)
            out[take] = self.palette.index(name)
            best = np.where(take, cos, best)
        return out

    def _washed(self, bgr: np.ndarray) -> np.ndarray:
        """Block class indexes of glare-washed balanced BGR pixels (uint8, any shape).

        ``UNKNOWN`` where none: :func:`washed_by_glare`, through a look-up table.
        """
        q = (bgr >> 3).astype(np.uint16)
        return _washed_lut(self.palette)[(q[..., 0] << 10) | (q[..., 1] << 5) | q[..., 2]]

    def _pale_classes(self) -> list[int]:
        """The classes a glare-washed top's pixels fall in: white, the table, or none."""
        return [UNKNOWN, *self.palette.of_kind("table"),
                *[i for i, k in enumerate(self.palette.classes) if k.name == "white"]]

    def _glare_areas(self, classes: np.ndarray, washed: np.ndarray, pale: np.ndarray
                     ) -> np.ndarray:
        """``classes`` with its pale pixels in broad washed areas given their block colour.

        ``pale``: the pixels classed white, table or nothing; ``washed``: the block class
        each pixel would have by glare (:meth:`_washed`, ``UNKNOWN`` elsewhere). Areas of at
        least :data:`GLARE_AREA` of a top count. Glare lies over a whole top or a broad part
        of it; a rim where a white top meets the blue-grey mat, a groove between two tops or
        a tinted strip of shade on a white top is no top.
        """
        side = self.layout.block_mm * self.px_per_mm
        close = _odd_px(GLARE_SMOOTH_MM, self.px_per_mm)
        thin = _odd_px(GLARE_THIN_MM, self.px_per_mm)
        counts = np.bincount(washed.ravel(), minlength=256)
        # (speckled: a quarter of the area before closing)
        for index in np.flatnonzero(counts[:UNKNOWN] >= GLARE_AREA * side * side / 4):
            # glare's pixels are speckled with the top's own colour and noise: close them
            # into areas, then drop the thin lines
            mask = (washed == index).astype(np.uint8)
            for size, op in ((close, cv2.MORPH_CLOSE), (thin, cv2.MORPH_OPEN)):
                if size > 1:
                    mask = cv2.morphologyEx(mask, op, np.ones((size, size), np.uint8))
            if cv2.countNonZero(mask) < GLARE_AREA * side * side:
                continue
            x, y, w, h = cv2.boundingRect(mask)
            _n, labels, stats, _c = cv2.connectedComponentsWithStats(
                mask[y:y + h, x:x + w], connectivity=4)
            big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= GLARE_AREA * side * side)
            big = big[big > 0]
            if len(big):
                area = np.isin(labels, big) & pale[y:y + h, x:x + w]
                classes[y:y + h, x:x + w][area] = index
        return classes

    def chroma_match(self, bgr: np.ndarray, colour: str) -> np.ndarray:
        """Which balanced BGR samples (N, 3) have block ``colour``'s hue.

        Shade (a side face, a hard shadow, dim light) scales all three channels alike, so
        each channel's share of their sum stays; glare adds grey, which shortens but does
        not turn it (in linear light: :func:`washed_by_glare`). White is told from the table
        by being brighter than the table.
        """
        names, refs = _chroma_refs(self.palette)
        if colour not in names:
            return np.zeros(len(bgr), bool)
        chroma = (bgr + 1) / (bgr.sum(axis=1, keepdims=True) + 3) - 1 / 3
        strength = np.linalg.norm(chroma, axis=1)
        bright = bgr.sum(axis=1)
        if colour == "white":
            return (strength < WHITE_CHROMA) & (
                bright > 1.3 * float(sum(self.table_balanced_bgr)))
        # the hue's direction: shade scales it down, glare washes it out toward grey, but
        # it keeps pointing the same way
        ref = refs[names.index(colour)] - 1 / 3
        others = [refs[i] - 1 / 3 for i, n in enumerate(names) if n not in (colour, "white")]
        cos = chroma @ ref / np.maximum(strength * np.linalg.norm(ref), 1e-9)
        best_other = np.max([chroma @ o / np.maximum(strength * np.linalg.norm(o), 1e-9)
                             for o in others], axis=0) if others else np.zeros(len(bgr))
        hue = (cos > HUE_COSINE) & (cos > best_other) & (strength > 0.06) & (bright > 45)
        # a glossy top washed by glare (pale: nearest white, the table or nothing), whose
        # hue only holds in linear light; a pawn's own colour (an orange pawn's is red's
        # in linear light) is no top's
        rest = ~hue
        if rest.any():
            px = np.clip(bgr[rest], 0, 255).astype(np.uint8).reshape(-1, 1, 3)
            pale = np.isin(self.palette.classify(px).reshape(-1), self._pale_classes())
            washed = self._washed(px).reshape(-1) == self.palette.index(colour)
            hue[rest] = washed & pale
        return hue

    def sample_classes(self, points: np.ndarray) -> np.ndarray:
        """Class index (``UNKNOWN`` for skin or nothing) at table points (N, 3) with heights.

        Points are read straight from the frame through the camera model and balanced from
        the markers' paper, without resampling whole planes (the per-frame play check).
        Points outside the frame are ``UNKNOWN``.
        """
        bgr, ok, _px = self.sample(points)
        out = np.full(len(ok), UNKNOWN, np.uint8)
        if not ok.any():
            return out
        img = bgr[ok].astype(np.uint8).reshape(-1, 1, 3)
        cls = self.palette.classify(img).reshape(-1)
        cls[self.skin_of(img).reshape(-1)] = UNKNOWN
        out[ok] = cls
        return out

    def _balance(self) -> np.ndarray | None:
        ground = self.raw(0.0)
        gains: dict[int, np.ndarray] = {}
        for marker_id, ((x0, y0, x1, y1), mask) in zip(
                self.layout.marker_ids, _paper_masks(self.layout, self.px_per_mm), strict=True):
            mean = cv2.mean(ground[y0:y1, x0:x1], mask=mask)[:3]
            if min(mean) > 20:
                gains[marker_id] = WHITE_TARGET / np.asarray(mean, np.float32)
        self._views[0.0] = ground
        if not gains:
            return None
        h, w = ground.shape[:2]
        gain = _gain_field(self.layout, self.px_per_mm, gains, (w, h))
        self._views[0.0] = np.clip(ground.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        return gain

    def seams(self, height_mm: float) -> np.ndarray:
        """Thin dark lines of the view (0/1), found by a black-hat of the lightness.

        They are the grooves between touching blocks and the bevels round each top.
        """
        key = float(height_mm)
        if key not in self._seams:
            grey = cv2.cvtColor(self.view(key), cv2.COLOR_BGR2GRAY)
            size = max(3, round(5 * self.px_per_mm) | 1)
            hat = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT,
                                   cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
            limit = max(SEAM_MIN, 3.0 * float(np.percentile(hat, 90)))
            self._seams[key] = (hat > limit).astype(np.uint8)
        return self._seams[key]

    @property
    def table_bgr(self) -> tuple[float, float, float]:
        """The table's typical colour in the raw frame, before white balance.

        The median of the table-class pixels of the ground view; it tells white side faces
        (brighter) from the table.
        """
        if self._table is None:
            cls = self.classes(0.0)
            table = [i for i in self.palette.of_kind("table")]
            sel = np.isin(cls, table)
            raw = self.raw(0.0)
            if int(sel.sum()) > 100:
                med = np.median(raw[sel], axis=0)
            else:
                med = np.median(raw.reshape(-1, 3), axis=0)
            self._table = (float(med[0]), float(med[1]), float(med[2]))
        return self._table

    @property
    def table_balanced_bgr(self) -> tuple[float, float, float]:
        """The table's colour after white balance: the palette's (learnt) table reference."""
        tables = [c for c in self.palette.classes if c.kind == "table"]
        if not tables:
            return (0.0, 0.0, 0.0)
        return _lab_to_bgr(tables[0].lab)

    def view(self, height_mm: float) -> np.ndarray:
        """The white-balanced BGR view of the plane ``height_mm`` up."""
        self._ensure_gain()
        key = float(height_mm)
        if key not in self._views:
            img = self.raw(key)
            if self._gain is not None:
                img = np.clip(img.astype(np.float32) * self._gain, 0, 255).astype(np.uint8)
            self._views[key] = img
        return self._views[key]

    def classes(self, height_mm: float) -> np.ndarray:
        """Per-pixel class indexes of :meth:`view` (markers and their paper excluded)."""
        key = float(height_mm)
        if key not in self._classes:
            view = self.view(key)
            c = self.palette.classify(view)
            # a coloured block's top in glare or deep shade is too far from its reference
            # in CIELAB but keeps its hue: give such pixels the block colour they point to
            unknown = c == UNKNOWN
            if unknown.any():
                hue = self._by_hue(view[unknown])
                # the mat in the scene's shadow light (a warm lamp's, the sun shaded) has
                # a hue too, but it is the mat
                # (in views fine enough to show a top: not the play check's hand view)
                fine_view = self.layout.block_mm * self.px_per_mm >= MIN_BLOCK_PX
                light = (self.shadow_light() if fine_view and self.palette.of_kind("table")
                         else None)
                if light is not None:
                    hue[shaded_mat(view[unknown], self.palette, light)] = (
                        self.palette.of_kind("table")[0])
                c[unknown] = hue
            # glare veils a coloured top toward white (a glossy top under a big overhead
            # light) but leaves its hue: "white" with a block colour's hue is that colour
            if any(k.name == "white" for k in self.palette.classes):
                whites = c == self.palette.index("white")
                if whites.any() and self.palette.of_kind("table"):
                    # "white" no lighter than the lit mat is the mat in a lamp-lit shade
                    # (a white top in a shadow is told by the light round it, below)
                    dull = whites.copy()
                    dull[whites] = (view[whites].astype(np.float32).sum(axis=1)
                                    < WHITE_OVER_TABLE * float(sum(self.table_balanced_bgr)))
                    c[dull] = self.palette.of_kind("table")[0]
                    whites &= ~dull
                if whites.any():
                    hue = self._by_hue(view[whites])
                    c[whites] = np.where(hue == UNKNOWN, c[whites], hue)
            # glare washes a top lighter and paler, toward white or (by the weighted CIELAB
            # distance, where lightness counts little) toward the mat: its chromaticity
            # still points to the block colour
            # (both judge areas a top wide: not in a view too coarse to show a top's
            # shape, such as the play check's hand view)
            fine = self.layout.block_mm * self.px_per_mm >= MIN_BLOCK_PX
            if fine:
                pale = np.isin(c, self._pale_classes())
                size = _odd_px(GLARE_SMOOTH_MM, self.px_per_mm)
                smooth = cv2.medianBlur(view, size) if size > 1 else view
                washed = np.where(pale, self._washed(smooth), UNKNOWN)
                c = self._glare_areas(c, washed.astype(np.uint8), pale)
            # a white top in a hard shadow is no lighter than the lit table: white for
            # the light round it (the first level's plane and above)
            if fine and key > 0 and any(k.name == "white" for k in self.palette.classes):
                shaded = whites_in_shade(view, c, self.palette,
                                         self.layout.block_mm * self.px_per_mm)
                c[shaded] = self.palette.index("white")
            # any block top in a hard shadow, against the palette as the shadow shows it
            if fine and key > 0 and self.palette.of_kind("table"):
                light = self.shadow_light()
                if light is not None:
                    found = tops_in_shadow(view, c, self.palette, light,
                                           self.layout.block_mm * self.px_per_mm)
                    c = np.where(found == UNKNOWN, c, found).astype(np.uint8)
            c[_keepout(self.layout, self.px_per_mm) > 0] = UNKNOWN
            c[papers_at(self.pose, self.px_per_mm, key, c.shape) > 0] = UNKNOWN
            c[self.skin(key)] = UNKNOWN
            self._classes[key] = c
        return self._classes[key]

    def shadow_light(self) -> np.ndarray | None:
        """The scene's hard-shadow light per channel (:func:`shadow_light`), or None."""
        if not self._shadow_ready:
            self._shadow = shadow_light(self.view(0.0), self.palette)
            self._shadow_ready = True
        return self._shadow

    def skin(self, height_mm: float) -> np.ndarray:
        """Skin-coloured pixels (a hand, an arm) of :meth:`view`."""
        key = float(height_mm)
        if key not in self._skin:
            self._skin[key] = self.skin_of(self.view(key))
        return self._skin[key]

    def skin_of(self, bgr: np.ndarray) -> np.ndarray:
        """Skin-coloured pixels of balanced BGR (uint8) that are not the table's own colour."""
        mask = skin(bgr)
        if mask.any():
            mask[mask] = ~near_table(bgr[mask], self.palette)
        return mask

    def edges(self, height_mm: float) -> np.ndarray:
        """Gradient magnitude of the view's lightness (smoothed a little)."""
        key = float(height_mm)
        if key not in self._grey:
            grey = cv2.cvtColor(self.view(key), cv2.COLOR_BGR2GRAY).astype(np.float32)
            grey = np.asarray(cv2.GaussianBlur(grey, (0, 0), 0.8), np.float32)
            gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
            gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
            self._grey[key] = cv2.magnitude(gx, gy)
        return self._grey[key]


SKIN_LAB = ((25.0, 88.0), (6.0, 32.0), (8.0, 40.0))
"""CIELAB box of skin under white-balanced light: lightness, a, b (hands are no block)."""

GLARE_RED = (60.0, 0.97)
"""A skin-like pixel lighter than this (CIELAB L) whose b is under this share of its a (a hue
under 44 degrees) is a glossy red top washed pink by glare, which keeps red's hue (35-45
degrees), not a hand (42-72, median 53, rarely that light): on the tuning photos this takes
93 % of such tops' skin-like pixels and 1.4 % of the hands'."""


def skin(bgr: np.ndarray) -> np.ndarray:
    """Boolean mask of skin-coloured pixels (a hand or an arm) of a balanced BGR image.

    Reddish-yellow with moderate chroma and more yellow than red in proportion to the
    lightness: between the orange pawns, the red and yellow blocks and the grey table; a red
    top washed pink by glare is lighter and redder (:data:`GLARE_RED`).
    """
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.int16)
    lum = lab[..., 0] * 100 // 255
    a = lab[..., 1] - 128
    b = lab[..., 2] - 128
    (l0, l1), (a0, a1), (b0, b1) = SKIN_LAB
    return ((lum >= l0) & (lum <= l1) & (a >= a0) & (a <= a1) & (b >= b0) & (b <= b1)
            & (b >= a * 0.7) & ~((lum > GLARE_RED[0]) & (b < a * GLARE_RED[1])))


def near_table(bgr: np.ndarray, palette: Palette, within: float = TABLE_NOT_SKIN
               ) -> np.ndarray:
    """Which pixels of BGR (uint8, any shape ending in 3) are near a table reference.

    Near: within ``within`` by the palette's distance (:meth:`Palette.near`).
    """
    q = (bgr >> 3).astype(np.uint16)
    return palette.near("table", within)[(q[..., 0] << 10) | (q[..., 1] << 5) | q[..., 2]]


@lru_cache(maxsize=8)
def _marker_centres(layout: TableLayout) -> dict[int, np.ndarray]:
    return {i: np.asarray(layout.marker_corners_mm(i)).mean(axis=0) for i in layout.marker_ids}


@lru_cache(maxsize=8)
def _paper_rings(layout: TableLayout) -> tuple[np.ndarray, np.ndarray]:
    """Points (N, 3) on the paper round every marker, and the marker id of each."""
    a, b = PAPER_RING_MM
    side = layout.marker_mm
    steps = np.linspace(-b, side + b, 14)
    ids, pts = [], []
    for marker_id in layout.marker_ids:
        (x0, y0), _, _, _ = layout.marker_corners_mm(marker_id)
        xs, ys = np.meshgrid(x0 + steps, y0 + steps)
        rel = np.stack([xs.ravel() - x0, ys.ravel() - y0], axis=1)
        ring = ((rel.min(axis=1) < -a) | (rel.max(axis=1) > side + a))
        pts.append(np.column_stack([xs.ravel()[ring], ys.ravel()[ring],
                                    np.zeros(int(ring.sum()))]))
        ids.append(np.full(int(ring.sum()), marker_id))
    return np.concatenate(ids), np.concatenate(pts)


@lru_cache(maxsize=8)
def _keepout(layout: TableLayout, px_per_mm: float) -> np.ndarray:
    return marker_keepout(layout, px_per_mm)


PAPER_PAD_MM = 14.0
"""The markers' paper reaches this far (mm) beyond each marker (printed margins 6-11 mm)."""


def papers_at(pose: TablePose, ppm: float, height: float, shape: tuple[int, ...]
               ) -> np.ndarray:
    """Where the markers' paper (on the table) shows in the view of the plane ``height`` up.

    Seen in a plane above the table, the paper shifts toward the camera's nadir (20-30 mm
    at the corners, 40 mm up), out of the table-plane keep-out; its white is no block there.
    """
    key = ("papers", ppm, float(height), tuple(shape))
    cached = pose.derived.get(key)
    if isinstance(cached, np.ndarray):
        return cached
    layout = pose.layout
    mask = np.zeros(shape[:2], np.uint8)
    for marker_id in layout.marker_ids:
        (x0, y0), _, (x1, y1), _ = layout.marker_corners_mm(marker_id)
        p = PAPER_PAD_MM
        ring = np.array([[x0 - p, y0 - p, 0.0], [x1 + p, y0 - p, 0.0], [x1 + p, y1 + p, 0.0],
                         [x0 - p, y1 + p, 0.0]])
        at = pose.to_plane(pose.project(ring), height) * ppm
        cv2.fillConvexPoly(mask, np.round(at).astype(np.int32), 1)
    if len(pose.derived) > 32:
        pose.derived.clear()
    pose.derived[key] = mask
    return mask


def learn_palette(views: TableViews, base: Palette | None = None) -> Palette:
    """Colours learnt on this table at set-up (``calibrate --learn-palette``).

    The table's reference is the commonest colour of the ground view (most of what the
    camera sees is table); then each class's reference moves toward the mean colour of the
    pixels it already claims in the white-balanced view of the first level's plane (block
    tops, pawns, the table), the markers' paper and skin left out (but not a skin-like mat's
    own colour, which is the table).
    """
    from vision.palette import adapt_palette

    base = base or views.palette
    # the table: most of the ground view (its commonest colour, in CIELAB)
    ground = views.view(0.0)
    keep = _keepout(views.layout, views.px_per_mm) == 0
    lab = cv2.cvtColor(ground.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)[keep]
    centre = np.median(lab, axis=0)
    for _ in range(3):
        near = np.linalg.norm(lab - centre, axis=1) < 12.0
        if near.sum() < 0.2 * len(lab):
            break
        centre = np.median(lab[near], axis=0)
    tables = {c.name: [float(v) for v in centre] for c in base.classes if c.kind == "table"}
    base = base.with_references(tables)
    view = views.view(views.layout.block_height_mm).copy()
    view[~keep] = 0
    # a skin-like mat (brown, lamp-warmed) is learnt as the table; a hand over it is not
    # (half the margin of TableViews.skin_of: only the mat's own colour, not a hand near it)
    view[skin(view) & ~near_table(view, base, TABLE_NOT_SKIN / 2)] = 0
    return adapt_palette(base, view)
