"""Where the app keeps its game journals, and which of them are unfinished.

One journal per game, named ``<game>-<UTC time>.journal`` in the data directory. The home
screen offers to resume the unfinished ones, newest first; a kiosk restart (watchdog, power
cut) resumes the newest automatically.

Example:
    >>> import tempfile, pathlib
    >>> shelf = JournalShelf(pathlib.Path(tempfile.mkdtemp()))
    >>> shelf.unfinished()
    []
"""

from __future__ import annotations

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
        actions: accepted actions so far.
        finished: whether the game is over.
        modified: the file's modification time (seconds since the epoch).
    """

    path: Path
    game: str
    players: tuple[str, ...]
    actions: int
    finished: bool
    modified: float


class JournalShelf:
    """The journals in one directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

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
        """Every readable journal, newest first (unreadable ones are skipped)."""
        if not self.directory.is_dir():
            return []
        found = []
        for path in self.directory.glob("*.journal"):
            shelved = inspect_journal(path)
            if shelved is not None:
                found.append(shelved)
        return sorted(found, key=lambda item: item.modified, reverse=True)

    def unfinished(self) -> list[ShelvedGame]:
        """The journals whose game is not over, newest first."""
        return [game for game in self.games() if not game.finished]


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
        for entry in entries:
            state = game.apply(state, game.parse_action(state, entry["action"])).state
        finished = game.outcome(state) is not None
        modified = path.stat().st_mtime
    except (JournalError, OSError, RulesError, UnknownGame, KeyError, TypeError, ValueError):
        return None
    players = tuple(str(name) for name in options.get("players", ()))
    return ShelvedGame(path, game.name, players, len(entries), finished, modified)
