"""From what the camera sees to the Infinifield engine's field model, and back to ids.

The camera measures; the engine judges. :func:`observed_field` turns an observation into the
engine's :class:`~companion.games.infinifield.Field` (footprints in table mm, heights, and the
touching pairs the camera decided with its own measurement tolerance), and
:func:`check_observed_field` hands it to the engine's field-building checks.
:func:`field_toml` writes a field file the referee can load as the setup of a match.
:func:`match_to_field` gives each seen block the id of the engine's block at the same place.

Example:
    >>> from vision.render import SceneSpec, render_scene
    >>> from vision.calibration import calibrate
    >>> from vision.observe import observe
    >>> scene = render_scene(SceneSpec(seed=1))
    >>> field = observed_field(observe(scene.image, calibrate(scene.image)))
    >>> len(field.blocks) == len(scene.field.blocks)
    True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from companion.games.infinifield import (
    Block,
    Field,
    Violation,
    build_field,
    check_field,
    field_toml_text,
)
from vision.observe import Observation


def observed_field(obs: Observation, ids: Sequence[str] | None = None,
                   name: str = "seen by the camera") -> Field:
    """The engine's field model of an observation.

    Touching pairs are the camera's (``layout.touch_mm``, which allows for the measurement
    error of a millimetre or so), given explicitly so the engine does not re-decide them
    from measured footprints with its own, tighter tolerance.

    Args:
        obs: the observation.
        ids: block ids in ``obs.blocks`` order (default: provisional ``W1``, ``Y1``...).
        name: the field's title.

    Raises:
        FieldError: a block's colour is not an Infinifield colour (another palette).
    """
    ids = list(ids) if ids is not None else obs.block_ids()
    blocks = [Block(ids[i], b.colour, tuple((float(x), float(y)) for x, y in b.outline),
                    obs.layout.block_height_mm) for i, b in enumerate(obs.blocks)]
    touching = [(ids[i], ids[j]) for i, j in sorted(obs.touching)]
    return build_field(blocks, touching, name=name, pawn_diameter=obs.layout.pawn_mm)


def check_observed_field(obs: Observation, mode: str = "official") -> list[Violation]:
    """The engine's verdict on the field in one photo: every field-building violation.

    Example:
        >>> from vision.render import SceneSpec, render_scene
        >>> from vision.calibration import calibrate
        >>> from vision.observe import observe
        >>> scene = render_scene(SceneSpec(seed=1))
        >>> isinstance(check_observed_field(observe(scene.image, calibrate(scene.image))), list)
        True
    """
    return check_field(observed_field(obs), mode)


def field_toml(obs: Observation, name: str = "Field seen by the camera") -> str:
    """A field file (TOML, ``docs/infinifield.md``) describing the observed field.

    Footprints are the blocks' outlines as measured (table mm); touching is explicit.
    """
    return field_toml_text(observed_field(obs, name=name), comments=(
        f"Written by infinite-vision from one photo of the table: {len(obs.blocks)} blocks.",))


def visible_blocks(field: Field, removed: Sequence[str] = ()) -> list[Block]:
    """The blocks still on the field that nothing still present rests on (seen from above)."""
    gone = set(removed)
    present = [b for b in field.blocks if b.id not in gone]
    covered = {support for b in present for support in b.rests_on}
    return [b for b in present if b.id not in covered and b.footprint]


def match_to_field(obs: Observation, candidates: Sequence[Block], limit_mm: float | None = None
                   ) -> dict[int, str]:
    """Give each seen block the id of the engine block at the same place.

    Returns:
        ``{seen index: block id}``: each seen block paired with the nearest engine block of
        the same colour within ``limit_mm`` (default half a block side) of its centre.
    """
    limit = obs.layout.block_mm / 2 if limit_mm is None else limit_mm
    centres = {b.id: np.mean(np.asarray(b.footprint, float), axis=0) for b in candidates}
    colour = {b.id: b.colour for b in candidates}
    pairs: list[tuple[float, int, str]] = []
    for i, seen in enumerate(obs.blocks):
        for block_id, c in centres.items():
            d = float(np.hypot(seen.centre[0] - c[0], seen.centre[1] - c[1]))
            if d <= limit and colour[block_id] == seen.colour:
                pairs.append((d, i, block_id))
    out: dict[int, str] = {}
    used: set[str] = set()
    for _d, i, block_id in sorted(pairs):
        if i not in out and block_id not in used:
            out[i] = block_id
            used.add(block_id)
    return out
