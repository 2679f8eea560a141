"""The Defiance engine (``GAME``): who acts, chance, the one dispatch table, outcome, notation.

Example:
    >>> DefianceGame.name
    'defiance'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NoReturn

from companion.games.core import (
    CHANCE,
    Event,
    Game,
    IllegalAction,
    Outcome,
    Transition,
    refuse,
)
from companion.games.defiance import (
    card_actions,
    card_effects,
    dice,
    movement,
    queue_actions,
    setup_actions,
)
from companion.games.defiance.actions import (
    CHANCE_TYPES,
    Action,
    Adjust,
    Attach,
    Block,
    Cancel,
    Check,
    ChooseLeader,
    Claim,
    Concede,
    Convert,
    Cycle,
    Damage,
    Deploy,
    Destroy,
    Effect,
    End,
    Flip,
    Gambit,
    Lock,
    Move,
    Mulligan,
    Place,
    Play,
    PlayerAction,
    Prepare,
    Progress,
    Ready,
    Reroll,
    Resolved,
    Reveal,
    Roll,
    Score,
    Shuffle,
    Spend,
    Step,
    Trim,
    parse_action,
    setup_names,
)
from companion.games.defiance.cardops import reshuffles_due
from companion.games.defiance.data import die_faces
from companion.games.defiance.describe import describe
from companion.games.defiance.flow import end_turn, initial
from companion.games.defiance.info import INFO
from companion.games.defiance.legal import grouped_listing, legal_actions
from companion.games.defiance.rulebook import (
    ADVENTURE,
    CHECKS,
    OBJECT,
    RESPAWN_DEPLOY,
    RULEBOOK,
    SETUP,
    SETUP_STEP_7,
    SKIRMISH,
    THE_TIMELINE,
    TURN,
    Refusal,
)
from companion.games.defiance.scoring import last_side_standing
from companion.games.defiance.setup import Rules, load_setup
from companion.games.defiance.state import (
    LIMIT_READING,
    Due,
    Phase,
    SetupStep,
    State,
    Status,
    deck_of,
    evolve,
    over_limit,
    seat,
)

if TYPE_CHECKING:  # pragma: no cover
    import random

Handler = Callable[[State, Any, list[Event]], State]


class Stage(StrEnum):
    """Where the game stands, as the dispatch table is keyed.

    The phase, refined by the setup step and by a respawned leader's deploy.
    """

    CHANCE = "chance"
    """A shuffle, Role reveal or roll is due (any phase)."""
    TILES = "tiles"
    """Setup step 5: first tiles."""
    LEADERS = "leaders"
    """Setup step 6: leaders."""
    SETUP_DEPLOY = "setup_deploy"
    """Setup step 7: every leader deploys."""
    RESPAWN_DEPLOY = "respawn_deploy"
    """The turns: a respawned leader completes a deploy (rulebook 8.6)."""
    TURN = "turn"
    """The turns: the leader's actions, and what anyone may do."""


@dataclass(frozen=True)
class Rule:
    """How an accepted action is handled: its handler, and who may act.

    Attributes:
        handler: the rule's function ``(state, action, events) -> state``.
        anyone: any player may act (triggers, blocks, scoring, conceding), not only the one
            whose turn or setup step it is.
    """

    handler: Handler
    anyone: bool = False


_DEPLOY: dict[type[Action], Rule] = {
    Mulligan: Rule(setup_actions.mulligan), Deploy: Rule(setup_actions.deploy_unit),
    Ready: Rule(setup_actions.ready)}
_ANYONE: dict[type[Action], Rule] = {
    kind: Rule(handler, anyone=True) for kind, handler in (
        (Gambit, dice.gambit), (Score, queue_actions.score), (Progress, queue_actions.progress),
        (Claim, queue_actions.claim), (Effect, queue_actions.effect),
        (Step, queue_actions.step), (Block, queue_actions.block),
        (Adjust, queue_actions.adjust), (Concede, queue_actions.concede),
        (Cancel, queue_actions.cancel), (Attach, card_effects.attach))}

DISPATCH: Mapping[Stage, Mapping[type[Action], Rule]] = {
    Stage.CHANCE: {Shuffle: Rule(setup_actions.shuffle), Reveal: Rule(setup_actions.reveal),
                   Roll: Rule(dice.roll)},
    Stage.TILES: {Place: Rule(setup_actions.place)},
    Stage.LEADERS: {ChooseLeader: Rule(setup_actions.choose_leader)},
    Stage.SETUP_DEPLOY: _DEPLOY,
    Stage.RESPAWN_DEPLOY: {**_DEPLOY, Adjust: _ANYONE[Adjust]},
    Stage.TURN: {
        Check: Rule(dice.declare_check), Reroll: Rule(dice.reroll),
        Convert: Rule(dice.convert), Lock: Rule(dice.lock),
        Prepare: Rule(card_actions.prepare), Play: Rule(card_actions.play),
        Damage: Rule(card_actions.damage), Destroy: Rule(card_actions.destroy),
        Cycle: Rule(card_actions.cycle), Move: Rule(movement.move),
        Flip: Rule(movement.flip), End: Rule(queue_actions.end),
        Resolved: Rule(queue_actions.resolved), Spend: Rule(queue_actions.spend_for),
        **_ANYONE},
}
"""The one dispatch table: for each stage, the action types it accepts and their rule.

A timeline over its limit accepts only :class:`Trim` (rulebook 7), whatever the stage."""

