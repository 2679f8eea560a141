"""401 Infinite actions and their notation (``docs/401-infinite.md`` "Notation").

A line is a verb, the side that acts, then its arguments::

    move red R1 c5              # Movement to c5 by any path of at most 4 steps
    move red R1 c3 c4 c5        # Movement along this path (the spaces entered, in order)
    play red Serration R1 -> B2 # an Attack/Defense card: source -> target
    play blue Smokescreen -> B1 B3   # a Utility card: its targets
    cycle blue Chainbind
    end red
    score red R1 d9 B2          # Runner's Rule: R1 back to d9, B2 loses 1 HP
    shuffle red Guard Strike ...     # chance: the stack's new order, top first
    flip blue                   # chance: the coin says Blue goes first
    deck red A B C D E F G H passive Bulwark   # Competitor's Start choices
    hand red A B C D

Example:
    >>> str(Play("red", "Serration", "R1", ("B2",)))
    'play red Serration R1 -> B2'
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.core import NotationError
from companion.games.infinite401.board import SIDES, Space, parse_space, space_name
from companion.games.infinite401.state import State


@dataclass(frozen=True)
class Move:
    """A Movement action: ``unit`` goes to ``destination``, along ``path`` if given."""

    side: str
    unit: str
    destination: Space
    path: tuple[Space, ...] = ()

    def __str__(self) -> str:
        spaces = self.path or (self.destination,)
        return f"move {self.side} {self.unit} {' '.join(space_name(s) for s in spaces)}"


@dataclass(frozen=True)
class Play:
    """An Ability action: play ``card`` from ``source`` (empty for Utility) onto ``targets``."""

    side: str
    card: str
    source: str
    targets: tuple[str, ...]

    def __str__(self) -> str:
        source = f" {self.source}" if self.source else ""
        return f"play {self.side} {self.card}{source} -> {' '.join(self.targets)}"


@dataclass(frozen=True)
class Cycle:
    """An Ability action: put ``card`` at the bottom of the Stack and draw a new one."""

    side: str
    card: str

    def __str__(self) -> str:
        return f"cycle {self.side} {self.card}"


@dataclass(frozen=True)
class End:
    """End the turn (draw back up to 4)."""

    side: str

    def __str__(self) -> str:
        return f"end {self.side}"


@dataclass(frozen=True)
class Score:
    """Runner's Rule: ``unit`` goes back to ``space`` of its own base; ``target`` loses 1 HP."""

    side: str
    unit: str
    space: Space
    target: str

    def __str__(self) -> str:
        return f"score {self.side} {self.unit} {space_name(self.space)} {self.target}"


@dataclass(frozen=True)
class Shuffle:
    """Chance: ``side``'s stack is shuffled into ``order`` (top first)."""

    side: str
    order: tuple[str, ...]

    def __str__(self) -> str:
        return f"shuffle {self.side} {' '.join(self.order)}"


@dataclass(frozen=True)
class Flip:
    """Chance: the coin flip gives the first turn to ``side``."""

    side: str

    def __str__(self) -> str:
        return f"flip {self.side}"


@dataclass(frozen=True)
class ChooseDeck:
    """Competitor's Start: ``side`` selects 8 ability cards and 1 passive (card-file order)."""

    side: str
    cards: tuple[str, ...]
    passive: str

    def __str__(self) -> str:
        return f"deck {self.side} {' '.join(self.cards)} passive {self.passive}"


@dataclass(frozen=True)
class ChooseHand:
    """Competitor's Start: ``side`` selects its starting hand of 4 (deck order)."""

    side: str
    cards: tuple[str, ...]

    def __str__(self) -> str:
        return f"hand {self.side} {' '.join(self.cards)}"


Action = Move | Play | Cycle | End | Score | Shuffle | Flip | ChooseDeck | ChooseHand
VERBS = ("move", "play", "cycle", "end", "score", "shuffle", "flip", "deck", "hand")


