"""The shared test kit bound to Infinifield, and the builders only these tests need."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from companion.games.infinifield import GAME
from companion.games.infinifield.field import Block, Field, build_field
from companion.games.infinifield.flow import initial_state
from companion.games.infinifield.state import MatchRules, State
from companion.resources import shipped_sources
from tests.games import kit

PACKAGE = "companion.games.infinifield"

play = partial(kit.play, GAME)
"""``play(state, *texts) -> (state, events)``: apply actions written in notation."""
kinds = kit.kinds
"""The kinds of some events, in order."""
refusal = partial(kit.refusal, GAME)
"""``refusal(state, text)``: the :class:`IllegalAction` an action gets."""
notation_error = partial(kit.notation_error, GAME)
"""``notation_error(state, text)``: the :class:`NotationError` of text that is no action."""


def shipped(name: str) -> dict[str, tuple[str, str]]:
    """The sources of a shipped field file (``quickstart``, ``official``...)."""
    return shipped_sources(PACKAGE, {"setup": f"fields/{name}.toml"})


def explicit_field(colours: dict[str, str], touching: Sequence[tuple[str, str]],
                   rests_on: dict[str, tuple[str, ...]] | None = None) -> Field:
    """A field without footprints: ids -> colours, and the touching pairs."""
    rests_on = rests_on or {}
    return build_field([Block(block_id, colour, rests_on=rests_on.get(block_id, ()))
                        for block_id, colour in colours.items()], touching)


def row(*specs: str, pitch: float = 40.0) -> list[Block]:
    """Square 40 mm blocks in a row, ``pitch`` mm apart: specs like ``"W1:white"``."""
    blocks = []
    for i, spec in enumerate(specs):
        block_id, colour = spec.split(":")
        blocks.append(Block.square(block_id, colour, (i * pitch, 0.0)))
    return blocks


def new_state(field: Field, players: Sequence[str] = ("Ann", "Ben"), builder: str = "Ann",
              scoring: str = "points", rounds: int | None = 1,
              target: int | None = None) -> State:
    """Round 1 of a match on ``field``."""
    rules = MatchRules(tuple(players), "quickstart", scoring, rounds, target)
    return initial_state(field, rules, builder)
