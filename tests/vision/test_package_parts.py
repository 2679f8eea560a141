"""Issue 16: vision in three parts, the runtime pipeline, per-game readers and development tools.

What runs at the table (``vision/*.py``, ``vision/readers/``, and everything in ``companion``,
``hardware`` and ``firmware_bridge``) never imports ``vision.devtools`` (renderers with ground
truth, scoring, training), and the runtime pipeline never imports a per-game reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[2]


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at any level (docstring examples do not count)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def offenders(paths: list[Path], forbidden: str) -> list[str]:
    """``file: module`` for each import of ``forbidden`` (or below it) in ``paths``."""
    return sorted(f"{path.relative_to(ROOT)}: {module}" for path in paths
                  for module in imported_modules(path)
                  if module == forbidden or module.startswith(forbidden + "."))


def test_nothing_at_the_table_imports_the_development_tools() -> None:
    table_side = [*(ROOT / "vision").glob("*.py"), *(ROOT / "vision" / "readers").glob("*.py")]
    for package in ("companion", "hardware", "firmware_bridge"):
        table_side += (ROOT / package).rglob("*.py")
    assert len(table_side) > 100
    assert offenders(table_side, "vision.devtools") == []


def test_the_runtime_pipeline_imports_no_per_game_reader() -> None:
    """Its building blocks, that is: the command line and the Infinifield play tracking
    (``tracker``, ``watcher``, ``recording``) put them together with the readers."""
    runtime = [path for path in (ROOT / "vision").glob("*.py")
               if path.name not in ("cli.py", "tracker.py", "watcher.py", "recording.py")]
    assert offenders(runtime, "vision.readers") == []


def test_the_check_sees_an_import_and_not_a_docstring(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""\n>>> import vision.devtools.scoring\n"""\n'
                      "def f():\n    from vision.devtools import render_boxes\n")
    assert imported_modules(module) == {"vision.devtools", "vision.devtools.render_boxes"}
