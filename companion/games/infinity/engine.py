"""The Infinity (third edition, introductory rules) referee: the engine-contract class.

Flow of an Order (docs/infinity.md): the active player declares a Move, BS Attack or CC
Attack; the reactive player declares AROs (``aro ...``) and then ``pass``; the dice of the
declared rolls are one ``roll`` action (typed from physical d20s or drawn by the seeded
roller); ARM Rolls due are one ``arm`` action; then a successful Dodger may move 2 inches and
a trooper attacked from behind may turn to face. The Order pool holds one Order per trooper
in play; ``end`` passes the turn; after the last Game Round the winner is decided by
objective points, then Victory Points.

Example:
    >>> from companion.resources import shipped_sources
    >>> sources = shipped_sources("companion.games.infinity",
    ...     {"setup": "armies/example.toml", "profiles": "profiles/default.toml"})
    >>> state = GAME.initial_state(GAME.load_setup(sources, {}))
    >>> GAME.current_actor(state), state.orders
    ('Ann', 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.games.core import (
    CHANCE,
    Event,
    Game,
    IllegalAction,
    NotationError,
    Outcome,
    SetupError,
    Transition,
)

from . import state as state_module
from .actions import Action, Aro, CloseCombat, EndTurn, Move, Pass, Roll, Score, Shoot, TurnToFace
from .army import ArmySetup, load_armies
from .attacks import check_aro, check_cc, check_move, check_shoot, refuse
from .choices import DODGE_MOVE, choices
from .profile_loading import load_catalogue
from .resolution import (
    MAX_OBJECTIVE_POINTS,
    close_order,
    complete_order,
    dice_due,
    next_turn,
    resolve_arm,
    resolve_rolls,
    winners,
)
from .rolls import DIE_FACES
from .state import State, TrooperStatus

if TYPE_CHECKING:  # pragma: no cover
    import random


class InfinityGame(Game[ArmySetup, State, Action]):
    """Infinity N3 introductory rules: rolls, Face to Face, ARM, Wounds, Orders and AROs."""

    name = "infinity"
    title = "Infinity (N3 introductory rules)"
    rulebook = "infinity-n3-intro.md"

    # -- setup -----------------------------------------------------------------------------
    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> ArmySetup:
        """Read ``sources["profiles"]`` (profile data) and ``sources["setup"]`` (armies)."""
        for role in ("setup", "profiles"):
            if role not in sources:
                raise SetupError(role, "", f"no {role} file was given")
        for key in options:
            raise SetupError("options", key, "unknown option; an Infinity game takes no "
                             "options (the army file decides everything)")
        catalogue = load_catalogue(*sources["profiles"])
        return load_armies(*sources["setup"], catalogue)

    def initial_state(self, setup: ArmySetup) -> State:
        """Round 1, the first player's Active Turn with one Order per trooper."""
        status = tuple(TrooperStatus(sheet.id, sheet.profile.w, hidden=sheet.hidden)
                       for sheet in setup.sheets)
        state = State(setup.players, setup.rounds, setup.sheets, status)
        return replace(state, orders=len(state.in_play(state.active)))

    # -- flow ------------------------------------------------------------------------------
    def current_actor(self, state: State) -> str | None:
        """The active player, the reactive player (AROs), chance, or None when over."""
        if state.phase == "over":
            return None
        if state.phase in ("roll", "arm"):
            return CHANCE
        if state.phase == "aro":
            return state.reactive
        if state.phase == "after":
            return state.sheet(state.after[0].trooper).owner
        return state.active

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """Roll the d20s due with ``rng``."""
        if state.phase not in ("roll", "arm"):
            return super().sample_chance(state, rng)
        return Roll(state.phase, tuple(rng.randint(1, DIE_FACES)
                                       for _ in range(dice_due(state))))

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Representative declarations (see :mod:`.choices`); empty while dice are due."""
        listed = []
        for action in choices(state):
            try:
                self.apply(state, action)
            except IllegalAction:
                continue
            listed.append(action)
        return listed

    def outcome(self, state: State) -> Outcome | None:
        """Objective points, then Victory Points, once the game is over."""
        if state.phase != "over":
            return None
        won, termination, detail = winners(state)
        return Outcome(won, termination, detail,
                       dict(zip(state.players, state.objectives, strict=True)))

    # -- actions ---------------------------------------------------------------------------
    def apply(self, state: State, action: Action) -> Transition[State]:
        """Apply one action or refuse it with the rule it breaks."""
        if state.phase == "over":
            raise refuse("game_over", "The game is over.", "summary")
        if isinstance(action, Roll):
            new, events = self._roll(state, action)
            return Transition(new, tuple(events))
        if state.phase in ("roll", "arm"):
            word = "roll" if state.phase == "roll" else "arm"
            raise refuse("dice_due", f"The dice are due first: `{word}` followed by "
                         f"{dice_due(state)} d20 results.", "rolls", word=word,
                         due=dice_due(state))
        actor = self.current_actor(state)
        player = getattr(action, "player", None)
        if player != actor:
            raise refuse("not_your_turn", f"It is {actor}'s turn to act, not {player}'s.",
                         "summary", player=player, turn=actor)
        if state.phase == "order":
            new, events = self._order(state, action)
        elif state.phase == "aro":
            new, events = self._aro(state, action)
        else:
            new, events = self._after(state, action)
        return Transition(new, tuple(events))

    def _roll(self, state: State, action: Roll) -> tuple[State, list[Event]]:
        if state.phase not in ("roll", "arm"):
            raise refuse("no_roll_due", "No roll is due now; declare an Order first.", "rolls")
        if action.kind != state.phase:
            word = "roll" if state.phase == "roll" else "arm"
            raise refuse("wrong_roll", f"The dice due now are `{word}` dice.", "rolls",
                         word=word)
        due = dice_due(state)
        if len(action.dice) != due or any(not 1 <= d <= DIE_FACES for d in action.dice):
            raise refuse("wrong_dice", f"{due} d20 result(s) from 1 to 20 are due, in "
                         f"declaration order.", "rolls", due=due)
        if state.phase == "roll":
            return resolve_rolls(state, action.dice)
        return resolve_arm(state, action.dice)

    def _reveal(self, state: State, trooper: str) -> State:
        status = state.trooper_status(trooper)
        return state.with_status(replace(status, hidden=False)) if status.hidden else state

    def _order(self, state: State, action: Action) -> tuple[State, list[Event]]:
        if isinstance(action, EndTurn):
            return next_turn(state)
        if isinstance(action, Score):
            total = state.objectives[state.turn] + action.points
            if action.points < 1 or total > MAX_OBJECTIVE_POINTS:
                raise refuse("objective_points", f"Objective points go from 1 up to a total "
                             f"of {MAX_OBJECTIVE_POINTS} a game.", "summary",
                             most=MAX_OBJECTIVE_POINTS)
            points = list(state.objectives)
            points[state.turn] = total
            return replace(state, objectives=(points[0], points[1])), []
        if isinstance(action, Move):
            check_move(state, action)
        elif isinstance(action, Shoot):
            check_shoot(state, action)
        elif isinstance(action, CloseCombat):
            check_cc(state, action)
        else:
            raise refuse("not_an_order", "The active player declares an Order (move, shoot, "
                         "cc), scores, or ends the turn.", "summary")
        state = replace(self._reveal(state, action.trooper), phase="aro", order=action,
                        aros=())
        if not state.in_play(state.reactive):
            return self._resolve(state)
        return state, []

    def _aro(self, state: State, action: Action) -> tuple[State, list[Event]]:
        if isinstance(action, Pass):
            return self._resolve(state)
        if not isinstance(action, Aro):
            raise refuse("aro_expected", "The reactive player declares AROs (aro ...) or "
                         "passes.", "summary")
        check_aro(state, action)
        return replace(self._reveal(state, action.trooper), aros=(*state.aros, action)), []

    def _resolve(self, state: State) -> tuple[State, list[Event]]:
        state = replace(state, phase="roll")
        if dice_due(state):
            return state, []
        return complete_order(state)

    def _after(self, state: State, action: Action) -> tuple[State, list[Event]]:
        item = state.after[0]
        if isinstance(action, TurnToFace) and item.kind == "face" \
                and action.trooper == item.trooper:
            pass
        elif isinstance(action, Move) and item.kind == "dodge" \
                and action.trooper == item.trooper:
            if action.contact is not None:
                raise refuse("dodge_contact", "A Dodge movement cannot enter base to base "
                             "contact with an enemy.", "dodge")
            if len(action.distances) > 1 or action.distances[0] > DODGE_MOVE:
                moved = sum(action.distances)
                raise refuse("dodge_too_far", f"{action.trooper} may move up to "
                             f"{DODGE_MOVE:g} inches after its successful Dodge, not "
                             f"{moved:g} (one movement, in its Reactive Turn).", "dodge",
                             trooper=action.trooper, distance=moved, inches=DODGE_MOVE)
            check_move(state, action, (DODGE_MOVE,))
            contacts = tuple(p for p in state.contacts if action.trooper not in p)
            state = replace(state, contacts=contacts)
        elif not isinstance(action, Pass):
            what = "turn to face the attacker" if item.kind == "face" else \
                f"move up to {DODGE_MOVE:g} inches after its successful Dodge"
            raise refuse("after_order", f"{item.trooper} may {what} now, or pass.",
                         "dodge" if item.kind == "dodge" else "arm", trooper=item.trooper,
                         kind=item.kind, inches=DODGE_MOVE)
        state = replace(state, after=state.after[1:])
        if state.after:
            return state, []
        return close_order(state)

    # -- notation --------------------------------------------------------------------------
    def parse_action(self, state: State, text: str) -> Action:
        """Read one action (docs/infinity.md)."""
        from .actions import parse

        return parse(text, state.names, state.burst_table())

    def describe_event(self, event: Event) -> str:
        """One short line per event."""
        data = event.data
        if event.kind == "roll":
            pairs = ", ".join(f"{d} {r}" for d, r in zip(data["dice"], data["results"],
                                                         strict=True))
            if data["attribute"] == "ARM":
                return f"{data['trooper']} ARM Roll against Damage {data['target']}: {pairs}"
            return f"{data['trooper']} {data['attribute']} {data['target']}: {pairs}"
        if event.kind == "hit":
            return f"{data['attacker']} hits {data['target']}" + \
                (" (Critical)" if data["critical"] else "")
        if event.kind == "wound":
            return f"{data['trooper']} loses a Wound ({data['wounds_left']} left)"
        if event.kind == "trooper_removed":
            return f"{data['trooper']} ({data['side']}) is removed from play"
        if event.kind == "turn_changed":
            return f"{data['player']}'s Active Turn (round {data['round']})"
        if event.kind == "critical":
            return f"Critical by {data['trooper']}"
        if event.kind == "round_changed":
            return f"Game Round {data['round']}"
        if event.kind == "victory":
            return str(data["detail"])
        return super().describe_event(event)

    # -- serialisation ---------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        """The whole state as JSON-ready data."""
        return state_module.state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`state_to_json` output."""
        try:
            return state_module.state_from_json(data)
        except NotationError as error:  # pragma: no cover - only a hand-edited state
            raise ValueError(f"state holds an unreadable action: {error}") from error


GAME = InfinityGame()
