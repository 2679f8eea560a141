r"""``infinite-referee infinity``: referee Infinity, check profiles, or print exact odds.

Referee an Infinity (N3 intro) game, check profile data, or print the exact odds of an
exchange.

Examples:
    $ infinite-referee infinity --setup armies.toml game.txt --json
    $ infinite-referee infinity --profiles my-profiles.toml --check
    $ infinite-referee infinity odds --active 15 --burst 3 --damage 13 \\
          --reactive 12 --reactive-damage 13 --reactive-arm 1 --reactive-cover

Without ``--setup`` the shipped example armies are used, and without ``--profiles`` the
shipped profile data (``docs/infinity.md``). While an Order waits for its dice, the referee
prints the exact odds of each declared exchange under the verdict (``--no-odds`` to hide).

``odds`` is a mode of this command: when the record argument is the word ``odds`` the
``--active``... flags describe the exchange and nothing is refereed (to referee a record
file that is really called ``odds``, write ``./odds``).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import IO, Any

from companion.cli.command import Command
from companion.cli.referee import EXIT_OK, EXIT_UNREADABLE, UnreadableInput
from companion.games.infinity import GAME
from companion.games.infinity.armour import PARTIAL_COVER_BS, effective_arm
from companion.games.infinity.odds import MAX_BURST, Side, exchange_odds
from companion.games.infinity.odds_report import OddsReport, declared_odds
from companion.games.infinity.profile_loading import check_catalogue
from companion.session import Session, Verdict

HELP = "referee Infinity N3 (rolls, Face to Face, ARM, Orders, exact odds)"
ODDS_WORD = "odds"
ODDS_FLAGS = ("active", "burst", "damage", "active_arm", "active_cover", "reactive",
              "reactive_damage", "reactive_arm", "reactive_cover")


def extend(parser: argparse.ArgumentParser) -> None:
    """Infinity's own flags: ``--check``, ``--no-odds`` and the odds mode's exchange."""
    parser.add_argument("--check", action="store_true",
                        help="check the profile file (and armies file), print a summary and "
                             "exit (status 2 on the first problem)")
    parser.add_argument("--no-odds", action="store_true",
                        help="do not print the odds of a declared exchange before its roll")
    add_odds_arguments(parser)


def handle(command: Command) -> int:
    """The odds mode, the profile check, or the referee with the odds of each exchange."""
    args, out, err = command.args, command.out, command.err
    if args.record is not None and str(args.record) == ODDS_WORD:
        return run_odds(args, out, err)
    stray_flag = stray(args)
    if stray_flag:
        print(f"error: {stray_flag} belongs to the odds mode: `infinite-referee infinity odds "
              f"{stray_flag} ...`", file=err)
        return EXIT_UNREADABLE
    if args.check:
        return run_check(command.sources, out)
    return command.referee(annotate=None if args.no_odds else odds_annotator(args.json))


def stray(args: argparse.Namespace) -> str:
    """The first odds-mode flag given outside the odds mode, or ``""``."""
    given = [name for name in ODDS_FLAGS if getattr(args, name) not in (None, False)]
    return "--" + given[0].replace("_", "-") if given else ""


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags describing an exchange for ``infinite-referee infinity odds``."""
    odds = parser.add_argument_group("odds mode (`infinite-referee infinity odds ...`)")
    odds.add_argument("--active", type=int, metavar="TARGET",
                      help="the active side's target value (attribute + range MOD)")
    odds.add_argument("--burst", type=int, help=f"active Burst, 1-{MAX_BURST}")
    odds.add_argument("--damage", type=int, help="active weapon's Damage (omit: no damage)")
    odds.add_argument("--active-arm", type=int, help="the active trooper's ARM")
    odds.add_argument("--active-cover", action="store_true",
                      help="the active trooper is in Partial Cover from the reactive shot "
                           "(-3 to the reactive BS, +3 ARM; no effect on a Dodge)")
    odds.add_argument("--reactive", type=int, metavar="TARGET",
                      help="the reactive side's target value (omit: it does not roll)")
    odds.add_argument("--reactive-damage", type=int,
                      help="reactive weapon's Damage (omit for a Dodge)")
    odds.add_argument("--reactive-arm", type=int, help="the reactive trooper's ARM")
    odds.add_argument("--reactive-cover", action="store_true",
                      help="the reactive trooper is in Partial Cover (-3 BS, +3 ARM)")


