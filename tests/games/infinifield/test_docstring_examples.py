"""The examples in the Infinifield modules' docstrings are true (they document the rules).

Rulebook: infinifield.md, the sections each module's examples illustrate (field, checks,
removal, turn flow, scoring); docs/infinifield.md for notation and formats.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion.games.infinifield as package

MODULES = sorted(f"{package.__name__}.{info.name}"
                 for info in pkgutil.iter_modules(package.__path__))


@pytest.mark.parametrize("name", [*MODULES, "companion.cli.infinifield"])
def test_docstring_examples_hold(name: str) -> None:
    """infinifield.md (all sections): every documented example gives the printed answer."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} docstring example(s) failed"
