"""DESIGN.md's one rule of dependencies: the rules engines import nothing of the outside world.

Every module under ``companion/games`` is parsed; an import of a forbidden module at module
level (outside ``if TYPE_CHECKING:``) fails the test, naming the file and line.

The app's Kivy-free modules (docs/app.md: the controller, the view models in ``views/``, the
dice, settings, translations, outputs and NFC hand-off) must stay importable without Kivy, so
they run headless and in the CLI: each is imported in a fresh interpreter that refuses Kivy,
which also catches a Kivy import reached through another module (issue 16).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from tests.support.import_guard import check_in_child

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "companion" / "games"
VIEWS = ROOT / "companion" / "app" / "views"
KIVY_FREE_APP_MODULES = [
    "companion.install_check",
    "companion.app",
    "companion.app.base_markers",
    "companion.app.camera_dice",
    "companion.app.camera_ranges",
    "companion.app.camera_replay",
    "companion.app.camera_watch",
    "companion.app.controller",
    "companion.app.dice_tools",
    "companion.app.field_capture",
    "companion.app.field_view",
    "companion.app.game_setups",
    "companion.app.i18n",
    "companion.app.journal_shelf",
    "companion.app.log_rebuild",
    "companion.app.main",
    "companion.app.names",
    "companion.app.nfc_link",
    "companion.app.sdnotify",
    "companion.app.settings_store",
    "companion.app.simulated_outputs",
    "companion.app.theme",
    "companion.app.verdict_text",
    # every view model, present and future
    *sorted(f"companion.app.views.{path.stem}".removesuffix(".__init__")
            for path in VIEWS.glob("*.py")),
]
"""App modules that import without Kivy (Kivy only inside functions, if at all)."""
FORBIDDEN = {"kivy", "cv2", "gpiozero", "serial", "threading", "time", "random", "os",
             "socket", "subprocess", "multiprocessing", "asyncio", "numpy", "pathlib",
             "datetime", "io", "shutil", "tempfile", "logging", "concurrent", "_thread"}


def _type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def forbidden_imports(source: str, filename: str) -> list[str]:
    """Module-level imports of forbidden modules in ``source`` as ``file:line module``.

    Statements that run at import time are checked: the module body, class bodies, and the
    branches of ``if``/``try``/``with`` (except ``if TYPE_CHECKING:``); function bodies are not.
    """
    found: list[str] = []

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if _type_checking_block(node) or isinstance(node, (ast.FunctionDef,
                                                               ast.AsyncFunctionDef)):
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            found.extend(f"{filename}:{node.lineno} imports {name}" for name in names
                         if name.split(".")[0] in FORBIDDEN)
            for child_block in ("body", "orelse", "finalbody", "handlers"):
                block = getattr(node, child_block, None)
                if isinstance(block, list) and not isinstance(node, ast.ExceptHandler):
                    visit([n for n in block if isinstance(n, ast.stmt)] +
                          [s for h in block if isinstance(h, ast.ExceptHandler) for s in h.body])

    visit(ast.parse(source, filename).body)
    return found


def test_no_rules_module_imports_the_outside_world() -> None:
    files = sorted(GAMES.rglob("*.py"))
    assert files, "no rules modules found"
    problems = [p for f in files for p in forbidden_imports(f.read_text(), str(f))]
    assert problems == []


@pytest.mark.parametrize("statement", ["import kivy", "import cv2", "from gpiozero import LED",
                                       "import serial", "import threading", "import time",
                                       "from random import Random", "try:\n    import cv2\n"
                                       "except ImportError:\n    pass"])
def test_the_checker_catches_each_forbidden_import(statement: str) -> None:
    assert forbidden_imports(statement, "x.py")


def test_the_checker_allows_typing_only_imports() -> None:
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import random\n"
    assert forbidden_imports(source, "x.py") == []


def kivy_problems(results: dict[str, dict[str, Any]]) -> list[str]:
    """One line per module that reached for Kivy (with the chain) or failed to import."""
    problems = []
    for name, result in results.items():
        for attempt in result["forbidden"]:
            problems.append(f"{name} imports {attempt['name']} at import time via "
                            f"{' -> '.join(attempt['chain']) or '?'}")
        if result["error"] and not result["forbidden"]:
            problems.append(f"{name} does not import: {result['error']}")
    return problems


def test_the_kivy_free_app_modules_import_without_kivy() -> None:
    """docs/app.md: the controller, view models, dice, settings, translations, outputs and NFC
    hand-off work without Kivy; importing any of them must not import Kivy, directly or not."""
    assert len(KIVY_FREE_APP_MODULES) > 20
    assert kivy_problems(check_in_child(KIVY_FREE_APP_MODULES, {"kivy"})) == []


def test_the_kivy_check_catches_a_kivy_import_made_through_another_module(
        tmp_path: Path) -> None:
    (tmp_path / "fake_view.py").write_text("import fake_helper\n")
    (tmp_path / "fake_helper.py").write_text(
        "try:\n    from kivy.uix.label import Label\nexcept ImportError:\n    Label = None\n")
    (tmp_path / "fake_lazy.py").write_text("def draw():\n    import kivy\n")
    results = check_in_child(["fake_view", "fake_lazy", "companion.app.application"], {"kivy"},
                             extra_path=tmp_path)
    problems = kivy_problems(results)
    assert len(problems) == 2
    assert problems[0].startswith("fake_view imports kivy at import time via ")
    assert "fake_view.py:1 -> " in problems[0] and "fake_helper.py:2" in problems[0]
    assert problems[1].startswith("companion.app.application imports kivy")


STILL_CIRCULAR: set[frozenset[str]] = set()
"""Import circles issue 16 names (or found) that their owners have not broken yet."""


def rules_imports() -> dict[str, set[str]]:
    """Module -> the ``companion.games`` modules it imports, anywhere in its text.

    Function-level and ``TYPE_CHECKING`` imports count: they hide a circle, not break it.
    ``from package import submodule`` is an import of the submodule, not of the package.
    """
    graph: dict[str, set[str]] = {}
    for path in sorted(GAMES.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        targets = graph.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name.startswith("companion.games"))
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                    and node.module.startswith("companion.games"):
                folder = ROOT.joinpath(*node.module.split("."))
                subs = {a.name for a in node.names if (folder / f"{a.name}.py").exists()}
                targets.update(f"{node.module}.{sub}" for sub in subs)
                if len(subs) < len(node.names):
                    targets.add(node.module)
    return graph


def import_circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The sets of modules that import each other, directly or round a longer loop."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: set[frozenset[str]] = set()

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.add(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_new_import_circle_among_the_rules_modules() -> None:
    """Issue 16: defiance/engine.py <-> legal.py is broken (legal asks a Referee protocol);
    no other circle may appear, and the ones left are listed in STILL_CIRCULAR."""
    circles = import_circles(rules_imports())
    assert not any("companion.games.defiance.legal" in circle for circle in circles)
    assert circles - STILL_CIRCULAR == set()


def test_the_circle_finder_sees_a_loop_hidden_in_a_function() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_circles(graph) == {frozenset({"a", "b", "c"})}
    assert import_circles({"a": {"b"}, "b": set()}) == set()
