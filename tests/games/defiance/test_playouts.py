"""Long seeded playouts with a fighting policy (no conceding or Role claims), so defeat,
respawn, discovery, flips and the round limit all happen; every listed action must apply."""

from __future__ import annotations

import json
import random
from collections import Counter

from companion.games.core import IllegalAction
from tests.games.defiance.helpers import GAME, rules

QUIET = ("concede", "score", "progress", "claim", "gambit")


def _policy(legal, rng):
    """Check Power, lock, attack whenever possible, else play, move or flip; end last."""
    by_verb: dict[str, list] = {}
    for action in legal:
        if action.verb not in QUIET:
            by_verb.setdefault(action.verb, []).append(action)
    for verb in ("damage", "destroy"):
        if verb in by_verb:
            return rng.choice(by_verb[verb])
    if "check" in by_verb:
        power = [a for a in by_verb["check"] if a.attribute == "power"]
        return power[0] if rng.random() < 0.6 else rng.choice(by_verb["check"])
    if "lock" in by_verb:
        return by_verb["lock"][0]
    if "deploy" in by_verb:
        return rng.choice(by_verb["deploy"])
    busy = [a for verb in ("play", "move", "flip", "prepare", "cycle")
            for a in by_verb.get(verb, [])]
    if busy:
        return rng.choice(busy)
    return rng.choice([a for a in legal if a.verb not in QUIET] or legal)


def _playout(setup: str, seed: int):
    rng = random.Random(seed)
    loaded = rules(setup)
    state = GAME.initial_state(loaded)
    seen: Counter[str] = Counter()
    record = []
    for _ in range(5000):
        if GAME.outcome(state) is not None:
            break
        if GAME.is_chance(state):
            action = GAME.sample_chance(state, rng)
        else:
            legal = GAME.legal_actions(state)
            for candidate in rng.sample(list(legal), min(8, len(legal))):
                GAME.apply(state, candidate)  # every listed action applies
            action = _policy(legal, rng)
        transition = GAME.apply(state, action)
        seen.update(event.kind for event in transition.events)
        seen[action.verb] += 1
        record.append(action)
        state = transition.state
    return loaded, state, seen, record


def test_fighting_playouts_reach_the_end_and_replay_exactly():
    """infinities-defiance-of-fate.md "1.1.1 - Object of the Game" (the game ends at the end
    of round 10 at the latest), "8.6 - Defeat and Respawn", "6. Movement"."""
    totals: Counter[str] = Counter()
    for seed in (1, 2, 5):
        loaded, final, seen, record = _playout("data/games/skirmish.toml", seed)
        outcome = GAME.outcome(final)
        assert outcome is not None
        assert outcome.termination in ("round_limit", "last_standing", "points_target")
        assert GAME.replay(loaded, record) == final
        assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(final)))) == final
        totals.update(seen)
    for kind in ("dice_locked", "health_changed", "defeat", "respawn", "round_changed",
                 "turn_order", "game_over", "victory"):
        assert totals[kind] > 0, f"no {kind} in the playouts"
    for verb in ("move", "flip", "damage", "play", "prepare", "cycle", "destroy"):
        assert totals[verb] > 0, f"no {verb} in the playouts"


def test_refused_actions_carry_a_code_sentence_and_rule():
    """docs/engine-contract.md: an illegal action gets its reason code, a sentence and the
    rulebook section."""
    _, final, _, record = _playout("data/games/quickplay.toml", 7)
    refused = 0
    for action in record[-30:]:
        try:
            GAME.apply(final, action)
        except IllegalAction as error:
            refused += 1
            assert error.code and error.reason.endswith(".")
            assert str(error.rule).startswith("infinities-defiance-of-fate")
    assert refused > 0
