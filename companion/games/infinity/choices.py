"""The declarations :meth:`InfinityGame.legal_actions` lists.

Distances are continuous, so the list is *representative*: a BS Attack is listed once per
range band of the weapon (at the band's middle, the whole Burst on one target), a Move at the
full MOV values; any other distance, split of the Burst, cover or arc flag the rules allow is
just as legal when typed (docs/infinity.md).

Example:
    >>> band_distances(((8.0, 3), (16.0, 3), (32.0, -3), (48.0, -6)))
    [4.0, 12.0, 24.0, 40.0]
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import (
    Action,
    Aro,
    AroSkill,
    CloseCombat,
    EndTurn,
    Move,
    Pass,
    Score,
    Shoot,
    Shot,
    TurnToFace,
)
from .attacks import acting_trooper, attacked_troopers, measured_distances
from .resolution import MAX_OBJECTIVE_POINTS
from .state import AfterKind, Phase, State

DODGE_MOVE = 2.0
"""Inches a trooper that Dodged successfully in its Reactive Turn may move."""


def band_distances(bands: Sequence[tuple[float, int]]) -> list[float]:
    """The middle of each range band, from 0 inches outwards."""
    distances, start = [], 0.0
    for end, _modifier in bands:
        distances.append((start + end) / 2)
        start = end
    return distances


def _targets(state: State, player: str) -> list[str]:
    """Enemies of ``player`` on the table (in play, not in Hidden Deployment)."""
    return [sheet.id for sheet, status in zip(state.sheets, state.status, strict=True)
            if sheet.owner != player and status.in_play and not status.hidden]


def _order_choices(state: State) -> list[Action]:
    player = state.active
    choices: list[Action] = [EndTurn(player)]
    if state.objectives[state.turn] < MAX_OBJECTIVE_POINTS:
        choices.append(Score(player, 1))
    enemies = _targets(state, player)
    for trooper in state.in_play(player):
        sheet = state.sheet(trooper)
        first, second = (float(v) for v in sheet.profile.mov)
        choices += [Move(player, trooper, (first,)), Move(player, trooper, (first, second))]
        choices += [Move(player, trooper, (first,), enemy) for enemy in enemies]
        engaged = state.engaged(trooper)
        for weapon in sheet.weapons:
            if weapon.kind == "bs" and not engaged:
                for enemy in enemies:
                    for distance in band_distances([(b.to, b.modifier) for b in weapon.ranges]):
                        choices.append(Shoot(player, trooper, weapon.id,
                                             (Shot(enemy, distance, weapon.burst),)))
            elif weapon.kind == "cc":
                choices += [CloseCombat(player, trooper, weapon.id, enemy)
                            for enemy in state.contacts_of(trooper) if enemy in enemies]
    return choices


def _aro_choices(state: State) -> list[Action]:
    player = state.reactive
    active = acting_trooper(state.order)
    attacked = attacked_troopers(state.order)
    declared = {aro.trooper for aro in state.aros}
    known = measured_distances(state.order)
    choices: list[Action] = [Pass(player)]
    for trooper in state.in_play(player):
        if trooper in declared:
            continue
        sheet = state.sheet(trooper)
        if trooper in attacked:
            choices.append(Aro(player, trooper, AroSkill.DODGE))
        engaged = state.engaged(trooper)
        for weapon in sheet.weapons:
            if weapon.kind == "bs" and not engaged:
                distances = [known[trooper]] if trooper in known else \
                    band_distances([(b.to, b.modifier) for b in weapon.ranges])
                choices += [Aro(player, trooper, AroSkill.SHOOT, weapon.id, Shot(active, d, 1))
                            for d in distances]
            elif weapon.kind == "cc" and active in state.contacts_of(trooper):
                choices.append(Aro(player, trooper, AroSkill.CC, weapon.id, target=active))
    return choices


def _after_choices(state: State) -> list[Action]:
    item = state.after[0]
    player = state.sheet(item.trooper).owner
    if item.kind == AfterKind.FACE:
        return [Pass(player), TurnToFace(player, item.trooper)]
    return [Pass(player), Move(player, item.trooper, (DODGE_MOVE,))]


def choices(state: State) -> list[Action]:
    """The representative legal declarations of the acting player, sorted by notation."""
    if state.phase == Phase.ORDER:
        listed = _order_choices(state)
    elif state.phase == Phase.ARO:
        listed = _aro_choices(state)
    elif state.phase == Phase.AFTER:
        listed = _after_choices(state)
    else:
        return []
    unique = {str(action): action for action in listed}
    return [unique[text] for text in sorted(unique)]
