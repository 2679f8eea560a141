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

Nothing already on disk is ever overwritten: :meth:`Journal.create` creates the file with
``O_EXCL`` (an existing empty file may be used, anything else is refused, saying what the file
holds), and a writer holds an exclusive ``flock`` on the journal for as long as it is open, so
a second writer is refused, naming the holder's process id. A write that fails (disk full) is
cut back to the last good record, so the journal stays resumable and the next append may
succeed once there is room.

Example:
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.journal"
    >>> with Journal.create(path, {"game": "infinifield"}) as journal:
    ...     journal.append({"type": "action", "action": "start Ben W1"})
    >>> read_journal(path).records[0]["action"]
    'start Ben W1'
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import stat
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT_VERSION = 2
"""Version 2 numbers every record after the header (``seq`` 1, 2, 3...); version 1 did not."""

NO_ROOM_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
"""Errors that mean "there is no room for this record" (disk full, quota, file size limit)."""


class JournalError(OSError):
    """A journal that cannot be used."""


class JournalCorrupt(JournalError):
    """A damaged line that is not the torn tail of a power cut."""


class JournalExists(JournalError, FileExistsError):
    """Creating a journal where a non-empty file already exists (resume it instead)."""


class JournalMissing(JournalError, FileNotFoundError):
    """Resuming a journal that is not there."""


class JournalLocked(JournalError):
    """Another process is writing this journal."""


class JournalInvalid(JournalCorrupt):
    """A journal whose lines are intact but whose content cannot be replayed.

    Attributes:
        path: the journal.
        line: the line number (1 is the header).
        problem: what is wrong, in one sentence.
    """

    def __init__(self, path: Path | str, line: int, problem: str) -> None:
        self.path, self.line, self.problem = str(path), line, problem
        super().__init__(f"{path}: line {line}: {problem}")


class JournalWriteFailed(JournalError):
    """A record could not be written; the journal was cut back to its last good record.

    Attributes:
        reason: a few words for the players (``"disk full"``).
        intact: whether the journal is still usable (the cut back worked).
    """

    def __init__(self, path: Path | str, error: OSError, intact: bool = True,
                 after: str = "") -> None:
        self.reason = describe_os_error(error)
        self.intact = intact
        after = after or ("the journal was cut back to its last good record" if intact else
                          "the journal could not be cut back; resuming it will set the "
                          "damaged end aside")
        super().__init__(f"{path}: not recorded: {self.reason}; {after}")


def describe_os_error(error: OSError) -> str:
    """A few words for an operating-system error (``"disk full"``, ``"permission denied"``).

    Example:
        >>> describe_os_error(OSError(errno.ENOSPC, "No space left on device"))
        'disk full'
    """
    if error.errno in NO_ROOM_ERRNOS:
        return "disk full"
    if error.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if error.errno == errno.EROFS:
        return "read-only file system"
    return (error.strerror or str(error) or type(error).__name__).lower()


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
    except (ValueError, UnicodeDecodeError, RecursionError):
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


def _crlf_converted(data: bytes) -> bool:
    """Whether ``data`` is a journal whose line endings were turned into CRLF."""
    first = data.split(b"\n", 1)[0]
    return first.endswith(b"\r") and decode_record(first[:-1]) is not None


def read_journal(path: Path | str) -> JournalContents:
    """Read every intact record of a journal, detecting a torn tail.

    Raises:
        JournalCorrupt: a damaged line sits before intact ones (naming the line number), or
            the line endings were converted to CRLF.
        FileNotFoundError: there is no journal at ``path``.
    """
    data = Path(path).read_bytes()
    if _crlf_converted(data):
        raise JournalCorrupt(f"{path}: line 1: the line endings were converted to CRLF "
                             f"(Windows); convert them back (dos2unix) to resume this game; "
                             f"the file was left untouched")
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


