"""The referee's own words (refusal sentences, event lines) in the players' language.

Engines word their refusals and events in English. Each refusal also carries a stable
``code`` and the ``params`` its sentence mentions; each event has a ``kind`` and its
``data``. The catalogues (``companion/app/locales/{lang}.json``) may hold a template for
them:

- ``refusal.<game>.<code>``: a refusal, formatted with the verdict's params;
- ``event.<game>.<kind>``: an event line, formatted with the event's data;
- ``term.<game>.<param>.<value>``: a word an engine passes as the value of ``param``
  (``direction`` ``north``, ``colour`` ``red``), used in its place when it fills a template.

When the current language has no template, or a template names a value the params do not
carry, the engine's English sentence is shown instead: never a blank and never a raw key.
No Kivy here: the banner and the log call these functions.

Example:
    >>> refusal_text("es", "infinifield", "not_adjacent",
    ...              {"origin": "W1", "target": "R2"}, "R2 does not touch W1; ...")
    'R2 no toca W1: una ficha solo se mueve a un bloque que toque aquel en el que está.'
    >>> refusal_text("es", "infinifield", "no_such_code", {}, "The English sentence.")
    'The English sentence.'
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.app.i18n import catalogue
from companion.games.core import Event

REFUSAL_PREFIX = "refusal"
EVENT_PREFIX = "event"
TERM_PREFIX = "term"
GAME_TEXT_PREFIXES = (REFUSAL_PREFIX, EVENT_PREFIX, TERM_PREFIX)
"""Catalogue namespaces for the engines' words: optional per language (English falls back
to the engine's own sentence)."""
COMPANION = "companion"
"""The owner of refusals and events any game can give (undo, nothing waiting for a roll):
``refusal.companion.<code>`` and ``event.companion.<kind>`` are used when the game has no
template of its own."""


def placeholders(template: str) -> set[str]:
    """The names a template's ``{fields}`` use (the part before any ``.``, ``[`` or ``!``).

    Example:
        >>> sorted(placeholders("{player} moves to {block}"))
        ['block', 'player']
    """
    names: set[str] = set()
    for _text, field, _spec, _conversion in string.Formatter().parse(template):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names


