"""Run the docstring examples of every shipped module in a fresh interpreter without Kivy.

``tests/test_doctests.py`` starts this in a child interpreter so that what it finds does not
depend on what earlier tests imported (the app tests load Kivy and the screens). Kivy is
refused there (:mod:`tests.support.import_guard`): a module that reaches for it at import time
is a screen or widget that needs a display, reported as ``needs_kivy`` and not run.

Run as ``python -m tests.support.doctest_run --exclude PREFIX ROOT_PACKAGE...``; it prints one
JSON object per line with ``module``, ``docstrings`` (those with examples, pytest's
doctest items), ``attempted`` (examples), ``failed``, ``report`` (doctest's text
for the failures), ``error`` (the import failed) and ``needs_kivy``.
"""

from __future__ import annotations

import argparse
import doctest
import importlib
import importlib.util
import json
from collections.abc import Iterator, Sequence
from typing import Any

from tests.support.import_guard import ROOT, ForbiddingFinder, import_checked, install

OPTIONS = doctest.ELLIPSIS
OPTIONAL_EXTRAS = ("torch", "onnx", "bpy")
"""Packages of optional extras (pyproject.toml): a tool needing one that is not installed is
reported as ``needs_extra`` and not run, as on a fresh install of the project."""


def module_names(packages: Sequence[str], exclude: Sequence[str]) -> Iterator[str]:
    """Every module of ``packages`` (files under their folders), less the ``exclude`` prefixes.

    ``__main__`` modules are left out (importing one runs the program).
    """
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__main__" or not (path.parent / "__init__.py").exists():
                continue
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            if not any(name == prefix or name.startswith(prefix + ".") for prefix in exclude):
                yield name


def run_module(name: str, finder: ForbiddingFinder) -> dict[str, Any]:
    """Import ``name`` and run its examples; the result as a JSON-ready dict."""
    result: dict[str, Any] = {"module": name, "docstrings": 0, "attempted": 0, "failed": 0,
                              "report": "",
                              "error": None, "needs_kivy": False, "needs_extra": None}
    imported = import_checked(name, finder)
    if imported["forbidden"]:
        result["needs_kivy"] = True
        return result
    if imported["error"]:
        missing = [extra for extra in OPTIONAL_EXTRAS
                   if f"No module named '{extra}'" in str(imported["error"])
                   and importlib.util.find_spec(extra) is None]
        if missing:  # a development tool of an optional extra ([train], [render])
            result["needs_extra"] = missing[0]
            return result
        result["error"] = imported["error"]
        return result
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=OPTIONS, verbose=False)
    report: list[str] = []
    for test in doctest.DocTestFinder(exclude_empty=True).find(module, name):
        outcome = runner.run(test, out=report.append)
        result["attempted"] += outcome.attempted
        result["docstrings"] += bool(outcome.attempted)
        result["failed"] += outcome.failed
    result["report"] = "".join(report)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: one JSON line per module."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exclude", action="append", default=[], metavar="PREFIX")
    parser.add_argument("packages", nargs="+")
    args = parser.parse_args(argv)
    finder = install({"kivy"})
    for name in module_names(args.packages, args.exclude):
        print(json.dumps(run_module(name, finder)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
