"""Import modules in a fresh interpreter where some top-level packages cannot be imported.

The rule "module X does not need Kivy" is about what happens when X is imported, however
deep the chain that reaches Kivy; reading X's own import lines misses the chain, and an
interpreter that already has Kivy loaded (the app tests import it) hides it. So the check
runs in a child interpreter with a meta-path finder in front of every other one: it refuses
the forbidden packages and records who asked (the chain of this repository's files that led
there), even when the importer catches the error and carries on.

Run as ``python -m tests.support.import_guard --forbid kivy MODULE...``; it prints one JSON
object: module -> ``{"error": str | None, "forbidden": [{"name": ..., "chain": [...]}]}``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.abc
import json
import os
import subprocess
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class ForbiddingFinder(importlib.abc.MetaPathFinder):
    """Refuses to find the ``forbidden`` top-level packages and records every attempt.

    Args:
        forbidden: top-level package names (``{"kivy"}``).
    """

    def __init__(self, forbidden: set[str]) -> None:
        self.forbidden = forbidden
        self.attempts: list[dict[str, Any]] = []

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> None:
        """Raise ``ModuleNotFoundError`` for a forbidden name; ``None`` (not mine) otherwise."""
        if fullname.split(".")[0] not in self.forbidden:
            return None
        chain = [f"{_shown(frame.filename)}:{frame.lineno}"
                 for frame in traceback.extract_stack()
                 if not frame.filename.startswith("<") and frame.filename != __file__
                 and "importlib" not in Path(frame.filename).parts]
        self.attempts.append({"name": fullname, "chain": chain})
        raise ModuleNotFoundError(f"{fullname} is forbidden in this check", name=fullname)


def _shown(filename: str) -> str:
    path = Path(filename)
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else filename


def install(forbidden: set[str]) -> ForbiddingFinder:
    """Put a :class:`ForbiddingFinder` first on ``sys.meta_path`` and return it."""
    finder = ForbiddingFinder(forbidden)
    sys.meta_path.insert(0, finder)
    return finder


def import_checked(name: str, finder: ForbiddingFinder) -> dict[str, Any]:
    """Import ``name``; say whether it failed and which forbidden imports it attempted."""
    start = len(finder.attempts)
    error = None
    try:
        importlib.import_module(name)
    except Exception as exc:  # any failure is reported to the parent test, not raised here
        error = f"{type(exc).__name__}: {exc}"
    return {"error": error, "forbidden": finder.attempts[start:]}


def check_in_child(modules: Sequence[str], forbidden: set[str], *,
                   extra_path: Path | None = None,
                   timeout: float = 120.0) -> dict[str, dict[str, Any]]:
    """Import ``modules`` in a fresh interpreter that forbids ``forbidden``; per-module results.

    Args:
        modules: dotted module names.
        forbidden: top-level packages the child must not import.
        extra_path: a folder put first on the child's ``sys.path`` (the checker's own tests).
        timeout: seconds the child may take.

    Raises:
        RuntimeError: the child interpreter failed (its output is in the message).
    """
    command = [sys.executable, "-m", "tests.support.import_guard",
               *(arg for name in sorted(forbidden) for arg in ("--forbid", name)), *modules]
    env = dict(os.environ)
    if extra_path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(extra_path), str(ROOT),
                                             env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          check=False, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"import check failed ({done.returncode}):\n{done.stderr[-4000:]}")
    results: dict[str, dict[str, Any]] = json.loads(done.stdout.splitlines()[-1])
    return results


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: import each module with the forbidden packages refused; print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forbid", action="append", default=[], metavar="PACKAGE")
    parser.add_argument("modules", nargs="+")
    args = parser.parse_args(argv)
    finder = install(set(args.forbid))
    results = {name: import_checked(name, finder) for name in args.modules}
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
