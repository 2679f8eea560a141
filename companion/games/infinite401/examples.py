"""A small position for docstring examples: the example board and a copy of the default cards.

The rules package reads no files, so the examples carry their data as text.

Example:
    >>> example_state().to_move
    'blue'
"""

from __future__ import annotations

from companion.games.infinite401.actions import Flip, Shuffle
from companion.games.infinite401.board import EXAMPLE_TOML
from companion.games.infinite401.state import State

EXAMPLE_CARDS_TOML = """
# The default 401 Infinite ability cards and passives (docs/401-infinite.md "Card files").
# Both sides' decks hold the same cards. Ranges are drawn as the card's owner sees the board:
# S is the source, x a space in range, "up" is toward the opponent.

[[abilities]]
name = "Serration"
type = "attack"
text = "Deal 1 Damage to the target. It is Slowed."
range = '''
. . x . .
. x x x .
. x x x .
. . S . .
'''
effects = [{ damage = 1 }, { status = "slowed" }]

[[abilities]]
name = "Chainbind"
type = "attack"
text = "Pull the target next to the source. It is Grounded."
range = '''
. . . x . . .
. . . x . . .
. . . x . . .
x x x S x x x
. . . x . . .
'''
effects = [{ place = "target", at = "adjacent", of = "source" }, { status = "grounded" }]

[[abilities]]
name = "Strike"
type = "attack"
text = "Deal 2 Damage to the target."
range = '''
. x .
x S x
. x .
'''
effects = [{ damage = 2 }]

[[abilities]]
name = "Shockwave"
type = "attack"
text = "Deal 1 Damage to the target and push it 2 spaces away from the source."
range = '''
x x x
x S x
x x x
'''
effects = [{ damage = 1 }, { move = "target", to = "away", of = "source", spaces = 2 }]

[[abilities]]
name = "Lunge"
type = "attack"
text = "The source moves 1 space toward the target, then deals 1 Damage to it."
range = '''
x
x
.
S
'''
effects = [{ move = "source", to = "toward", of = "target", spaces = 1 }, { damage = 1 }]

[[abilities]]
name = "Guard"
type = "defense"
self_targetable = true
text = "The target gains Shield 2."
range = '''
. . x . .
. x x x .
x x S x x
. x x x .
. . x . .
'''
effects = [{ shield = 2 }]

[[abilities]]
name = "Escort"
type = "defense"
text = "Place the target in front of the source. It gains Shield 1."
range = '''
. . . x . . .
. . x x x . .
. x x x x x .
x x x S x x x
. x x x x x .
. . x x x . .
. . . x . . .
'''
effects = [{ place = "target", at = "in-front", of = "source" }, { shield = 1 }]

[[abilities]]
name = "Fallback"
type = "defense"
self_targetable = true
text = "The target steps back 1 space and is Untargetable."
range = '''
. x .
x S x
. x .
'''
effects = [{ place = "target", at = "behind", of = "target" }, { status = "untargetable" }]

[[abilities]]
name = "Hex"
type = "utility"
target_colour = "opponent"
targets = 1
text = "The target is Silenced."
effects = [{ status = "silenced" }]

[[abilities]]
name = "Snare"
type = "utility"
target_colour = "opponent"
targets = 1
text = "The target is Stunned."
effects = [{ status = "stunned" }]

[[abilities]]
name = "Smokescreen"
type = "utility"
target_colour = "own"
targets = 2
text = "Up to 2 of your units are Untargetable."
effects = [{ status = "untargetable" }]

[[passives]]
name = "Fleetfoot"
text = "Your Movement actions may move a unit up to 5 spaces."
movement_bonus = 1

[[passives]]
name = "Vitality"
text = "When one of your units collects the HP Token it gains 2 HP instead of 1 (max 3)."
token_bonus = 1

[[passives]]
name = "Bulwark"
text = "At the start of your turn your weakest unit (fewest HP) gains Shield 1 for one rotation."
effects = [{ shield = 1 }]
"""
"""The default card set (``cards/default.toml``) as text."""


def example_state() -> State:
    """Blue to play its first turn on the 5x5 example board.

    Blue's hand is Guard, Strike, Chainbind, Escort; Red's is Serration, Hex, Shockwave, Snare.
    """
    from companion.games.infinite401.game import GAME

    setup = GAME.load_setup({"board": ("example", EXAMPLE_TOML),
                             "cards": ("example cards", EXAMPLE_CARDS_TOML)}, {})
    state = GAME.initial_state(setup)
    hands = {"blue": ("Guard", "Strike", "Chainbind", "Escort"),
             "red": ("Serration", "Hex", "Shockwave", "Snare")}
    for side, hand in hands.items():
        rest = tuple(c for c in state.side_cards(side).stack if c not in hand)
        state = GAME.apply(state, Shuffle(side, hand + rest)).state
    return GAME.apply(state, Flip("blue")).state
