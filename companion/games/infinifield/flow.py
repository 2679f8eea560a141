"""Turn flow: starting positions, moves and captures, the 5-turn counter and block removal.

Each function takes a state and an action and returns the next state with its events, or
refuses it (:func:`~companion.games.core.refuse`) citing ``infinifield.md``.

Example:
    >>> from companion.games.infinifield.field import Block, build_field
    >>> from companion.games.infinifield.state import MatchRules
    >>> field = build_field([Block("W1", "white"), Block("Y1", "yellow"),
    ...                      Block("W2", "white")], [("W1", "Y1"), ("Y1", "W2")])
    >>> state = initial_state(field, MatchRules(("Ann", "Ben"), "quickstart", "points", 1),
    ...                       "Ann")
    >>> state.to_act, [str(a) for a in legal_actions(state)]
    ('Ben', ['start Ben W1', 'start Ben W2'])
"""

from __future__ import annotations

from typing import NoReturn

from companion.games.core import Event, Transition, refuse
from companion.games.infinifield.actions import Action, Move, Rebuild, Remove, Start
from companion.games.infinifield.field import Field
from companion.games.infinifield.field_rules import check_field, summarise_violations
from companion.games.infinifield.removal import check_removal, removable_blocks
from companion.games.infinifield.rulebook import (
    BUILD_STEP_1,
    CHASE_STEP_5,
    CHASE_STEP_6,
    CHASE_STEP_7,
    CHASE_STEP_8,
    MATCH_SCORING,
    STARTING_STEP_2,
    STARTING_STEPS_2_3,
    Refusal,
)
from companion.games.infinifield.scoring import finish_round
from companion.games.infinifield.state import COUNTER_POSITIONS, MatchRules, Phase, State

PHASE_ACTIONS: dict[Phase, type] = {Phase.START: Start, Phase.MOVE: Move,
                                    Phase.REMOVE: Remove, Phase.REBUILD: Rebuild}
"""The one kind of action each phase of a running match takes."""


def initial_state(field: Field, rules: MatchRules, builder: str) -> State:
    """Round 1 before anyone has chosen a starting position (the counter on X).

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> field = build_field([Block("W1", "white"), Block("W2", "white")], [("W1", "W2")])
        >>> state = initial_state(field, MatchRules(("Ann", "Ben", "Cat"), "quickstart",
        ...                                         "points", 3), "Ben")
        >>> state.to_act, state.counter, str(state.phase)
        ('Cat', 0, 'start')
    """
    order = rules.turn_order(builder)
    zeros = tuple(0 for _ in rules.players)
    return State(rules, field, 1, builder, Phase.START, order[0], points=zeros, wins=zeros)


def occupied(state: State) -> tuple[str, ...]:
    """The blocks with a pawn on them, in turn order.

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> field = build_field([Block("W1", "white")], [])
        >>> rules = MatchRules(("Ann", "Ben"), "quickstart", "points", 1)
        >>> occupied(initial_state(field, rules, "Ann").evolve(pawns=(("Ben", "W1"),)))
        ('W1',)
    """
    return tuple(block for _, block in state.pawns)


def legal_actions(state: State) -> list[Action]:
    """Every action the player to act may take, sorted by notation text."""
    player = state.to_act
    actions: list[Action] = []
    if player is None:
        return actions
    if state.phase == Phase.START:
        taken = set(occupied(state))
        actions = [Start(player, b) for b in state.field.whites() if b not in taken]
    elif state.phase == Phase.MOVE:
        origin = state.pawn_of(player)
        assert origin is not None
        actions = [Move(player, origin, b) for b in state.field.neighbours(origin)
                   if b not in state.removed]
    elif state.phase == Phase.REMOVE:
        actions = [Remove(player, b)
                   for b in removable_blocks(state.field, state.removed, occupied(state))]
    elif state.phase == Phase.REBUILD:
        actions = [Rebuild(player)]
    return sorted(actions, key=str)


