"""The examples in the core modules' docstrings run and print what they claim."""

from __future__ import annotations

import doctest
import importlib

import pytest

CORE_MODULES = ["companion.games.core", "companion.games.datafile", "companion.games.registry",
                "companion.journal", "companion.events", "companion.session", "companion.resources",
                "companion.cli.referee"]


@pytest.mark.parametrize("name", CORE_MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0
