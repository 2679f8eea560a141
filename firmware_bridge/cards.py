"""Which card each NFC tag is stuck under, per game, kept in a small TOML file.

The file has one table per game (the games' short names) mapping a tag's UID, in hex, to the
card's name as the game's setup files write it::

    # Infinidungeon rooms
    [infinidungeon]
    04A1B2C3D4E5F6 = "goblin-lair"

    # 401 Infinite abilities
    [401]
    DEADBEEF = "fireball"

The kinds of card per game are in :data:`CARD_KINDS`. Learn mode (:meth:`CardMap.pair`) adds
an unknown tag and :meth:`CardMap.save` writes the file back atomically.

Example:
    >>> cards = CardMap.from_text('[401]' + chr(10) + 'DEADBEEF = "fireball"', "cards.toml")
    >>> cards.card_for("401", "deadbeef")
    'fireball'
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from companion.games.core import SetupError
from companion.games.datafile import Table, load_toml

CARD_KINDS: Mapping[str, str] = {
    "infinidungeon": "room",
    "401": "ability",
    "defiance": "unit",
    "infinity": "trooper",
    "infinifield": "card",
}
"""What a tagged card is in each game (the app's learn screen says "pair this room"); in a game
not listed here it is a ``card`` (:func:`card_kind`)."""


def card_kind(game: str) -> str:
    """What a tagged card is in ``game``.

    Example:
        >>> card_kind("infinidungeon"), card_kind("pebbles")
        ('room', 'card')
    """
    return CARD_KINDS.get(game, "card")


def card_games() -> tuple[str, ...]:
    """Every game whose cards can be paired.

    The five, then any other game the registry finds (a sixth game needs no entry here).

    Example:
        >>> card_games()[:5]
        ('infinidungeon', '401', 'defiance', 'infinity', 'infinifield')
    """
    from companion.games.registry import available_games  # loads the engines: only when asked

    return tuple(dict.fromkeys([*CARD_KINDS, *available_games()]))

DEFAULT_PATH = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) \
    / "infinite-table" / "cards.toml"
"""Where the companion keeps the pairings unless told otherwise."""

_UID = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")


class CardMapError(ValueError):
    """A card file that cannot be used; the message names the file, the key and the problem."""


def normalise_uid(uid: str) -> str:
    """A UID as upper-case hex without separators; raises ``ValueError`` when it is not one.

    Example:
        >>> normalise_uid("04:a1:b2:c3:d4:e5:f6")
        '04A1B2C3D4E5F6'
    """
    text = re.sub(r"[\s:\-]", "", uid).upper()
    if not _UID.match(text):
        raise ValueError(f"{uid!r} is not a tag UID (8, 14 or 20 hex digits: 4, 7 or 10 bytes)")
    return text


class CardMap:
    """Tag UID -> card name, per game.

    Attributes:
        source: the file (or name) the map was read from, for error messages.
    """

    def __init__(self, pairs: Mapping[str, Mapping[str, str]] | None = None,
                 source: str = "cards.toml", games: Iterable[str] | None = None) -> None:
        self.source = source
        self.games = tuple(games) if games is not None else card_games()
        self._pairs: dict[str, dict[str, str]] = {
            game: dict(cards) for game, cards in (pairs or {}).items()}

    # -- reading ---------------------------------------------------------------------------
    @classmethod
    def from_text(cls, text: str, source: str,
                  games: Iterable[str] | None = None) -> CardMap:
        """Read a card file's text.

        Raises:
            CardMapError: naming ``source``, the line or key, and what is wrong.
        """
        try:
            data = load_toml(source, text)  # size-capped, too-deep nesting refused
        except SetupError as error:
            raise CardMapError(str(error)) from None
        games = tuple(games) if games is not None else card_games()
        pairs: dict[str, dict[str, str]] = {}
        try:  # the one data-file reader: an unknown game names the closest one
            with Table(source, data) as top:
                for game in games:
                    top.has(game)
        except SetupError as error:
            raise CardMapError(str(error)) from None
        for game, table in data.items():
            if not isinstance(table, dict):
                raise CardMapError(f"{source}: {game}: expected a table of UID = \"card\"")
            cards: dict[str, str] = {}
            for uid, card in table.items():
                try:
                    key = normalise_uid(uid)
                except ValueError as error:
                    raise CardMapError(f"{source}: [{game}] {uid}: {error}") from None
                if not isinstance(card, str) or not card.strip() or " " in card.strip():
                    raise CardMapError(f"{source}: [{game}] {uid}: the card must be a name "
                                       f"without spaces, as in the setup files, not {card!r}")
                if key in cards:
                    raise CardMapError(f"{source}: [{game}] {uid}: this tag is listed twice")
                cards[key] = card.strip()
            pairs[game] = cards
        return cls(pairs, source, games)

    @classmethod
    def load(cls, path: Path | str, games: Iterable[str] | None = None) -> CardMap:
        """Read the card file at ``path``; a missing file is an empty map.

        Raises:
            CardMapError: the file cannot be read or used.
        """
        path = Path(path)
        if not path.exists():
            return cls({}, str(path), games)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CardMapError(f"{path}: cannot read: {error}") from None
        return cls.from_text(text, str(path), games)

    # -- queries ---------------------------------------------------------------------------
    def card_for(self, game: str, uid: str) -> str | None:
        """The card under the tag ``uid`` in ``game``, or ``None`` when the tag is unknown."""
        return self._pairs.get(game, {}).get(normalise_uid(uid))

    def cards(self, game: str) -> dict[str, str]:
        """UID -> card for ``game`` (a copy)."""
        return dict(self._pairs.get(game, {}))

    # -- learn mode ------------------------------------------------------------------------
    def pair(self, game: str, uid: str, card: str) -> str | None:
        """Put the tag ``uid`` under ``card`` in ``game``; return the card it named before.

        Raises:
            ValueError: the game, UID or card name cannot be used.

        Example:
            >>> cards = CardMap()
            >>> cards.pair("infinity", "01020304", "Fusilier-1") is None
            True
        """
        if game not in self.games:
            raise ValueError(f"unknown game {game!r}; expected one of {', '.join(self.games)}")
        name = card.strip()
        if not name or " " in name:
            raise ValueError(f"a card name has no spaces (as in the setup files): {card!r}")
        key = normalise_uid(uid)
        before = self._pairs.setdefault(game, {}).get(key)
        self._pairs[game][key] = name
        return before

    def unpair(self, game: str, uid: str) -> str | None:
        """Forget the tag ``uid`` in ``game``; return the card it named, if any."""
        return self._pairs.get(game, {}).pop(normalise_uid(uid), None)

    # -- writing ---------------------------------------------------------------------------
    def to_text(self) -> str:
        """The map as the TOML text :meth:`from_text` reads."""
        lines = ["# NFC tag UID -> card, per game (written by infinite-bridge pair)"]
        for game in sorted(self._pairs):
            if not self._pairs[game]:
                continue
            kind = card_kind(game)
            lines += ["", f"# {game}: one {kind} per tag", f"[{json.dumps(game)}]"]
            lines += [f"{uid} = {json.dumps(card)}"
                      for uid, card in sorted(self._pairs[game].items())]
        return "\n".join(lines) + "\n"

    def save(self, path: Path | str) -> None:
        """Write the map to ``path`` atomically (temporary file, fsync, rename)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".cards-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(self.to_text())
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self.source = str(path)