def describe_contents(path: Path | str) -> str:
    """What an existing file holds, in a few words, for refusing to write over it.

    Example:
        >>> import tempfile, pathlib
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "notes.txt"
        >>> _ = path.write_text("shopping: eggs" + chr(10))
        >>> describe_contents(path)
        "text that is not a journal (1 line(s), 15 bytes, starting 'shopping: eggs')"
    """
    path = Path(path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            return "not a regular file" if not path.is_dir() else "a directory"
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError as error:
        return f"a file that cannot be read ({describe_os_error(error)})"
    if _crlf_converted(head if b"\n" in head else head + b"\n"):
        return "a game journal whose line endings were converted to CRLF (Windows)"
    first = head.split(b"\n", 1)[0]
    record = decode_record(first)
    if record is not None and record.get("type") == "header":
        try:
            contents = read_journal(path)
            count = f"{len(contents.records)} record(s)"
        except (OSError, ValueError):
            count = "damaged records"
        return f"a game journal of {record.get('game', 'an unknown game')!s:.40} with {count}"
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        return f"binary data ({info.st_size:,} bytes), not a journal"
    shown = first.decode("utf-8", errors="replace").strip()
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    lines = text.count("\n") if info.st_size <= len(head) else "many"
    return (f"text that is not a journal ({lines} line(s), {info.st_size:,} bytes, "
            f"starting {shown!r})")


def _already_there(path: Path) -> str:
    """Why a new journal is not written over ``path`` (which is not empty)."""
    holds = describe_contents(path)
    hint = "resume it (--resume) or choose another file" if holds.startswith("a game journal ") \
        else "choose another file"
    return f"{path}: already holds {holds}; it was left untouched: {hint}"


def _lock(fd: int, path: Path) -> None:
    """Take the exclusive writer's lock on ``fd``.

    Raises:
        JournalLocked: another process holds it (naming that process when it can be found).
    """
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = lock_holder(fd)
        who = f"process {holder}" if holder is not None else "another process"
        raise JournalLocked(f"{path}: {who} is already writing this journal; close that "
                            f"referee first (two writers would duplicate records)") from None
    except OSError as error:
        raise JournalError(f"{path}: cannot lock the journal "
                           f"({describe_os_error(error)})") from None


def lock_holder(fd: int) -> int | None:
    """The process id holding a ``flock`` on the file open as ``fd`` (from ``/proc/locks``)."""
    info = os.fstat(fd)
    wanted = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if "->" in parts:  # a waiter, not the holder
            continue
        if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5] == wanted:
            try:
                pid = int(parts[4])
            except ValueError:
                continue
            if pid != os.getpid():
                return pid
    return None


