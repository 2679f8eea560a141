"""One layout per game (issue 16, ``docs/engine-contract.md`` "The layout of a game"): a test
that fails when a game leaves it.

Every game the registry finds is checked: its modules (``__init__``, ``game``, ``state``,
``actions``, ``setup``, ``rulebook``), ``<Name>Game`` in ``game.py`` with ``GAME`` an
instance, one rulebook stem everywhere (``RULEBOOK`` == ``Game.rulebook`` ==
``GameInfo.rulebook`` == every ``RuleRef.game``, and the file exists in
``../shared/rules``), ``Refusal`` a ``StrEnum``, the state type in ``state.py``,
``parse_action`` and ``load_setup`` where a newcomer looks for them, and none of the names
that meant different things in different games (``engine.py``, ``rules.py``, ``checks.py``).
Across ``companion/games``: no ``IllegalAction(`` outside ``errors.py`` (every refusal goes
through ``refuse``), and no phase compared with a bare string there or in the app's views.

A toy sixth game (:mod:`tests.games.toy_game`), written only as its own package, shows what a
newcomer's game gets for free: the registry finds it, ``infinite-referee`` has its
sub-command with flags generated from its GameInfo, and the app offers it on the new-game
screen and starts it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import io
from enum import StrEnum
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from companion.games.core import Game, RuleRef
from companion.games.info import GameInfo
from companion.games.registry import GAME_MODULES, available_games, load_game
from tests.games.toy_game import TOY_FILES, TOY_PACKAGE, install_toy

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "companion" / "games"
VIEWS = ROOT / "companion" / "app" / "views"
RULES = ROOT.parent / "shared" / "rules"
REQUIRED_MODULES = ("__init__", "game", "state", "actions", "setup", "rulebook")
"""The modules every game has, each where a newcomer looks for it."""
BANNED_MODULES = ("engine", "rules", "checks")
"""Names that meant different things in different games."""

SHIPPED = [name for name in available_games() if GAME_MODULES[name].startswith("companion.games.")]


def _package_dir(module_name: str) -> Path:
    module = importlib.import_module(module_name)
    return Path(inspect.getfile(module)).parent


def _submodule(package: str, name: str) -> ModuleType:
    return importlib.import_module(f"{package}.{name}")


def _rule_refs(value: Any) -> list[RuleRef]:
    """The RuleRefs in a constant (itself, or inside a tuple, list or mapping)."""
    if isinstance(value, RuleRef):
        return [value]
    if isinstance(value, (tuple, list, frozenset, set)):
        return [ref for item in value for ref in _rule_refs(item)]
    if isinstance(value, dict):
        return [ref for item in value.values() for ref in _rule_refs(item)]
    return []


def layout_problems(name: str, rules: Path | None) -> list[str]:
    """What the game called ``name`` does differently from the one layout (empty: nothing).

    Args:
        name: the game's short name in the registry.
        rules: the folder of the rulebooks (``None``: not checked, the folder is absent).
    """
    package = GAME_MODULES[name]
    folder = _package_dir(package)
    problems = [f"{package}: no {module}.py" for module in REQUIRED_MODULES
                if not (folder / f"{module}.py").is_file()]
    problems += [f"{package}: {path.relative_to(folder)} is a name that meant different "
                 "things in different games" for path in folder.rglob("*.py")
                 if path.stem in BANNED_MODULES]
    if problems:
        return problems
    game = load_game(name)
    kind = type(game)
    if not (issubclass(kind, Game) and kind.__name__.endswith("Game") and kind.__name__ != "Game"
            and kind.__module__ == f"{package}.game"):
        problems.append(f"{package}: GAME is a {kind.__module__}.{kind.__name__}, not a "
                        f"<Name>Game(Game) defined in {package}.game")
    if getattr(_submodule(package, "game"), "GAME", None) is not game:
        problems.append(f"{package}.game: GAME (the instance the package exposes) is not "
                        "defined there")
    rulebook = _submodule(package, "rulebook")
    stem = getattr(rulebook, "RULEBOOK", None)
    info = getattr(game, "info", None)
    if not isinstance(info, GameInfo):
        problems.append(f"{package}: {kind.__name__}.info is not a GameInfo")
    elif not stem == game.rulebook == info.rulebook:
        problems.append(f"{package}: RULEBOOK {stem!r}, Game.rulebook {game.rulebook!r} and "
                        f"GameInfo.rulebook {info.rulebook!r} differ")
    if rules is not None and not (rules / f"{stem}.md").is_file():
        problems.append(f"{package}.rulebook: RULEBOOK {stem!r} names no file in {rules}")
    for constant, value in vars(rulebook).items():
        problems += [f"{package}.rulebook.{constant}: cites {ref.game!r}, not {stem!r}"
                     for ref in _rule_refs(value) if ref.game != stem]
    refusal = getattr(rulebook, "Refusal", None)
    if not (isinstance(refusal, type) and issubclass(refusal, StrEnum)):
        problems.append(f"{package}.rulebook: no Refusal StrEnum")
    state_type = getattr(kind, "state_type", None)
    if not isinstance(state_type, type) or state_type.__module__ != f"{package}.state":
        problems.append(f"{package}: {kind.__name__}.state_type is {state_type!r}, not a class "
                        f"of {package}.state")
    for module, function in (("actions", "parse_action"), ("setup", "load_setup")):
        if not callable(getattr(_submodule(package, module), function, None)):
            problems.append(f"{package}.{module}: no {function}")
    return problems


@pytest.mark.parametrize("name", SHIPPED)
def test_every_game_follows_the_one_layout(name: str) -> None:
    """docs/engine-contract.md "The layout of a game": every module where a newcomer looks."""
    problems = layout_problems(name, RULES if RULES.is_dir() else None)
    assert problems == []


def test_the_five_games_are_checked() -> None:
    assert set(SHIPPED) >= {"infinifield", "infinidungeon", "401", "infinity", "defiance"}


def _python_files(*folders: Path) -> list[Path]:
    return sorted(path for folder in folders for path in folder.rglob("*.py"))


def illegal_action_calls(path: Path) -> list[str]:
    """``file:line`` of every ``IllegalAction(...)`` call in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and (
                (isinstance(node.func, ast.Name) and node.func.id == "IllegalAction")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "IllegalAction"))]


