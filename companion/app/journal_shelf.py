"""Where the app keeps its game journals, and which of them are unfinished.

One journal per game, named ``<game>-<UTC time>.journal`` in the data directory. The home
screen offers to resume the unfinished ones, newest started first (an order that playing a
game does not change); a kiosk restart (watchdog, power cut) resumes the newest
automatically.

A game the players delete is moved to ``deleted/`` beside the journals, not destroyed
(nothing recorded is lost); a journal that recorded nothing at all (a game opened and left)
is removed once another game is opened. Files beside a journal that share its name (the
trackers, the players' names) go with it.

Example:
    >>> import tempfile, pathlib
    >>> shelf = JournalShelf(pathlib.Path(tempfile.mkdtemp()))
    >>> shelf.unfinished()
    []
"""

from __future__ import annotations

import calendar
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path

from companion.games.core import RulesError
from companion.games.registry import UnknownGame, load_game
from companion.journal import JournalError, read_journal
from companion.session import replay_entries


@dataclass(frozen=True)
class ShelvedGame:
    """One journal on the shelf, as the home screen lists it.

    Attributes:
        path: the journal file.
        game: the game's short name.
        players: the players' names (from the options), if any.
        actions: accepted actions so far (chance included: rolls, shuffles).
        finished: whether the game is over.
        modified: the file's modification time (seconds since the epoch).
        moves: the players' own moves (actions that were not chance).
        started: when the game was started (seconds since the epoch, from its name).
        records: how many records the journal holds (refusals and undos included).
    """

    path: Path
    game: str
    players: tuple[str, ...]
    actions: int
    finished: bool
    modified: float
    moves: int = 0
    started: float = 0.0
    records: int = 0


class JournalShelf:
    """The journals in one directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._seen: dict[Path, tuple[tuple[float, int], ShelvedGame | None]] = {}

    def new_path(self, game: str, now: float | None = None) -> Path:
        """A fresh journal path for ``game`` (never an existing file).

        Example:
            >>> JournalShelf(Path("/tmp/x")).new_path("401", now=0).name
            '401-19700101-000000.journal'
        """
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if now is None else now))
        path = self.directory / f"{game}-{stamp}.journal"
        counter = 1
        while path.exists():
            counter += 1
            path = self.directory / f"{game}-{stamp}-{counter}.journal"
        return path

    def games(self) -> list[ShelvedGame]:
        """Every readable journal, newest started first (unreadable ones are skipped).

        A journal is replayed once and again only when its file changes.
        """
        if not self.directory.is_dir():
            return []
        found = []
        for path in self.directory.glob("*.journal"):
            try:
                stat = path.stat()
            except OSError:
                continue
            key = (stat.st_mtime, stat.st_size)
            cached = self._seen.get(path)
            shelved = cached[1] if cached is not None and cached[0] == key \
                else inspect_journal(path)
            self._seen[path] = (key, shelved)
            if shelved is not None:
                found.append(shelved)
        return sorted(found, key=lambda item: (item.started, same_second_order(item.path),
                                               item.path.name), reverse=True)

    def unfinished(self) -> list[ShelvedGame]:
        """The journals whose game is not over, newest started first."""
        return [game for game in self.games() if not game.finished]

    def delete(self, path: Path) -> Path:
        """Put a game away: its journal and the files beside it move to ``deleted/``.

        Returns where the journal went.

        Raises:
            OSError: the journal cannot be moved.
        """
        bin_dir = self.directory / "deleted"
        bin_dir.mkdir(parents=True, exist_ok=True)
        target = bin_dir / path.name
        for companion in sorted(path.parent.glob(path.name + ".*")):
            companion.replace(bin_dir / companion.name)
        path.replace(target)
        self._seen.pop(path, None)
        return target

    def prune_empty(self, keep: Path | None = None) -> list[Path]:
        """Put away the games in which nobody moved, except ``keep`` (the open game).

        A journal with no record at all is removed; one that holds only chance (a shuffle,
        a roll) or refusals moves to ``deleted/`` like a deleted game, so nothing recorded
        is lost. Returns the journals put away.
        """
        removed = []
        for shelved in self.games():
            if shelved.moves or shelved.finished or shelved.path == keep:
                continue
            if shelved.records == 0:
                for companion in sorted(shelved.path.parent.glob(shelved.path.name + ".*")):
                    companion.unlink(missing_ok=True)
                shelved.path.unlink(missing_ok=True)
                self._seen.pop(shelved.path, None)
            else:
                self.delete(shelved.path)
            removed.append(shelved.path)
        return removed


def seat_names_path(journal: Path) -> Path:
    """Where the players' names of a game whose engine has no names (401) are kept."""
    return journal.with_name(journal.name + ".names.json")


def save_seat_names(journal: Path, names: dict[str, str]) -> None:
    """Keep the players' names of the seats (``{"red": "Ann"}``) beside the journal."""
    seat_names_path(journal).write_text(json.dumps(names), "utf-8")


def seat_names(journal: Path) -> dict[str, str]:
    """The players' names kept beside the journal (empty if none or unreadable)."""
    try:
        data = json.loads(seat_names_path(journal).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


STAMP = re.compile(r"-(\d{8}-\d{6})(?:-(\d+))?\.journal$")


def started_at(path: Path, fallback: float) -> float:
    """When the game was started, from the UTC stamp in its journal's name.

    Example:
        >>> started_at(Path("401-19700101-000100.journal"), 5.0)
        60.0
        >>> started_at(Path("odd.journal"), 5.0)
        5.0
    """
    match = STAMP.search(path.name)
    if match is None:
        return fallback
    return float(calendar.timegm(time.strptime(match.group(1), "%Y%m%d-%H%M%S")))


def same_second_order(path: Path) -> int:
    """Which of the games started in the same second this is (``-2`` in the name: the second).

    Example:
        >>> same_second_order(Path("401-19700101-000100-2.journal"))
        2
        >>> same_second_order(Path("401-19700101-000100.journal"))
        1
    """
    match = STAMP.search(path.name)
    return int(match.group(2)) if match is not None and match.group(2) else 1


def inspect_journal(path: Path) -> ShelvedGame | None:
    """Read a journal without changing it and replay it to see whether its game is over.

    Returns ``None`` for a journal that cannot be used (no header, corrupt, unknown game).
    """
    try:
        contents = read_journal(path)
        header = contents.header
        if header is None:
            return None
        game = load_game(str(header["game"]))
        sources = {role: (pair[0], pair[1]) for role, pair in header["sources"].items()}
        options = header.get("options", {})
        state = game.initial_state(game.load_setup(sources, options))
        entries = replay_entries(contents.records)
        moves = 0
        for entry in entries:
            moves += not game.is_chance(state)
            state = game.apply(state, game.parse_action(state, entry["action"])).state
        finished = game.outcome(state) is not None
        modified = path.stat().st_mtime
    except (JournalError, OSError, RulesError, UnknownGame, KeyError, TypeError, ValueError):
        return None
    players = tuple(str(name) for name in options.get("players", ())) or \
        tuple(seat_names(path).values())
    return ShelvedGame(path, game.name, players, len(entries), finished, modified, moves,
                       started_at(path, modified), len(contents.records))