def render_value(value: Any, table: Mapping[str, str], game: str, name: str) -> Any:
    """Param ``name`` as a template shows it: lists joined, words through ``term.*``.

    Numbers stay numbers, so a template may give them a format (``{distance:g}``).

    Example:
        >>> render_value(["W1", "Y2"], {}, "infinifield", "blocks")
        'W1, Y2'
        >>> render_value("north", {"term.infinidungeon.direction.north": "norte"},
        ...              "infinidungeon", "direction")
        'norte'
        >>> "{d:g}".format(d=render_value(8.0, {}, "infinity", "d"))
        '8'
    """
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(str(render_value(item, table, game, name)) for item in value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value  # numbers stay numbers, so a template may write {distance:g}
    text = str(value)
    return table.get(f"{TERM_PREFIX}.{game}.{name}.{text}", text)


def fill(template: str, params: Mapping[str, Any], lang: str, game: str) -> str | None:
    """``template`` filled with ``params``, or ``None`` when a placeholder has no value.

    Example:
        >>> fill("{block} no es blanco", {"block": "R1"}, "es", "infinifield")
        'R1 no es blanco'
        >>> fill("{block} y {colour}", {"block": "R1"}, "es", "infinifield") is None
        True
    """
    if not placeholders(template) <= set(params):
        return None
    table = catalogue(lang)
    values = {name: render_value(value, table, game, name)
              for name, value in params.items()}
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return None


def _translated(prefix: str, game: str, name: str, params: Mapping[str, Any], lang: str,
                english: str) -> str:
    table = catalogue(lang)
    for owner in (game, COMPANION):
        template = table.get(f"{prefix}.{owner}.{name}")
        if owner and template:
            text = fill(template, params, lang, owner)
            return text if text and text.strip() else english
    return english


def refusal_text(lang: str, game: str, code: str, params: Mapping[str, Any],
                 english: str) -> str:
    """A refusal's sentence in ``lang``; ``english`` (the engine's) when no template fits.

    The game's template ``refusal.<game>.<code>`` comes first, then the companion's
    ``refusal.companion.<code>`` (refusals the session gives for any game).

    Example:
        >>> refusal_text("ru", "infinifield", "match_over", {}, "The match is over.")
        'Матч окончен.'
    """
    if not code:
        return english
    return _translated(REFUSAL_PREFIX, game, code, params, lang, english)


def event_text(lang: str, game: str, event: Event, english: str) -> str:
    """One event's line in ``lang``; ``english`` (the engine's) when no template fits.

    ``event.<game>.<kind>`` comes first, then ``event.companion.<kind>``.

    Example:
        >>> event_text("es", "infinifield", Event("block_removed",
        ...            {"player": "Ann", "block": "Y1"}), "Ann removed Y1")
        'Ann quitó Y1'
    """
    return _translated(EVENT_PREFIX, game, event.kind, event.data, lang, english)


def events_line(lang: str, game: str, events: Iterable[Event],
                describe: Callable[[Event], str]) -> str:
    """The events of one verdict in one line, each translated or in the engine's words.

    Example:
        >>> events_line("es", "infinifield", [Event("removal_due", {"player": "Ann"})],
        ...             lambda event: "Ann must remove a block")
        'Ann debe quitar un bloque'
    """
    return "; ".join(event_text(lang, game, event, describe(event)) for event in events)


HIDDEN_ORDER_WORDS: dict[str, int] = {"infinidungeon": 1, "401": 2, "defiance": 2}
"""Games whose ``shuffle`` action lists a hidden order: how many words come before the cards
(``shuffle`` alone, or ``shuffle red`` / ``shuffle empire``). The order must never reach the
table screen (issue 15): the journal keeps it, the banner and the log say how many cards."""

CHANCE_KINDS = ("roll", "shuffle", "flip", "reveal")
"""What a game may wait for from chance: dice, a shuffled deck, a coin, revealed Roles."""


def public_action(game: str, action: str) -> tuple[str, int | None]:
    """``action`` as the table may see it, and how many cards a hidden order had.

    A shuffle's order is hidden information: only its leading words stay.

    Example:
        >>> public_action("401", "shuffle red Guard Lunge Hex")
        ('shuffle red', 3)
        >>> public_action("infinidungeon", "go north")
        ('go north', None)
    """
    words = action.split()
    keep = HIDDEN_ORDER_WORDS.get(game)
    if keep is None or not words or words[0] != "shuffle" or len(words) <= keep:
        return action, None
    return " ".join(words[:keep]), len(words) - keep


def table_action_text(game: str, action: str, hidden: Callable[[int], str]) -> str:
    """``action`` for the banner or the log, a shuffle's order replaced by ``hidden(count)``.

    ``hidden`` words the count (the catalogue's "8 cards, order hidden").

    Example:
        >>> table_action_text("infinidungeon", "shuffle den crypt",
        ...                   lambda n: f"{n} cards, order hidden")
        'shuffle (2 cards, order hidden)'
    """
    shown, count = public_action(game, action)
    return shown if count is None else f"{shown} ({hidden(count)})"


def chance_kind(game: Any, state: Any) -> str:
    """What the game waits for from chance now: ``roll``, ``shuffle``, ``flip`` or ``reveal``.

    Asked of the engine itself: the verb of the chance action it would draw (so the chance
    panel says "Shuffle the deck" or "Flip a coin", never "Roll the dice" for those). An
    engine with some other chance verb counts as ``roll``.
    """
    try:
        sample = game.format_action(game.sample_chance(state, random.Random(0)))
    except Exception:  # an engine that cannot sample now: dice is the general case
        return "roll"
    verb = sample.split()[0] if sample.split() else "roll"
    return verb if verb in CHANCE_KINDS else "roll"


__all__ = ["CHANCE_KINDS", "COMPANION", "GAME_TEXT_PREFIXES", "HIDDEN_ORDER_WORDS",
           "chance_kind", "event_text", "events_line", "fill", "placeholders",
           "public_action", "refusal_text", "render_value", "table_action_text"]
