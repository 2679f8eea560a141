"""Run Python files under the real MicroPython WebAssembly build (``mp_runner.mjs``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
MICROPYTHON_MJS = (ROOT / "node_modules/@micropython/micropython-webassembly-pyscript"
                   / "micropython.mjs")


def run_micropython(main: Path, *modules: Path, timeout: float = 60) -> list[str]:
    """Run ``main`` under MicroPython with ``modules`` importable; return its output lines."""
    node = shutil.which("node")
    if node is None or not MICROPYTHON_MJS.is_file():
        pytest.skip("Node or the MicroPython WebAssembly build is not installed (scripts/setup)")
    result = subprocess.run([node, str(HERE / "mp_runner.mjs"), str(main),
                             *(str(m) for m in modules)],
                            capture_output=True, text=True, timeout=timeout, check=False)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return result.stdout.splitlines()
