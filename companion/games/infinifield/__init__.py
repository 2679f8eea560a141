"""Infinifield: the field model, field-building checks and the referee engine.

Public API for the vision pipeline and the app:

- :class:`~.field.Block`, :class:`~.field.Field`, :func:`~.field.build_field` (touching from
  geometry with the tolerances of :mod:`~.contacts`, or explicit);
- :func:`~.fieldfile.load_field_text` (a field TOML file);
- :func:`~.checks.check_field` (every violation of the quick-start or official rules);
- :func:`~.removal.removable_blocks` / :func:`~.removal.removal_refusals` (which blocks may
  be removed, and why not);
- :data:`GAME`, the referee engine.
"""

from companion.games.infinifield.checks import MODES, Violation, check_field
from companion.games.infinifield.field import (
    COLOURS,
    Block,
    Field,
    FieldError,
    build_field,
)
from companion.games.infinifield.fieldfile import FieldFile, load_field_text
from companion.games.infinifield.game import GAME, Infinifield
from companion.games.infinifield.removal import removable_blocks, removal_refusals

__all__ = ["COLOURS", "GAME", "MODES", "Block", "Field", "FieldError", "FieldFile",
           "Infinifield", "Violation", "build_field", "check_field", "load_field_text",
           "removable_blocks", "removal_refusals"]
