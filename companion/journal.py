r"""Crash-safe, append-only game record.

A journal is a text file of records, one per line::

    {"type":"header","game":"infinifield",...}\t1c291ca3
    {"type":"action","n":1,"action":"start Ben W1","source":"typed"}\t5d0f4e12

Each line is compact JSON, a tab, and the CRC-32 of the JSON bytes in hex. A record is
acknowledged only once :meth:`Journal.append` has written *and fsynced* it, which the session
does before any light, sound or screen reacts.

After a power cut the last line may be torn (cut short) or garbled. :func:`read_journal`
detects this with the newline and the CRC, reports it as a :class:`TornTail`, and
:meth:`Journal.open` moves those bytes to ``<journal>.torn`` before truncating, so the records
before them are never touched and nothing is silently thrown away. A bad line *followed by
good ones* is not a power cut: it raises :class:`JournalCorrupt` naming the line.

Example:
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.journal"
    >>> with Journal.create(path, {"game": "infinifield"}) as journal:
    ...     journal.append({"type": "action", "action": "start Ben W1"})
    >>> read_journal(path).records[0]["action"]
    'start Ben W1'
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT_VERSION = 1


class JournalError(OSError):
    """A journal that cannot be used."""


class JournalCorrupt(JournalError):
    """A damaged line that is not the torn tail of a power cut."""


class JournalExists(JournalError, FileExistsError):
    """Creating a journal where one already exists (resume it instead)."""


def encode_record(record: Mapping[str, Any]) -> bytes:
    r"""One journal line for ``record``, with its CRC and newline.

    Example:
        >>> encode_record({"type": "undo"})
        b'{"type":"undo"}\tca3fcce3\n'
    """
    payload = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
    return payload + b"\t" + f"{zlib.crc32(payload):08x}".encode() + b"\n"


def decode_record(line: bytes) -> dict[str, Any] | None:
    """The record on one complete line (without its newline), or ``None`` if it is damaged."""
    payload, tab, crc = line.rpartition(b"\t")
    if not tab or len(crc) != 8:
        return None
    try:
        if int(crc, 16) != zlib.crc32(payload):
            return None
        record = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        return None
    return record if isinstance(record, dict) else None


@dataclass(frozen=True)
class TornTail:
    """Bytes at the end of a journal that do not form whole, intact records.

    Attributes:
        offset: where the damaged bytes start (the file is good up to here).
        size: how many bytes are damaged.
        lines: how many (possibly partial) lines they span.
    """

    offset: int
    size: int
    lines: int

    def describe(self, path: Path | str) -> str:
        """One sentence for the player and the log."""
        return (f"{path}: the last {self.size} byte(s) at offset {self.offset} were cut short "
                f"or garbled (power cut?) and were set aside; every record before them is kept")


@dataclass(frozen=True)
class JournalContents:
    """What a journal holds: its header, its records, and a torn tail if any."""

    header: dict[str, Any] | None
    records: list[dict[str, Any]] = field(default_factory=list)
    torn: TornTail | None = None
    good_size: int = 0


def read_journal(path: Path | str) -> JournalContents:
    """Read every intact record of a journal, detecting a torn tail.

    Raises:
        JournalCorrupt: a damaged line sits before intact ones (naming the line number).
        FileNotFoundError: there is no journal at ``path``.
    """
    data = Path(path).read_bytes()
    records: list[dict[str, Any]] = []
    offset = 0
    first_bad: tuple[int, int] | None = None  # (line number, offset)
    line_number = 0
    while offset < len(data):
        line_number += 1
        end = data.find(b"\n", offset)
        complete = end != -1
        line = data[offset:end] if complete else data[offset:]
        record = decode_record(line) if complete else None
        if record is None:
            if first_bad is None:
                first_bad = (line_number, offset)
        elif first_bad is not None:
            raise JournalCorrupt(f"{path}: line {first_bad[0]} is damaged but line "
                                 f"{line_number} after it is intact; this is not a torn tail, "
                                 f"refusing to guess (the file was left untouched)")
        else:
            records.append(record)
        offset = end + 1 if complete else len(data)
    torn = None
    good_size = len(data)
    if first_bad is not None:
        good_size = first_bad[1]
        torn = TornTail(good_size, len(data) - good_size, line_number - first_bad[0] + 1)
    header = records.pop(0) if records else None
    if header is not None and header.get("type") != "header":
        raise JournalCorrupt(f"{path}: line 1 is not a journal header")
    return JournalContents(header, records, torn, good_size)


class Journal:
    """An open journal, appending records durably.

    Use :meth:`create` for a new game and :meth:`open` to resume one. ``close()`` is
    idempotent and the journal is a context manager.
    """

    def __init__(self, path: Path, contents: JournalContents) -> None:
        self.path = path
        self.header: dict[str, Any] = contents.header or {}
        self.records: list[dict[str, Any]] = list(contents.records)
        self.torn = contents.torn
        self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND)

    @classmethod
    def create(cls, path: Path | str, header: Mapping[str, Any]) -> Journal:
        """Start a new journal with ``header`` (fsynced, directory entry included).

        Raises:
            JournalExists: a journal with records is already there.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > 0:
            contents = read_journal(path)
            if contents.header is not None:
                raise JournalExists(f"{path}: a game journal is already there; resume it or "
                                    f"choose another file")
        record = {"type": "header", "format": FORMAT_VERSION, **header}
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, encode_record(record))
            os.fsync(fd)
        finally:
            os.close(fd)
        _fsync_directory(path.parent)
        return cls(path, JournalContents(record, [], None, path.stat().st_size))

    @classmethod
    def open(cls, path: Path | str) -> Journal:
        """Open an existing journal to resume it.

        A torn tail is copied to ``<path>.torn`` and cut off; :attr:`torn` reports it.

        Raises:
            JournalError: the file holds no header (nothing was ever acknowledged).
            JournalCorrupt: a damaged line sits before intact ones.
        """
        path = Path(path)
        contents = read_journal(path)
        if contents.header is None:
            raise JournalError(f"{path}: no intact header; there is no game to resume")
        if contents.torn is not None:
            data = path.read_bytes()
            with open(f"{path}.torn", "ab") as side:
                side.write(data[contents.good_size:])
                side.flush()
                os.fsync(side.fileno())
            with open(path, "r+b") as handle:
                handle.truncate(contents.good_size)
                handle.flush()
                os.fsync(handle.fileno())
        return cls(path, contents)

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one record and fsync it; when this returns, the record is acknowledged."""
        if self._fd is None:
            raise JournalError(f"{self.path}: journal is closed")
        line = encode_record(record)
        written = os.write(self._fd, line)
        if written != len(line):
            raise JournalError(f"{self.path}: short write ({written} of {len(line)} bytes)")
        os.fsync(self._fd)
        self.records.append(dict(record))

    def close(self) -> None:
        """Close the file. Safe to call more than once."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._fd is None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
