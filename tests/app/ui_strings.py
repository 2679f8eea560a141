"""Every string the app can put on the screen, gathered for the glyph test.

- every string literal in the app's code and ``.kv`` rules;
- each catalogue template in every language (the ``{fields}`` left out: they are filled
  with the strings below);
- the translated data names (``companion/app/names.py``);
- what the referee generates: seeded random playouts of every game the app can start, from
  every layout, collect each legal action's notation, each event line (the engine's English
  and the catalogue's Spanish and Russian), each outcome, and the refusals of actions that
  were legal earlier but are not now (English and translated).
"""

from __future__ import annotations

import ast
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.app.game_setups import SETUPS
from companion.app.i18n import LANGUAGES, catalogue
from companion.app.names import all_names
from companion.app.verdict_text import events_line, refusal_text
from companion.games.core import IllegalAction
from companion.games.registry import load_game

APP_DIR = Path(__file__).resolve().parents[2] / "companion" / "app"
PLAYOUT_SEEDS = (0, 1)
MAX_STEPS = 250


def template_text(template: str) -> str:
    """A catalogue template without its ``{fields}``.

    Example:
        >>> template_text("{player} to play")
        ' to play'
    """
    return "".join(literal for literal, *_rest in string.Formatter().parse(template))


def catalogue_strings() -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every template of every language."""
    for lang in LANGUAGES:
        for key, template in catalogue(lang).items():
            yield f"{lang}.json {key}", template_text(template)


def generated_strings() -> Iterator[tuple[str, str]]:
    """``(where, text)`` for what the engines and the catalogue word during play."""
    for name, spec in SETUPS.items():
        game = load_game(name)
        yield f"{name} title", game.title
        for layout in spec.layouts:
            yield f"{name} layout", layout
            for option, values in spec.choices.items():
                yield f"{name} option {option}", " ".join(map(str, values))
            options = spec.build_options(None, layout)
            setup = game.load_setup(spec.sources(layout), options)
            for seed in PLAYOUT_SEEDS:
                yield from _playout(game, setup, random.Random(seed), f"{name}/{layout}/{seed}")


def _playout(game: Any, setup: Any, rng: random.Random, where: str) -> Iterator[tuple[str, str]]:
    state = game.initial_state(setup)
    seen: list[Any] = []
    for _step in range(MAX_STEPS):
        outcome = game.outcome(state)
        if outcome is not None:
            yield f"{where} outcome", f"{outcome.detail} {outcome.termination}"
            return
        if game.is_chance(state):
            action = game.sample_chance(state, rng)
        else:
            legal = list(game.legal_actions(state))
            texts = {game.format_action(a) for a in legal}
            for text in texts:
                yield f"{where} action", text
            illegal = [a for a in seen if game.format_action(a) not in texts]
            for candidate in rng.sample(illegal, min(3, len(illegal))):
                try:
                    game.apply(state, candidate)
                except IllegalAction as refusal:
                    yield f"{where} refusal", refusal.reason
                    for lang in LANGUAGES:
                        yield f"{where} refusal {lang}", refusal_text(
                            lang, game.name, refusal.code, refusal.params, refusal.reason)
            action = rng.choice(legal)
            if action not in seen:
                seen.append(action)
        transition = game.apply(state, action)
        for lang in LANGUAGES:
            yield f"{where} events {lang}", events_line(lang, game.name, transition.events,
                                                        game.describe_event)
        state = transition.state


def names_strings() -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every translated data name."""
    yield from all_names()


def source_literals() -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every string literal in the app's Python and ``.kv`` files (the
    marks and symbols the screens draw themselves, such as an eliminated player's cross)."""
    for path in sorted(APP_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield f"{path.name}:{node.lineno}", node.value
    for path in sorted(APP_DIR.rglob("*.kv")):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            for literal in re.findall(r"'([^']*)'|\"([^\"]*)\"", line):
                yield f"{path.name}:{number}", "".join(literal)


def every_ui_string() -> Iterator[tuple[str, str]]:
    """All of the above."""
    yield from source_literals()
    yield from catalogue_strings()
    yield from names_strings()
    yield from generated_strings()
