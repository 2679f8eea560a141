"""The 401 Infinite referee: the engine contract over the rules modules of this package.

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> state = example_state()
    >>> GAME.current_actor(state)
    'blue'
    >>> GAME.apply(state, GAME.parse_action(state, "move blue B1 a2")).state.unit("B1").space
    (0, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.games.core import CHANCE, Event, Game, Outcome, SetupError, Transition
from companion.games.datafile import unknown_key_problem
from companion.games.infinite401 import rules
from companion.games.infinite401.board import SIDES, other_side, space_name
from companion.games.infinite401.effects import resolve
from companion.games.infinite401.hp import deal_damage, land
from companion.games.infinite401.legal import legal_actions, score_actions
from companion.games.infinite401.movement import check_move
from companion.games.infinite401.notation import (
    Action,
    ChooseDeck,
    ChooseHand,
    Cycle,
    End,
    Flip,
    Move,
    Play,
    Score,
    Shuffle,
    parse_action,
)
from companion.games.infinite401.state import (
    STARTS,
    Setup401,
    SideCards,
    State,
    initial_units,
    read_setup,
    state_from_json,
    state_to_json,
)
from companion.games.infinite401.turns import (
    DECK_SIZE,
    after_step,
    cycle,
    draw,
    end_turn,
    start_turn,
    steps_for,
)

if TYPE_CHECKING:  # pragma: no cover
    import random

QUICK_MIN_CARDS = 4
OPTION_KEYS = frozenset({"start", "turn_limit"})
"""The options a 401 Infinite game takes; any other is refused, naming the closest."""


class Infinite401(Game[Setup401, State, Action]):
    """401 Infinite, refereed from the rulebook ``shared/rules/401-infinite.md``."""

    name = "401"
    title = "401 Infinite"
    rulebook = rules.RULEBOOK

    # -- setup -----------------------------------------------------------------------------
    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> Setup401:
        """Read the ``board`` and ``cards`` files; options ``start`` and ``turn_limit``.

        Raises:
            SetupError: a file or option cannot be used.
        """
        for role in ("board", "cards"):
            if role not in sources:
                raise SetupError(role, "", f"no {role} file given")
        for key in options:
            if key not in OPTION_KEYS:
                raise SetupError("options", key, unknown_key_problem(key, OPTION_KEYS)
                                 .replace("unknown key", "unknown option", 1))
        start = options.get("start", "quick")
        if start not in STARTS:
            raise SetupError("options", "start", f"{start!r} is not quick or competitor")
        limit = options.get("turn_limit")
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)
                                  or limit < 1):
            raise SetupError("options", "turn_limit", f"{limit!r} is not a positive number")
        triples = tuple((role, *sources[role]) for role in ("board", "cards"))
        setup = read_setup(triples, start, limit)
        name = sources["cards"][0]
        for side in SIDES:
            decks = setup.cards.deck(side)
            if start == "quick" and len(decks) < QUICK_MIN_CARDS:
                raise SetupError(name, "abilities", f"{side} has {len(decks)} ability cards; "
                                 f"Quick Start needs at least {QUICK_MIN_CARDS}")
            if start == "competitor" and (len(decks) < DECK_SIZE or
                                          not setup.cards.passives_of(side)):
                raise SetupError(name, "abilities", f"{side} needs at least {DECK_SIZE} "
                                 "ability cards and 1 passive for Competitor's Start")
        return setup

    def initial_state(self, setup: Setup401) -> State:
        """Units on their base with 2 HP, the token on its spawner, the first step due."""
        cards = tuple(SideCards(deck=setup.cards.deck(side), stack=setup.cards.deck(side))
                      for side in SIDES)
        return State(setup, initial_units(setup.board), (cards[0], cards[1]),
                     token=setup.board.token_start, steps=steps_for(setup.start))

    # -- flow ------------------------------------------------------------------------------
    def current_actor(self, state: State) -> str | None:
        """``chance`` for shuffles and the coin, else the side to act (``None`` once over)."""
        if state.steps:
            verb = state.steps[0].split()[0]
            return CHANCE if verb in ("shuffle", "flip") else state.steps[0].split()[1]
        if self.outcome(state) is not None:
            return None
        if state.runners:
            return state.unit(state.runners[0]).side
        return state.to_move

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """Shuffle the due stack or flip the coin with ``rng``."""
        if not state.steps or self.current_actor(state) != CHANCE:
            return super().sample_chance(state, rng)
        if state.steps[0] == "flip":
            return Flip(rng.choice(SIDES))
        side = state.steps[0].split()[1]
        stack = list(state.side_cards(side).stack)
        rng.shuffle(stack)
        return Shuffle(side, tuple(stack))

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal action, sorted by notation text (moves by destination)."""
        if self.outcome(state) is not None:
            return []
        return legal_actions(state)

    def apply(self, state: State, action: Action) -> Transition[State]:
        """Apply ``action``; refusals cite the rulebook."""
        if self.outcome(state) is not None:
            raise rules.refuse("game_over", "The game is over.", rules.VICTORY)
        if state.steps:
            return Transition(_apply_step(state, action))
        if state.runners:
            if not isinstance(action, Score):
                runner = state.unit(state.runners[0])
                raise rules.refuse("runner_pending", f"{runner.name} landed on the opposing "
                                   f"base: {runner.side} first returns it to its base and "
                                   "scores (score SIDE UNIT SPACE TARGET).", rules.RUNNER,
                                   unit=runner.name)
            next_state, events = _score(state, action)
        else:
            next_state, events = _apply_turn(state, action)
        next_state, events = _score_without_choice(next_state, events)
        return Transition(next_state, tuple(events) + _victory(state, next_state))

    def outcome(self, state: State) -> Outcome | None:
        """A side wins when every opposing unit is eliminated; the turn limit draws."""
        if state.steps:
            return None
        for side in SIDES:
            if not state.living(other_side(side)):
                return Outcome((side,), "all_units_eliminated",
                               f"{side.capitalize()} eliminated all of "
                               f"{other_side(side).capitalize()}'s units.")
        limit = state.setup.turn_limit
        if limit is not None and state.turn > limit:
            return Outcome((), "turn_limit", f"Draw: {limit} turns were played (a companion "
                           "option, not a rule of the game).")
        return None

    # -- notation and data -----------------------------------------------------------------
    def parse_action(self, state: State, text: str) -> Action:
        """Read an action (see :mod:`companion.games.infinite401.notation`)."""
        return parse_action(state, text)

    def describe_event(self, event: Event) -> str:
        """One short line for an event."""
        data = event.data
        if event.kind == "hp_changed":
            way = "clockwise" if data["rotation"] > 0 else "counter-clockwise"
            return (f"{data['unit']} {data['old']}->{data['new']} HP (turn the indicator "
                    f"{abs(data['rotation'])}° {way})")
        if event.kind == "unit_eliminated":
            return f"{data['unit']} is eliminated"
        if event.kind == "hp_token_collected":
            return f"{data['unit']} collects the HP token on {data['spawner']}"
        if event.kind == "hp_token_removed":
            return "the HP token leaves the game (deadlock)"
        if event.kind == "runner_scored":
            how = (" (scored by the referee: no other space or target to choose)"
                   if data.get("automatic") else "")
            return (f"{data['unit']} scores a run against {data['target']} and goes back to "
                    f"{data.get('space', 'its base')}{how}")
        if event.kind == "victory":
            return f"victory: {', '.join(data['winners'])}"
        return super().describe_event(event)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The state as JSON-ready data."""
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`state_to_json` output."""
        return state_from_json(data)


