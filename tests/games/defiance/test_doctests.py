"""The examples in the Defiance engine's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import companion.games.defiance as package

MODULES = sorted(f"{package.__name__}.{info.name}"
                 for info in pkgutil.iter_modules(package.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
