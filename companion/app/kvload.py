"""Load the ``.kv`` file that sits next to a module, once.

Example:
    >>> load_kv_beside("companion/app/screens/home.py")  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder

_loaded: set[str] = set()


def load_kv_beside(module_file: str) -> None:
    """Load ``<module>.kv`` (same folder, same stem) unless it is already loaded.

    Raises:
        FileNotFoundError: naming the missing ``.kv`` file.
    """
    path = Path(module_file).with_suffix(".kv")
    key = str(path.resolve())
    if key in _loaded:
        return
    if not path.is_file():
        raise FileNotFoundError(f"{path}: the screen's .kv file is missing")
    Builder.load_file(key)
    _loaded.add(key)
