"""Fuzz targets: every input a user or a broken device can hand the companion.

Each target takes a seeded ``random.Random`` and a number of inputs, feeds mutants of real,
valid inputs (from :mod:`tests.fuzz.mutations`) to the code that reads them, and returns a
:class:`Report`: how many inputs ran, how many were accepted and how many refused with a clear
error, and every *finding*: a traceback (an exception that is not the reader's own error), an
error that does not name its file or that echoes a huge input, or a lost record.

The targets:

- ``setup_files``: every shipped setup and data file of every game (each TOML file beside the
  files the app's layouts use), loaded with the other files of its layout;
- ``cli_setup``: the same files given to ``infinite-referee`` by their flag, checked or
  played;
- ``app_files``: the app's own files: settings (``settings.json``), Infinity base markers,
  NFC card pairings (``cards.toml``), the hardware pin map (``pins.toml``) and the
  translations of data files (``*.names.toml``);
- ``records``: action records of every game run through the ``infinite-referee`` command with
  a journal, as a file and on standard input (bytes, so not UTF-8 as well); every accepted
  action must be in the journal;
- ``journals``: damaged, hand-edited and CRLF-converted journals of every game resumed (a
  refused journal must be left untouched, a resumed one must keep every intact record), and
  new games started over them (refused, the file untouched);
- ``serial``: byte streams from the NFC bridge with frames cut, flipped and interleaved with
  garbage (frames outside the damage must all arrive), and intact frames whose payloads lie
  (only the codec's own error may come of them).

``tests/fuzz/test_fuzz.py`` runs each with a fixed seed in about a minute;
``bench/fuzz_marathon.py`` runs them longer and prints the counts.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import tempfile
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

from companion.app.base_markers import BaseMarkerError, parse_base_markers
from companion.app.game_setups import SETUPS
from companion.app.names import read_names
from companion.app.settings_store import AppSettings
from companion.cli.main import build_parser
from companion.games.core import SetupError
from companion.games.registry import load_game
from companion.journal import JournalError, encode_record, read_journal
from companion.resources import shipped_sources
from companion.session import Session, replay_entries
from firmware_bridge import codec
from firmware_bridge.cards import CardMap, CardMapError
from firmware_bridge.messages import message_from_frame
from hardware.pins import PinMapError, pins_from_text
from tests.fuzz import mutations

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "companion" / "games"
SCRATCH = "/dev/shm" if Path("/dev/shm").is_dir() else None
"""Where the fuzzed journals go: a RAM disk where there is one (fsync costs nothing there;
durability is tested elsewhere, what is fuzzed here is what gets written)."""
LONGEST_ERROR = 2000
"""An error message longer than this echoes the input instead of naming the problem."""

CLI_NAMES = {"infinifield": "infinifield", "infinidungeon": "infinidungeon", "401": "401",
             "infinity": "infinity", "defiance": "defiance"}


@dataclass
class Finding:
    """One input the companion handled badly.

    Attributes:
        target: the fuzz target.
        case: which valid input was mutated (file, game).
        problem: what went wrong (the traceback's last lines, or the broken promise).
        data: the input itself (to save and replay).
    """

    target: str
    case: str
    problem: str
    data: bytes = b""


@dataclass
class Report:
    """What one target did."""

    target: str
    inputs: int = 0
    accepted: int = 0
    refused: int = 0
    findings: list[Finding] = field(default_factory=list)
    misspelt: int = 0
    misspelt_accepted: list[str] = field(default_factory=list)

    def add(self, other: Report) -> None:
        """Fold another report of the same target in."""
        self.inputs += other.inputs
        self.accepted += other.accepted
        self.refused += other.refused
        self.findings.extend(other.findings)
        self.misspelt += other.misspelt
        self.misspelt_accepted.extend(other.misspelt_accepted)

    def line(self) -> str:
        """One line for a log."""
        line = (f"{self.target:12s} {self.inputs:7d} inputs  {self.accepted:7d} accepted  "
                f"{self.refused:7d} refused clearly  {len(self.findings):4d} findings")
        if self.misspelt:
            line += (f"  ({len(self.misspelt_accepted)} of {self.misspelt} single misspelt "
                     f"keys accepted)")
        return line


def _trace(error: BaseException) -> str:
    lines = traceback.format_exception(type(error), error, error.__traceback__)
    return "".join(lines[-4:])[-1500:]


def _check_message(report: Report, case: str, message: str, names: str | tuple[str, ...],
                   data: bytes) -> None:
    """A refusal must name its file (or one of the files read together) and stay short."""
    if not any(name in message for name in ((names,) if isinstance(names, str) else names)):
        report.findings.append(Finding(report.target, case,
                                       f"error does not name {names!r}: {message[:300]}", data))
    elif len(message) > LONGEST_ERROR:
        report.findings.append(Finding(report.target, case,
                                       f"error of {len(message)} characters echoes the input: "
                                       f"{message[:200]}...", data))


# -- setup files ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SetupCase:
    """One shipped data file, with the layout it is loaded in."""

    game: str
    layout: str
    role: str
    name: str
    text: str


ALSO_READ: dict[tuple[str, str], dict[str, str]] = {
    ("defiance", "chapters"): {"setup": "data/games/adventure.toml"}}
"""Roles whose file only some setups read: the file of another role that makes it read."""


@cache
def setup_cases() -> tuple[SetupCase, ...]:
    """Every shipped TOML file a layout uses, and each unused one beside it, in its role."""
    cases: dict[tuple[str, str, str], SetupCase] = {}
    for game, spec in SETUPS.items():
        used = {relative for roles in spec.layouts.values() for relative in roles.values()}
        for layout, roles in spec.layouts.items():
            for role, relative in roles.items():
                folder = Path(relative).parent
                for path in sorted((GAMES_DIR / spec.package.rsplit(".", 1)[1] / folder)
                                   .glob("*.toml")):
                    mine = (folder / path.name).as_posix()
                    if (mine != relative and mine in used) or path.name.endswith(".names.toml"):
                        continue  # another role's file, or a translation (see app_files)
                    name = f"{spec.package}/{mine}"
                    cases.setdefault((game, role, name), SetupCase(
                        game, layout, role, name, path.read_text(encoding="utf-8")))
    return tuple(cases.values())


def _load_setup(case: SetupCase, text: str) -> Any:
    spec = SETUPS[case.game]
    sources = spec.sources(case.layout)
    sources.update(shipped_sources(spec.package, ALSO_READ.get((case.game, case.role), {})))
    sources[case.role] = (case.name, text)
    game = load_game(case.game)
    setup = game.load_setup(sources, spec.build_options(None, case.layout))
    return game.initial_state(setup)


def setup_files(rng: random.Random, count: int) -> Report:
    """``count`` mutants spread over every shipped setup and data file of every game."""
    report = Report("setup_files")
    cases = setup_cases()
    for n in range(count):
        case = cases[n % len(cases)]
        misspelt = n % 8 == 7
        text = (mutations.misspell_key(rng, case.text) if misspelt else
                mutations.mutate_text(rng, case.text, rounds=rng.randrange(1, 4)))
        report.inputs += 1
        report.misspelt += misspelt and text != case.text
        try:
            _load_setup(case, text)
            report.accepted += 1
            if misspelt and text != case.text:
                report.misspelt_accepted.append(f"{case.name}: {_changed_key(case.text, text)}")
        except SetupError as error:
            report.refused += 1
            names = tuple(name for name, _ in SETUPS[case.game].sources(case.layout).values())
            _check_message(report, case.name, str(error), (case.name, *names),
                           text.encode()[:100_000])
        except Exception as error:
            report.findings.append(Finding(report.target, f"{case.game} {case.name}",
                                           _trace(error), text.encode()[:100_000]))
    return report


def _changed_key(before: str, after: str) -> str:
    """The line a misspelling changed, as ``old -> new``."""
    for old, new in zip(before.splitlines(), after.splitlines(), strict=False):
        if old != new:
            return f"{old.strip()[:40]!r} -> {new.strip()[:40]!r}"
    return "?"


CHECK_FLAGS = {"infinifield": "--check", "infinidungeon": "--check-deck", "401": "--check",
               "infinity": "--check", "defiance": "--check"}


def cli_setup(rng: random.Random, count: int) -> Report:
    """``count`` mutated setup files given to ``infinite-referee`` by their flag: checked
    (``--check``) or played (``legal`` on standard input)."""
    report = Report("cli_setup")
    cases = setup_cases()
    with tempfile.TemporaryDirectory(prefix="fuzz-cli-setup-", dir=SCRATCH) as folder:
        for n in range(count):
            case = cases[n % len(cases)]
            data = (mutations.mutate_bytes(rng, case.text.encode()) if rng.random() < 0.2 else
                    mutations.mutate_text(rng, case.text, rounds=rng.randrange(1, 4)).encode(
                        "utf-8", errors="surrogatepass"))
            path = Path(folder) / f"{n}-{Path(case.name).name}"
            path.write_bytes(data)
            argv = [CLI_NAMES[case.game], f"--{case.role}", str(path)]
            if n % 2:
                argv.append(CHECK_FLAGS[case.game])
            report.inputs += 1
            try:
                status, _, err = run_cli(argv, b"legal\n")
            except Exception as error:
                report.findings.append(Finding(report.target, case.name, _trace(error), data))
                continue
            if status == 2:
                report.refused += 1
                names = (str(path), "options: ",  # a command-line option names itself
                         *(name for name, _ in SETUPS[case.game].sources(case.layout).values()))
                _check_message(report, case.name, err, names, data)
            elif status in (0, 1):
                report.accepted += 1
            else:
                report.findings.append(Finding(report.target, case.name,
                                               f"exit status {status}: {err[:300]}", data))
    return report


# -- the app's own files --------------------------------------------------------------------------
def _app_readers() -> list[tuple[str, str, Callable[[str], object], type[Exception]]]:
    markers = (ROOT / "companion/app/bases/example.toml").read_text(encoding="utf-8")
    pins = (ROOT / "hardware/pins.toml").read_text(encoding="utf-8")
    cards = ('[infinidungeon]\n"04:A1:B2:C3:D4:E5:F6" = "R1"\n"04:11:22:33:44:55:66" = "R2"\n'
             '[401]\n"04:01:02:03:04:05:06" = "ability_1"\n')
    readers: list[tuple[str, str, Callable[[str], object], type[Exception]]] = [
        ("bases.toml", markers, lambda text: parse_base_markers("bases.toml", text),
         BaseMarkerError),
        ("cards.toml", cards, lambda text: CardMap.from_text(text, "cards.toml"), CardMapError),
        ("pins.toml", pins, lambda text: pins_from_text(text, "pins.toml"), PinMapError),
    ]
    for path in sorted(GAMES_DIR.glob("*/**/*.names.toml")):
        data = path.with_name(path.name.removesuffix(".names.toml") + ".toml")
        readers.append((path.name, path.read_text(encoding="utf-8"), partial(
            read_names, path.name, data_text=data.read_text(encoding="utf-8")), SetupError))
    return readers


def app_files(rng: random.Random, count: int) -> Report:
    """Settings, base markers, card pairings and the pin map, ``count`` mutants in all."""
    report = Report("app_files")
    readers = _app_readers()
    settings_text = json.dumps({"language": "es", "sound": False, "show_simulation": True},
                               indent=2)
    with tempfile.TemporaryDirectory(prefix="fuzz-settings-", dir=SCRATCH) as folder:
        for n in range(count):
            report.inputs += 1
            if n % 4 == 3:
                _fuzz_settings(rng, report, Path(folder) / f"{n}", settings_text)
                continue
            name, valid, read, own_error = readers[(n // 4 * 3 + n % 4) % len(readers)]
            text = mutations.mutate_text(rng, valid, rounds=rng.randrange(1, 4))
            try:
                read(text)
                report.accepted += 1
            except own_error as error:
                report.refused += 1
                _check_message(report, name, str(error), name, text.encode()[:100_000])
            except Exception as error:
                report.findings.append(Finding(report.target, name, _trace(error),
                                               text.encode()[:100_000]))
    return report


def _fuzz_settings(rng: random.Random, report: Report, folder: Path, valid: str) -> None:
    folder.mkdir()
    path = folder / "settings.json"
    data = (mutations.mutate_bytes(rng, valid.encode()) if rng.random() < 0.4 else
            mutations.mutate_text(rng, valid, rounds=rng.randrange(1, 3)).encode(
                "utf-8", errors="surrogatepass"))
    path.write_bytes(data)
    try:
        settings = AppSettings.load_or_reset(path)
    except Exception as error:
        report.findings.append(Finding(report.target, "settings.json", _trace(error), data))
        return
    if settings.reset is None:
        report.accepted += 1
        return
    report.refused += 1
    kept = settings.reset.kept
    if not kept.exists() or kept.read_bytes() != data:
        report.findings.append(Finding(report.target, "settings.json",
                                       "the bad settings file was not kept intact", data))
    _check_message(report, "settings.json", settings.reset.problem, str(path), data)


# -- records through the command line -------------------------------------------------------------
@cache
def _cli_header(game: str) -> dict[str, Any]:
    """The journal header the referee command writes for ``game`` (its default setup)."""
    with tempfile.TemporaryDirectory(prefix="fuzz-header-") as folder:
        journal = Path(folder) / "game.journal"
        status, _, err = run_cli([CLI_NAMES[game], "--journal", str(journal), "--seed", "1"],
                                 b"")
        assert status == 0, err
        header = read_journal(journal).header
        assert header is not None
        return header


def valid_record(game: str, rng: random.Random, length: int = 30) -> list[str]:
    """A record of ``length`` random legal actions of ``game`` from the command's setup."""
    header = _cli_header(game)
    sources = {role: (pair[0], pair[1]) for role, pair in header["sources"].items()}
    session = Session(load_game(game), sources, header.get("options", {}), int(header["seed"]))
    lines: list[str] = []
    for _ in range(length):
        if session.finished:
            break
        if session.is_chance():
            verdict = session.roll()
        else:
            actions = list(session.legal_actions())
            if not actions:
                break
            verdict = session.propose(rng.choice(actions))
        if verdict.legal:
            lines.append(verdict.action)
    return lines


VARIANTS = 4
"""How many different valid records of each game the mutants start from."""


@cache
def _record_text(game: str, variant: int) -> str:
    return "\n".join(valid_record(game, random.Random(f"{game}/{variant}"))) + "\n"


def run_cli(argv: list[str], stdin: bytes) -> tuple[int, str, str]:
    """Run ``infinite-referee`` in this process; ``(status, stdout, stderr)``."""
    args: argparse.Namespace = build_parser().parse_args(argv)
    out, err = io.StringIO(), io.StringIO()
    status = args.run(args, out=out, err=err, stdin=io.TextIOWrapper(io.BytesIO(stdin)))
    return int(status), out.getvalue(), err.getvalue()


def records(rng: random.Random, count: int) -> Report:
    """``count`` mutated records, every game in turn, half from a file and half on stdin."""
    report = Report("records")
    games = list(CLI_NAMES)
    with tempfile.TemporaryDirectory(prefix="fuzz-records-", dir=SCRATCH) as folder:
        for n in range(count):
            game = games[n % len(games)]
            valid = _record_text(game, rng.randrange(VARIANTS))
            data = (mutations.mutate_bytes(rng, valid.encode()) if rng.random() < 0.3 else
                    mutations.mutate_text(rng, valid, rounds=rng.randrange(1, 4)).encode(
                        "utf-8", errors="surrogatepass"))
            journal = Path(folder) / f"{n}.journal"
            argv = [CLI_NAMES[game], "--json", "--journal", str(journal), "--seed", str(n)]
            stdin = data
            if n % 2:
                record = Path(folder) / f"{n}.txt"
                record.write_bytes(data)
                argv.append(str(record))
                stdin = b""
            report.inputs += 1
            try:
                status, out, err = run_cli(argv, stdin)
            except Exception as error:
                report.findings.append(Finding(report.target, game, _trace(error), data))
                continue
            _check_record_run(report, game, data, journal, status, out, err)
    return report


def _check_record_run(report: Report, game: str, data: bytes, journal: Path, status: int,
                      out: str, err: str) -> None:
    if status not in (0, 1, 2):
        report.findings.append(Finding(report.target, game, f"exit status {status}: {err}",
                                       data))
        return
    if status == 2:
        report.refused += 1
        for line in err.splitlines():
            if len(line) > LONGEST_ERROR:
                report.findings.append(Finding(report.target, game,
                                               f"an error line of {len(line)} characters", data))
    else:
        report.accepted += 1
    verdicts = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    accepted = [v for v in verdicts if v.get("legal") and "action" in v]
    contents = read_journal(journal)
    kept = [entry["action"] for entry in replay_entries(contents.records)]
    expected: list[str] = []
    for verdict in accepted:
        if verdict["action"].startswith("undo ") and verdict.get("events", [{}])[0].get(
                "kind") == "undone":
            expected.pop()
        else:
            expected.append(verdict["action"])
    if kept != expected or contents.torn is not None:
        report.findings.append(Finding(report.target, game,
                                       f"lost records: printed {expected[-3:]}, journal "
                                       f"holds {kept[-3:]} ({len(expected)} vs {len(kept)})",
                                       data))


# -- journals -------------------------------------------------------------------------------------
@cache
def _valid_journal(game: str) -> bytes:
    """A journal of a random game of ``game``: actions, a refusal, an undo."""
    header = _cli_header(game)
    sources = {role: (pair[0], pair[1]) for role, pair in header["sources"].items()}
    with tempfile.TemporaryDirectory(prefix="fuzz-journal-") as folder:
        path = Path(folder) / "game.journal"
        rng = random.Random(game)
        with Session.new(load_game(game), sources, header.get("options", {}), seed=7,
                         journal_path=path) as session:
            for action in valid_record(game, rng, 25):
                session.propose(action)
            last = session.record[-1] if session.record else None
            if last is not None and last.source != "virtual":
                session.undo()
                session.propose(last.text)
        return path.read_bytes()


def _hand_edit(rng: random.Random, data: bytes) -> bytes:
    """Lines deleted, repeated, swapped or their JSON changed, every checksum made valid."""
    records = [json.loads(line.rpartition(b"\t")[0]) for line in data.splitlines()]
    text = "\n".join(json.dumps(record, ensure_ascii=False) for record in records)
    edited = mutations.mutate_text(rng, text, rounds=rng.randrange(1, 3))
    lines = []
    for line in edited.split("\n"):
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            lines.append(line.encode("utf-8", errors="surrogatepass") + b"\t00000000\n")
            continue
        lines.append(encode_record(record) if isinstance(record, dict) else
                     line.encode("utf-8", errors="surrogatepass") + b"\n")
    return b"".join(lines)


def journals(rng: random.Random, count: int) -> Report:
    """``count`` damaged or hand-edited journals of every game, resumed."""
    report = Report("journals")
    games = list(CLI_NAMES)
    with tempfile.TemporaryDirectory(prefix="fuzz-journals-", dir=SCRATCH) as folder:
        for n in range(count):
            game = games[n % len(games)]
            valid = _valid_journal(game)
            choice = rng.random()
            data = (_hand_edit(rng, valid) if choice < 0.45 else
                    mutations.mutate_bytes(rng, valid) if choice < 0.9 else
                    mutations.mutate_bytes(rng, valid).replace(b"\n", b"\r\n"))
            path = Path(folder) / f"{n}.journal"
            path.write_bytes(data)
            report.inputs += 1
            if n % 5 == 4:
                _create_over(report, game, path, data)
            else:
                _resume_one(report, game, path, data)
    return report


def _create_over(report: Report, game: str, path: Path, data: bytes) -> None:
    """Starting a new game over an existing file: refused (naming it) unless it is empty."""
    header = _cli_header(game)
    sources = {role: (pair[0], pair[1]) for role, pair in header["sources"].items()}
    try:
        Session.new(load_game(game), sources, header.get("options", {}), seed=1,
                    journal_path=path).close()
    except JournalError as error:
        report.refused += 1
        if path.read_bytes() != data:
            report.findings.append(Finding(report.target, game,
                                           "creating a journal changed an existing file", data))
        _check_message(report, game, str(error), str(path), data)
        return
    except Exception as error:
        report.findings.append(Finding(report.target, game, _trace(error), data))
        return
    report.accepted += 1
    if data:
        report.findings.append(Finding(report.target, game,
                                       "a new game was written over a non-empty file", data))


def _resume_one(report: Report, game: str, path: Path, data: bytes) -> None:
    try:
        before = read_journal(path)
    except JournalError:
        before = None
    try:
        session = Session.resume(path)
    except JournalError as error:
        report.refused += 1
        if path.read_bytes() != data or Path(f"{path}.torn").exists():
            report.findings.append(Finding(report.target, game,
                                           "a refused journal was changed", data))
        _check_message(report, game, str(error), str(path), data)
        return
    except Exception as error:
        report.findings.append(Finding(report.target, game, _trace(error), data))
        return
    with session:
        report.accepted += 1
        assert before is not None
        kept = [entry["action"] for entry in replay_entries(before.records)]
        torn = Path(f"{path}.torn")
        side = torn.read_bytes() if torn.exists() else b""
        if path.read_bytes() + side != data or path.stat().st_size != before.good_size:
            report.findings.append(Finding(report.target, game,
                                           "resuming lost or changed bytes", data))
        if [entry.text for entry in session.record] != kept:
            report.findings.append(Finding(report.target, game,
                                           "resuming lost a recorded action", data))


# -- serial frames --------------------------------------------------------------------------------
def _frames(rng: random.Random) -> list[bytes]:
    uid = bytes([4]) + bytes(rng.randrange(256) for _ in range(6))
    made = [codec.encode_frame(codec.HELLO, 1, codec.hello_payload((1, 2, 3), "pico")),
            codec.encode_frame(codec.HEARTBEAT, 2, codec.heartbeat_payload(60, 1)),
            codec.encode_frame(codec.TAG_PRESENT, 3, codec.tag_payload(uid, 0x08)),
            codec.encode_frame(codec.TAG_REMOVED, 4, codec.tag_payload(uid)),
            codec.encode_frame(codec.ERROR, 5, codec.error_payload(2, "antenna"))]
    return [rng.choice(made) for _ in range(rng.randrange(3, 12))]


def _feed(data: bytes, rng: random.Random) -> Iterator[codec.Frame]:
    decoder = codec.Decoder()
    at = 0
    while at < len(data):
        step = rng.randrange(1, 64)
        yield from decoder.feed(data[at:at + step])
        at += step


def serial(rng: random.Random, count: int) -> Report:
    """``count`` byte streams from the bridge: damaged frames and garbage between frames."""
    report = Report("serial")
    for n in range(count):
        frames = _frames(rng)
        report.inputs += 1
        if n % 3 == 2:  # intact frames whose payloads lie: only a CodecError may come of it
            _lying_payloads(report, rng, frames)
            continue
        if n % 3 == 1:  # garbage between intact frames: every frame must arrive, in order
            parts = [b"\x00" + mutations.mutate_bytes(rng, b"noise" * rng.randrange(8)) + b"\x00"
                     + frame for frame in frames]
            data = b"".join(parts)
            expected = [codec.Decoder().feed(frame)[0] for frame in frames]
        else:
            data = mutations.mutate_bytes(rng, b"".join(frames))
            expected = None
        try:
            got, refused = _feed_and_read(data, rng)
        except Exception as error:
            report.findings.append(Finding(report.target, "stream", _trace(error), data))
            continue
        report.refused += refused
        report.accepted += not refused
        if expected is not None and got != expected:
            report.findings.append(Finding(report.target, "stream",
                                           f"lost frames: {len(got)} of {len(expected)}", data))
    return report


def _feed_and_read(data: bytes, rng: random.Random) -> tuple[list[codec.Frame], bool]:
    """The frames the reader takes out of ``data``, and whether any payload was refused
    (``CodecError``, the one clear refusal allowed); anything else raised is a finding."""
    got = list(_feed(data, rng))
    refused = False
    for frame in got:
        try:
            message_from_frame(frame)
        except codec.CodecError:
            refused = True
    return got, refused


def _lying_payloads(report: Report, rng: random.Random, frames: list[bytes]) -> None:
    """Frames with a valid CRC around a damaged payload (a firmware bug, not line noise)."""
    sent = []
    for wire in frames:
        frame = codec.Decoder().feed(wire)[0]
        payload = mutations.mutate_bytes(rng, frame.payload)[:codec.MAX_PAYLOAD]
        kind = frame.type if rng.random() < 0.8 else rng.randrange(256)
        sent.append(codec.encode_frame(kind, frame.seq, payload))
    data = b"".join(sent)
    try:
        got, refused = _feed_and_read(data, rng)
    except Exception as error:
        report.findings.append(Finding(report.target, "payload", _trace(error), data))
        return
    report.refused += refused
    report.accepted += not refused
    if len(got) != len(sent):
        report.findings.append(Finding(report.target, "payload",
                                       f"lost frames: {len(got)} of {len(sent)}", data))


TARGETS: dict[str, Callable[[random.Random, int], Report]] = {
    "setup_files": setup_files, "cli_setup": cli_setup, "app_files": app_files,
    "records": records,
    "journals": journals, "serial": serial}


__all__ = ["TARGETS", "Finding", "Report"]