def odds_sides(args: argparse.Namespace) -> tuple[Side, Side]:
    """The exchange the odds flags describe (Partial Cover applied to BS and ARM).

    Partial Cover modifies the BS of the trooper shooting at the one in cover (and that
    one's ARM), never a Dodge: without ``--reactive-damage`` the reactive side Dodges with
    PH, and ``--active-cover`` leaves its target value alone (infinity-n3-intro.md "Cover":
    "a -3 Modifier to the BS Attribute of their attacker"; "DODGE": a PH Roll).

    Example:
        >>> ns = argparse.Namespace(active=15, burst=3, damage=13, active_arm=1,
        ...                         active_cover=False, reactive=12, reactive_damage=13,
        ...                         reactive_arm=1, reactive_cover=True)
        >>> odds_sides(ns)
        (Side(target=12, burst=3, damage=13, arm=1), Side(target=12, burst=1, damage=13, arm=4))
    """
    if args.active is None:
        raise UnreadableInput("odds", None, "--active TARGET is required")
    burst = 1 if args.burst is None else args.burst
    if not 1 <= burst <= MAX_BURST:
        raise UnreadableInput("odds", None, f"--burst must be 1 to {MAX_BURST}")
    active_target = args.active + (PARTIAL_COVER_BS if args.reactive_cover else 0)
    active = Side(active_target, burst, args.damage,
                  effective_arm(args.active_arm or 0, args.active_cover))
    reactive_arm = effective_arm(args.reactive_arm or 0, args.reactive_cover)
    if args.reactive is None:
        return active, Side(0, 0, None, reactive_arm)
    shoots_back = args.reactive_damage is not None
    reactive_target = args.reactive + (PARTIAL_COVER_BS if args.active_cover and shoots_back
                                       else 0)
    return active, Side(reactive_target, 1, args.reactive_damage, reactive_arm)


def run_odds(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Print the exact odds of the exchange the flags describe."""
    try:
        active, reactive = odds_sides(args)
    except UnreadableInput as error:
        print(f"error: {error}", file=err)
        return EXIT_UNREADABLE
    report = OddsReport("active", active, "reactive", reactive, exchange_odds(active, reactive))
    if args.json:
        print(json.dumps(report.to_json()), file=out)
    else:
        print("\n".join(report.lines()), file=out)
    return EXIT_OK


def run_check(sources: Mapping[str, tuple[str, str]], out: IO[str]) -> int:
    """Check the profile data and the armies; print one line per profile and weapon.

    Raises:
        SetupError: the first problem (the command reports it, status 2).
    """
    lines = check_catalogue(*sources["profiles"])
    setup = GAME.load_setup(sources, {})
    print("\n".join(lines), file=out)
    print(f"armies: {', '.join(setup.players)}; {len(setup.sheets)} troopers; "
          f"{setup.points} Army Points; {setup.rounds} rounds", file=out)
    return EXIT_OK


def odds_annotator(as_json: bool) -> Any:
    """Notes for a verdict: the odds of the exchanges now waiting for their dice."""
    def annotate(session: Session, verdict: Verdict) -> dict[str, Any]:
        reports = declared_odds(session.state) if verdict.legal else []
        if not reports:
            return {}
        if as_json:
            return {"odds": [report.to_json() for report in reports]}
        return {"odds": [line for report in reports for line in report.lines()]}
    return annotate

