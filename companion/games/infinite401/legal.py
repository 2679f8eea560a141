"""Listing every legal action of a position, fast (see ``bench/infinite401_legal.py``).

Moves come from one breadth-first search per unit; ability targets from the card's range
offsets, the straight lines from a cached table of crossed spaces, and only cards with
positionals are resolved in full to find the unplayable ones.

Example:
    >>> from companion.games.infinite401.examples import example_state
    >>> [str(a) for a in legal_actions(example_state())][:2]
    ['cycle blue Chainbind', 'cycle blue Escort']
"""

from __future__ import annotations

from itertools import combinations, permutations

from companion.games.core import IllegalAction
from companion.games.infinite401.actions import (
    Action,
    ChooseDeck,
    ChooseHand,
    Cycle,
    End,
    Flip,
    Move,
    Play,
    Shuffle,
)
from companion.games.infinite401.board import SIDES, other_side
from companion.games.infinite401.effects import resolve
from companion.games.infinite401.geometry import line_cells
from companion.games.infinite401.movement import destinations
from companion.games.infinite401.runners import score_actions
from companion.games.infinite401.setup import DECK_SIZE
from companion.games.infinite401.state import HAND_SIZE, Phase, State


def legal_actions(state: State) -> list[Action]:
    """Every legal action of ``state``, sorted by notation text (no game-over check)."""
    actions: list[Action]
    if state.steps:
        actions = _setup_actions(state)
    elif state.runners:
        actions = score_actions(state)
    else:
        side = state.to_move
        actions = [End(side)]
        if state.actions_left:
            hand = state.side_cards(side).hand
            actions.extend(Cycle(side, card) for card in hand)
            actions.extend(move_actions(state, side))
            actions.extend(play_actions(state, side))
    return sorted(actions, key=str)


def move_actions(state: State, side: str) -> list[Move]:
    """Every Movement action of ``side``: one per unit and reachable destination.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> str(move_actions(example_state(), "blue")[0])
        'move blue B1 a1'
    """
    moves: list[Move] = []
    for unit in state.living(side):
        if "stunned" in state.statuses(unit.name):
            continue
        moves.extend(Move(side, unit.name, dest) for dest in destinations(state, unit))
    return moves


def play_actions(state: State, side: str) -> list[Play]:
    """Every playable ability of ``side``'s hand with every valid source and target set.

    Example:
        >>> from companion.games.infinite401.examples import example_state
        >>> [str(p) for p in play_actions(example_state(), "blue")][:2]
        ['play blue Guard B1 -> B1', 'play blue Guard B1 -> B2']
    """
    cards = state.setup.cards
    board = state.setup.board
    own = state.living(side)
    opponents = state.living(other_side(side))
    statuses = {u.name: state.statuses(u.name) for u in (*own, *opponents)}
    blockers = set(board.walls) | {u.space for u in opponents}
    plays: list[Play] = []
    for name in state.side_cards(side).hand:
        card = cards.ability(name)
        if card.type == "utility":
            pool = [u.name for u in (opponents if card.hostile else own)
                    if not (card.hostile and "untargetable" in statuses[u.name])]
            for count in range(1, card.targets + 1):
                plays.extend(Play(side, card.name, "", group)
                             for group in combinations(pool, count))
            continue
        positional = any(e.moves_a_unit for e in card.effects)
        forward = board.forward(side)
        for source in own:
            used = statuses[source.name]
            if source.name in state.sources_used or "stunned" in used or "silenced" in used \
                    or ("grounded" in used and card.moves_source):
                continue
            assert source.space is not None
            c, r = source.space
            in_range = {(c + dc * forward, r + dr * forward) for dc, dr in card.range}
            for target in (opponents if card.hostile else own):
                if target.name == source.name:
                    if not card.self_targetable:
                        continue
                elif target.space not in in_range or (
                        card.hostile and "untargetable" in statuses[target.name]) or any(
                        cell in blockers for cell in line_cells(source.space, target.space)):
                    continue
                play = Play(side, card.name, source.name, (target.name,))
                if positional:
                    try:
                        resolve(state, play, card)
                    except IllegalAction:
                        continue
                plays.append(play)
    return plays


def _setup_actions(state: State) -> list[Action]:
    step = state.steps[0]
    cards = state.setup.cards
    if step.phase is Phase.FLIP:
        return [Flip(side) for side in SIDES]
    side = step.side
    mine = state.side_cards(side)
    if step.phase is Phase.SHUFFLE:
        if len(mine.stack) > HAND_SIZE:
            return []
        return [Shuffle(side, order) for order in permutations(mine.stack)]
    if step.phase is Phase.DECK:
        return [ChooseDeck(side, chosen, passive)
                for chosen in combinations(cards.deck(side), DECK_SIZE)
                for passive in cards.passives_of(side)]
    return [ChooseHand(side, chosen) for chosen in combinations(mine.deck, HAND_SIZE)]