class Journal:
    """An open journal, appending records durably, locked against a second writer.

    Use :meth:`create` for a new game and :meth:`open` to resume one. ``close()`` is
    idempotent and the journal is a context manager.
    """

    def __init__(self, path: Path, contents: JournalContents, fd: int) -> None:
        self.path = path
        self.header: dict[str, Any] = contents.header or {}
        self.records: list[dict[str, Any]] = list(contents.records)
        self.torn = contents.torn
        self._size = contents.good_size
        self._fd: int | None = fd
        self._repaired = contents.torn is None
        self._broken = False  # a failed write could not be cut back yet

    @classmethod
    def create(cls, path: Path | str, header: Mapping[str, Any]) -> Journal:
        """Start a new journal with ``header`` (fsynced, directory entry included).

        The file is created with ``O_EXCL``; an existing *empty* file is used, anything
        else is left untouched and refused.

        Raises:
            JournalExists: a non-empty file is already there (the message says what it holds).
            JournalLocked: another process holds the (empty) file.
            JournalWriteFailed: the header could not be written (disk full); no file is left.
            JournalError: the file cannot be created (permission, not a regular file).
        """
        path = Path(path)
        record = {"type": "header", "format": FORMAT_VERSION, **header}
        line = encode_record(record)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
            created = True
        except FileExistsError:
            fd, created = cls._open_existing_empty(path), False
        except OSError as error:
            raise JournalError(f"{path}: cannot create the journal "
                               f"({describe_os_error(error)})") from None
        try:
            _lock(fd, path)
            if os.fstat(fd).st_size > 0:
                raise JournalExists(_already_there(path))
            try:
                if os.write(fd, line) != len(line):
                    raise OSError(errno.ENOSPC, "short write")
                os.fsync(fd)
                _fsync_directory(path.parent)
            except OSError as error:
                if created:
                    path.unlink(missing_ok=True)
                else:
                    os.ftruncate(fd, 0)
                raise JournalWriteFailed(path, error, after="no game was started") from None
        except BaseException:
            os.close(fd)
            raise
        return cls(path, JournalContents(record, [], None, len(line)), fd)

    @staticmethod
    def _open_existing_empty(path: Path) -> int:
        """Open an existing file for :meth:`create` if it may become a journal."""
        try:
            info = path.stat()
            if not stat.S_ISREG(info.st_mode):
                raise JournalExists(f"{path}: is {describe_contents(path)}, not a journal file; "
                                    f"choose another file")
            if info.st_size > 0:
                raise JournalExists(_already_there(path))
            return os.open(path, os.O_WRONLY | os.O_APPEND)
        except JournalError:
            raise
        except OSError as error:
            raise JournalError(f"{path}: cannot create the journal "
                               f"({describe_os_error(error)})") from None

    @classmethod
    def open(cls, path: Path | str, *, repair: bool = True) -> Journal:
        """Open an existing journal to resume it, taking the writer's lock.

        A torn tail is copied to ``<path>.torn`` and cut off (unless ``repair`` is false:
        then call :meth:`repair` before appending); :attr:`torn` reports it.

        Raises:
            JournalMissing: there is no file at ``path``.
            JournalLocked: another process is writing it.
            JournalError: the file holds no header (nothing was ever acknowledged), or it
                cannot be opened for writing.
            JournalCorrupt: a damaged line sits before intact ones.
        """
        path = Path(path)
        try:
            if path.exists() and not path.is_file():
                raise JournalError(f"{path}: is {describe_contents(path)}, not a journal")
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        except FileNotFoundError:
            raise JournalMissing(f"{path}: no journal there; there is no game to resume") \
                from None
        except JournalError:
            raise
        except OSError as error:
            raise JournalError(f"{path}: cannot open the journal for writing "
                               f"({describe_os_error(error)}); nothing was changed") from None
        try:
            _lock(fd, path)
            try:
                contents = read_journal(path)
            except JournalError:
                raise
            except OSError as error:
                raise JournalError(f"{path}: cannot read the journal "
                                   f"({describe_os_error(error)})") from None
            if contents.header is None:
                raise JournalError(f"{path}: no intact header; there is no game to resume "
                                   f"(it holds {describe_contents(path)})")
            journal = cls(path, contents, fd)
            if repair:
                journal.repair()
        except BaseException:
            os.close(fd)
            raise
        return journal

    def repair(self) -> None:
        """Set a torn tail aside in ``<path>.torn`` and cut it off (once; idempotent).

        Raises:
            JournalError: the torn bytes cannot be set aside (disk full, read-only directory);
                the journal is then left exactly as it was.
        """
        if self._repaired or self.torn is None:
            self._repaired = True
            return
        fd = self._require_fd()
        side = Path(f"{self.path}.torn")
        try:
            with open(self.path, "rb") as handle:
                handle.seek(self.torn.offset)
                damaged = handle.read()
            with open(side, "ab") as handle:
                before = handle.tell()
                try:
                    handle.write(damaged)
                    handle.flush()
                    os.fsync(handle.fileno())
                except OSError:
                    handle.truncate(before)
                    raise
            os.ftruncate(fd, self.torn.offset)
            os.fsync(fd)
        except OSError as error:
            raise JournalError(f"{self.path}: cannot set the damaged last {self.torn.size} "
                               f"byte(s) aside in {side} ({describe_os_error(error)}); the "
                               f"journal was left as it was; make room or copy it to a "
                               f"writable place and resume again") from None
        self._size = self.torn.offset
        self._repaired = True

    def _require_fd(self) -> int:
        if self._fd is None:
            raise JournalError(f"{self.path}: journal is closed")
        return self._fd

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one record and fsync it; when this returns, the record is acknowledged.

        Raises:
            JournalWriteFailed: the write or fsync failed (disk full); the file was cut back
                to the last good record, so nothing before is lost and the journal stays
                usable.
            JournalError: the journal is closed or its torn tail was not set aside.
        """
        fd = self._require_fd()
        if not self._repaired:
            raise JournalError(f"{self.path}: the torn tail must be set aside first")
        if self._broken and not self._cut_back():
            raise JournalWriteFailed(self.path, OSError(errno.EIO, "cannot cut back"), False)
        line = encode_record(record)
        try:
            written = os.write(fd, line)
            if written != len(line):
                raise OSError(errno.ENOSPC, f"short write ({written} of {len(line)} bytes)")
            os.fsync(fd)
        except OSError as error:
            raise JournalWriteFailed(self.path, error, self._cut_back()) from None
        self._size += len(line)
        self.records.append(dict(record))

    def _cut_back(self) -> bool:
        """Cut the file back to its last good record after a failed write."""
        if self._fd is None:
            return False
        try:
            os.ftruncate(self._fd, self._size)
            os.fsync(self._fd)
        except OSError:
            self._broken = True
            return False
        self._broken = False
        return True

    def close(self) -> None:
        """Close the file (releasing the lock). Safe to call more than once."""
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