def test_every_refusal_goes_through_refuse() -> None:
    """Issue 16: one ``refuse(...) -> NoReturn``; an IllegalAction built elsewhere could be
    returned instead of raised, and an illegal action would be silently accepted."""
    found = [call for path in _python_files(GAMES) if path.name != "errors.py"
             for call in illegal_action_calls(path)]
    assert found == []


def _is_phase(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "phase") or \
        (isinstance(node, ast.Name) and node.id == "phase")


def phase_string_comparisons(path: Path) -> list[str]:
    """``file:line`` of every ``phase == "..."`` (or ``!=``) comparison in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for index, op in enumerate(node.ops):
            pair = operands[index], operands[index + 1]
            if isinstance(op, (ast.Eq, ast.NotEq)) and any(_is_phase(side) for side in pair) \
                    and any(isinstance(side, ast.Constant) and isinstance(side.value, str)
                            for side in pair):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_phases_are_compared_as_enums_not_strings() -> None:
    """Issue 16: phases are StrEnum members; a misspelt ``phase == "remvoe"`` would be
    silently false."""
    found = [hit for path in _python_files(GAMES, VIEWS) for hit in phase_string_comparisons(path)]
    assert found == []


def test_the_scans_see_what_they_look_for(tmp_path: Path) -> None:
    """The two scans above find what they forbid (else they would pass on anything)."""
    sample = tmp_path / "sample.py"
    sample.write_text('def f(state):\n    if state.phase == "remove":\n'
                      '        return errors.IllegalAction("c", "r", None)\n')
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert phase_string_comparisons(sample) == ["sample.py:2"]
        assert illegal_action_calls(sample) == ["sample.py:3"]
    finally:
        ROOT = saved


# -- a sixth game ------------------------------------------------------------------------
@pytest.fixture
def toy(tmp_path: Path) -> Any:
    """The toy game installed in a temporary folder (and its rulebook beside it)."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "pebbles.md").write_text("# Pebbles\n\n## Taking\n\n## Turns\n")
    with install_toy(tmp_path / "games") as package:
        yield package, rules


