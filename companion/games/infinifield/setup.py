"""A match's setup: the field file plus the players' choices (options override ``[match]``).

Options (and the keys of the field file's ``[match]`` table), declared in
:data:`~companion.games.infinifield.info.INFO`:

- ``players``: 2-4 names in clockwise seating order (a list, or a comma-separated string);
- ``builder``: the first field builder (default: the first player);
- ``mode``: ``quickstart`` (default) or ``official`` field-building rules;
- ``scoring``: ``points`` (default) or ``rounds``;
- ``rounds``: play this many rounds (default: one per player, so each builds once);
- ``target``: with points scoring, play until a player reaches this total (e.g. 500).

The field must satisfy the chosen field-building rules and have a white block per player.

Example:
    >>> from companion.resources import shipped_sources
    >>> sources = shipped_sources("companion.games.infinifield",
    ...                           {"setup": "fields/quickstart.toml"})
    >>> load_setup(sources, {"players": "Ann,Ben"}).rules.players
    ('Ann', 'Ben')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.core import SetupError
from companion.games.infinifield.field_rules import check_field, summarise_violations
from companion.games.infinifield.fieldfile import load_field_text
from companion.games.infinifield.info import INFO, SETUP_ROLE
from companion.games.infinifield.state import InfinifieldSetup, MatchRules


def load_setup(sources: Mapping[str, tuple[str, str]],
               options: Mapping[str, Any]) -> InfinifieldSetup:
    """Read the field file and the options into a setup.

    The options and the file's ``[match]`` table are checked by
    :meth:`~companion.games.info.GameInfo.check_options` (names, kinds, choices); what only
    Infinifield knows (one-word names, the builder among the players, rounds or a target)
    is checked here.

    Raises:
        SetupError: naming the file (or ``options``), the key, and what is wrong, including
            every field-building rule the field breaks.
    """
    if SETUP_ROLE not in sources:
        raise SetupError("sources", SETUP_ROLE, "no field file was given (role 'setup')")
    source, text = sources[SETUP_ROLE]
    parsed = load_field_text(source, text)
    given = INFO.check_options(_names_listed(options))
    in_file = f"{source}: match"
    from_file = {k: v for k, v in INFO.check_options(_names_listed(parsed.match), in_file).items()
                 if not (k in ("rounds", "target") and given.keys() & {"rounds", "target"})}
    choices = {**{k: (in_file, v) for k, v in from_file.items()},
               **{k: ("options", v) for k, v in given.items()}}
    players = _players(choices)
    builder = _builder(choices, players)
    mode = choices.get("mode", ("", "quickstart"))[1]
    scoring = choices.get("scoring", ("", "points"))[1]
    rounds, target = _length(choices, scoring, len(players))
    violations = check_field(parsed.field, mode)
    if violations:
        raise SetupError(source, "", f"the field breaks the {mode} field-building rules: "
                         + summarise_violations(violations))
    whites = parsed.field.whites()
    if len(whites) < len(players):
        raise SetupError(source, "blocks", f"{len(players)} players need {len(players)} white "
                                           f"blocks to start on; the field has {len(whites)}")
    return InfinifieldSetup(source, parsed.field,
                            MatchRules(players, mode, scoring, rounds, target), builder)


def _names_listed(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with ``players`` as a list (``"Ann, Ben"`` is read as two names)."""
    listed = dict(options)
    if isinstance(listed.get("players"), str):
        listed["players"] = [name.strip() for name in listed["players"].split(",")]
    return listed


def _players(choices: Mapping[str, tuple[str, Any]]) -> tuple[str, ...]:
    if "players" not in choices:
        raise SetupError("options", "players", "no players given (use --players Ann,Ben or "
                                               "players = [...] in the field's [match] table)")
    where, value = choices["players"]
    names = tuple(value)
    if not INFO.players.accepts(len(names)):
        raise SetupError(where, "players", f"Infinifield is for {INFO.players.minimum}-"
                                           f"{INFO.players.maximum} players, got {len(names)}")
    seen: set[str] = set()
    for name in names:
        if not name or any(ch.isspace() or ch == "#" for ch in name):
            raise SetupError(where, "players", f"{name!r} is not one word without '#'")
        if name.lower() in seen:
            raise SetupError(where, "players", f"{name!r} is named twice")
        seen.add(name.lower())
    return names


def _builder(choices: Mapping[str, tuple[str, Any]], players: tuple[str, ...]) -> str:
    if "builder" not in choices:
        return players[0]
    where, value = choices["builder"]
    by_lower = {name.lower(): name for name in players}
    if not isinstance(value, str) or value.lower() not in by_lower:
        raise SetupError(where, "builder", f"{value!r} is not one of the players "
                                           f"({', '.join(players)})")
    return by_lower[value.lower()]


def _count(choices: Mapping[str, tuple[str, Any]], key: str) -> int | None:
    if key not in choices:
        return None
    where, value = choices[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SetupError(where, key, f"must be a positive whole number, got {value!r}")
    return value


def _length(choices: Mapping[str, tuple[str, Any]], scoring: str,
            players: int) -> tuple[int | None, int | None]:
    rounds, target = _count(choices, "rounds"), _count(choices, "target")
    if rounds is not None and target is not None:
        raise SetupError(choices["target"][0], "target",
                         "give either a number of rounds or a target score, not both")
    if target is not None and scoring != "points":
        raise SetupError(choices["target"][0], "target",
                         "a target score needs points scoring (scoring = \"points\")")
    if rounds is None and target is None:
        rounds = players
    return rounds, target
