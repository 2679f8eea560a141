"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.games import registry


@pytest.fixture
def countdown_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Let Session.resume find the small test game ``countdown`` for one test."""
    monkeypatch.setitem(registry.GAME_MODULES, "countdown", "tests.support.countdown")
    yield
