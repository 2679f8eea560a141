"""What the engines' source raises and publishes: refusal codes and event kinds with the
params each call site passes, read from the code itself (``ast``), so the catalogue tests
follow the engines without a hand-kept list.

A call site counts when it calls one of the refusal helpers (``refuse``, ``_refuse``) or
``IllegalAction`` with a literal code, or builds ``Event("kind", {...})`` with a literal
kind and a dict literal. Its params are the keyword arguments (the helpers' own
``detail``/``action`` are not params) or the keys of ``params={...}``. A site whose code is
computed is reported separately, so a test can name the codes it stands for.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parents[2] / "companion" / "games"
HELPERS = frozenset({"refuse", "_refuse", "IllegalAction"})
NOT_PARAMS = frozenset({"detail", "action", "params"})


@dataclass(frozen=True)
class Site:
    """One call site: where it is, its code (``None`` if computed), the params it passes.

    ``open_params`` is true when the site passes ``**something`` or a computed params
    mapping, so its exact params cannot be read from the source.
    """

    where: str
    code: str | None
    code_source: str
    params: frozenset[str]
    open_params: bool


def _called_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _inside_helpers(tree: ast.Module) -> set[int]:
    """Ids of calls inside the helpers' own definitions (they pass codes through)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in HELPERS | {"with_action"}:
            inside.update(id(child) for child in ast.walk(node))
    return inside


def _params(node: ast.Call) -> tuple[frozenset[str], bool]:
    names: set[str] = set()
    open_params = False
    for keyword in node.keywords:
        if keyword.arg is None:
            open_params = True
        elif keyword.arg == "params":
            keys = keyword.value.keys if isinstance(keyword.value, ast.Dict) else [None]
            if all(isinstance(key, ast.Constant) for key in keys):
                names.update(str(key.value) for key in keys if isinstance(key, ast.Constant))
            else:
                open_params = True
        elif keyword.arg not in NOT_PARAMS:
            names.add(keyword.arg)
    return frozenset(names), open_params


def _calls(package: Path) -> Iterator[tuple[str, ast.Call, set[int]]]:
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        inside = _inside_helpers(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                yield f"{path.relative_to(GAMES_DIR)}:{node.lineno}", node, inside


def enum_members(package: Path) -> dict[str, str]:
    """``Class.MEMBER`` -> its text value, for every class in ``package`` with text members.

    A game names its refusal codes as ``StrEnum`` members (``Refusal.NO_DOORWAY``, issue 16);
    such a code counts as written, its value read from the class.
    """
    members: dict[str, str] = {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(
                        item.targets[0], ast.Name) and isinstance(item.value, ast.Constant) \
                        and isinstance(item.value.value, str):
                    members[f"{node.name}.{item.targets[0].id}"] = item.value.value
    return members


def refusal_sites(game: str) -> list[Site]:
    """Every refusal raised in ``companion/games/<game>/``."""
    sites = []
    members = enum_members(GAMES_DIR / game)
    for where, node, inside in _calls(GAMES_DIR / game):
        if _called_name(node) not in HELPERS or not node.args or id(node) in inside:
            continue
        first = node.args[0]
        code = first.value if isinstance(first, ast.Constant) and isinstance(
            first.value, str) else members.get(ast.unparse(first))
        params, open_params = _params(node)
        sites.append(Site(where, code, ast.unparse(first), params, open_params))
    return sites


def event_sites(game: str) -> list[Site]:
    """Every ``Event("kind", {...})`` built in ``companion/games/<game>/``."""
    sites = []
    for where, node, _inside in _calls(GAMES_DIR / game):
        if _called_name(node) != "Event" or len(node.args) < 2:
            continue
        kind, data = node.args[0], node.args[1]
        if not (isinstance(kind, ast.Constant) and isinstance(kind.value, str)):
            continue
        if isinstance(data, ast.Dict) and all(isinstance(k, ast.Constant) for k in data.keys):
            keys = frozenset(str(k.value) for k in data.keys if isinstance(k, ast.Constant))
            sites.append(Site(where, kind.value, ast.unparse(kind), keys, False))
        else:
            sites.append(Site(where, kind.value, ast.unparse(kind), frozenset(), True))
    return sites


def params_by_code(sites: list[Site],
                   dynamic: dict[str, tuple[frozenset[str], tuple[str, ...]]]) -> dict[
                       str, frozenset[str]]:
    """Code -> the params every one of its call sites passes (the intersection).

    ``dynamic`` maps a computed code's source text to (its params, the codes it stands for).

    Raises:
        AssertionError: a computed code the test does not know about.
    """
    found: dict[str, frozenset[str]] = {}
    for site in sites:
        if site.code is not None:
            codes: tuple[str, ...] = (site.code,)
            params = site.params
        else:
            assert site.code_source in dynamic, (
                f"{site.where}: refusal code computed by {site.code_source!r}; "
                "name the codes it stands for in the test")
            extra, codes = dynamic[site.code_source]
            params = site.params | extra
        for code in codes:
            found[code] = found[code] & params if code in found else params
    return found
