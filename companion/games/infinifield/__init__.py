"""Infinifield: the field model, the field-building rules and the referee engine.

Public API for the vision pipeline and the app:

- :class:`~.field.Block`, :class:`~.field.Field`, :func:`~.field.build_field` (touching from
  geometry with the tolerances of :mod:`~.contacts`, or explicit);
- :func:`~.fieldfile.load_field_text` (a field TOML file) and
  :func:`~.fieldfile.field_toml_text` (a field written as one);
- :func:`~.field_rules.check_field` (every violation of the quick-start or official rules);
- :func:`~.removal.removable_blocks` / :func:`~.removal.removal_refusals` (which blocks may
  be removed, and why not);
- :data:`GAME`, the referee engine.

Modules (the layout every game follows, ``docs/engine-contract.md``):

- ``game.py``: :class:`~.game.InfinifieldGame`, dispatch only, and :data:`GAME`;
- ``state.py``: the match rules and state, :class:`~.state.Phase`;
- ``actions.py``: one dataclass per verb and ``parse_action``;
- ``setup.py``: the field file and the options in, a setup out;
- ``rulebook.py``: ``RULEBOOK``, the cited sections, ``Refusal`` and ``Termination``;
- ``info.py``: ``INFO``, the game's facts (players, options, shipped fields);
- then one module per concern: ``geometry.py`` (polygons), ``blocks.py`` (one block),
  ``contacts.py`` (which blocks touch), ``field.py`` (the field model), ``fieldfile.py``
  (the field TOML format), ``field_rules.py`` (field-building rules), ``removal.py``
  (which blocks may be removed), ``flow.py`` (turns: starts, moves, captures, the counter)
  ``scoring.py`` (rounds, scores, the end of the match) and ``describe.py`` (a line per
  event).
"""

from companion.games.infinifield.blocks import BLOCK_SET
from companion.games.infinifield.field import (
    COLOURS,
    Block,
    Field,
    FieldError,
    build_field,
)
from companion.games.infinifield.field_rules import MODES, Violation, check_field
from companion.games.infinifield.fieldfile import FieldFile, field_toml_text, load_field_text
from companion.games.infinifield.game import GAME, InfinifieldGame
from companion.games.infinifield.removal import removable_blocks, removal_refusals

__all__ = ["BLOCK_SET", "COLOURS", "GAME", "MODES", "Block", "Field", "FieldError", "FieldFile",
           "InfinifieldGame", "Violation", "build_field", "check_field", "field_toml_text",
           "load_field_text",
           "removable_blocks", "removal_refusals"]