def test_a_sixth_game_needs_only_its_own_package(toy: Any, tmp_path: Path) -> None:
    """docs/engine-contract.md "Adding a sixth game": the package alone is found by the
    registry, follows the layout, gets its command line and is offered by the app."""
    package, rules = toy
    files = sorted(str(path.relative_to(package)) for path in package.rglob("*")
                   if path.is_file() and "__pycache__" not in path.parts)
    assert files == sorted(TOY_FILES)
    assert len(files) == 9  # 7 modules and 2 shipped piles: the figure the docs give

    names = available_games()
    assert names[:5] == ["infinifield", "infinidungeon", "401", "infinity", "defiance"]
    assert "pebbles" in names[5:], "a new game comes after the five in the menu"
    assert GAME_MODULES["pebbles"] == f"companion.games.{TOY_PACKAGE}"
    assert layout_problems("pebbles", rules) == []
    from tests.games.test_dependency_rule import forbidden_imports

    assert [problem for path in package.rglob("*.py")
            for problem in forbidden_imports(path.read_text(), path.name)] == []

    from companion.cli.main import build_parser, main

    args = build_parser().parse_args(["pebbles", "--players", "Ann,Ben,Cat", "--most", "2",
                                      "--opener", "last", "--json"])
    assert (args.players, args.most, args.opener, args.pile) == (["Ann", "Ben", "Cat"], 2,
                                                                "last", None)
    out, err = io.StringIO(), io.StringIO()
    status = args.run(args, out=out, err=err,
                      stdin=io.StringIO("take Cat 2\ntake Ben 3\ntake Ben 2\n"))
    verdicts = out.getvalue().splitlines()
    assert status == 1 and len(verdicts) == 3, err.getvalue()
    assert '"legal": true' in verdicts[0] and '"too_many"' in verdicts[1]
    assert 'pebbles: \\"Taking\\"' in verdicts[1]
    assert main(["pebbles", "--players", "Ann", "--legal"]) == 2  # 1 player: named by check
    pile = tmp_path / "pile.toml"
    pile.write_text("pebbels = 3\n")
    assert main(["pebbles", "--pile", str(pile), "--legal"]) == 2

    from companion.app.controller import TableController
    from companion.app.game_setups import SETUPS
    from companion.app.journal_shelf import JournalShelf

    setup = SETUPS["pebbles"]
    assert list(setup.layouts) == ["small pile", "big pile"]
    assert setup.choices == {"opener": ("first", "last")}
    assert setup.players is not None and (setup.players.minimum, setup.players.maximum) == (2, 4)
    table = TableController(JournalShelf(tmp_path / "journals"))
    session = table.start("pebbles", "big pile", ["Ann", "Ben"], seed=1,
                          chosen={"opener": "last"})
    assert session.state.pile == 21 and session.game.current_actor(session.state) == "Ben"
    assert table.propose("take Ben 3").legal
    assert not table.propose("take Ann 4").legal
    table.close_game()


def test_the_toy_game_leaves_no_trace(tmp_path: Path) -> None:
    """Once its test is over, the registry and the CLI see only the real games again."""
    import sys

    from companion.cli.main import build_parser

    with install_toy(tmp_path):
        assert "pebbles" in available_games()
    assert "pebbles" not in available_games()
    assert f"companion.games.{TOY_PACKAGE}" not in sys.modules
    with pytest.raises(SystemExit):
        build_parser().parse_args(["pebbles"])
