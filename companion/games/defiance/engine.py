"""The Defiance engine: dispatch of actions to their rules, chance, outcome, notation.

Example:
    >>> DefianceGame.name
    'defiance'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.games.core import (
    CHANCE,
    Event,
    Game,
    IllegalAction,
    NotationError,
    Outcome,
    Transition,
)
from companion.games.defiance import (
    card_actions,
    card_effects,
    dice,
    movement,
    queue_actions,
    setup_actions,
)
from companion.games.defiance.actions import CHANCE_VERBS, Action, canonical_names, parse_line
from companion.games.defiance.cardops import reshuffles_due
from companion.games.defiance.codec import from_json, to_json
from companion.games.defiance.data import die_faces
from companion.games.defiance.flow import end_turn, initial
from companion.games.defiance.legal import grouped_listing, legal_actions
from companion.games.defiance.loading import load_rules
from companion.games.defiance.refusals import (
    ADVENTURE,
    CHECKS,
    DEFEAT,
    SETUP,
    SKIRMISH,
    TURN,
    refuse,
)
from companion.games.defiance.rules import Rules
from companion.games.defiance.scoring import last_side_standing
from companion.games.defiance.state import (
    LIMIT_READING,
    State,
    deck_of,
    evolve,
    over_limit,
    seat,
)

if TYPE_CHECKING:  # pragma: no cover
    import random

Handler = Callable[[State, Action, list[Event]], State]

SETUP_HANDLERS: dict[str, tuple[str, Handler]] = {
    "place": ("tiles", setup_actions.place),
    "leader": ("leaders", setup_actions.choose_leader),
    "mulligan": ("deploy", setup_actions.mulligan),
    "deploy": ("deploy", setup_actions.deploy_unit),
    "ready": ("deploy", setup_actions.ready),
}
DEPLOY_VERBS = frozenset({"mulligan", "deploy", "ready"})
TURN_HANDLERS: dict[str, Handler] = {
    "check": dice.declare_check, "reroll": dice.reroll, "convert": dice.convert,
    "lock": dice.lock, "prepare": card_actions.prepare, "play": card_actions.play,
    "damage": card_actions.damage, "destroy": card_actions.destroy,
    "cycle": card_actions.cycle, "move": movement.move, "flip": movement.flip,
    "end": queue_actions.end, "resolved": queue_actions.resolved,
    "spend": queue_actions.spend_for,
}
"""Verbs only the leader whose turn it is may use."""
ANYONE_HANDLERS: dict[str, Handler] = {
    "gambit": dice.gambit, "score": queue_actions.score, "progress": queue_actions.progress,
    "claim": queue_actions.claim, "effect": queue_actions.effect, "step": queue_actions.step,
    "block": queue_actions.block, "adjust": queue_actions.adjust,
    "concede": queue_actions.concede, "cancel": queue_actions.cancel,
    "attach": card_effects.attach,
}
"""Verbs any player may use during the turns (triggers, blocks, scoring, conceding)."""


class DefianceGame(Game[Rules, State, Action]):
    """Infinities: Defiance of Fate, refereed from the rulebook (cards' texts by hand)."""

    name = "defiance"
    title = "Infinities: Defiance of Fate"
    rulebook = "infinities-defiance-of-fate"

    # -- setup -----------------------------------------------------------------------------
    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> Rules:
        """Read the ``setup`` file and the data files (see ``docs/defiance.md``)."""
        return load_rules(sources, options)

    def initial_state(self, setup: Rules) -> State:
        """The table before the decks are shuffled."""
        return initial(setup)

    # -- flow ------------------------------------------------------------------------------
    def current_actor(self, state: State) -> str | None:
        """Chance, the player placing a tile / choosing / deploying, or the turn's leader."""
        if state.phase == "over":
            return None
        if state.pending:
            return CHANCE
        if state.phase == "setup":
            if state.step == "tiles":
                return state.seats[state.index].name
            if state.step == "leaders":
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
        if due.kind == "shuffle":
            deck = deck_of(state, due.who)
            cards = sorted(deck.cards + deck.discard)
            rng.shuffle(cards)
            return Action("shuffle", due.who, tuple(cards))
        if due.kind == "reveal":
            ids = sorted(r.id for r in state.rules.roles)
            return Action("reveal", "", tuple(rng.sample(ids, state.rules.reveal)))
        if due.kind == "check":
            kind = state.turn.check
            return Action("roll", "", tuple(rng.choice(die_faces(kind)) for _ in range(4)))
        if due.kind == "reroll":
            kind = state.turn.dice[due.die].kind
            return Action("roll", "", (rng.choice(die_faces(kind)),))
        return Action("roll", "", (str(rng.randint(1, 6)),))

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
            if new.phase == "turns":
                new = last_side_standing(new, events)
            if new.phase == "turns" and not new.pending and new.turn.leader \
                    and seat(new, new.turn.leader).status != "active":
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
            >>> game.accepts(game.initial_state(rules), Action("end", "Ann"))
            False
        """
        try:
            self._dispatch(state, action, [])
        except IllegalAction:
            return False
        return True

    def _dispatch(self, state: State, action: Action, events: list[Event]) -> State:
        verb = action.verb
        if state.phase == "over":
            refuse("game_over", "The game is over.", SKIRMISH, "1.1.1 - Object of the Game")
        if state.pending:
            due = state.pending[0].kind
            wanted = {"shuffle": "shuffle", "reveal": "reveal"}.get(due, "roll")
            if verb != wanted:
                refuse("chance_due", f"A {due} is due first: type it or `roll`.",
                       CHECKS if wanted == "roll" else SETUP)
            if verb == "shuffle":
                return setup_actions.shuffle(state, action, events)
            if verb == "reveal":
                return setup_actions.reveal(state, action, events)
            return dice.roll(state, action, events)
        if verb in CHANCE_VERBS:
            refuse("no_chance_pending", "Nothing is waiting for a roll or shuffle.", TURN)
        if action.actor not in {s.name for s in state.seats}:
            refuse("unknown_player", f"{action.actor} is not a player of this game.", SETUP,
                   player=action.actor)
        over = over_limit(state)
        if over is not None or verb == "trim":
            if verb != "trim" or action.actor != (over.name if over else action.actor):
                who = over.name if over else action.actor
                refuse("trim_first", f"{who}'s timeline is over its limit ({LIMIT_READING}): "
                       f"{who} chooses a timeline card to destroy first (trim {who} CARD).",
                       "7. Card Properties", "The Timeline", leader=who)
            return card_effects.trim(state, action, events)
        if state.phase == "setup":
            step, handler = SETUP_HANDLERS.get(verb, ("", None))
            if handler is None or step != state.step:
                refuse("wrong_step", f"{verb} is not part of setup step {state.step}.", SETUP)
            self._is_current(state, action)
            return handler(state, action, events)
        if verb in ("score", "progress") and state.rules.mode == "adventure":
            refuse("no_roles", "Adventure has no Roles: claim a chapter condition.", ADVENTURE)
        if verb == "claim" and state.rules.mode != "adventure":
            refuse("no_chapter", "Only Adventure chapters have win conditions to claim.",
                   SKIRMISH)
        if verb in ANYONE_HANDLERS:
            if state.turn.deploying and verb not in ("adjust",):
                refuse("deploying", f"{state.turn.leader} is deploying; during a deploy no "
                       "abilities are played or activated.", SETUP, "step 7")
            return ANYONE_HANDLERS[verb](state, action, events)
        self._is_current(state, action)
        if state.turn.deploying:
            if verb not in DEPLOY_VERBS:
                refuse("deploying", "Complete your deploy (mulligan, deploy units, ready) "
                       "first.", DEFEAT, "respawn then complete a deploy")
            return SETUP_HANDLERS[verb][1](state, action, events)
        if verb not in TURN_HANDLERS:
            refuse("not_deploying", f"{verb} belongs to a deploy.", SETUP, "step 7")
        return TURN_HANDLERS[verb](state, action, events)

    def _is_current(self, state: State, action: Action) -> None:
        current = self.current_actor(state)
        if action.actor != current:
            refuse("not_your_turn", f"It is {current}'s turn, not {action.actor}'s.",
                   SETUP if state.phase == "setup" else TURN, turn=current, player=action.actor)

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
        return parse_line(text, _names(state.rules))

    def describe_event(self, event: Event) -> str:
        """One short line per event."""
        data = event.data
        texts = {
            "turn_order": lambda: "turn order: " + ", ".join(data["order"]),
            "turn_changed": lambda: f"{data['leader']}'s turn",
            "round_changed": lambda: f"round {data['round']}",
            "dice_locked": lambda: f"{data['leader']} locks {' '.join(data['faces'])}",
            "health_changed": lambda: f"{data.get('unit') or data['leader']} Health "
                                      f"{data['old']} -> {data['new']}",
            "unit_destroyed": lambda: f"{data['leader']}'s {data['unit']} is destroyed"
                                      + (f" (with {', '.join(data['attached'])})"
                                         if data["attached"] else ""),
            "nothing_healed": lambda: f"{data['asset']} has no damage to heal: nothing "
                                      "healed",
            "turn_lost": lambda: f"{data['leader']} loses this turn (defeated, 8.6)",
            "timeline_card_destroyed": lambda: f"{data['leader']}'s timeline card "
                                               f"{data['card']} is destroyed",
            "timeline_over_limit": lambda: data["detail"],
            "card_discarded": lambda: f"{data['leader']} discards {data['card']}",
            "card_stolen": lambda: f"{data['leader']} steals {data['as']} from {data['from']}",
            "card_attached": lambda: f"{data['card']} is attached to {data['asset']}",
            "forced_move": lambda: f"{data['leader']} is moved {data['from']} -> {data['to']}",
            "canceled": lambda: f"{data['leader']} cancels {data['card']} ({data['effect']})",
            "defeat": lambda: data["detail"],
            "respawn": lambda: f"{data['leader']} respawns in {data['tile']}",
            "points_scored": lambda: f"{data['leader']} scores {data['points']} "
                                     f"(total {data['total']})",
            "game_over": lambda: f"game over (decided by {data['tiebreaker']})",
            "victory": lambda: data["detail"],
        }
        if event.kind in texts:
            return str(texts[event.kind]())
        return super().describe_event(event)

    # -- serialisation ---------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, Any]:
        """The whole state (rules included) as JSON data."""
        data: dict[str, Any] = to_json(state)
        return data

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`state_to_json` output."""
        state: State = from_json(State, data)
        return state


_NAME_CACHE: list[tuple[Rules, dict[str, str]]] = []


def _names(rules: Rules) -> dict[str, str]:
    """Lower-case lookup of every name of the setup (cached for the last setup seen)."""
    if _NAME_CACHE and _NAME_CACHE[0][0] is rules:
        return _NAME_CACHE[0][1]
    names = [*rules.players, *(c.id for c in rules.cards), *(t.id for t in rules.tiles),
             *(r.id for r in rules.roles), *(lead.id for lead in rules.leaders),
             *rules.factions()]
    if rules.chapter:
        names.extend(c.id for c in rules.chapter.conditions)
    table = canonical_names(names)
    _NAME_CACHE[:] = [(rules, table)]
    return table


__all__ = ["DefianceGame", "NotationError"]
