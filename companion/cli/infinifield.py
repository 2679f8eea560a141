"""``infinite-referee infinifield``: referee an Infinifield match, or check a field.

Examples:
    $ infinite-referee infinifield --players Ann,Ben game.txt
    $ infinite-referee infinifield --setup my-field.toml --mode official --check
    $ echo "start Ben W1" | infinite-referee infinifield --json

Without ``--setup`` the shipped quick-start field is used. Players, first builder, field
rules, scoring and match length come from the flags, else from the field file's ``[match]``
table (see ``docs/infinifield.md``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import IO

from companion.cli.command import Command
from companion.cli.referee import EXIT_OK, EXIT_REFUSED, EXIT_UNREADABLE
from companion.games.core import NotationError, SetupError
from companion.games.datafile import MAX_DATA_BYTES
from companion.games.infinifield import MODES, check_field, load_field_text
from companion.games.infinifield.fieldfile import field_file_data

HELP = "referee Infinifield (field checks, moves, removals, scores)"


def extend(parser: argparse.ArgumentParser) -> None:
    """Infinifield's own flag: ``--check`` a field against the field-building rules."""
    parser.add_argument("--check", action="store_true",
                        help="print every field-building violation of the setup and exit "
                             "(status 1 if there is any)")


def handle(command: Command) -> int:
    """Check the field (``--check``), else referee, reading field files a rebuild names."""
    if command.args.check:
        return check(command.sources["setup"], command.args.mode, command.args.json,
                     command.out, command.err)
    return command.referee(rewrite=inline_field_file)


def inline_field_file(text: str) -> str:
    """``rebuild PLAYER FIELD.toml`` -> ``rebuild PLAYER {...}`` with the file's field in it.

    The rules read no files (DESIGN.md, "The one rule of dependencies"), so the command line
    reads the field file a rebuild names and writes the field into the action; the journal
    then holds the field itself, and a resumed match needs no file. Other lines are returned
    as they are.

    Raises:
        NotationError: the file cannot be read or is not a field file (naming the file and
            what is wrong).
    """
    words = text.split(maxsplit=2)
    if len(words) < 3 or words[0].lower() != "rebuild" or words[2].lstrip().startswith("{"):
        return text
    name = words[2].strip()
    path = Path(name)
    try:
        if not path.is_file():
            raise SetupError(name, "", "no such field file (give a .toml field file or the "
                                       "field as JSON {...})")
        with path.open("rb") as handle:
            raw = handle.read(MAX_DATA_BYTES + 1)
        if len(raw) > MAX_DATA_BYTES:
            raise SetupError(name, "", f"is larger than {MAX_DATA_BYTES:,} bytes")
        try:
            field = load_field_text(name, raw.decode("utf-8")).field
        except UnicodeDecodeError:
            raise SetupError(name, "", "is not UTF-8 text") from None
    except OSError as error:
        raise NotationError(text, f"{name}: cannot be read "
                                  f"({error.strerror or error})") from None
    except SetupError as error:
        raise NotationError(text, str(error)) from None
    return f"{words[0]} {words[1]} {json.dumps(field_file_data(field), separators=(',', ':'))}"


def check(source: tuple[str, str], mode: str | None, as_json: bool, out: IO[str],
          err: IO[str]) -> int:
    """Print every violation of the field-building rules; 0 when none, 1 if any, 2 unreadable.

    The mode is ``mode`` if given, else the field file's ``[match] mode``, else quick-start.
    """
    name, text = source
    parsed = load_field_text(name, text)
    chosen = mode or parsed.match.get("mode", "quickstart")
    if chosen not in MODES:
        print(f"error: {name}: match.mode: {chosen!r} is not one of {', '.join(MODES)}",
              file=err)
        return EXIT_UNREADABLE
    violations = check_field(parsed.field, chosen)
    field = parsed.field
    if as_json:
        print(json.dumps({"field": name, "name": field.name, "mode": chosen,
                          "blocks": len(field.blocks), "valid": not violations,
                          "violations": [v.to_json() for v in violations]}), file=out)
    elif violations:
        print(f"{name}: {len(violations)} violation(s) of the {chosen} field-building rules",
              file=out)
        for violation in violations:
            print(f"  {violation.code} [{', '.join(violation.blocks)}]: {violation.message} "
                  f"[{violation.rule}]", file=out)
    else:
        print(f"{name}: the field meets the {chosen} field-building rules "
              f"({len(field.blocks)} blocks, {len(field.whites())} white)", file=out)
    return EXIT_REFUSED if violations else EXIT_OK