def apply_action(state: State, action: Action) -> Transition[State]:
    """Apply ``action`` to ``state``.

    Raises:
        IllegalAction: with the reason code (:class:`~.rulebook.Refusal`), a sentence, and
            the rule.

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> field = build_field([Block("W1", "white"), Block("Y1", "yellow")], [("W1", "Y1")])
        >>> state = initial_state(field, MatchRules(("Ann", "Ben"), "quickstart", "points", 1),
        ...                       "Ann")
        >>> from companion.games.core import IllegalAction
        >>> try:
        ...     apply_action(state, Start("Ben", "Y1"))
        ... except IllegalAction as refusal:
        ...     print(refusal.code, "-", refusal.reason)
        not_white - Pawns start on a white block; Y1 is yellow.
    """
    if state.phase == Phase.OVER or state.to_act is None:
        refuse(Refusal.MATCH_OVER, "The match is over.", MATCH_SCORING)
    if action.player not in state.rules.players:
        refuse(Refusal.UNKNOWN_PLAYER, f"{action.player} is not playing in this match.",
               STARTING_STEP_2, player=action.player)
    known = state.field if not isinstance(action, Rebuild) or action.field is None \
        else action.field
    for block in _blocks_named(action):
        if block not in known.by_id:
            refuse(Refusal.UNKNOWN_BLOCK, f"There is no block {block} in this field.",
                   BUILD_STEP_1, block=block)
    if not isinstance(action, PHASE_ACTIONS[state.phase]):
        _wrong_phase(state)
    if action.player != state.to_act:
        _not_your_turn(state, action.player)
    if isinstance(action, Start):
        return _start(state, action)
    if isinstance(action, Move):
        return _move(state, action)
    if isinstance(action, Remove):
        return _remove(state, action)
    return _rebuild(state, action)


def _blocks_named(action: Action) -> tuple[str, ...]:
    if isinstance(action, Move):
        return (action.origin, action.target)
    if isinstance(action, (Start, Remove)):
        return (action.block,)
    return ()


def _wrong_phase(state: State) -> NoReturn:
    who = state.to_act
    if state.phase == Phase.START:
        refuse(Refusal.CHOOSE_START_FIRST, f"Starting positions are being chosen: {who} must "
               f"place a pawn on a white block first.", STARTING_STEPS_2_3, player=who)
    if state.phase == Phase.REMOVE:
        refuse(Refusal.REMOVAL_DUE, f"{who} put the turn counter on X and must remove a block "
               f"before anything else happens.", CHASE_STEP_7, player=who)
    if state.phase == Phase.REBUILD:
        refuse(Refusal.REBUILD_DUE, f"The round is over: {who}, the new field builder, must "
               f"rebuild the field first.", CHASE_STEP_8, player=who)
    refuse(Refusal.MOVE_DUE, f"It is {who}'s turn to move a pawn; nothing else may happen now.",
           CHASE_STEP_6, player=who)


def _not_your_turn(state: State, player: str) -> NoReturn:
    who = state.to_act
    if state.phase == Phase.START:
        refuse(Refusal.NOT_YOUR_TURN, f"{who} chooses a starting position now, not {player}.",
               STARTING_STEPS_2_3, player=player, turn=who)
    if state.phase == Phase.REMOVE:
        refuse(Refusal.NOT_YOUR_TURN, f"{who} put the counter on X, so {who} removes the "
               f"block, not {player}.", CHASE_STEP_7, player=player, turn=who)
    if state.phase == Phase.REBUILD:
        refuse(Refusal.NOT_BUILDER, f"{who} builds the field this round, not {player}.",
               CHASE_STEP_8, player=player, turn=who)
    if state.pawn_of(player) is None:
        refuse(Refusal.ELIMINATED, f"{player} has been eliminated from this round.",
               CHASE_STEP_6, player=player)
    refuse(Refusal.NOT_YOUR_TURN, f"It is {who}'s turn, not {player}'s.", CHASE_STEP_5,
           player=player, turn=who)


def _start(state: State, action: Start) -> Transition[State]:
    block = state.field.block(action.block)
    if not block.is_white:
        refuse(Refusal.NOT_WHITE, f"Pawns start on a white block; {block.id} is "
               f"{block.colour}.", STARTING_STEP_2, block=block.id, colour=block.colour)
    holder = state.pawn_on(block.id)
    if holder is not None:
        refuse(Refusal.START_TAKEN, f"{holder}'s pawn already stands on {block.id}; choose a "
               f"free white block.", STARTING_STEP_2, block=block.id, player=holder)
    pawns = (*state.pawns, (action.player, block.id))
    order = state.order
    if len(pawns) < len(order):
        return Transition(state.evolve(pawns=pawns, to_act=order[len(pawns)]))
    return Transition(state.evolve(pawns=pawns, phase=Phase.MOVE, to_act=order[0], counter=0))


