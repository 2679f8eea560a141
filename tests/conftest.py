"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from companion.games import registry

# CI runs every property test from a fixed seed, so a red run is the code's doing and can be
# rerun as it was; a developer's run explores new examples each time (and keeps failures).
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def countdown_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Let Session.resume find the small test game ``countdown`` for one test."""
    monkeypatch.setitem(registry.GAME_MODULES, "countdown", "tests.support.countdown")
    yield
