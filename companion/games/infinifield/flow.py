"""Turn flow: starting positions, moves and captures, the 5-turn counter and block removal.

Each function takes a state and an action and returns the next state with its events, or
raises :class:`~companion.games.core.IllegalAction` citing ``infinifield.md``.

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

from typing import Any

from companion.games.core import Event, IllegalAction, RuleRef, Transition
from companion.games.infinifield.checks import check_field, summarise_violations
from companion.games.infinifield.field import Field
from companion.games.infinifield.notation import Action, Move, Rebuild, Remove, Start
from companion.games.infinifield.removal import (
    refusal_rule,
    refusal_sentence,
    removable_blocks,
    removal_refusals,
)
from companion.games.infinifield.scoring import finish_round
from companion.games.infinifield.state import COUNTER_POSITIONS, MatchRules, State

STARTING = "Select starting positions"
CHASE = "Chase-and-capture"


def _refuse(code: str, reason: str, section: str, detail: str = "",
            **params: Any) -> IllegalAction:
    return IllegalAction(code, reason, RuleRef("infinifield", section, detail), params=params)


def initial_state(field: Field, rules: MatchRules, builder: str) -> State:
    """Round 1 before anyone has chosen a starting position (the counter on X).

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> field = build_field([Block("W1", "white"), Block("W2", "white")], [("W1", "W2")])
        >>> state = initial_state(field, MatchRules(("Ann", "Ben", "Cat"), "quickstart",
        ...                                         "points", 3), "Ben")
        >>> state.to_act, state.counter, state.phase
        ('Cat', 0, 'start')
    """
    order = rules.turn_order(builder)
    zeros = tuple(0 for _ in rules.players)
    return State(rules, field, 1, builder, "start", order[0], points=zeros, wins=zeros)


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
    if state.phase == "start":
        taken = set(occupied(state))
        actions = [Start(player, b) for b in state.field.whites() if b not in taken]
    elif state.phase == "move":
        origin = state.pawn_of(player)
        assert origin is not None
        actions = [Move(player, origin, b) for b in state.field.neighbours(origin)
                   if b not in state.removed]
    elif state.phase == "remove":
        actions = [Remove(player, b)
                   for b in removable_blocks(state.field, state.removed, occupied(state))]
    elif state.phase == "rebuild":
        actions = [Rebuild(player)]
    return sorted(actions, key=str)


def apply_action(state: State, action: Action) -> Transition[State]:
    """Apply ``action`` to ``state``.

    Raises:
        IllegalAction: with the reason code, a sentence, and the rule.

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> field = build_field([Block("W1", "white"), Block("Y1", "yellow")], [("W1", "Y1")])
        >>> state = initial_state(field, MatchRules(("Ann", "Ben"), "quickstart", "points", 1),
        ...                       "Ann")
        >>> try:
        ...     apply_action(state, Start("Ben", "Y1"))
        ... except IllegalAction as refusal:
        ...     print(refusal.code, "-", refusal.reason)
        not_white - Pawns start on a white block; Y1 is yellow.
    """
    if state.phase == "over" or state.to_act is None:
        raise _refuse("match_over", "The match is over.", "Scoring")
    if action.player not in state.rules.players:
        raise _refuse("unknown_player", f"{action.player} is not playing in this match.",
                      STARTING, "step 2", player=action.player)
    known = state.field if not isinstance(action, Rebuild) or action.field is None \
        else action.field
    for block in _blocks_named(action):
        if block not in known.by_id:
            raise _refuse("unknown_block", f"There is no block {block} in this field.",
                          "Build the field", "step 1", block=block)
    expected = {"start": Start, "move": Move, "remove": Remove, "rebuild": Rebuild}[state.phase]
    if not isinstance(action, expected):
        raise _wrong_phase(state)
    if action.player != state.to_act:
        raise _not_your_turn(state, action.player)
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


def _wrong_phase(state: State) -> IllegalAction:
    who = state.to_act
    if state.phase == "start":
        return _refuse("choose_start_first", f"Starting positions are being chosen: {who} "
                       f"must place a pawn on a white block first.", STARTING, "steps 2-3",
                       player=who)
    if state.phase == "remove":
        return _refuse("removal_due", f"{who} put the turn counter on X and must remove a "
                       f"block before anything else happens.", CHASE, "step 7", player=who)
    if state.phase == "rebuild":
        return _refuse("rebuild_due", f"The round is over: {who}, the new field builder, "
                       f"must rebuild the field first.", CHASE, "step 8", player=who)
    return _refuse("move_due", f"It is {who}'s turn to move a pawn; nothing else may happen "
                   f"now.", CHASE, "step 6", player=who)


def _not_your_turn(state: State, player: str) -> IllegalAction:
    who = state.to_act
    if state.phase == "start":
        return _refuse("not_your_turn", f"{who} chooses a starting position now, not {player}.",
                       STARTING, "steps 2-3", player=player, turn=who)
    if state.phase == "remove":
        return _refuse("not_your_turn", f"{who} put the counter on X, so {who} removes the "
                       f"block, not {player}.", CHASE, "step 7", player=player, turn=who)
    if state.phase == "rebuild":
        return _refuse("not_builder", f"{who} builds the field this round, not {player}.",
                       CHASE, "step 8", player=player, turn=who)
    if state.pawn_of(player) is None:
        return _refuse("eliminated", f"{player} has been eliminated from this round.", CHASE,
                       "step 6", player=player)
    return _refuse("not_your_turn", f"It is {who}'s turn, not {player}'s.", CHASE, "step 5",
                   player=player, turn=who)


def _start(state: State, action: Start) -> Transition[State]:
    block = state.field.block(action.block)
    if not block.is_white:
        raise _refuse("not_white", f"Pawns start on a white block; {block.id} is {block.colour}.",
                      STARTING, "step 2", block=block.id, colour=block.colour)
    holder = state.pawn_on(block.id)
    if holder is not None:
        raise _refuse("start_taken", f"{holder}'s pawn already stands on {block.id}; choose a "
                      f"free white block.", STARTING, "step 2", block=block.id, player=holder)
    pawns = (*state.pawns, (action.player, block.id))
    order = state.order
    if len(pawns) < len(order):
        return Transition(state.evolve(pawns=pawns, to_act=order[len(pawns)]))
    return Transition(state.evolve(pawns=pawns, phase="move", to_act=order[0], counter=0))


def _move(state: State, action: Move) -> Transition[State]:
    origin = state.pawn_of(action.player)
    if origin != action.origin:
        raise _refuse("pawn_not_there", f"{action.player}'s pawn stands on {origin}, not on "
                      f"{action.origin}.", CHASE, "step 6", player=action.player, block=origin,
                      claimed=action.origin)
    if not state.present(action.target):
        raise _refuse("block_removed", f"{action.target} has been removed from the field.",
                      CHASE, "step 7", block=action.target)
    if action.target == origin:
        raise _refuse("must_move", f"{action.player} must move the pawn off {origin} to a "
                      f"block that touches it.", CHASE, "step 6", block=origin,
                      player=action.player)
    if not state.field.touches(origin, action.target):
        raise _refuse("not_adjacent", f"{action.target} does not touch {origin}; a pawn moves "
                      f"only to a block touching the one it stands on.", CHASE, "step 6",
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
        return Transition(state.evolve(phase="remove", to_act=action.player), tuple(events))
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
        raise _refuse("block_removed", f"{action.block} has already been removed.", CHASE,
                      "step 7", block=action.block)
    refusals = removal_refusals(state.field, state.removed, occupied(state))
    if action.block in refusals:
        code = refusals[action.block][0]
        raise IllegalAction(code, refusal_sentence(code, action.block), refusal_rule(code),
                            params={"block": action.block, "codes": list(refusals[action.block])})
    state = state.evolve(removed=(*state.removed, action.block), phase="move",
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
            raise IllegalAction(
                "field_breaks_rules", f"The new field breaks the {state.rules.mode} "
                f"field-building rules: " + summarise_violations(violations, with_rules=False),
                first.rule, params={"mode": state.rules.mode, "count": len(violations),
                                    "codes": [v.code for v in violations],
                                    "blocks": list(first.blocks)})
        whites = len(field.whites())
        players = len(state.rules.players)
        if whites < players:
            raise _refuse("too_few_whites", f"The new field has {whites} white block(s); "
                          f"{players} players need one each to start on.", STARTING, "step 2",
                          whites=whites, players=players)
    order = state.order
    event = Event("field_rebuilt", {"player": action.player, "name": field.name,
                                    "blocks": len(field.blocks),
                                    "new": action.field is not None})
    return Transition(state.evolve(field=field, phase="start", to_act=order[0], pawns=(),
                                   out=(), removed=(), counter=0), (event,))
