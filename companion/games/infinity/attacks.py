"""Declarations: what may be declared, and the rolls it leads to.

Whether a Move, BS Attack, CC Attack or ARO may be declared, and what rolls it leads to
(target values with range and cover modifiers, Damage, ARM, who faces whom).

Every refusal cites a section of the rulebook (:mod:`.rulebook`).

Example:
    >>> Contest(None, Roller("Grenzer", "PH", 13, 1)).dice
    1
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.core import RuleRef, refuse

from .actions import Aro, AroSkill, CloseCombat, Move, Order, Shoot, Shot
from .armour import PARTIAL_COVER_BS, effective_arm
from .army import TrooperSheet
from .profiles import Weapon
from .rulebook import (
    ALIGNMENT,
    ARMOR,
    BS_ATTACK,
    BURST,
    CC_ATTACK,
    DODGE,
    LOF,
    MOVE,
    PRIVATE,
    SUMMARY,
    Refusal,
)
from .state import State


@dataclass(frozen=True)
class Roller:
    """One trooper's roll in an exchange.

    Attributes:
        trooper: who rolls.
        attribute: the attribute rolled (``BS``, ``CC``, ``PH``).
        target: the target value, modifiers included.
        dice: how many d20s.
        damage: the Damage its successes deal, ``None`` for a Dodge.
        victim: who its successes hit.
        victim_arm: the victim's ARM for the ARM Roll (Partial Cover included).
        behind: whether it attacks from outside the victim's front arc.
    """

    trooper: str
    attribute: str
    target: int
    dice: int
    damage: int | None = None
    victim: str | None = None
    victim_arm: int = 0
    behind: bool = False


@dataclass(frozen=True)
class Contest:
    """A Face to Face Roll (both sides), or a Normal Roll (one side is ``None``)."""

    active: Roller | None
    reactive: Roller | None

    @property
    def dice(self) -> int:
        """How many d20s the contest needs."""
        return sum(r.dice for r in (self.active, self.reactive) if r is not None)


def _own_trooper(state: State, player: str, trooper: str) -> TrooperSheet:
    sheet = state.sheet(trooper)
    if sheet.owner != player:
        refuse(Refusal.NOT_YOUR_TROOPER, f"{trooper} is on {sheet.owner}'s Army List, not "
               f"{player}'s.", ALIGNMENT, trooper=trooper,
               owner=sheet.owner, player=player)
    if state.trooper_status(trooper).removed:
        refuse(Refusal.REMOVED, f"{trooper} has been removed from play.", ARMOR, trooper=trooper,
               name=trooper)
    return sheet


def _enemy_target(state: State, attacker: str, target: str, rule: RuleRef) -> TrooperSheet:
    sheet = state.sheet(target)
    if sheet.owner == state.sheet(attacker).owner:
        refuse(Refusal.FRIENDLY_TARGET, f"{target} is a friendly trooper; only enemies can be "
               f"targeted.", ALIGNMENT, target=target)
    status = state.trooper_status(target)
    if status.removed:
        refuse(Refusal.REMOVED, f"{target} has been removed from play.", rule, target=target,
               name=target)
    if status.hidden:
        refuse(Refusal.NOT_ON_TABLE, f"There is no trooper called {target} on the table.",
               PRIVATE, target=target)
    return sheet


def _weapon(sheet: TrooperSheet, weapon_id: str, kind: str, rule: RuleRef) -> Weapon:
    weapon = sheet.weapon(weapon_id)
    if weapon is None or weapon.kind != kind:
        refuse(Refusal.NO_SUCH_WEAPON, f"{sheet.id} carries no {kind.upper()} weapon called "
               f"{weapon_id}.", rule, weapon=weapon_id,
               trooper=sheet.id, kind=kind.upper())
    return weapon


def _range_modifier(sheet: TrooperSheet, weapon_id: str, shot: Shot) -> int:
    weapon = _weapon(sheet, weapon_id, "bs", BS_ATTACK)
    modifier = weapon.range_modifier(shot.distance)
    if modifier is None:
        refuse(Refusal.OUT_OF_RANGE, f"{shot.target} is {shot.distance:g} inches away, out of "
               f"the {weapon.name}'s range ({weapon.max_range:g} inches).", BS_ATTACK,
               distance=shot.distance, target=shot.target, weapon=weapon.name,
               range=weapon.max_range)
    return modifier


def check_move(state: State, move: Move, limits: tuple[float, ...] | None = None) -> None:
    """Refuse a Move longer than the MOV values (or ``limits``) or into a bad base contact."""
    sheet = _own_trooper(state, move.player, move.trooper)
    allowed = limits if limits is not None else tuple(float(v) for v in sheet.profile.mov)
    if len(move.distances) > len(allowed):
        refuse(Refusal.TOO_MANY_MOVES, "A trooper may declare Move at most twice in an "
               "Order.", MOVE)
    for index, (distance, limit) in enumerate(zip(move.distances, allowed, strict=False)):
        if distance > limit:
            which = ("first", "second")[index]
            refuse(Refusal.TOO_FAR, f"{move.trooper} may move up to {limit:g} inches with "
                   f"its {which} Move, not {distance:g}.", MOVE, limit=limit,
                   trooper=move.trooper, distance=distance, which=which)
    if move.contact is not None:
        _enemy_target(state, move.trooper, move.contact, MOVE)


def check_shoot(state: State, shoot: Shoot) -> None:
    """Refuse a BS Attack that breaks the rules.

    Without a usable weapon, in base contact, out of range, or with a Burst split that does
    not add up.
    """
    sheet = _own_trooper(state, shoot.player, shoot.trooper)
    weapon = _weapon(sheet, shoot.weapon, "bs", BS_ATTACK)
    if state.engaged(shoot.trooper):
        refuse(Refusal.ENGAGED, f"{shoot.trooper} is in base to base contact with an enemy "
               f"and cannot declare a BS Attack.", BS_ATTACK, trooper=shoot.trooper)
    targets = [shot.target for shot in shoot.shots]
    if len(set(targets)) != len(targets):
        refuse(Refusal.TARGET_TWICE, "Each target is named once, with the dice aimed at it.",
               BURST)
    dice = sum(shot.dice for shot in shoot.shots)
    if dice > weapon.burst or any(shot.dice < 1 for shot in shoot.shots):
        refuse(Refusal.BURST_EXCEEDED, f"The {weapon.name} has Burst {weapon.burst}; "
               f"{dice} dice were declared.", BURST, burst=weapon.burst,
               weapon=weapon.name, dice=dice)
    for shot in shoot.shots:
        _enemy_target(state, shoot.trooper, shot.target, BS_ATTACK)
        _range_modifier(sheet, shoot.weapon, shot)


def check_cc(state: State, attack: CloseCombat) -> None:
    """Refuse a CC Attack on a trooper out of base to base contact."""
    sheet = _own_trooper(state, attack.player, attack.trooper)
    _weapon(sheet, attack.weapon, "cc", CC_ATTACK)
    _enemy_target(state, attack.trooper, attack.target, CC_ATTACK)
    if attack.target not in state.contacts_of(attack.trooper):
        refuse(Refusal.NO_BASE_CONTACT, f"{attack.trooper} is not in base to base contact "
               f"with {attack.target}.", CC_ATTACK, trooper=attack.trooper,
               target=attack.target)


def attacked_troopers(order: Order | None) -> list[str]:
    """The troopers an Order attacks."""
    if isinstance(order, Shoot):
        return [shot.target for shot in order.shots]
    if isinstance(order, CloseCombat):
        return [order.target]
    return []


def attacked_from_behind(order: Order | None, trooper: str) -> bool:
    """Whether the Order attacks ``trooper`` from outside its front 180º arc (``+behind``).

    Example:
        >>> order = Shoot("Ann", "Fusilier", "combi_rifle", (Shot("Grenzer", 12, 3, False,
        ...                                                        True),))
        >>> attacked_from_behind(order, "Grenzer"), attacked_from_behind(order, "Spektr")
        (True, False)
    """
    if isinstance(order, Shoot):
        return any(shot.target == trooper and shot.behind for shot in order.shots)
    if isinstance(order, CloseCombat):
        return order.target == trooper and order.behind
    return False


def acting_trooper(order: Order | None) -> str:
    """The trooper that received the Order (empty when none is being resolved)."""
    return order.trooper if order is not None else ""


def measured_distances(order: Order | None) -> dict[str, float]:
    """Target -> the distance measured for it by the BS Attack being resolved (if any)."""
    if isinstance(order, Shoot):
        return {shot.target: shot.distance for shot in order.shots}
    return {}


def check_aro(state: State, aro: Aro) -> None:
    """Refuse an ARO the reacting trooper cannot declare."""
    _own_trooper(state, aro.player, aro.trooper)
    if any(previous.trooper == aro.trooper for previous in state.aros):
        refuse(Refusal.ARO_TWICE, f"{aro.trooper} has already declared its ARO for this "
               f"Order.", SUMMARY, trooper=aro.trooper)
    active = acting_trooper(state.order)
    behind = attacked_from_behind(state.order, aro.trooper)
    if aro.skill == AroSkill.DODGE:
        if aro.trooper not in attacked_troopers(state.order):
            refuse(Refusal.NOTHING_TO_DODGE, f"{aro.trooper} is not the target of an attack "
                   f"to Dodge.", DODGE, trooper=aro.trooper)
        if behind and active not in state.contacts_of(aro.trooper):
            refuse(Refusal.DODGE_NO_LOF, f"{aro.trooper} was attacked from behind by "
                   f"{active}: to declare Dodge a trooper must be in base to base "
                   f"contact with, or have Line of Fire to, the attacker, and {active} "
                   f"is outside its front 180º arc.", DODGE, trooper=aro.trooper,
                   active=active)
        return
    if aro.skill == AroSkill.SHOOT and aro.shot is not None:
        sheet = state.sheet(aro.trooper)
        if aro.shot.target != active:
            refuse(Refusal.ARO_TARGET, f"An ARO reacts to the trooper that received the "
                   f"Order ({active}).", SUMMARY, active=active)
        if aro.shot.dice != 1:
            refuse(Refusal.REACTIVE_BURST, "The Burst value of the Reactive Player is always "
                   "1.", BURST)
        if behind:
            refuse(Refusal.ARO_NO_LOF, f"{aro.trooper} was shot from behind: {active} is "
                   f"outside its front 180º arc, so it has no Line of Fire to shoot "
                   f"back.", LOF, trooper=aro.trooper, active=active)
        _weapon(sheet, aro.weapon or "", "bs", BS_ATTACK)
        measured = measured_distances(state.order)
        if measured.get(aro.trooper, aro.shot.distance) != aro.shot.distance:
            refuse(Refusal.DISTANCE_MISMATCH, f"{active} and {aro.trooper} were measured "
                   f"{measured[aro.trooper]:g} inches apart for this Order.", BS_ATTACK,
                   distance=measured[aro.trooper], active=active, trooper=aro.trooper)
        if state.engaged(aro.trooper):
            refuse(Refusal.ENGAGED, f"{aro.trooper} is in base to base contact with an enemy "
                   f"and cannot declare a BS Attack.", BS_ATTACK, trooper=aro.trooper)
        _range_modifier(sheet, aro.weapon or "", aro.shot)
        return
    sheet = state.sheet(aro.trooper)
    _weapon(sheet, aro.weapon or "", "cc", CC_ATTACK)
    if aro.target != active:
        refuse(Refusal.ARO_TARGET, f"An ARO reacts to the trooper that received the Order "
               f"({active}).", SUMMARY, active=active)
    if active not in state.contacts_of(aro.trooper):
        refuse(Refusal.NO_BASE_CONTACT, f"{aro.trooper} is not in base to base contact with "
               f"{active}.", CC_ATTACK, trooper=aro.trooper, target=active)


def _shot_roller(state: State, shooter: str, weapon_id: str, shot: Shot) -> Roller:
    sheet = state.sheet(shooter)
    victim = state.sheet(shot.target)
    weapon = sheet.weapon(weapon_id)
    assert weapon is not None
    target = sheet.profile.bs + _range_modifier(sheet, weapon_id, shot) \
        + (PARTIAL_COVER_BS if shot.cover else 0)
    return Roller(shooter, "BS", target, shot.dice, weapon.damage.against(sheet.profile.ph),
                  shot.target, effective_arm(victim.profile.arm, shot.cover), shot.behind)


def _cc_roller(state: State, attacker: str, weapon_id: str, target: str, behind: bool,
               reactive: bool = False) -> Roller:
    """A CC Attack's roll.

    In ARO it rolls one die whatever the weapon's Burst ("The Burst value of the Reactive
    Player is always 1", BS Attack Roll and Burst).
    """
    sheet = state.sheet(attacker)
    weapon = sheet.weapon(weapon_id)
    assert weapon is not None
    return Roller(attacker, "CC", sheet.profile.cc, 1 if reactive else weapon.burst,
                  weapon.damage.against(sheet.profile.ph), target,
                  state.sheet(target).profile.arm, behind)


def _aro_roller(state: State, aro: Aro) -> Roller:
    if aro.skill == AroSkill.SHOOT and aro.shot is not None:
        return _shot_roller(state, aro.trooper, aro.weapon or "", aro.shot)
    if aro.skill == AroSkill.CC:
        return _cc_roller(state, aro.trooper, aro.weapon or "", aro.target or "", aro.behind,
                          reactive=True)
    return Roller(aro.trooper, "PH", state.sheet(aro.trooper).profile.ph, 1)


def plan_contests(state: State) -> tuple[Contest, ...]:
    """The rolls the declared Order and AROs lead to, in resolution order.

    Each target of the active attack, in the order declared, faces its own ARO (if it
    reacted) in a Face to Face Roll; an ARO by a trooper not attacked is a Normal Roll.
    """
    order = state.order
    by_trooper = {aro.trooper: aro for aro in state.aros}
    contests: list[Contest] = []
    paired: set[str] = set()
    actives: list[Roller] = []
    if isinstance(order, Shoot):
        actives = [_shot_roller(state, order.trooper, order.weapon, shot) for shot in order.shots]
    elif isinstance(order, CloseCombat):
        actives = [_cc_roller(state, order.trooper, order.weapon, order.target, order.behind)]
    for roller in actives:
        aro = by_trooper.get(roller.victim or "")
        if aro is not None:
            paired.add(aro.trooper)
        contests.append(Contest(roller, _aro_roller(state, aro) if aro is not None else None))
    contests.extend(Contest(None, _aro_roller(state, aro)) for aro in state.aros
                    if aro.trooper not in paired)
    return tuple(contests)