DUE: Mapping[Due, type[Action]] = {Due.SHUFFLE: Shuffle, Due.REVEAL: Reveal}
"""The action a pending chance event waits for (a roll for every other kind)."""


def stage_of(state: State) -> Stage:
    """The stage of ``state`` (see :data:`DISPATCH`)."""
    if state.pending:
        return Stage.CHANCE
    if state.phase == Phase.SETUP:
        return {SetupStep.TILES: Stage.TILES, SetupStep.LEADERS: Stage.LEADERS}.get(
            state.step, Stage.SETUP_DEPLOY)
    return Stage.RESPAWN_DEPLOY if state.turn.deploying else Stage.TURN


class DefianceGame(Game[Rules, State, Action]):
    """Infinities: Defiance of Fate, refereed from the rulebook (cards' texts by hand)."""

    name = "defiance"
    title = "Infinities: Defiance of Fate"
    rulebook = RULEBOOK
    info = INFO
    state_type = State

    # -- setup -----------------------------------------------------------------------------
    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> Rules:
        """Read the ``setup`` file, the data files and the options (see ``setup.py``)."""
        return load_setup(sources, options)

    def initial_state(self, setup: Rules) -> State:
        """The table before the decks are shuffled."""
        return initial(setup)

    # -- flow ------------------------------------------------------------------------------
    def current_actor(self, state: State) -> str | None:
        """Chance, the player placing a tile / choosing / deploying, or the turn's leader."""
        if state.phase == Phase.OVER:
            return None
        if state.pending:
            return CHANCE
        if state.phase == Phase.SETUP:
            if state.step == SetupStep.TILES:
                return state.seats[state.index].name
            if state.step == SetupStep.LEADERS:
                return state.order[state.index]
        due = over_limit(state)
        if due is not None:
            return due.name
        return state.turn.leader

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """Draw the pending shuffle, Role reveal, check, reroll or gambit roll with ``rng``."""
        if not state.pending:
            return super().sample_chance(state, rng)
        due = state.pending[0]
        if due.kind == Due.SHUFFLE:
            deck = deck_of(state, due.who)
            cards = sorted(deck.cards + deck.discard)
            rng.shuffle(cards)
            return Shuffle(due.who, tuple(cards))
        if due.kind == Due.REVEAL:
            ids = sorted(r.id for r in state.rules.roles)
            return Reveal(tuple(rng.sample(ids, state.rules.reveal)))
        if due.kind == Due.CHECK:
            kind = state.turn.check
            return Roll(tuple(rng.choice(die_faces(kind)) for _ in range(4)))
        if due.kind == Due.REROLL:
            kind = state.turn.dice[due.die].kind
            return Roll((rng.choice(die_faces(kind)),))
        return Roll((str(rng.randint(1, 6)),))

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every action that may happen next, sorted by notation (see ``legal.py``)."""
        return legal_actions(self, state)

    def apply(self, state: State, action: Action) -> Transition[State]:
        """Apply ``action`` or refuse it with the rule it breaks."""
        try:
            events: list[Event] = []
            new = self._dispatch(state, action, events)
            card_effects.over_limit_event(new, state, events)
            new = reshuffles_due(new)
            if new.phase == Phase.TURNS:
                new = last_side_standing(new, events)
            if new.phase == Phase.TURNS and not new.pending and new.turn.leader \
                    and seat(new, new.turn.leader).status != Status.ACTIVE:
                new = end_turn(evolve(new, queue=()), events)
            return Transition(new, tuple(events))
        except IllegalAction as refusal:
            raise refusal.with_action(str(action)) from None

    def accepts(self, state: State, action: Action) -> bool:
        """Whether the rules accept ``action`` (what :meth:`apply` would not refuse).

        The follow-ups of an accepted action (reshuffles, the end of a defeated leader's turn,
        the last side standing) never refuse, so they are skipped: this is the fast test
        behind :meth:`legal_actions`.

        Example:
            >>> from companion.resources import shipped_sources
            >>> from companion.games.defiance.shipped import PACKAGE, shipped_roles
            >>> game = DefianceGame()
            >>> rules = game.load_setup(shipped_sources(PACKAGE, shipped_roles()), {})
            >>> game.accepts(game.initial_state(rules), End("Ann"))
            False
        """
        try:
            self._dispatch(state, action, [])
        except IllegalAction:
            return False
        return True

    def _dispatch(self, state: State, action: Action, events: list[Event]) -> State:
        if state.phase == Phase.OVER:
            refuse(Refusal.GAME_OVER, "The game is over.", OBJECT)
        stage = stage_of(state)
        if stage == Stage.CHANCE:
            due = state.pending[0].kind
            wanted = DUE.get(due, Roll)
            if not isinstance(action, wanted):
                refuse(Refusal.CHANCE_DUE, f"A {due} is due first: type it or `roll`.",
                       CHECKS if wanted is Roll else SETUP)
            return DISPATCH[stage][wanted].handler(state, action, events)
        if isinstance(action, CHANCE_TYPES):
            refuse(Refusal.NO_CHANCE_PENDING, "Nothing is waiting for a roll or shuffle.", TURN)
        if action.actor not in {s.name for s in state.seats}:
            refuse(Refusal.UNKNOWN_PLAYER, f"{action.actor} is not a player of this game.", SETUP,
                   player=action.actor)
        over = over_limit(state)
        if over is not None or isinstance(action, Trim):
            if not isinstance(action, Trim) or action.actor != (over.name if over
                                                                 else action.actor):
                who = over.name if over else action.actor
                refuse(Refusal.TRIM_FIRST, f"{who}'s timeline is over its limit ({LIMIT_READING}): "
                       f"{who} chooses a timeline card to destroy first (trim {who} CARD).",
                       THE_TIMELINE, leader=who)
            return card_effects.trim(state, action, events)
        if state.phase == Phase.TURNS:
            self._mode_allows(state, action)
        rule = DISPATCH[stage].get(type(action))
        if rule is None:
            self._not_accepted(state, stage, action)
        if not rule.anyone:
            self._is_current(state, action)
        return rule.handler(state, action, events)

    @staticmethod
    def _mode_allows(state: State, action: PlayerAction) -> None:
        if isinstance(action, Score | Progress) and state.rules.mode == "adventure":
            refuse(Refusal.NO_ROLES,
                   "Adventure has no Roles: claim a chapter condition.", ADVENTURE)
        if isinstance(action, Claim) and state.rules.mode != "adventure":
            refuse(Refusal.NO_CHAPTER, "Only Adventure chapters have win conditions to claim.",
                   SKIRMISH)

    def _not_accepted(self, state: State, stage: Stage, action: PlayerAction) -> NoReturn:
        """Refuse an action type the stage does not accept, saying what the stage is for."""
        if stage not in (Stage.RESPAWN_DEPLOY, Stage.TURN):
            refuse(Refusal.WRONG_STEP, f"{action.verb} is not part of setup step {state.step}.",
                   SETUP)
        if stage == Stage.RESPAWN_DEPLOY and type(action) in _ANYONE:
            refuse(Refusal.DEPLOYING, f"{state.turn.leader} is deploying; during a deploy no "
                   "abilities are played or activated.", SETUP_STEP_7)
        self._is_current(state, action)
        if stage == Stage.RESPAWN_DEPLOY:
            refuse(Refusal.DEPLOYING, "Complete your deploy (mulligan, deploy units, ready) "
                   "first.", RESPAWN_DEPLOY)
        refuse(Refusal.NOT_DEPLOYING, f"{action.verb} belongs to a deploy.", SETUP_STEP_7)

    def _is_current(self, state: State, action: PlayerAction) -> None:
        current = self.current_actor(state)
        if action.actor != current:
            refuse(Refusal.NOT_YOUR_TURN, f"It is {current}'s turn, not {action.actor}'s.",
                   SETUP if state.phase == Phase.SETUP else TURN, turn=current,
                   player=action.actor)

    def outcome(self, state: State) -> Outcome | None:
        """Who won, why, and the Points."""
        if state.result is None:
            return None
        result = state.result
        return Outcome(result.winners, result.termination, result.detail, dict(result.scores))

    def grouped_legal(self, texts: Sequence[str]) -> list[str]:
        """The legal listing for people: verbs first, then their arguments (see ``legal.py``).

        Example:
            >>> DefianceGame().grouped_legal(["end Ann", "gambit Ann", "gambit Ben"])
            ['3 actions; verbs: end, gambit', 'end Ann', 'gambit Ann/Ben']
        """
        return grouped_listing(texts)

    # -- notation --------------------------------------------------------------------------
    def parse_action(self, state: State, text: str) -> Action:
        """Read one line of Defiance notation (case-insensitive names)."""
        return parse_action(text, setup_names(state.rules))

    def describe_event(self, event: Event) -> str:
        """One short line per event (see ``describe.py``)."""
        line = describe(event)
        return super().describe_event(event) if line is None else line


GAME = DefianceGame()
"""The engine (stateless: one instance serves every game)."""

__all__ = ["GAME", "DefianceGame", "Stage"]
