"""The one conformance test every game engine runs through (OpenSpiel style).

For each game's declared setups: seeded random playouts to the end in which every listed
legal action applies, sampled illegal actions are refused with a reason code, sentence and
rule, notation round-trips, state serialisation round-trips, and replaying the record (also
through a journal and a resumed session) reproduces the final state.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import random
from pathlib import Path
from typing import Any

import pytest

from companion.games.core import Event, IllegalAction
from companion.session import Session
from tests.games.conformance_kit import ConformanceCase

GAMES_DIR = Path(__file__).parent


def _discover() -> list[ConformanceCase]:
    cases: list[ConformanceCase] = []
    for info in pkgutil.iter_modules([str(GAMES_DIR)]):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"tests.games.{info.name}.conformance")
        except ModuleNotFoundError as error:
            if error.name == f"tests.games.{info.name}.conformance":
                continue
            raise
        cases.extend(module.CASES)
    return cases


CASES = _discover()


def _roundtrip_notation(game: Any, state: Any, action: Any) -> None:
    text = game.format_action(action)
    assert game.parse_action(state, text) == action, f"notation does not round-trip: {text!r}"


def _assert_refused(game: Any, state: Any, action: Any) -> None:
    with pytest.raises(IllegalAction) as refusal:
        game.apply(state, action)
    error = refusal.value
    assert error.code and error.reason and str(error.rule), f"refusal of {action} lacks a field"
    assert error.rule.game == game.rulebook, f"{error.rule} does not cite {game.rulebook!r}"


def _play(case: ConformanceCase, seed: int) -> tuple[Any, list[Any], list[str]]:
    game = case.game
    rng = random.Random(seed)
    setup = game.load_setup(case.sources, case.options)
    state = game.initial_state(setup)
    actions: list[Any] = []
    seen: list[Any] = []
    for step in range(case.max_actions):
        if game.outcome(state) is not None:
            break
        if game.is_chance(state):
            action = game.sample_chance(state, rng)
        else:
            legal = list(game.legal_actions(state))
            assert legal, f"no legal action and no outcome at step {step}"
            assert legal == list(game.legal_actions(state)), "legal_actions not deterministic"
            texts = [game.format_action(a) for a in legal]
            assert len(set(texts)) == len(texts), "legal_actions lists an action twice"
            assert texts == sorted(texts), "legal_actions is not sorted"
            tried = legal if case.check_every_legal else rng.sample(legal, min(25, len(legal)))
            for candidate in tried:
                game.apply(state, candidate)
                _roundtrip_notation(game, state, candidate)
            legal_texts = set(texts)
            pool = case.illegal_samples(state, seen) if case.illegal_samples else seen
            illegal = [a for a in pool if game.format_action(a) not in legal_texts]
            for candidate in rng.sample(illegal, min(5, len(illegal))):
                _assert_refused(game, state, candidate)
            action = rng.choice(legal)
        _roundtrip_notation(game, state, action)
        transition = game.apply(state, action)
        for event in transition.events:
            assert isinstance(event, Event)
            json.dumps(event.to_json())
        state = transition.state
        actions.append(action)
        if action not in seen:
            seen.append(action)
        if step % 7 == 0:
            data = json.loads(json.dumps(game.state_to_json(state)))
            assert game.state_from_json(data) == state, "state JSON does not round-trip"
    else:
        pytest.fail(f"playout with seed {seed} did not end within {case.max_actions} actions")
    assert game.outcome(state) is not None
    return state, actions, [game.format_action(a) for a in actions]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.game.name}-{c.name}" for c in CASES])
def test_random_playouts_follow_the_contract(case: ConformanceCase, tmp_path: Path) -> None:
    game = case.game
    for seed in range(case.playouts):
        final, actions, texts = _play(case, seed)
        setup = game.load_setup(case.sources, case.options)
        assert game.replay(setup, actions) == final, "replaying the record changed the state"
        data = json.loads(json.dumps(game.state_to_json(final)))
        assert game.state_from_json(data) == final
        if seed < 3:
            journal = tmp_path / f"{case.name}-{seed}.journal"
            with Session.new(game, case.sources, case.options, seed=seed,
                             journal_path=journal) as session:
                for text in texts:
                    assert session.propose(text).legal
            with Session.resume(journal) as resumed:
                assert resumed.state == final
                assert resumed.history == texts


def test_every_engine_in_the_registry_has_conformance_cases() -> None:
    from companion.games.registry import GAME_MODULES, available_games

    shipped = {name for name in available_games()
               if GAME_MODULES[name].startswith("companion.games.")}
    covered = {case.game.name for case in CASES}
    assert shipped >= {"infinifield", "infinidungeon", "401", "infinity", "defiance"}
    assert shipped <= covered, "a game engine is missing from conformance"
