"""Choosing sources and targets: sides, range shapes, straight lines, status effects.

Ranges are drawn on the card as its owner sees the board (forward = toward the opponent), so
a Red card's shape is turned 180° on a board where Red sits north. A straight line from the
source to the target that crosses a wall, or an opposing unit (opposing units are walls, own
units are open spaces), makes the target invalid (``401-infinite.md`` "TECHNICALITIES").

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> state = example_state()
    >>> card = state.setup.cards.ability("Strike")
    >>> sorted(range_spaces(state, card, state.unit("B2")))
    [(1, 0), (2, 1), (3, 0)]
"""

from __future__ import annotations

from companion.games.core import refuse
from companion.games.infinite401 import rulebook
from companion.games.infinite401.actions import Play
from companion.games.infinite401.board import Space, space_name
from companion.games.infinite401.cardset import AbilityCard
from companion.games.infinite401.geometry import line_cells
from companion.games.infinite401.rulebook import Refusal
from companion.games.infinite401.state import State, Unit


def range_spaces(state: State, card: AbilityCard, source: Unit) -> set[Space]:
    """The board spaces in ``card``'s range from ``source``, turned to its side's forward."""
    assert source.space is not None
    board = state.setup.board
    forward = board.forward(source.side)
    c, r = source.space
    spaces = {(c + dc * forward, r + dr * forward) for dc, dr in card.range}
    return {s for s in spaces if board.on_board(s)}


def line_blocker(state: State, side: str, a: Space, b: Space) -> tuple[Space, str] | None:
    """The first space blocking the straight line from ``a`` to ``b`` for ``side``, and why.

    Returns:
        ``(space, "wall")``, ``(space, unit name)`` for an opposing unit, or ``None``.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> line_blocker(example_state(), "blue", (1, 0), (1, 2))
        ((1, 1), 'wall')
    """
    walls = state.setup.board.walls
    opponents = {u.space: u.name for u in state.units if u.alive and u.side != side}
    for cell in line_cells(a, b):
        if cell in walls:
            return cell, "wall"
        if cell in opponents:
            return cell, opponents[cell]
    return None


def check_source(state: State, play: Play, card: AbilityCard) -> Unit:
    """The source of an Attack/Defense card, if it may act as one.

    Raises:
        IllegalAction: a missing, opposing, eliminated, already used or disabled source.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> state = example_state()
        >>> play = Play("blue", "Strike", "B2", ("R1",))
        >>> check_source(state, play, state.setup.cards.ability("Strike")).space
        (2, 0)
    """
    if not play.source:
        refuse(Refusal.NEEDS_SOURCE, f"{card.name} is a {card.type} card: name the "
               "Source Unit it is used from.", rulebook.IN_RANGE, card=card.name)
    unit = state.unit(play.source)
    if unit.side != play.side:
        refuse(Refusal.SOURCE_NOT_YOURS, f"{unit.name} is not one of your units.",
               rulebook.TARGET_SIDE, unit=unit.name)
    if unit.space is None:
        refuse(Refusal.UNIT_ELIMINATED, f"{unit.name} has been eliminated.",
               rulebook.UNITS_AND_HP, unit=unit.name)
    if unit.name in state.sources_used:
        refuse(Refusal.SOURCE_USED, f"{unit.name} was already the Source Unit of an "
               "ability this turn.", rulebook.ONE_SOURCE, unit=unit.name)
    statuses = state.statuses(unit.name)
    for status in (Refusal.STUNNED, Refusal.SILENCED):
        if status in statuses:
            refuse(status, f"{unit.name} is {status.capitalize()} and cannot be "
                   "the Source Unit of an ability.", rulebook.status_rule(status),
                   unit=unit.name)
    if "grounded" in statuses and card.moves_source:
        refuse(Refusal.GROUNDED, f"{unit.name} is Grounded: {card.name} would move it.",
               rulebook.status_rule("grounded"), unit=unit.name)
    return unit


