"""The headless referee loop shared by every game's command.

It reads a record (or standard input, one action per line as a player would type), proposes
each action to a :class:`~companion.session.Session`, and prints one verdict per action, as
text or as one JSON object per line. Exit status: 0 when every action was legal, 1 when one
was refused, 2 for unreadable input (naming the file, line and what is wrong).

Besides the game's own notation, a line may hold one of these referee words:

- ``roll`` (or ``shuffle``, ``flip``): let the companion draw the pending chance event;
- ``undo``: take back the last action (a virtual roll stands);
- ``legal``: list the legal actions of the current position.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from companion.games.core import Game, IllegalAction, NotationError, SetupError
from companion.journal import JournalError
from companion.resources import shipped_text
from companion.session import Session, Verdict

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_UNREADABLE = 2

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
    """One action line of a record, with where it came from."""

    source: str
    number: int
    text: str


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

    Raises:
        UnreadableInput: the file cannot be read as UTF-8 text.
    """
    try:
        return str(path), path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UnreadableInput(str(path), None, f"cannot read the file ({error})") from error


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
                err: IO[str] | None = None, stdin: IO[str] | None = None) -> int:
    """Run the referee for ``game`` as the command line asked; return the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    stdin = stdin or sys.stdin
    try:
        session = _open_session(game, args, sources, options, err)
    except UnreadableInput as error:
        print(f"error: {error}", file=err)
        return EXIT_UNREADABLE
    with session:
        if args.record is not None:
            try:
                text = args.record.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                print(f"error: {args.record}: cannot read the record ({error})", file=err)
                return EXIT_UNREADABLE
            lines = record_lines(text.splitlines(), str(args.record))
            interactive = False
        else:
            lines = record_lines(stdin, "<stdin>")
            interactive = stdin.isatty()
        status = _referee_lines(session, lines, args.json, annotate, out, err, interactive)
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
    except (JournalError, FileNotFoundError) as error:
        raise UnreadableInput(str(args.journal), None, str(error)) from error


def _referee_lines(session: Session, lines: Iterable[RecordLine], as_json: bool,
                   annotate: Annotator | None, out: IO[str], err: IO[str],
                   interactive: bool) -> int:
    status = EXIT_OK
    for line in lines:
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
                verdict = session.propose(line.text, source="typed")
        except NotationError as error:
            problem = UnreadableInput(line.source, line.number, str(error))
            print(f"error: {problem}", file=err)
            if as_json:
                print(json.dumps({"action": line.text, "legal": None, "error": str(problem)}),
                      file=out, flush=True)
            if not interactive:
                return EXIT_UNREADABLE
            status = max(status, EXIT_UNREADABLE)
            continue
        except IllegalAction as refusal:  # undo refused, or no chance pending
            verdict = Verdict(line.text, False, (), refusal.code, refusal.reason,
                              str(refusal.rule))
        notes = annotate(session, verdict) if annotate else {}
        _print_verdict(session, verdict, notes, as_json, out)
        if not verdict.legal:
            status = max(status, EXIT_REFUSED)
    return status


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
        for text in texts:
            print(f"legal    {text}", file=out)
    out.flush()
