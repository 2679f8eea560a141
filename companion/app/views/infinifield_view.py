"""What the Infinifield screen draws, and what a tap on a block proposes (no Kivy).

The field comes from the engine (its blocks' footprints in table millimetres; the vision
pipeline builds the same model from the camera). Blocks resting on others are drawn after
them, slightly raised, so a 3D field reads from above as it does on the table. The blocks
that may be removed are the engine's :func:`removable_blocks`, highlighted only while a
removal is due. A tap on a block becomes the candidate action of the phase; the engine
decides, and a refusal comes back as a verdict with its rule.

Example:
    >>> from companion.games.infinifield import GAME
    >>> from companion.resources import shipped_sources
    >>> setup = GAME.load_setup(shipped_sources("companion.games.infinifield",
    ...     {"setup": "fields/quickstart.toml"}), {"players": ["Ann", "Ben"]})
    >>> state = GAME.initial_state(setup)
    >>> tap_action(state, "W5")
    'start Ben W5'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.games.infinifield.actions import Action, Move, Remove, Start
from companion.games.infinifield.flow import occupied
from companion.games.infinifield.removal import removable_blocks
from companion.games.infinifield.rulebook import Termination
from companion.games.infinifield.state import Phase, State

COLOUR_LETTERS = {"white": "W", "yellow": "Y", "red": "R", "blue": "B"}
"""The letter drawn on each block colour (the cue that does not rely on colour)."""

RAISE_PX_PER_MM = 0.12
"""How far up the screen a block is drawn per millimetre it sits above the table."""


@dataclass(frozen=True)
class BlockView:
    """One block as drawn: its outline in widget pixels and what it shows.

    Attributes:
        id: block id.
        colour: the block colour name.
        letter: the colour's letter (second cue).
        outline: polygon points ``(x, y)`` in pixels, relative to the board's origin.
        centre: where its label and pawn go.
        pawn: the player whose pawn stands on it, if any.
        removable: highlighted as a block that may be removed now.
        raised: it rests on other blocks.
    """

    id: str
    colour: str
    letter: str
    outline: tuple[tuple[float, float], ...]
    centre: tuple[float, float]
    pawn: str | None
    removable: bool
    raised: bool


def block_views(state: State, width: float, height: float,
                margin: float = 12) -> list[BlockView]:
    """The blocks still on the field, fitted into ``width`` x ``height`` pixels, bottom first.

    Blocks without a footprint (a field with explicit touching) are laid out on a grid.
    """
    field = state.field
    present = [block for block in field.blocks if block.id not in state.removed]
    footprints = {block.id: block.footprint or _grid_square(index, len(field.blocks))
                  for index, block in enumerate(field.blocks)}
    elevation = field.elevation
    points = [p for block in field.blocks for p in footprints[block.id]]
    if not points:
        return []
    min_x = min(p[0] for p in points)
    max_x = max(p[0] for p in points)
    min_y = min(p[1] for p in points)
    max_y = max(p[1] for p in points)
    top_raise = max(elevation.values(), default=0.0)
    span_x = max(max_x - min_x, 1.0)
    span_y = max(max_y - min_y + top_raise * RAISE_PX_PER_MM * 4, 1.0)
    scale = min((width - 2 * margin) / span_x, (height - 2 * margin) / span_y)
    off_x = (width - span_x * scale) / 2
    off_y = (height - span_y * scale) / 2
    removable = set(removable_blocks(field, state.removed, occupied(state))) \
        if state.phase == Phase.REMOVE else set()
    views = []
    for block in sorted(present, key=lambda b: elevation.get(b.id, 0.0)):
        lift = elevation.get(block.id, 0.0) * RAISE_PX_PER_MM * scale
        outline = tuple((off_x + (x - min_x) * scale, off_y + (y - min_y) * scale + lift)
                        for x, y in footprints[block.id])
        centre = (sum(p[0] for p in outline) / len(outline),
                  sum(p[1] for p in outline) / len(outline))
        views.append(BlockView(block.id, block.colour, COLOUR_LETTERS.get(block.colour, "?"),
                               outline, centre, state.pawn_on(block.id),
                               block.id in removable, bool(block.rests_on)))
    return views


@dataclass(frozen=True)
class LabelSpot:
    """Where a block's id is written: a point of the block no higher block covers.

    Attributes:
        x: the label's centre, board pixels.
        y: the label's centre, board pixels.
        room: how far the free area reaches around that point (pixels); the label's size
            follows it.
        covered: whether part of the block is hidden under a higher one (its id then goes
            where the block still shows, not at its centre).
    """

    x: float
    y: float
    room: float
    covered: bool


def label_spots(views: list[BlockView], step: float = 3.0,
                pawn_radius: float = 0.0) -> dict[str, LabelSpot]:
    """For each drawn block, the visible point where its id reads best.

    Issue 15: the 3D castle hid the ids of covered blocks. ``views`` are bottom first, as
    drawn: a block is covered by those after it. Points of the block on a grid (``step``
    pixels or finer than 1/14 of the block) that no later block covers are candidates; the
    one farthest from every edge (its own and its coverers') wins. A block's pawn (drawn at
    its centre) counts as a coverer of ``pawn_radius``. A block with no visible point keeps
    its centre.
    """
    spots: dict[str, LabelSpot] = {}
    boxes = [_box(view.outline) for view in views]
    for index, view in enumerate(views):
        above = [views[later].outline for later in range(index + 1, len(views))
                 if _boxes_meet(boxes[index], boxes[later])]
        cx, cy = view.centre
        if not above and (view.pawn is None or not pawn_radius):
            box = boxes[index]
            room = min(cx - box[0], box[2] - cx, cy - box[1], box[3] - cy)
            spots[view.id] = LabelSpot(cx, cy, room, False)
            continue
        outline = np.array(view.outline, dtype=float)
        low, high = outline.min(axis=0), outline.max(axis=0)
        grid = max(step, *((high - low) / 14))
        xs = np.arange(low[0] + grid / 2, high[0], grid)
        ys = np.arange(low[1] + grid / 2, high[1], grid)
        points = np.array(np.meshgrid(xs, ys)).reshape(2, -1).T
        points = points[_inside_many(view.outline, points)]
        hidden = np.zeros(len(points), dtype=bool)
        for polygon in above:
            hidden |= _inside_many(polygon, points)
        covered = bool(hidden.any())
        free = points[~hidden]
        if len(free) == 0:
            spots[view.id] = LabelSpot(cx, cy, 0.0, True)
            continue
        rooms = _edge_distances(view.outline, free)
        for polygon in above:
            rooms = np.minimum(rooms, _edge_distances(polygon, free))
        if view.pawn is not None and pawn_radius:
            rooms = np.minimum(rooms, np.maximum(
                0.0, np.hypot(free[:, 0] - cx, free[:, 1] - cy) - pawn_radius))
        best = int(np.argmax(rooms))
        spots[view.id] = LabelSpot(float(free[best, 0]), float(free[best, 1]),
                                   float(rooms[best]), covered)
    return spots


def _inside_many(polygon: tuple[tuple[float, float], ...], points: np.ndarray) -> np.ndarray:
    """Which of ``points`` (n x 2) lie inside ``polygon`` (even-odd rule, as :func:`_inside`)."""
    inside = np.zeros(len(points), dtype=bool)
    x, y = points[:, 0], points[:, 1]
    count = len(polygon)
    for i in range(count):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % count]
        if y1 == y2:
            continue
        crosses = ((y1 > y) != (y2 > y)) & (x < (x2 - x1) * (y - y1) / (y2 - y1) + x1)
        inside ^= crosses
    return inside


def _edge_distances(polygon: tuple[tuple[float, float], ...], points: np.ndarray) -> np.ndarray:
    """Each point's distance to the nearest edge of ``polygon``."""
    best = np.full(len(points), np.inf)
    count = len(polygon)
    for i in range(count):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % count]
        dx, dy = x2 - x1, y2 - y1
        length = dx * dx + dy * dy
        if length == 0:
            t = np.zeros(len(points))
        else:
            t = np.clip(((points[:, 0] - x1) * dx + (points[:, 1] - y1) * dy) / length, 0, 1)
        best = np.minimum(best, np.hypot(points[:, 0] - (x1 + t * dx),
                                         points[:, 1] - (y1 + t * dy)))
    return best


