"""The headless referee loop shared by every game's command.

It reads a record (or standard input, one action per line as a player would type), proposes
each action to a :class:`~companion.session.Session`, and prints one verdict per action, as
text or as one JSON object per line. Exit status: 0 when every action was legal, 1 when one
was refused, 2 for unreadable input or an unusable journal (naming the file, line and what is
wrong), 3 when an action could not be recorded in the journal (disk full: it was not applied,
and the game goes on from before it).

Input is read as bytes and decoded line by line, so text that is not UTF-8 is reported with
its line number, and a line longer than :data:`MAX_LINE_BYTES` is refused with a shortened
excerpt (never echoed in full).

Besides the game's own notation, a line may hold one of these referee words:

- ``roll`` (or ``shuffle``, ``flip``): let the companion draw the pending chance event;
- ``undo``: take back the last action (a virtual roll stands);
- ``legal``: list the legal actions of the current position.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO

from companion.games.core import Game, IllegalAction, NotationError, SetupError
from companion.games.datafile import MAX_DATA_BYTES
from companion.journal import JournalError
from companion.resources import shipped_text
from companion.session import NOT_RECORDED, Session, Verdict

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_UNREADABLE = 2
EXIT_NOT_RECORDED = 3

MAX_LINE_BYTES = 4096
"""The longest action line read (far above any notation); longer lines are refused."""
EXCERPT_CHARS = 60
"""How much of an unreadable line an error message quotes."""

CHANCE_WORDS = frozenset({"roll", "shuffle", "flip"})

Annotator = Callable[[Session, Verdict], Mapping[str, Any]]
"""Extra figures a game adds to a verdict (e.g. the Infinidungeon advisor's odds)."""


class UnreadableInput(Exception):
    """Input the referee cannot read: names the source, line and problem."""

    def __init__(self, source: str, line: int | None, problem: str) -> None:
        self.source, self.line, self.problem = source, line, problem
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {problem}")


@dataclass(frozen=True)
class RecordLine:
    """One action line of a record, with where it came from.

    Attributes:
        source: the file (or ``<stdin>``).
        number: the line number, from 1.
        text: the action, comments and surrounding blanks removed.
        problem: why the line cannot be read (then ``text`` is empty), or ``""``.
    """

    source: str
    number: int
    text: str
    problem: str = ""


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text`` quoted, cut to ``limit`` characters with its full length said.

    Example:
        >>> excerpt("take Ann 2")
        "'take Ann 2'"
        >>> excerpt("x" * 10_000_000, 5)
        "'xxxxx'... (10,000,000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def decoded_lines(stream: BinaryIO) -> Iterator[tuple[str | None, str]]:
    r"""``(text, problem)`` for each line of a byte stream: the text, or why it is unreadable.

    A line that is not UTF-8 or longer than :data:`MAX_LINE_BYTES` gives ``(None, problem)``
    naming the byte and column or the length, with a shortened excerpt. At most
    ``MAX_LINE_BYTES`` of a line are ever held in memory.

    Example:
        >>> import io
        >>> for pair in decoded_lines(io.BytesIO(b"roll 3\ntake \xff\n")):
        ...     print(pair)
        ('roll 3\n', '')
        (None, "not UTF-8 text (byte 0xff at column 6): 'take \ufffd'")
    """
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            size = len(raw)
            while True:  # skip the rest of the line, a megabyte at a time
                rest = stream.readline(1 << 20)
                size += len(rest)
                if not rest or rest.endswith(b"\n"):
                    break
            shown = f"{raw[:EXCERPT_CHARS].decode('utf-8', errors='replace')!r}..."
            yield None, (f"the line is {size:,} bytes long; an action line is at most "
                         f"{MAX_LINE_BYTES:,} bytes (it starts {shown})")
            continue
        try:
            yield raw.decode("utf-8"), ""
        except UnicodeDecodeError as error:
            shown = excerpt(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
            yield None, (f"not UTF-8 text (byte 0x{raw[error.start]:02x} at column "
                         f"{error.start + 1}): {shown}")


def stream_lines(stream: IO[str] | BinaryIO, source: str) -> Iterator[RecordLine]:
    """The action lines of a stream (standard input, a record), unreadable ones included.

    A text stream with an underlying byte buffer (``sys.stdin``) is read as bytes, so its
    locale never decides whether a line can be read.
    """
    buffer = getattr(stream, "buffer", None)
    pairs: Iterable[tuple[str | None, str]]
    if buffer is not None:
        pairs = decoded_lines(buffer)
    elif isinstance(stream, (io.BufferedIOBase, io.RawIOBase)):
        pairs = decoded_lines(stream)
    else:
        pairs = ((str(text), "") for text in stream)
    for number, (text, problem) in enumerate(pairs, start=1):
        if text is not None and len(text) > MAX_LINE_BYTES:
            problem = (f"the line is {len(text):,} characters long; an action line is at most "
                       f"{MAX_LINE_BYTES:,} (it starts {excerpt(text)})")
            text = None
        if text is None:
            yield RecordLine(source, number, "", problem)
            continue
        action = text.split("#", 1)[0].strip()
        if action:
            yield RecordLine(source, number, action)


def record_lines(lines: Iterable[str], source: str) -> Iterator[RecordLine]:
    """The action lines of a record: comments (``#``) and blank lines dropped.

    Example:
        >>> [line.text for line in record_lines(["# a game", "start Ben W1  # first", ""], "r")]
        ['start Ben W1']
    """
    for number, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].strip()
        if text:
            yield RecordLine(source, number, text)


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every game's referee command shares."""
    parser.add_argument("record", nargs="?", type=Path,
                        help="game record to replay (default: read actions from standard input)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per verdict instead of text")
    parser.add_argument("--journal", type=Path, metavar="PATH",
                        help="record the game in a crash-safe journal at PATH")
    parser.add_argument("--resume", action="store_true",
                        help="resume the unfinished game in --journal, then continue")
    parser.add_argument("--seed", type=int, help="seed of the companion's virtual dice")
    parser.add_argument("--legal", action="store_true",
                        help="after the record, list the legal actions of the position")


def read_source(path: Path) -> tuple[str, str]:
    """``(name, text)`` of a setup file.

    At most :data:`~companion.games.datafile.MAX_DATA_BYTES` are read, so a huge file (or
    ``/dev/zero``) is refused without being loaded.

    Raises:
        UnreadableInput: the file cannot be read, is too large, or is not UTF-8 text
            (naming the line).
    """
    try:
        if path.exists() and not path.is_file() and not path.is_char_device():
            raise UnreadableInput(str(path), None, "is not a file")
        with open(path, "rb") as handle:
            data = handle.read(MAX_DATA_BYTES + 1)
    except OSError as error:
        raise UnreadableInput(str(path), None,
                              f"cannot read the file ({error.strerror or error})") from None
    if len(data) > MAX_DATA_BYTES:
        raise UnreadableInput(str(path), None, f"the file is larger than {MAX_DATA_BYTES:,} "
                                               f"bytes; data files are at most that")
    try:
        return str(path), data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = 1 + data.count(b"\n", 0, error.start)
        raise UnreadableInput(str(path), line, f"not UTF-8 text (byte "
                                               f"0x{data[error.start]:02x})") from None


def setup_sources(package: str, defaults: Mapping[str, str],
                  chosen: Mapping[str, Path | None]) -> dict[str, tuple[str, str]]:
    """``{role: (name, text)}``: each role's file from the command line, else the shipped one.

    Args:
        package: the game's package holding the shipped data files.
        defaults: role -> shipped file name inside ``package``.
        chosen: role -> the path given on the command line, or ``None``.

    Raises:
        UnreadableInput: a file given on the command line cannot be read.

    Example:
        >>> sources = setup_sources("companion.games.infinifield",
        ...                         {"setup": "fields/quickstart.toml"}, {"setup": None})
        >>> sources["setup"][0]
        'companion.games.infinifield/fields/quickstart.toml'
    """
    sources = {}
    for role, default in defaults.items():
        path = chosen.get(role)
        sources[role] = (read_source(path) if path is not None else
                         (f"{package}/{default}", shipped_text(package, default)))
    return sources


def run_referee(game: Game[Any, Any, Any], args: argparse.Namespace,
                sources: Mapping[str, tuple[str, str]], options: Mapping[str, Any],
                annotate: Annotator | None = None, out: IO[str] | None = None,
                err: IO[str] | None = None, stdin: IO[str] | None = None,
                rewrite: Callable[[str], str] | None = None) -> int:
    """Run the referee for ``game`` as the command line asked; return the exit status.

    ``rewrite`` turns a typed line into the game's notation before it is proposed (e.g. a
    field file named on a line, read here because the rules read no files); it raises
    :class:`NotationError` for a line it cannot turn.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    stdin = stdin or sys.stdin
    try:
        session = _open_session(game, args, sources, options, err)
    except (UnreadableInput, JournalError) as error:
        print(f"error: {error}", file=err)
        return EXIT_UNREADABLE
    with session:
        if args.record is not None:
            try:
                record: IO[bytes] = open(args.record, "rb")  # noqa: SIM115 (closed below)
            except OSError as error:
                print(f"error: {args.record}: cannot read the record ({error.strerror or error})",
                      file=err)
                return EXIT_UNREADABLE
            with record:
                lines = stream_lines(record, str(args.record))  # type: ignore[arg-type]
                status = _referee_lines(session, lines, args.json, annotate, out, err, False,
                                        rewrite)
        else:
            lines = stream_lines(stdin, "<stdin>")
            status = _referee_lines(session, lines, args.json, annotate, out, err,
                                    stdin.isatty(), rewrite)
        if args.legal:
            _print_legal(session, args.json, out)
        outcome = session.outcome
        if outcome is not None and not args.json:
            print(f"game over: {outcome.detail or outcome.termination}", file=out)
    return status


def _open_session(game: Game[Any, Any, Any], args: argparse.Namespace,
                  sources: Mapping[str, tuple[str, str]], options: Mapping[str, Any],
                  err: IO[str]) -> Session:
    try:
        if args.resume:
            if args.journal is None:
                raise UnreadableInput("--resume", None, "needs --journal PATH")
            session = Session.resume(args.journal)
            if session.game.name != game.name:
                session.close()
                raise UnreadableInput(str(args.journal), None,
                                      f"is a {session.game.name} game, not {game.name}")
            if session.resumed_from is not None:
                print(f"warning: {session.resumed_from.describe(args.journal)}", file=err)
            print(f"resumed {args.journal}: {len(session.record)} action(s) replayed", file=err)
            return session
        return Session.new(game, sources, options, seed=args.seed, journal_path=args.journal)
    except SetupError as error:
        raise UnreadableInput(error.source, None,
                              f"{error.where + ': ' if error.where else ''}{error.problem}") \
            from error


def _referee_lines(session: Session, lines: Iterable[RecordLine], as_json: bool,
                   annotate: Annotator | None, out: IO[str], err: IO[str],
                   interactive: bool, rewrite: Callable[[str], str] | None = None) -> int:
    status = EXIT_OK
    for line in lines:
        if line.problem:
            if _unreadable(UnreadableInput(line.source, line.number, line.problem), line.text,
                           as_json, out, err) and not interactive:
                return EXIT_UNREADABLE
            status = max(status, EXIT_UNREADABLE)
            continue
        word = line.text.lower()
        try:
            if word == "legal":
                _print_legal(session, as_json, out)
                continue
            if word == "undo":
                verdict = session.undo()
            elif word in CHANCE_WORDS and session.is_chance():
                verdict = session.roll()
            else:
                text = rewrite(line.text) if rewrite is not None else line.text
                verdict = session.propose(text, source="typed")
        except NotationError as error:
            text = str(error)
            if len(text) > 4 * EXCERPT_CHARS:
                text = f"cannot read {excerpt(line.text)}"
            if _unreadable(UnreadableInput(line.source, line.number, text), line.text,
                           as_json, out, err) and not interactive:
                return EXIT_UNREADABLE
            status = max(status, EXIT_UNREADABLE)
            continue
        except IllegalAction as refusal:  # undo refused, or no chance pending
            verdict = Verdict(line.text, False, (), refusal.code, refusal.reason,
                              str(refusal.rule))
        notes = annotate(session, verdict) if annotate else {}
        _print_verdict(session, verdict, notes, as_json, out)
        if verdict.code == NOT_RECORDED:
            print(f"error: {session.journal.path if session.journal else '-'}: "
                  f"{verdict.reason}", file=err)
            status = max(status, EXIT_NOT_RECORDED)
        elif not verdict.legal:
            status = max(status, EXIT_REFUSED)
    return status


def _unreadable(problem: UnreadableInput, text: str, as_json: bool, out: IO[str],
                err: IO[str]) -> bool:
    """Report an unreadable line (on standard error, and as JSON if asked); returns True."""
    print(f"error: {problem}", file=err)
    if as_json:
        shown = text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS] + "..."
        print(json.dumps({"action": shown, "legal": None, "error": str(problem)},
                         ensure_ascii=False), file=out, flush=True)
    return True


def _print_verdict(session: Session, verdict: Verdict, notes: Mapping[str, Any],
                   as_json: bool, out: IO[str]) -> None:
    if as_json:
        data = verdict.to_json()
        data.update(notes)
        print(json.dumps(data, ensure_ascii=False), file=out, flush=True)
        return
    if verdict.legal:
        described = "; ".join(session.game.describe_event(event) for event in verdict.events)
        print(f"ok       {verdict.action}{'  -- ' + described if described else ''}", file=out)
    elif verdict.code == NOT_RECORDED:
        print(f"NOT RECORDED  {verdict.action}: {verdict.reason} [{verdict.rule}]", file=out)
    else:
        print(f"REFUSED  {verdict.action}: {verdict.reason} [{verdict.rule}]", file=out)
    for key, value in notes.items():
        if isinstance(value, list):
            for item in value:
                print(f"         {key}: {item}", file=out)
        else:
            print(f"         {key}: {value}", file=out)
    out.flush()


def _print_legal(session: Session, as_json: bool, out: IO[str]) -> None:
    texts = [session.game.format_action(action) for action in session.legal_actions()]
    if as_json:
        print(json.dumps({"legal_actions": texts, "chance": session.is_chance()}), file=out)
    else:
        if session.is_chance() and not texts:
            print("a chance event is due: type `roll` or the values the dice show", file=out)
        grouped = getattr(session.game, "grouped_legal", None)  # a game may group a long list
        for text in grouped(texts) if callable(grouped) and texts else texts:
            print(f"legal    {text}", file=out)
    out.flush()
