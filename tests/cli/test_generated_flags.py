"""Issue 16: every game's ``infinite-referee`` flags come from its GameInfo: a ``--<role>`` per
setup file, a flag per option, the shared referee flags; the values given are checked in the
one place options are checked (``GameInfo.check_options``)."""

from __future__ import annotations

import argparse
import io

import pytest

from companion.cli.main import build_parser
from companion.games.registry import GAME_MODULES, available_games, load_game

GAMES = [name for name in available_games() if GAME_MODULES[name].startswith("companion.games.")]


def _subparser(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub: argparse.ArgumentParser = action.choices[name]
    return sub


@pytest.mark.parametrize("name", GAMES)
def test_every_setup_file_and_option_of_a_game_is_a_flag(name: str) -> None:
    info = load_game(name).info
    flags = {flag for action in _subparser(name)._actions for flag in action.option_strings}
    expected = {source.flag for source in info.sources} | \
        {"--" + option.replace("_", "-") for option in info.option_names()} | \
        {"--json", "--journal", "--resume", "--seed", "--legal"}
    assert expected <= flags, f"{name}: missing {sorted(expected - flags)}"


def test_an_option_out_of_its_bounds_is_refused_naming_it() -> None:
    """401 Infinite: ``--turn-limit`` is a whole number of at least 1 (GameInfo)."""
    args = build_parser().parse_args(["401", "--turn-limit", "0"])
    out, err = io.StringIO(), io.StringIO()
    assert args.run(args, out=out, err=err, stdin=io.StringIO("")) == 2
    assert "turn_limit" in err.getvalue() and "below the smallest value, 1" in err.getvalue()
    assert out.getvalue() == ""


def test_a_choice_outside_its_values_is_refused_by_the_parser() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["infinifield", "--scoring", "goals"])


def test_a_game_without_options_takes_no_option_flag() -> None:
    """Infinity's armies file decides everything (its GameInfo has no parameters)."""
    flags = {flag for action in _subparser("infinity")._actions for flag in action.option_strings}
    assert "--players" not in flags and {"--setup", "--profiles"} <= flags
