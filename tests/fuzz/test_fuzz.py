"""Seeded fuzzing of everything the companion reads: zero tracebacks, zero lost records.

Issue 14, "Bad input: a clear error every time, never a traceback": "Add the fuzz harness
that found these to the suite (seeded, bounded to a minute in CI; a longer run in bench/):
every setup file of every game, records, journals, settings, serial frames; zero tracebacks,
zero lost records." Each target below runs a fixed number of seeded inputs (about a minute
in all on two cores); ``bench/fuzz_marathon.py`` runs the same targets for longer.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator

import pytest

from hardware.pins import PinMapError, pins_from_text
from tests.fuzz.targets import TARGETS, setup_cases

COUNTS = {"setup_files": 1200, "cli_setup": 300, "app_files": 1200, "records": 250,
          "journals": 700, "serial": 3000}
"""Inputs per target in CI (the whole module stays near a minute on two cores)."""


@pytest.fixture(autouse=True)
def _quiet_logs() -> Iterator[None]:
    """The readers log every reset settings file; thousands of lines help nobody here."""
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


def test_every_game_and_every_data_role_is_fuzzed() -> None:
    cases = setup_cases()
    assert {case.game for case in cases} == {"infinifield", "infinidungeon", "401", "infinity",
                                            "defiance"}
    roles = {(case.game, case.role) for case in cases}
    assert {("401", "board"), ("401", "cards"), ("infinity", "profiles"),
            ("defiance", "leaders"), ("defiance", "chapters")} <= roles
    assert len(cases) >= 15


@pytest.mark.parametrize("target", list(COUNTS))
def test_no_input_gives_a_traceback_or_loses_a_record(target: str) -> None:
    report = TARGETS[target](random.Random(f"ci/{target}"), COUNTS[target])
    assert report.inputs == COUNTS[target]
    assert report.refused > 0, "the mutants must reach the error paths"
    assert report.accepted > 0, "some mutants must still be accepted"
    problems = [f"{f.case}: {f.problem}" for f in report.findings[:5]]
    assert problems == [], f"{len(report.findings)} finding(s), first: {problems}"


def test_a_pin_map_nested_thousands_deep_is_a_clear_error() -> None:
    with pytest.raises(PinMapError):
        pins_from_text("[ring]\np1 = " + "[" * 5000 + "]" * 5000, "pins.toml")


NAMES_NOT_KEYWORDS = {
    "companion.games.defiance/data/games/skirmish-teams.toml": {"dawn", "dusk"},
    "companion.games.infinite401/boards/default.toml": {"B1", "B2", "B3", "R1", "R2", "R3"},
}
"""Keys that are names the players chose (Defiance's teams, 401's units): renaming one makes
another team or unit, not a misspelt keyword."""


def test_a_misspelt_key_is_never_accepted_silently() -> None:
    """Issue 14: "Refuse unknown keys everywhere ... naming the key and the closest valid
    one"; a setup file with one key misspelt loads only where the key was a chosen name."""
    report = TARGETS["setup_files"](random.Random("ci/misspelt"), 800)
    assert report.misspelt >= 90
    silent = []
    for entry in report.misspelt_accepted:
        name, _, change = entry.partition(": ")
        key = change.split(" -> ")[0].strip("'").split("=")[0].strip()
        if key not in NAMES_NOT_KEYWORDS.get(name, set()):
            silent.append(entry)
    assert silent == []
