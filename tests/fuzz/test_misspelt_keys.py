"""Every keyword of every shipped setup file, misspelt once, is refused naming it.

Issue 14: "Misspelled keys are silently accepted in Defiance data (``copise``, ``trak_max``,
``wals``: a deck silently loses a card), Infinity army-level keys, and the 401 board
(``nmae``). Refuse unknown keys everywhere ..., naming the key and the closest valid one."
Not a sample: each distinct key of each file (its first occurrence) gets its last letter
doubled, as a hasty typist does.
"""

from __future__ import annotations

import re

import pytest

from companion.games.core import SetupError
from tests.fuzz.targets import SetupCase, _load_setup, setup_cases
from tests.fuzz.test_fuzz import NAMES_NOT_KEYWORDS

KEY = re.compile(r"^(\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*=)", re.MULTILINE)


def _misspellings() -> list[tuple[SetupCase, str, str]]:
    found = []
    for case in setup_cases():
        seen: set[str] = set()
        for match in KEY.finditer(case.text):
            key = match.group(2)
            if key in seen or key in NAMES_NOT_KEYWORDS.get(case.name, set()):
                continue
            seen.add(key)
            wrong = key + key[-1]
            text = case.text[:match.start(2)] + wrong + case.text[match.end(2):]
            found.append((case, key, text))  # refused naming the misspelt or the missing key
    return found


MISSPELLINGS = _misspellings()


def test_there_are_keys_of_every_game_to_misspell() -> None:
    games = {case.game for case, _, _ in MISSPELLINGS}
    assert games == {"infinifield", "infinidungeon", "401", "infinity", "defiance"}
    assert len(MISSPELLINGS) > 100


@pytest.mark.parametrize("game", ["infinifield", "infinidungeon", "401", "infinity", "defiance"])
def test_each_misspelt_keyword_is_refused_naming_it(game: str) -> None:
    accepted = []
    for case, key, text in MISSPELLINGS:
        if case.game != game:
            continue
        wrong = key + key[-1]
        try:
            _load_setup(case, text)
        except SetupError as error:
            if wrong not in str(error) and key not in str(error):
                accepted.append(f"{case.name}: {wrong}: refused naming neither: {error}")
            continue
        accepted.append(f"{case.name}: {key} -> {wrong} accepted")
    assert accepted == []
