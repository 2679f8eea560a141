"""A referee process that plays Countdown games into a journal and acknowledges each action.

After :meth:`Session.propose` (or :meth:`Session.roll`) returns for an action, the action is
fsynced in the journal; only then does the writer print ``ack N`` (N = actions in the
record). The SIGKILL tests kill it at random points and check that every acknowledged action
survives and that every resume succeeds.

Run as ``python -m tests.support.journal_writer JOURNAL SEED`` or call :func:`write_forever`.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from companion.session import Session
from tests.support import countdown

LONG_GAME = {"setup": ("countdown.toml", "pile = 1000000\n")}


def write_forever(path: Path, seed: int, ack: Callable[[int], object]) -> None:
    """Resume (or start) the game at ``path`` and keep playing, calling ``ack`` after each
    durable action. The pile is large enough that the game never ends under test."""
    countdown.register()
    chooser = random.Random(seed)
    if path.exists() and path.stat().st_size > 0:
        session = Session.resume(path)
    else:
        path.unlink(missing_ok=True)  # a header torn before it was acknowledged
        session = Session.new(countdown.GAME, LONG_GAME, seed=seed, journal_path=path)
    with session:
        while not session.finished:
            if session.is_chance():
                session.roll()
            else:
                session.propose(chooser.choice(list(session.legal_actions())))
            ack(len(session.record))


def main() -> None:
    """Entry point for the soak benchmark's separate processes."""
    def ack(count: int) -> None:
        print(f"ack {count}", flush=True)

    write_forever(Path(sys.argv[1]), int(sys.argv[2]), ack)


if __name__ == "__main__":
    main()
