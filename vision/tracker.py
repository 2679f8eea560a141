r"""Turn what changed on the table into candidate Infinifield actions.

The camera compares a still view with the engine's last accepted state (not with the last
frame), so a missed frame or a refused action cannot put the two out of step. Blocks keep
the engine's ids: each seen block is matched to the engine block at the same place and of
the same colour. Stacks are the engine's bookkeeping: a block under another is not expected
to be seen until the one on top is removed.

- a pawn of a colour no player owns yet, on a white block, during the start phase:
  ``start PLAYER BLOCK`` (the player to act takes that colour);
- a player's pawn now on another block: ``move PLAYER FROM TO`` (a capture when a pawn stood
  there: the engine decides);
- a block the engine expects to see that is gone: ``remove PLAYER BLOCK``, the player being
  the one to act (the engine refuses an illegal removal, and the buzzer sounds).

Example:
    >>> from companion.games.registry import load_game
    >>> from vision.render import BlockSpec, FieldSpec, SceneSpec, render_scene
    >>> from vision.calibration import calibrate
    >>> from vision.observe import observe
    >>> game = load_game("infinifield")
    >>> row = [("W1", "white", 300.0), ("Y1", "yellow", 341.0), ("W2", "white", 382.0)]
    >>> setup = '[match]\nplayers = ["Ann", "Ben"]\n' + "".join(
    ...     f'[[blocks]]\nid = "{i}"\ncolour = "{c}"\nat = [{x}, 220]\n' for i, c, x in row)
    >>> state = game.initial_state(game.load_setup({"setup": ("f.toml", setup)}, {}))
    >>> table = FieldSpec(tuple(BlockSpec(i, c, (x, 220.0)) for i, c, x in row))
    >>> frame = render_scene(SceneSpec(seed=1, field=table.with_pawn_on("green", "W1"))).image
    >>> [c.text for c in candidate_actions(state, observe(frame, calibrate(frame)), {})]
    ['start Ben W1']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.infinifield.state import State
from vision.observe import Observation
from vision.palette import Palette
from vision.readers.infinifield import match_to_field, visible_blocks
from vision.readers.table_views import TableViews
from vision.readers.verify import PlayCheck, check_blocks, locate_pawn


@dataclass(frozen=True)
class Candidate:
    """One action the camera proposes.

    Attributes:
        text: the action in the game's notation (``move Ben W1 Y1``).
        seen: what the camera saw, in one sentence.
        binds: ``(pawn colour, player)`` when accepting it tells whose pawn that colour is.
    """

    text: str
    seen: str
    binds: tuple[str, str] | None = None


def candidate_actions(state: State, obs: Observation, owners: Mapping[str, str]
                      ) -> list[Candidate]:
    """What the players did since ``state``, judging by ``obs``: starts, moves, removals.

    Args:
        state: the engine's current state (its field has footprints in table mm).
        obs: a still observation without hands in view.
        owners: pawn colour -> player, as learnt so far.

    Returns:
        Candidates in the order they must be proposed (starts, moves, then removals).
    """
    expected = visible_blocks(state.field, state.removed)
    ids = match_to_field(obs, expected)
    actor = state.to_act
    starts: list[Candidate] = []
    moves: list[Candidate] = []
    removals: list[Candidate] = []
    players_with_colour = set(owners.values())
    for pawn in obs.pawns:
        if pawn.block is None or pawn.block not in ids:
            continue
        block_id = ids[pawn.block]
        owner = owners.get(pawn.colour)
        if owner is None:
            if (state.phase == "start" and actor is not None
                    and actor not in players_with_colour
                    and state.field.block(block_id).is_white and not starts):
                starts.append(Candidate(f"start {actor} {block_id}",
                                        f"a {pawn.colour} pawn appeared on {block_id}",
                                        (pawn.colour, actor)))
            continue
        was = state.pawn_of(owner)
        if was is not None and was != block_id:
            moves.append(Candidate(f"move {owner} {was} {block_id}",
                                   f"{owner}'s {pawn.colour} pawn went from {was} to {block_id}"))
    seen_ids = set(ids.values())
    if actor is not None:
        for block in expected:
            if block.id not in seen_ids:
                removals.append(Candidate(f"remove {actor} {block.id}",
                                          f"block {block.id} ({block.colour}) is gone"))
    return starts + moves + removals


def pawn_places(state: State, palette: Palette, owners: Mapping[str, str]
                ) -> dict[str, str | None]:
    """Where the engine has each pawn colour, for the play check.

    Its block, or ``None`` while it may still be placed anywhere (a colour no player owns
    yet in the start phase, or an owner's pawn not yet on the field). Colours left out are
    not on the table (:func:`~vision.readers.verify.check_blocks`).
    """
    places: dict[str, str | None] = {}
    for cls in palette.classes:
        if cls.kind != "pawn":
            continue
        owner = owners.get(cls.name)
        if owner is None:
            if state.phase == "start":
                places[cls.name] = None
            continue
        places[cls.name] = state.pawn_of(owner)
    return places


def candidate_actions_3d(state: State, views: TableViews, owners: Mapping[str, str],
                         reference: TableViews | None = None
                         ) -> tuple[list[Candidate], PlayCheck]:
    """What the players did since ``state``, judged through the camera model.

    Every expected block's top is checked where it must appear (:func:`check_blocks`); a
    removal is proposed only when exactly one is gone and every other one is seen (a block
    behind a tower or under a hand is unknown, never gone). Each known pawn is looked for on
    its block and, for the player to act, on the blocks the engine lets it move to; when it
    is on none of them but clearly on another block, that move is proposed too (the engine
    refuses it, the buzzer sounds). A pawn of a colour no player owns, on a free white block
    during the start phase, is a start for the player to act.

    Args:
        state: the engine's state (its field's footprints in table mm).
        views: the frame's views (:class:`~vision.readers.table_views.TableViews`).
        owners: pawn colour -> player, as learnt so far.
        reference: the views of the last still frame that showed every expected block
            (see :func:`~vision.readers.verify.check_blocks`).

    Returns:
        ``(candidates in proposing order, the block check)``; no candidates while a hand is
        in view.
    """
    fld = state.field
    check = check_blocks(views.frame, views.pose, fld, state.removed, views.palette, views,
                         reference, pawn_places(state, views.palette, owners))
    if check.hands_in_view:
        return [], check
    actor = state.to_act
    present = [b.id for b in visible_blocks(fld, state.removed)]
    occupied = {block for _player, block in state.pawns}
    starts: list[Candidate] = []
    moves: list[Candidate] = []
    pawn_colours = [c.name for c in views.palette.classes if c.kind == "pawn"]
    for colour in pawn_colours:
        owner = owners.get(colour)
        if owner is None:
            if (state.phase == "start" and actor is not None and not starts
                    and actor not in owners.values()):
                whites = [b for b in present if fld.block(b).is_white and b not in occupied]
                where = locate_pawn(views, fld, colour, whites, state.removed)
                if where.block is not None:
                    starts.append(Candidate(f"start {actor} {where.block}",
                                            f"a {colour} pawn appeared on {where.block}",
                                            (colour, actor)))
            continue
        was = state.pawn_of(owner)
        if was is None or was not in present:
            continue
        hypotheses = [was]
        if owner == actor and state.phase == "move":
            hypotheses += [b for b in fld.neighbours(was) if b in present]
        where = locate_pawn(views, fld, colour, hypotheses, state.removed)
        if where.block is None and where.shares.get(was, 0.0) < 0.02:
            # on none of the legal blocks: anywhere else it clearly stands?
            where = locate_pawn(views, fld, colour, present, state.removed)
        if where.block is not None and where.block != was:
            moves.append(Candidate(f"move {owner} {was} {where.block}",
                                   f"{owner}'s {colour} pawn went from {was} to "
                                   f"{where.block}"))
    removals: list[Candidate] = []
    gone = check.removal
    if actor is not None and gone is not None:
        removals.append(Candidate(f"remove {actor} {gone}",
                                  f"block {gone} ({fld.block(gone).colour}) is gone"))
    return starts + moves + removals, check
