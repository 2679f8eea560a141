"""The deck checker: does a deck file agree with everything the rulebook states?

It reports *every* inconsistency it finds, each with the card and side, so a player who
copied a printed deck by hand can fix them all in one pass.

Example:
    >>> from companion.resources import shipped_text
    >>> from companion.games.infinidungeon.setup import deck_from_toml
    >>> deck = deck_from_toml("default", shipped_text("companion.games.infinidungeon",
    ...                                               "decks/default.toml"))
    >>> check_deck(deck)
    []
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.infinidungeon.deck import (
    ADVANCED,
    BASIC,
    FIGHT_KINDS,
    Card,
    Deck,
    Side,
)

ROOM_CARDS = 8
CRYSTAL_ROOMS = 4


@dataclass(frozen=True)
class DeckProblem:
    """One inconsistency: where it is and what the rulebook says.

    Attributes:
        card: the card id (empty for the deck as a whole).
        side: ``basic``/``advanced`` (empty for the card or deck as a whole).
        problem: one sentence.
        rule: the rulebook section it contradicts.
    """

    card: str
    side: str
    problem: str
    rule: str

    def __str__(self) -> str:
        where = "deck" if not self.card else self.card + (f" ({self.side})" if self.side else "")
        return f"{where}: {self.problem} [infinidungeon: \"{self.rule}\"]"


def check_deck(deck: Deck) -> list[DeckProblem]:
    """Every way ``deck`` disagrees with the rulebook, in card order (empty when consistent).

    Example:
        >>> from companion.games.infinidungeon.deck import Card, Side
        >>> lone = Card("hall", "Hall", Side("sun", "empty", ()), entrance=True)
        >>> [p.problem.split(":")[0] for p in check_deck(Deck("x", (lone,)))][:1]
        ['the game has 9 cards']
    """
    problems: list[DeckProblem] = []
    problems += _check_counts(deck)
    symbols = {side.symbol for card in deck.cards for side in _sides(card)}
    for card in deck.cards:
        for side_name, side in _named_sides(card):
            problems += _check_side(card, side_name, side, symbols)
    problems += _check_contents(deck)
    return problems


def _sides(card: Card) -> list[Side]:
    return [side for _, side in _named_sides(card)]


def _named_sides(card: Card) -> list[tuple[str, Side]]:
    sides = [(BASIC, card.basic)]
    if card.advanced is not None:
        sides.append((ADVANCED, card.advanced))
    return sides


def _check_counts(deck: Deck) -> list[DeckProblem]:
    problems = []
    if len(deck.cards) != ROOM_CARDS + 1:
        problems.append(DeckProblem("", "", f"the game has 9 cards: the Entrance and 8 rooms "
                                            f"(this deck has {len(deck.cards)})", "Introduction"))
    entrances = [card for card in deck.cards if card.entrance]
    if len(entrances) != 1:
        problems.append(DeckProblem("", "", "exactly one card must be marked entrance = true "
                                            f"(found {len(entrances)})", "Introduction"))
    for card in deck.rooms:
        if card.advanced is None:
            problems.append(DeckProblem(card.id, "", "a room card needs both a Basic and an "
                                                     "Advanced side", "Flipping Rooms"))
    for card in entrances:
        if card.basic.kind != "empty" or card.basic.crystal:
            problems.append(DeckProblem(card.id, BASIC, "the Entrance should hold no monsters, "
                                                        "pool, vault or crystal", "Introduction"))
    return problems


def _check_side(card: Card, side_name: str, side: Side, symbols: set[str]) -> list[DeckProblem]:
    problems = []

    def report(problem: str, rule: str) -> None:
        problems.append(DeckProblem(card.id, side_name, problem, rule))

    if not side.doorways:
        report("the side has no doorway, so a player in it could never move on", "Moving Room")
    for direction, doorway in side.doorways:
        for symbol in doorway.symbols:
            if symbol not in symbols:
                report(f"the {direction} doorway shows {symbol!r}, a symbol no room carries",
                       "Moving Room")
    fights = side.kind in FIGHT_KINDS
    if fights and not side.monsters:
        report(f"a {side.kind.replace('_', ' ')} side needs at least one monster",
               "Facing the Room")
    if not fights and side.monsters:
        report(f"a {side.kind.replace('_', ' ')} side holds no monsters, yet monsters are listed",
               "Facing the Room")
    bosses = [m for m in side.monsters if m.boss]
    if side.kind == "boss" and len(bosses) != 1:
        report("a boss room has exactly one monster marked boss = true", "Facing the Room")
    if side.kind != "boss" and bosses:
        report("only the boss room holds the boss (boss = true)", "Facing the Room")
    if side.crystal and side_name == ADVANCED:
        report("a crystal sits on the Advanced side, but only a Basic side can flip",
               "Flipping Rooms")
    if side.crystal and not fights:
        report("a crystal room is flipped by defeating its monsters, but this side has none",
               "Flipping Rooms")
    if side.crystal and side_name == BASIC and card.advanced is not None \
            and not (card.advanced.kind in FIGHT_KINDS and card.advanced.monsters):
        report("a crystal flip means you \"continue, fighting the new monsters who have "
               "appeared\", but the Advanced side of this crystal room holds no monsters",
               "Flipping Rooms")
    if side.kind == "boss" and side_name == BASIC:
        report("the boss is on a Basic side, but flipping rooms is the only way to reach it",
               "Flipping Rooms")
    return problems


def _check_contents(deck: Deck) -> list[DeckProblem]:
    problems = []
    crystals = [card for card in deck.rooms if card.basic.crystal]
    if len(crystals) != CRYSTAL_ROOMS:
        problems.append(DeckProblem("", "", f"there must be exactly four crystal rooms "
                                            f"(found {len(crystals)})", "Flipping Rooms"))
    kinds = [side.kind for card in deck.cards for side in _sides(card)]
    for kind, label in (("boss", "boss room"), ("healing_pool", "healing pool"),
                        ("treasure_vault", "treasure vault"), ("monsters", "monster room")):
        if kind not in kinds:
            problems.append(DeckProblem("", "", f"the deck has no {label}", "Facing the Room"))
    return problems
