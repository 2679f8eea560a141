"""The examples in the dice modules' docstrings run and print what they claim."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["vision.readers.dice", "vision.devtools.dice_data", "vision.readers.dice_detect",
           "vision.readers.dice_reader",
           "vision.readers.dice_tray", "vision.readers.tray", "vision.devtools.dice_scoring",
           "vision.devtools.dice_synth", "companion.app.camera_dice"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0