def _box(outline: tuple[tuple[float, float], ...]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    return min(xs), min(ys), max(xs), max(ys)


def _boxes_meet(a: tuple[float, float, float, float], b: tuple[float, float, float, float],
                overlap: float = 1.0) -> bool:
    """Whether two bounding boxes overlap by more than ``overlap`` pixels.

    Blocks that only touch side by side do not cover each other.
    """
    return (min(a[2], b[2]) - max(a[0], b[0]) > overlap and
            min(a[3], b[3]) - max(a[1], b[1]) > overlap)


def _grid_square(index: int, count: int) -> tuple[tuple[float, float], ...]:
    columns = max(1, round(count ** 0.5 * 1.6))
    x, y = (index % columns) * 45.0, -(index // columns) * 45.0
    return ((x, y), (x + 40, y), (x + 40, y + 40), (x, y + 40))


def block_at(views: list[BlockView], x: float, y: float) -> str | None:
    """The topmost block under the point ``(x, y)`` (board pixels), if any."""
    for view in reversed(views):
        if _inside(view.outline, x, y):
            return view.id
    return None


def _inside(polygon: tuple[tuple[float, float], ...], x: float, y: float) -> bool:
    inside = False
    count = len(polygon)
    for i in range(count):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % count]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def tap_action(state: State, block: str) -> str | None:
    """The candidate action a tap on ``block`` stands for in this phase, as notation.

    The engine decides whether it is legal.
    ``start`` on a starting position, ``move`` from the pawn's block, ``remove`` when a
    removal is due; ``None`` when a tap on the field means nothing (between rounds, game over).
    """
    action = tapped(state, block)
    return None if action is None else str(action)


def tapped(state: State, block: str) -> Action | None:
    """The typed action a tap on ``block`` stands for in this phase (see :func:`tap_action`)."""
    player = state.to_act
    if player is None:
        return None
    if state.phase == Phase.START:
        return Start(player, block)
    if state.phase == Phase.MOVE:
        origin = state.pawn_of(player)
        return Move(player, origin, block) if origin else None
    if state.phase == Phase.REMOVE:
        return Remove(player, block)
    return None


def counter_ring(state: State) -> list[str]:
    """The five LEDs of the counter ring mirrored on screen: positions 1-4, then X.

    The counter's place is lit; X is lit red while the removal it calls for is due.

    Example:
        >>> from types import SimpleNamespace
        >>> counter_ring(SimpleNamespace(counter=0, phase=Phase.REMOVE))
        ['off', 'off', 'off', 'off', 'due']
    """
    ring = ["off"] * 5
    index = 4 if state.counter == 0 else state.counter - 1
    ring[index] = "due" if state.phase == Phase.REMOVE and state.counter == 0 else "lit"
    return ring


@dataclass(frozen=True)
class RoundEnd:
    """What the round-end (or match-end) panel says.

    Attributes:
        match_over: the match has ended (else a round has).
        round: the round just played.
        winners: the round's winner, or the match's winners.
        scores: ``(player, score)`` in seating order.
        scoring: ``points`` or ``rounds`` (what the scores count).
        builder: who builds the next field (empty once the match is over).
        termination: why the match ended (``None`` after a round).
    """

    match_over: bool
    round: int
    winners: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]
    scoring: str
    builder: str
    termination: Termination | None = None


def round_end(state: State) -> RoundEnd | None:
    """The round-end panel's content between rounds and after the match, else ``None``.

    infinifield.md "Chase-and-capture" 8: the last pawn standing wins the round; its pawn is
    the one left on the field while the new builder rebuilds (``state.round`` already
    counts the next round).
    """
    scores = tuple(state.scores().items())
    if state.phase == Phase.OVER:
        return RoundEnd(True, state.round, tuple(state.winners), scores,
                        state.rules.scoring, "", state.termination)
    if state.phase != Phase.REBUILD:
        return None
    winners = (state.pawns[0][0],) if state.pawns else ()
    return RoundEnd(False, state.round - 1, winners, scores, state.rules.scoring,
                    state.builder)


def removable_names(state: State) -> tuple[str, ...]:
    """The blocks that may be removed now, in the engine's order (empty unless one is due)."""
    if state.phase != Phase.REMOVE:
        return ()
    return tuple(removable_blocks(state.field, state.removed, occupied(state)))
