"""Every docstring example in every shipped package runs and gives what it shows (issue 16).

The packages are the ones ``pyproject.toml`` ships; the examples document the rules and the
formats, so a false one misleads the reader. They run in one child interpreter
(:mod:`tests.support.doctest_run`) with no display, Kivy refused, a home folder and a working
folder of their own under the test's tmp folder; the screens and widgets (the modules that
import Kivy) need a display and are left to the app's tests, and MicroPython's
``firmware_bridge/firmware`` does not run on CPython.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXCLUDED = ["firmware_bridge.firmware"]
"""MicroPython code, tested under the MicroPython WebAssembly build instead."""
MUST_HAVE_EXAMPLES = [
    "companion.games.core", "companion.games.datafile", "companion.games.registry",
    "companion.journal", "companion.events", "companion.session", "companion.resources",
    "companion.cli.referee",
]
"""The core modules, whose examples are the contract's first reading (each must keep one)."""


def shipped_packages() -> list[str]:
    """The top-level packages ``pyproject.toml`` ships (``companion*`` -> ``companion``)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted({pattern.rstrip("*").rstrip(".") for pattern in patterns})


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run every example once, in a child interpreter; the outcome per module and the home."""
    work = tmp_path_factory.mktemp("doctests")
    home, scratch = work / "home", work / "tmp"
    home.mkdir()
    scratch.mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_CONFIG_HOME", "XDG_DATA_HOME")}
    env.update(HOME=str(home), TMPDIR=str(scratch), PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "tests.support.doctest_run",
               *(arg for prefix in EXCLUDED for arg in ("--exclude", prefix)),
               *shipped_packages()]
    done = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    modules = {}
    for line in done.stdout.splitlines():
        if line.startswith('{"module"'):
            row = json.loads(line)
            modules[row["module"]] = row
    return {"modules": modules, "home": sorted(str(p.relative_to(home))
                                               for p in home.rglob("*"))}


def test_every_docstring_example_of_every_shipped_package_holds(results: dict[str, Any]) -> None:
    """docs/engine-contract.md: public functions carry a short example; each one is true."""
    modules = results["modules"]
    assert {name.split(".")[0] for name in modules} == set(shipped_packages())
    assert [f"{name}: {row['error']}" for name, row in modules.items() if row["error"]] == []
    failures = {name: row["report"] for name, row in modules.items() if row["failed"]}
    assert failures == {}, "\n".join(failures.values())
    assert [name for name in MUST_HAVE_EXAMPLES if not modules[name]["attempted"]] == []
    assert sum(row["attempted"] for row in modules.values()) > 0
    assert not any(name.startswith(tuple(EXCLUDED)) for name in modules)


def test_only_the_app_s_kivy_side_is_left_out_and_nothing_lands_in_home(
        results: dict[str, Any]) -> None:
    """The screens and widgets need a display; every other module's examples run, and none
    writes into the user's home folder (examples use temporary folders)."""
    left_out = [name for name, row in results["modules"].items() if row["needs_kivy"]]
    assert [name for name in left_out if not name.startswith("companion.app.")] == []
    assert "companion.app.controller" in results["modules"]
    assert "companion.app.controller" not in left_out
    assert results["home"] == []