def parse_action(state: State, text: str) -> Action:
    """Read one action (case-insensitive); names come back as the setup files spell them.

    Raises:
        NotationError: the text is not a 401 Infinite action.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> parse_action(example_state(), "MOVE blue b1 C2 c3")
        Move(side='blue', unit='B1', destination=(2, 2), path=((2, 1), (2, 2)))
        >>> str(parse_action(example_state(), "play blue Guard B1->B2"))
        'play blue Guard B1 -> B2'

    """
    words = text.replace("->", " -> ").split()
    if len(words) < 2:
        raise NotationError(text, "expected a verb and a side, e.g. 'end red'")
    verb, side = words[0].lower(), words[1].lower()
    if verb not in VERBS:
        raise NotationError(text, f"unknown verb {words[0]!r}; expected one of "
                            f"{', '.join(VERBS)}")
    if side not in SIDES:
        raise NotationError(text, f"{words[1]!r} is not a side (blue or red)")
    reader = _Reader(state, text)
    args = words[2:]
    if verb == "move":
        return reader.move(side, args)
    if verb == "play":
        return reader.play(side, args)
    if verb == "score":
        if len(args) != 3:
            raise NotationError(text, "expected 'score SIDE UNIT SPACE TARGET'")
        return Score(side, reader.unit(args[0]), reader.space(args[1]), reader.unit(args[2]))
    if verb in ("end", "flip"):
        if args:
            raise NotationError(text, f"'{verb}' takes only the side")
        return End(side) if verb == "end" else Flip(side)
    if verb == "cycle":
        if len(args) != 1:
            raise NotationError(text, "expected 'cycle SIDE CARD'")
        return Cycle(side, reader.card(args[0]))
    if verb == "shuffle":
        return Shuffle(side, tuple(reader.card(a) for a in args))
    cards = reader.card_order(args if verb == "hand" else _before_passive(text, args))
    if verb == "hand":
        return ChooseHand(side, cards)
    return ChooseDeck(side, cards, reader.passive(args[-1]))


def _before_passive(text: str, args: list[str]) -> list[str]:
    if len(args) < 2 or args[-2].lower() != "passive":
        raise NotationError(text, "expected 'deck SIDE CARD... passive PASSIVE'")
    return args[:-2]


class _Reader:
    """Reads names against the state, case-insensitively."""

    def __init__(self, state: State, text: str) -> None:
        self.state = state
        self.text = text

    def unit(self, word: str) -> str:
        for unit in self.state.units:
            if unit.name.lower() == word.lower():
                return unit.name
        names = ", ".join(u.name for u in self.state.units)
        raise NotationError(self.text, f"{word!r} is not a unit ({names})")

    def space(self, word: str) -> Space:
        space = parse_space(word)
        if space is None or not self.state.setup.board.on_board(space):
            raise NotationError(self.text, f"{word!r} is not a space of the board")
        return space

    def card(self, word: str) -> str:
        try:
            return self.state.setup.cards.ability(word).name
        except KeyError:
            raise NotationError(self.text, f"{word!r} is not an ability card") from None

    def passive(self, word: str) -> str:
        try:
            return self.state.setup.cards.passive(word).name
        except KeyError:
            raise NotationError(self.text, f"{word!r} is not a passive") from None

    def card_order(self, words: list[str]) -> tuple[str, ...]:
        names = [self.card(w) for w in words]
        order = [card.name for card in self.state.setup.cards.abilities]
        return tuple(sorted(names, key=order.index))

    def move(self, side: str, args: list[str]) -> Move:
        if not args:
            raise NotationError(self.text, "expected 'move SIDE UNIT SPACE...'")
        unit = self.unit(args[0])
        spaces = [self.space(a) for a in args[1:]]
        if not spaces:
            raise NotationError(self.text, "a move names the destination (or the path)")
        here = self.state.unit(unit).space
        if len(spaces) > 1 and spaces[0] == here:
            spaces = spaces[1:]
        if len(spaces) == 1:
            return Move(side, unit, spaces[0])
        return Move(side, unit, spaces[-1], tuple(spaces))

    def play(self, side: str, args: list[str]) -> Play:
        if "->" not in args:
            raise NotationError(self.text, "expected 'play SIDE CARD [SOURCE] -> TARGET...'")
        arrow = args.index("->")
        before, after = args[:arrow], args[arrow + 1:]
        if not 1 <= len(before) <= 2 or not after:
            raise NotationError(self.text, "expected 'play SIDE CARD [SOURCE] -> TARGET...'")
        card = self.card(before[0])
        source = self.unit(before[1]) if len(before) == 2 else ""
        targets = [self.unit(a) for a in after]
        if len(set(targets)) != len(targets):
            raise NotationError(self.text, "a target is named twice")
        order = [u.name for u in self.state.units]
        return Play(side, card, source, tuple(sorted(targets, key=order.index)))