def _apply_step(state: State, action: Action) -> State:
    step = state.steps[0]
    rule = rules.QUICK_START if state.setup.start == "quick" else rules.COMPETITOR
    expected = {"shuffle": Shuffle, "flip": Flip, "deck": ChooseDeck, "hand": ChooseHand}
    verb = step.split()[0]
    if not isinstance(action, expected[verb]) or (verb != "flip" and
                                                  action.side != step.split()[1]):
        raise rules.refuse("setup_step_due", f"the game has not started: '{step}' comes "
                           "first.", rule, step=step)
    if isinstance(action, Flip):
        return start_turn(replace(state, steps=()), action.side)
    mine = state.side_cards(action.side)
    if isinstance(action, Shuffle):
        if sorted(action.order) != sorted(mine.stack):
            raise rules.refuse("not_a_shuffle", f"a shuffle of {action.side}'s stack must list "
                               f"each of its {len(mine.stack)} cards once.", rule,
                               side=action.side, count=len(mine.stack))
        mine = replace(mine, stack=action.order)
        if state.setup.start == "quick":
            mine = draw(mine)
    elif isinstance(action, ChooseDeck):
        cards = state.setup.cards
        if len(set(action.cards)) != DECK_SIZE or \
                any(c not in cards.deck(action.side) for c in action.cards):
            raise rules.refuse("deck_size", f"a deck is {DECK_SIZE} different {action.side} "
                               "ability cards.", rule, side=action.side, size=DECK_SIZE)
        if action.passive not in cards.passives_of(action.side):
            raise rules.refuse("not_your_passive", f"{action.passive} is not a "
                               f"{action.side} passive.", rule, passive=action.passive,
                               side=action.side)
        mine = SideCards(deck=action.cards, stack=action.cards, passive=action.passive)
    elif isinstance(action, ChooseHand):
        if len(set(action.cards)) != 4 or any(c not in mine.deck for c in action.cards):
            raise rules.refuse("hand_size", "the starting hand is 4 different cards of "
                               "your deck.", rule)
        mine = replace(mine, hand=action.cards,
                       stack=tuple(c for c in mine.deck if c not in action.cards))
    return after_step(state.with_side_cards(action.side, mine))