def check_targets(state: State, play: Play, card: AbilityCard) -> tuple[Unit | None,
                                                                        tuple[Unit, ...]]:
    """The source (``None`` for Utility) and targets of a play, if they are valid.

    Raises:
        IllegalAction: citing the rule the choice breaks.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> state = example_state()
        >>> play = Play("blue", "Guard", "B1", ("B2",))
        >>> check_targets(state, play, state.setup.cards.ability("Guard"))[1][0].name
        'B2'
    """
    if card.type == "utility":
        return None, _utility_targets(state, play, card)
    source = check_source(state, play, card)
    if len(play.targets) != 1:
        refuse(Refusal.ONE_TARGET, f"{card.name} takes exactly one target.",
               rulebook.IN_RANGE, card=card.name)
    target = state.unit(play.targets[0])
    _check_target_unit(state, play.side, card, target)
    if target.name == source.name:
        if not card.self_targetable:
            refuse(Refusal.NOT_SELF_TARGETABLE, f"{card.name} is not Self-Targetable.",
                   rulebook.IN_RANGE, card=card.name)
        return source, (target,)
    assert source.space is not None and target.space is not None
    if target.space not in range_spaces(state, card, source):
        refuse(Refusal.OUT_OF_RANGE, f"{target.name} on {space_name(target.space)} is "
               f"not in {card.name}'s range from {source.name}.", rulebook.IN_RANGE,
               card=card.name, target=target.name)
    blocker = line_blocker(state, play.side, source.space, target.space)
    if blocker is not None:
        space, what = blocker
        line = drawn_line(source.space, target.space)
        ends = f"{space_name(source.space)} to {space_name(target.space)}"
        if what == "wall":
            refuse(Refusal.LINE_HITS_WALL, f"the straight line from {source.name} to "
                   f"{target.name} hits the wall on {space_name(space)} (the line "
                   f"joins the centres of {ends}; docs/401-infinite.md).",
                   rulebook.STRAIGHT_LINE, space=space_name(space), **line)
        refuse(Refusal.LINE_HITS_OPPONENT, f"the straight line from {source.name} to "
               f"{target.name} hits {what} on {space_name(space)}: opposing units "
               f"block like walls (the line joins the centres of {ends}).",
               rulebook.COLLISION, blocker=what, space=space_name(space), **line)
    return source, (target,)


def drawn_line(a: Space, b: Space) -> dict[str, list[str]]:
    """The line a Straight Line To Target check drew, as verdict params for the board screen.

    The reading (docs/401-infinite.md "Straight lines"): the segment joining the centres of the
    source's and the target's spaces; a space blocks it when the segment enters its interior
    (grazing a corner does not).

    Returns:
        ``line``: the two spaces whose centres the segment joins, source first;
        ``line_spaces``: every space strictly between them that the segment crosses, in order
        from the source.

    Example:
        >>> drawn_line((0, 0), (2, 1))
        {'line': ['a1', 'c2'], 'line_spaces': ['b1', 'b2']}
    """
    return {"line": [space_name(a), space_name(b)],
            "line_spaces": [space_name(cell) for cell in line_cells(a, b)]}


def _check_target_unit(state: State, side: str, card: AbilityCard, target: Unit) -> None:
    if target.space is None:
        refuse(Refusal.UNIT_ELIMINATED, f"{target.name} has been eliminated.",
               rulebook.UNITS_AND_HP, unit=target.name)
    wanted_own = not card.hostile
    if (target.side == side) != wanted_own:
        rule = rulebook.UTILITY if card.type == "utility" else rulebook.TARGET_SIDE
        whose = "your own" if wanted_own else "opponent"
        refuse(Refusal.WRONG_SIDE, f"{card.name} targets {whose} units, not "
               f"{target.name}.", rule, card=card.name, target=target.name)
    if card.hostile and "untargetable" in state.statuses(target.name):
        refuse(Refusal.UNTARGETABLE, f"{target.name} is Untargetable.",
               rulebook.status_rule("untargetable"), unit=target.name)


def _utility_targets(state: State, play: Play, card: AbilityCard) -> tuple[Unit, ...]:
    if play.source:
        refuse(Refusal.UTILITY_HAS_NO_SOURCE, f"{card.name} is a Utility card: it has "
               "no Source Unit, only targets.", rulebook.UTILITY, card=card.name)
    if not 1 <= len(play.targets) <= card.targets:
        refuse(Refusal.TARGET_COUNT, f"{card.name} takes 1 to {card.targets} "
               "target(s).", rulebook.UTILITY, card=card.name, most=card.targets)
    targets = tuple(state.unit(name) for name in play.targets)
    for target in targets:
        _check_target_unit(state, play.side, card, target)
    return targets
