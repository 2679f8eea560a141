"""Infinifield actions, one dataclass per verb, and their text notation (``docs/infinifield.md``).

=============================  ============================================================
``start Ben W1``               Ben places his pawn on white block W1 (starting position)
``move Ben W1 Y1``             Ben moves his pawn from W1 to Y1 (a capture if a pawn is there)
``remove Ben W2``              Ben, who put the counter on X, removes block W2
``rebuild Cat``                Cat, the new field builder, laid out the same field again
``rebuild Cat {...}``          Cat laid out a new field: the field file's data as JSON
=============================  ============================================================

A new field comes from a field file (``rebuild Cat my-field.toml``, read when the line is
read), the app or the camera (``Rebuild("Cat", field)``); the journal keeps it written out in
full, as JSON, so a match replays without the file.

Input is case-insensitive; :func:`str` prints names and ids as written in the setup, and
:func:`parse_action` reads it back.

Example:
    >>> str(Move("Ben", "W1", "Y1"))
    'move Ben W1 Y1'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.core import NotationError, SetupError
from companion.games.datafile import load_json
from companion.games.infinifield.field import Field
from companion.games.infinifield.fieldfile import field_file_data, load_field_data
from companion.games.infinifield.state import State


@dataclass(frozen=True)
class Start:
    """A player places their pawn on a white block to start the round."""

    player: str
    block: str

    def __str__(self) -> str:
        return f"start {self.player} {self.block}"


@dataclass(frozen=True)
class Move:
    """A player moves their pawn from ``origin`` to the touching block ``target``."""

    player: str
    origin: str
    target: str

    def __str__(self) -> str:
        return f"move {self.player} {self.origin} {self.target}"


@dataclass(frozen=True)
class Remove:
    """The player who put the turn counter on X removes ``block``."""

    player: str
    block: str

    def __str__(self) -> str:
        return f"remove {self.player} {self.block}"


@dataclass(frozen=True)
class Rebuild:
    """The new field builder has laid out the field for the next round.

    Attributes:
        player: the new field builder.
        field: the field as newly laid out, or ``None`` for the same layout as before.
    """

    player: str
    field: Field | None = None

    def __str__(self) -> str:
        if self.field is None:
            return f"rebuild {self.player}"
        data = json.dumps(field_file_data(self.field), separators=(",", ":"))
        return f"rebuild {self.player} {data}"


Action = Start | Move | Remove | Rebuild

VERBS: Mapping[str, tuple[type, int, str]] = {
    "start": (Start, 2, "start PLAYER WHITE-BLOCK"),
    "move": (Move, 3, "move PLAYER FROM-BLOCK TO-BLOCK"),
    "remove": (Remove, 2, "remove PLAYER BLOCK"),
    "rebuild": (Rebuild, 1, "rebuild PLAYER [FIELD-JSON]"),
}


def parse_action(state: State, text: str) -> Action:
    """Read one action, case-insensitively, naming players and blocks as in the setup.

    Raises:
        NotationError: an unknown verb, a wrong number of words, or a name that is not a
            player or a block of this field.

    Example:
        >>> from companion.games.infinifield.field import Block, build_field
        >>> from companion.games.infinifield.state import MatchRules, Phase
        >>> field = build_field([Block("W1", "white"), Block("Y1", "yellow")], [("W1", "Y1")])
        >>> state = State(MatchRules(("Ann", "Ben"), "quickstart", "points", 1), field, 1,
        ...               "Ann", Phase.START, "Ben")
        >>> parse_action(state, "MOVE ben w1 y1")
        Move(player='Ben', origin='W1', target='Y1')
    """
    words = text.split()
    if not words:
        raise NotationError(text, "the line is empty")
    verb = words[0].lower()
    if verb not in VERBS:
        raise NotationError(text, f"unknown verb {words[0]!r}; expected one of "
                                  f"{', '.join(VERBS)}")
    kind, arity, usage = VERBS[verb]
    if verb == "rebuild" and len(words) > 2:
        return _rebuild_with_field(state, text)
    if len(words) != arity + 1:
        raise NotationError(text, f"expected {usage}")
    players = {name.lower(): name for name in state.rules.players}
    player = players.get(words[1].lower())
    if player is None:
        raise NotationError(text, f"{words[1]!r} is not a player; the players are "
                                  f"{', '.join(state.rules.players)}")
    blocks = []
    for word in words[2:]:
        block = state.field.canonical.get(word.lower())
        if block is None:
            raise NotationError(text, f"{word!r} is not a block of this field")
        blocks.append(block)
    action: Action = kind(player, *blocks)
    return action


def _rebuild_with_field(state: State, text: str) -> Rebuild:
    """``rebuild PLAYER {...}``: the new field written out as the field file's data in JSON.

    The rules read no files: the command line turns ``rebuild PLAYER FIELD.toml`` into this
    form (:func:`companion.cli.infinifield.inline_field_file`), and the app and the camera
    hand the engine a :class:`Rebuild` with the field itself.
    """
    _, name, written = text.strip().split(maxsplit=2)
    players = {player.lower(): player for player in state.rules.players}
    player = players.get(name.lower())
    if player is None:
        raise NotationError(text, f"{name!r} is not a player; the players are "
                                  f"{', '.join(state.rules.players)}")
    if not written.startswith("{"):
        raise NotationError(text, "write the new field as the field file's data in JSON "
                                  "({...}); the command line also reads a .toml field file "
                                  "named here")
    try:
        field = load_field_data("the new field", load_json("the new field", written)).field
    except SetupError as error:
        raise NotationError(text, str(error)) from None
    return Rebuild(player, field)