def _move(state: State, action: Move) -> Transition[State]:
    origin = state.pawn_of(action.player)
    if origin != action.origin:
        refuse(Refusal.PAWN_NOT_THERE, f"{action.player}'s pawn stands on {origin}, not on "
               f"{action.origin}.", CHASE_STEP_6, player=action.player, block=origin,
               claimed=action.origin)
    if not state.present(action.target):
        refuse(Refusal.BLOCK_REMOVED, f"{action.target} has been removed from the field.",
               CHASE_STEP_7, block=action.target)
    if action.target == origin:
        refuse(Refusal.MUST_MOVE, f"{action.player} must move the pawn off {origin} to a block "
               f"that touches it.", CHASE_STEP_6, block=origin, player=action.player)
    if not state.field.touches(origin, action.target):
        refuse(Refusal.NOT_ADJACENT, f"{action.target} does not touch {origin}; a pawn moves "
               f"only to a block touching the one it stands on.", CHASE_STEP_6,
               origin=origin, target=action.target)
    events: list[Event] = []
    points = list(state.points)
    out = state.out
    victim = state.pawn_on(action.target)
    pawns = tuple((p, action.target if p == action.player else b) for p, b in state.pawns
                  if p != victim)
    if victim is not None:
        points[state.rules.players.index(action.player)] += 10
        out = (*out, (victim, "captured"))
        events += [Event("capture", {"by": action.player, "captured": victim,
                                     "block": action.target}),
                   Event("eliminated", {"player": victim, "why": "captured"})]
    counter = (state.counter + 1) % COUNTER_POSITIONS
    events.append(Event("counter_advanced", {"position": counter or "X",
                                             "player": action.player}))
    state = state.evolve(pawns=pawns, out=out, points=tuple(points), counter=counter)
    if len(pawns) == 1:
        return finish_round(state, events)
    if counter != 0:
        return Transition(state.evolve(to_act=_next_player(state, action.player)),
                          tuple(events))
    events.append(Event("removal_due", {"player": action.player}))
    if removable_blocks(state.field, state.removed, occupied(state)):
        return Transition(state.evolve(phase=Phase.REMOVE, to_act=action.player),
                          tuple(events))
    events.append(Event("eliminated", {"player": action.player, "why": "no_legal_removal"}))
    following = _next_player(state, action.player)
    state = state.evolve(pawns=tuple(p for p in pawns if p[0] != action.player),
                         out=(*state.out, (action.player, "no_legal_removal")))
    if len(state.pawns) == 1:
        return finish_round(state, events)
    return Transition(state.evolve(to_act=following), tuple(events))


def _next_player(state: State, player: str) -> str:
    """The next player clockwise after ``player`` whose pawn is still on the field."""
    order = state.order
    on_field = {p for p, _ in state.pawns}
    start = order.index(player)
    for step in range(1, len(order) + 1):
        candidate = order[(start + step) % len(order)]
        if candidate in on_field and candidate != player:
            return candidate
    return player


def _remove(state: State, action: Remove) -> Transition[State]:
    if not state.present(action.block):
        refuse(Refusal.BLOCK_REMOVED, f"{action.block} has already been removed.",
               CHASE_STEP_7, block=action.block)
    check_removal(state.field, state.removed, occupied(state), action.block)
    state = state.evolve(removed=(*state.removed, action.block), phase=Phase.MOVE,
                         to_act=_next_player(state, action.player))
    return Transition(state, (Event("block_removed", {"player": action.player,
                                                      "block": action.block}),))


def _rebuild(state: State, action: Rebuild) -> Transition[State]:
    """Step 8 and "Build the field" step 1: the new builder arranges all blocks again.

    With a new field (``action.field``) the next round is played on it, checked against the
    match's field-building rules; the scores carry on either way.
    """
    field = state.field if action.field is None else action.field
    if action.field is not None:
        violations = check_field(field, state.rules.mode)
        if violations:
            first = violations[0]
            refuse(Refusal.FIELD_BREAKS_RULES, f"The new field breaks the {state.rules.mode} "
                   f"field-building rules: " + summarise_violations(violations, with_rules=False),
                   first.rule, mode=state.rules.mode, count=len(violations),
                   codes=[v.code for v in violations], blocks=list(first.blocks))
        whites = len(field.whites())
        players = len(state.rules.players)
        if whites < players:
            refuse(Refusal.TOO_FEW_WHITES, f"The new field has {whites} white block(s); "
                   f"{players} players need one each to start on.", STARTING_STEP_2,
                   whites=whites, players=players)
    order = state.order
    event = Event("field_rebuilt", {"player": action.player, "name": field.name,
                                    "blocks": len(field.blocks),
                                    "new": action.field is not None})
    return Transition(state.evolve(field=field, phase=Phase.START, to_act=order[0], pawns=(),
                                   out=(), removed=(), counter=0), (event,))
