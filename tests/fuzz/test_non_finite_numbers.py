"""Every number of every shipped setup file, replaced by NaN or infinity, is refused.

Issue 14: "NaN or infinity in an Infinifield block's ``at``/``block_size`` (and anywhere a
number is read) crashes". Not a sample: each distinct numeric value of each file (by what
precedes it on its line) becomes ``nan`` and ``inf`` in turn; each must be a clear
SetupError, never accepted and never a traceback.
"""

from __future__ import annotations

import re

import pytest

from companion.games.core import SetupError
from tests.fuzz.targets import SetupCase, _load_setup, setup_cases

NUMBER = re.compile(r"(?<![\w.\"-])(-?\d+(?:\.\d+)?)(?![\w.\"])")


def _replacements() -> list[tuple[SetupCase, str, str]]:
    """``(case, what was replaced, text)`` for each number of each file, NaN and infinity."""
    found = []
    for case in setup_cases():
        lines = case.text.split("\n")
        seen: set[str] = set()
        for at, line in enumerate(lines):
            code = line.split("#", 1)[0]
            for match in NUMBER.finditer(code):
                before = code[:match.start()]
                if before.count('"') % 2 or before.strip() in seen:
                    continue  # inside a string, or this key's number is done already
                seen.add(before.strip())
                for bad in ("nan", "inf"):
                    changed = list(lines)
                    changed[at] = before + bad + code[match.end():]
                    found.append((case, f"line {at + 1}: {line.strip()[:50]} -> {bad}",
                                  "\n".join(changed)))
    return found


REPLACEMENTS = _replacements()


@pytest.mark.parametrize("game", ["infinifield", "infinidungeon", "401", "infinity", "defiance"])
def test_nan_and_infinity_anywhere_are_refused(game: str) -> None:
    cases = [(case, what, text) for case, what, text in REPLACEMENTS if case.game == game]
    assert len(cases) >= 6
    accepted = []
    for case, what, text in cases:
        try:
            _load_setup(case, text)
        except SetupError:
            continue
        accepted.append(f"{case.name}: {what}")
    assert accepted == []
