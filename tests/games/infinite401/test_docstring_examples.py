"""The examples in the 401 Infinite modules' docstrings run and print what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion.games.infinite401 as package

MODULES = sorted(f"{package.__name__}.{info.name}" for info in pkgutil.iter_modules(
    package.__path__))


@pytest.mark.parametrize("name", [*MODULES, package.__name__, "companion.cli.infinite401"])
def test_docstring_examples(name: str) -> None:
    """docs/engine-contract.md: public functions carry a short example; each one is true."""
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