def _apply_turn(state: State, action: Action) -> tuple[State, list[Event]]:
    if isinstance(action, Score):
        raise rules.refuse("no_runner", "no unit is waiting on the opposing base to score.",
                           rules.RUNNER)
    if not isinstance(action, Move | Play | Cycle | End):
        raise rules.refuse("not_now", f"'{action}' belongs to the start of the game.",
                           rules.TURNS)
    if action.side != state.to_move:
        raise rules.refuse("not_your_turn", f"it is {state.to_move.capitalize()}'s turn.",
                           rules.TURN_ORDER, side=state.to_move)
    if isinstance(action, End):
        return end_turn(state), []
    if not state.actions_left:
        raise rules.refuse("no_actions_left", "no actions are left this turn; end it.",
                           rules.TURNS)
    spent = replace(state, actions_left=state.actions_left - 1)
    if isinstance(action, Move):
        unit = state.unit(action.unit)
        if unit.side != action.side:
            raise rules.refuse("not_your_unit", f"{unit.name} is not one of your units.",
                               rules.MOVEMENT, unit=unit.name)
        path = check_move(state, action)
        return land(spent.with_unit(replace(unit, space=path[-1])), [unit.name])
    mine = state.side_cards(action.side)
    if action.card not in mine.hand:
        raise rules.refuse("not_in_hand", f"{action.card} is not in your hand.", rules.HAND,
                           card=action.card)
    if isinstance(action, Cycle):
        return spent.with_side_cards(action.side, cycle(mine, action.card)), []
    card = state.setup.cards.ability(action.card)
    after, events, moved = resolve(spent, action, card)
    after = after.with_side_cards(action.side, replace(
        mine, hand=tuple(c for c in mine.hand if c != action.card)))
    if action.source:
        after = replace(after, sources_used=(*after.sources_used, action.source))
    after, landed = land(after, moved)
    return after, events + landed


def _score_without_choice(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Score every waiting runner whose score leaves no choice, at once.

    Runner's Rule: the runner "is immediately placed back at your own Base, and you can
    subtract 1 HP from any opponent Unit". With one free space of its base and one opposing
    unit left there is nothing to choose, so the referee scores it without a ``score`` line;
    the ``runner_scored`` event says so (``automatic``). Otherwise the player writes ``score``.
    """
    while state.runners and GAME.outcome(state) is None:
        choices = score_actions(state)
        if len(choices) != 1:
            break
        choice = choices[0]
        assert isinstance(choice, Score)
        state, scored = _score(state, choice, automatic=True)
        events = [*events, *scored]
    return state, events


def _score(state: State, action: Score, automatic: bool = False) -> tuple[State, list[Event]]:
    runner = state.unit(state.runners[0])
    if action.unit != runner.name or action.side != runner.side:
        raise rules.refuse("runner_pending", f"{runner.name} must score first.", rules.RUNNER,
                           unit=runner.name)
    base = state.setup.board.bases[runner.side]
    occupant = state.occupant(action.space)
    if action.space not in base or occupant is not None:
        raise rules.refuse("not_a_free_base_space", f"{space_name(action.space)} is not a "
                           f"free space of {runner.side}'s base.", rules.RUNNER,
                           space=space_name(action.space), side=runner.side)
    target = state.unit(action.target)
    if target.side == runner.side or not target.alive:
        raise rules.refuse("not_an_opponent", f"{target.name} is not an opposing unit in the "
                           "game.", rules.RUNNER, unit=target.name)
    state = replace(state.with_unit(replace(runner, space=action.space)),
                    runners=state.runners[1:])
    events = [Event("runner_scored", {"unit": runner.name, "target": target.name,
                                      "space": space_name(action.space),
                                      "automatic": automatic})]
    state, hurt = deal_damage(state, target.name, 1, ignore_effects=True)
    return state, events + hurt


def _victory(before: State, after: State) -> tuple[Event, ...]:
    outcome = GAME.outcome(after)
    if outcome is None or not outcome.winners or GAME.outcome(before) is not None:
        return ()
    return (Event("victory", {"winners": list(outcome.winners),
                              "termination": outcome.termination, "detail": outcome.detail}),)


GAME = Infinite401()

