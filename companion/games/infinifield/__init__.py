"""Infinifield: the field model, field-building checks and the referee engine.

Public API for the vision pipeline and the app:

- :class:`~companion.games.infinifield.field.Block`, :class:`~.field.Field`,
  :func:`~.field.build_field` (touching from geometry, or explicit);
- :func:`~companion.games.infinifield.fieldfile.load_field_text` (a field TOML file).
"""

from companion.games.infinifield.field import (
    COLOURS,
    Block,
    Field,
    FieldError,
    build_field,
)
from companion.games.infinifield.fieldfile import FieldFile, load_field_text

__all__ = ["COLOURS", "Block", "Field", "FieldError", "FieldFile", "build_field",
           "load_field_text"]
