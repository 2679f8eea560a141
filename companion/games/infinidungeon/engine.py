"""The Infinidungeon referee: the engine contract of ``companion.games.core``.

Example:
    >>> import random
    >>> from companion.resources import shipped_sources
    >>> sources = shipped_sources("companion.games.infinidungeon",
    ...                           {"deck": "decks/default.toml"})
    >>> state = GAME.initial_state(GAME.load_setup(sources, {}))
    >>> state = GAME.apply(state, GAME.sample_chance(state, random.Random(1))).state
    >>> [str(action) for action in GAME.legal_actions(state)]
    ['go east', 'go north', 'go south', 'go west']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING, Any

from companion.games.core import CHANCE, Event, Game, Outcome, SetupError, Transition
from companion.games.infinidungeon import rooms
from companion.games.infinidungeon.combat import assignments, check_assignment
from companion.games.infinidungeon.deck import BASIC, Deck
from companion.games.infinidungeon.deck_toml import deck_from_toml
from companion.games.infinidungeon.movement import check_direction, open_directions, trap_losses
from companion.games.infinidungeon.notation import (
    Action,
    Assign,
    Go,
    Reroll,
    Roll,
    Shuffle,
    Vault,
    parse_action,
)
from companion.games.infinidungeon.rulebook import (
    FLIPPING,
    INTRODUCTION,
    MONSTER_ROOM,
    MOVING_TRAP,
    TREASURE_VAULT,
    TURN_ORDER,
    WINNING,
    refuse,
)
from companion.games.infinidungeon.rulebook import dice as count_dice
from companion.games.infinidungeon.state import (
    ASSIGN,
    CHANCE_PHASES,
    FIGHT_REROLL,
    FIGHT_REROLLING,
    FIGHT_ROLL,
    MOVE,
    OVER,
    RESHUFFLE,
    SHUFFLE,
    TRAP_REROLL,
    TRAP_REROLLING,
    TRAP_ROLL,
    VAULT,
    DungeonState,
    state_from_json,
    state_to_json,
)

if TYPE_CHECKING:  # pragma: no cover
    import random

_AWAITING = {
    SHUFFLE: "the room deck to be shuffled (`shuffle ...` or `roll`)",
    MOVE: "a doorway to be chosen (`go north`...)",
    TRAP_ROLL: "the trap's roll of every die (`roll ...`)",
    TRAP_REROLL: "the choice of dice to reroll at the trap (`reroll 1 2` or `reroll none`)",
    TRAP_REROLLING: "the values of the rerolled dice (`roll ...`)",
    VAULT: "the choice to use the treasure vault (`use vault` or `skip vault`)",
    FIGHT_ROLL: "the roll of every die against the monsters (`roll ...`)",
    FIGHT_REROLL: "the choice of dice to reroll (`reroll 1 2` or `reroll none`)",
    FIGHT_REROLLING: "the values of the rerolled dice (`roll ...`)",
    ASSIGN: "dice to be assigned to the monsters (`assign 4:goblin ...`)",
    RESHUFFLE: "the flipped room deck to be shuffled (`shuffle ...` or `roll`)",
}


class Infinidungeon(Game[Deck, DungeonState, Action]):
    """The solo dungeon of ``infinidungeon.md``, refereed rule by rule."""

    name = "infinidungeon"
    title = "Infinidungeon"
    rulebook = "infinidungeon.md"

    # -- setup -----------------------------------------------------------------------------
    def load_setup(self, sources: Mapping[str, tuple[str, str]],
                   options: Mapping[str, Any]) -> Deck:
        """Read the room deck from ``sources["deck"]`` (TOML).

        Raises:
            SetupError: no deck given, or the deck file is malformed.
        """
        if "deck" not in sources:
            raise SetupError("sources", "deck", "an Infinidungeon game needs a room deck")
        for key in options:
            raise SetupError("options", key, "unknown option; an Infinidungeon game takes no "
                             "options (the room deck decides everything)")
        name, text = sources["deck"]
        return deck_from_toml(name, text)

    def initial_state(self, setup: Deck) -> DungeonState:
        """In the Entrance with five dice, the room deck waiting to be shuffled."""
        return DungeonState(setup, SHUFFLE, room=(setup.entrance.id, BASIC))

    # -- flow ------------------------------------------------------------------------------
    def current_actor(self, state: DungeonState) -> str | None:
        """``chance`` for rolls and shuffles, ``player`` otherwise, ``None`` once over."""
        if state.phase == OVER:
            return None
        return CHANCE if state.phase in CHANCE_PHASES else rooms.PLAYER

    def sample_chance(self, state: DungeonState, rng: random.Random) -> Action:
        """Shuffle the deck or roll the awaited dice with ``rng``."""
        if state.phase in (SHUFFLE, RESHUFFLE):
            cards = [card.id for card in state.deck.rooms] if state.phase == SHUFFLE \
                else [card for card, _ in state.pile]
            rng.shuffle(cards)
            return Shuffle(tuple(cards))
        if state.phase in (TRAP_ROLL, FIGHT_ROLL):
            return Roll(tuple(rng.randint(1, 6) for _ in range(state.dice)))
        if state.phase in (TRAP_REROLLING, FIGHT_REROLLING):
            return Roll(tuple(rng.randint(1, 6) for _ in state.rerolling))
        return super().sample_chance(state, rng)

    def legal_actions(self, state: DungeonState) -> Sequence[Action]:
        """The player's choices, sorted by notation; empty at rolls and shuffles."""
        actions: list[Action] = []
        if state.phase == MOVE:
            actions = [Go(direction) for direction in open_directions(state)]
        elif state.phase in (TRAP_REROLL, FIGHT_REROLL):
            positions = range(1, len(state.rolled) + 1)
            actions = [Reroll(())]
            actions += [Reroll(chosen) for size in positions
                        for chosen in combinations(positions, size)]
        elif state.phase == ASSIGN:
            actions = [Assign(pairs) for pairs in assignments(state.side.monsters,
                                                              state.rolled)]
        elif state.phase == VAULT:
            actions = [Vault(True), Vault(False)]
        return sorted(actions, key=str)

    def apply(self, state: DungeonState, action: Action) -> Transition[DungeonState]:
        """Apply ``action``; every refusal names its rule (see ``rulebook.py``)."""
        if state.phase == OVER:
            refuse("game_over", f"The game is over: {state.detail}", WINNING)
        if isinstance(action, Shuffle):
            next_state, events = self._shuffle(state, action)
        elif isinstance(action, Roll):
            next_state, events = self._roll(state, action)
        elif isinstance(action, Go):
            next_state, events = self._go(state, action)
        elif isinstance(action, Reroll):
            next_state, events = self._reroll(state, action)
        elif isinstance(action, Assign):
            next_state, events = self._assign(state, action)
        elif isinstance(action, Vault):
            self._expect(state, (VAULT,), action)
            next_state, events = rooms.use_vault(state, action.use)
        else:
            raise TypeError(f"not an Infinidungeon action: {action!r}")
        return Transition(next_state, tuple(events))

    def outcome(self, state: DungeonState) -> Outcome | None:
        """Victory on defeating the boss; defeat on losing the last die (or a dead end)."""
        if state.result == "":
            return None
        winners = (rooms.PLAYER,) if state.result == "victory" else ()
        return Outcome(winners, state.termination, state.detail)

    # -- one method per kind of action -----------------------------------------------------
    def _expect(self, state: DungeonState, phases: tuple[str, ...], action: Action) -> None:
        if state.phase not in phases:
            refuse("out_of_turn", f"`{action}` is not possible now: the game is waiting for "
                   f"{_AWAITING[state.phase]}.", TURN_ORDER, phase=state.phase)

    def _shuffle(self, state: DungeonState, action: Shuffle) -> rooms.Step:
        self._expect(state, (SHUFFLE, RESHUFFLE), action)
        expected = sorted(card.id for card in state.deck.rooms) if state.phase == SHUFFLE \
            else sorted(card for card, _ in state.pile)
        if sorted(action.order) != expected:
            rule = INTRODUCTION if state.phase == SHUFFLE else FLIPPING
            refuse("wrong_cards", "The shuffle must list each card of the room deck once: "
                   f"{' '.join(expected)}.", rule, cards=expected)
        if state.phase == RESHUFFLE:
            return rooms.reshuffled(state, action.order)
        pile = tuple((card, BASIC) for card in action.order)
        return rooms.face_room(replace(state, pile=pile))

    def _roll(self, state: DungeonState, action: Roll) -> rooms.Step:
        self._expect(state, (TRAP_ROLL, FIGHT_ROLL, TRAP_REROLLING, FIGHT_REROLLING), action)
        rule = MOVING_TRAP if state.phase.startswith("trap") else MONSTER_ROOM
        if state.phase in (TRAP_ROLL, FIGHT_ROLL):
            if len(action.values) != state.dice:
                refuse("wrong_dice_count", f"Roll all of your available dice: {state.dice}, "
                       f"not {len(action.values)}.", rule, dice=state.dice,
                       given=len(action.values))
            phase = TRAP_REROLL if state.phase == TRAP_ROLL else FIGHT_REROLL
            return replace(state, phase=phase, rolled=action.values), []
        if len(action.values) != len(state.rerolling):
            refuse("wrong_dice_count", f"{count_dice(len(state.rerolling))} "
                   f"{'is' if len(state.rerolling) == 1 else 'are'} being rerolled, "
                   f"not {len(action.values)}.", rule, dice=len(state.rerolling),
                   given=len(action.values))
        return self._rerolled(state, state.rerolling, action.values)

    def _go(self, state: DungeonState, action: Go) -> rooms.Step:
        self._expect(state, (MOVE,), action)
        doorway = check_direction(state, action.direction)
        if doorway.trap is None:
            return rooms.enter_room(state, action.direction)
        event = Event("trap_sprung", {"room": state.room[0], "doorway": action.direction,
                                      "face": doorway.trap})
        return replace(state, phase=TRAP_ROLL, heading=action.direction), [event]

    def _reroll(self, state: DungeonState, action: Reroll) -> rooms.Step:
        if state.phase == ASSIGN:
            refuse("already_rerolled", "The dice were already rerolled once; assign them now.",
                   MONSTER_ROOM)
        self._expect(state, (TRAP_REROLL, FIGHT_REROLL), action)
        rule = MOVING_TRAP if state.phase == TRAP_REROLL else MONSTER_ROOM
        for position in action.positions:
            if position > len(state.rolled):
                refuse("no_such_die", f"There is no die {position}: {len(state.rolled)} dice "
                       "were rolled.", rule, position=position,
                       rolled=len(state.rolled))
        if not action.positions:
            return self._rerolled(state, (), ())
        if action.values is None:
            phase = TRAP_REROLLING if state.phase == TRAP_REROLL else FIGHT_REROLLING
            return replace(state, phase=phase, rerolling=action.positions), []
        return self._rerolled(state, action.positions, action.values)

    def _rerolled(self, state: DungeonState, positions: tuple[int, ...],
                  values: tuple[int, ...]) -> rooms.Step:
        dice = list(state.rolled)
        for position, value in zip(positions, values, strict=True):
            dice[position - 1] = value
        state = replace(state, rolled=tuple(dice), rerolling=())
        if state.phase in (FIGHT_REROLL, FIGHT_REROLLING):
            return replace(state, phase=ASSIGN), []
        doorway = state.side.doorway(state.heading)
        assert doorway is not None and doorway.trap is not None
        lost = trap_losses(state.rolled, doorway.trap)
        state, events = rooms.lose_dice(state, lost, "at a trap")
        following, more = rooms.enter_room(state, state.heading)
        return following, events + more

    def _assign(self, state: DungeonState, action: Assign) -> rooms.Step:
        self._expect(state, (ASSIGN,), action)
        if check_assignment(state.side.monsters, state.rolled, action.pairs):
            return rooms.monsters_defeated(state)
        state, events = rooms.lose_dice(state, 1, "to the monsters")
        if state.phase == OVER:
            return state, events
        following, more = rooms.await_move(state)
        return following, events + more

    # -- notation and serialisation --------------------------------------------------------
    def parse_action(self, state: DungeonState, text: str) -> Action:
        """Read one action (see :mod:`companion.games.infinidungeon.notation`)."""
        return parse_action(state, text)

    def describe_event(self, event: Event) -> str:
        """One short English line for an event."""
        data = event.data
        texts = {
            "trap_sprung": lambda: f"trap! roll every die, lose those below {data['face']}",
            "die_lost": lambda: f"lost {data['count']} di{'e' if data['count'] == 1 else 'ce'}"
                                f" ({data['dice']} left)",
            "die_regained": lambda: f"regained {data['count']} di"
                                    f"{'e' if data['count'] == 1 else 'ce'} ({data['dice']} now)",
            "room_flipped": lambda: f"{data['card']} flips to its {data['side']} side",
            "crystal": lambda: f"crystal {data['count']} of 4",
            "deck_reshuffled": lambda: "deck reshuffled, Advanced sides down: "
                                       + " ".join(data["cards"]),
            "victory": lambda: f"VICTORY: {data['detail']}",
            "defeat": lambda: f"DEFEAT: {data['detail']}",
        }
        if event.kind in texts:
            return texts[event.kind]()
        return super().describe_event(event)

    def state_to_json(self, state: DungeonState) -> dict[str, Any]:
        """The state as JSON-ready data (the deck included)."""
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> DungeonState:
        """Rebuild a state from :meth:`state_to_json` output."""
        return state_from_json(data)


GAME = Infinidungeon()

__all__ = ["GAME", "TREASURE_VAULT", "Infinidungeon"]
