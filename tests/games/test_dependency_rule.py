"""DESIGN.md's one rule of dependencies: the rules engines import nothing of the outside world.

Every module under ``companion/games`` is parsed; an import of a forbidden module at module
level (outside ``if TYPE_CHECKING:``) fails the test, naming the file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "companion" / "games"
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
