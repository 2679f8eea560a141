"""``infinite-companion``: start the touchscreen app.

On a desktop it opens an 800x480 window with simulated hardware (on-screen LEDs and buzzer,
the replayed camera feed, tap-to-simulate NFC). On the Pi, the systemd unit starts it with
``--kiosk``: full screen on the console through SDL2's KMS/DRM backend, no cursor, Escape
does not quit, and the newest unfinished game resumes after a restart.

Example:
    $ infinite-companion --lang es
    $ infinite-companion --kiosk --data-dir /var/lib/infinite-companion
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.app.i18n import LANGUAGES


def default_data_dir() -> Path:
    """Where journals and settings go.

    The first of ``$INFINITE_COMPANION_DATA``, systemd's ``$STATE_DIRECTORY`` and
    ``~/.local/share/infinite-companion``.
    """
    for variable in ("INFINITE_COMPANION_DATA", "STATE_DIRECTORY"):
        value = os.environ.get(variable, "").split(":")[0]
        if value:
            return Path(value)
    return Path.home() / ".local" / "share" / "infinite-companion"


def parse_size(text: str) -> tuple[int, int]:
    """Read ``WIDTHxHEIGHT``.

    Example:
        >>> parse_size("800x480")
        (800, 480)
    """
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 800x480, "
                                         f"not {text!r}") from None
    if width < 320 or height < 240:
        raise argparse.ArgumentTypeError(f"{text}: the window must be at least 320x240")
    return width, height


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``infinite-companion``."""
    parser = argparse.ArgumentParser(
        prog="infinite-companion",
        description="The Infinite Table Companion's touchscreen app (simulated hardware on a "
                    "desktop).")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="where game journals and settings are kept "
                             "(default: %(default)s -> $STATE_DIRECTORY or "
                             "~/.local/share/infinite-companion)")
    parser.add_argument("--lang", choices=sorted(LANGUAGES), help="language for this run")
    parser.add_argument("--kiosk", action="store_true",
                        help="full screen on the console, no cursor, resume the last game")
    parser.add_argument("--resume-latest", action="store_true",
                        help="resume the newest unfinished game at start")
    parser.add_argument("--size", type=parse_size, default=(800, 480), metavar="WxH",
                        help="window size on a desktop (default 800x480)")
    parser.add_argument("--fps", type=int, default=30, help="frame-rate cap (default 30)")
    parser.add_argument("--camera", metavar="SPEC", default=None,
                        help="watch the table with a camera: pi, usb:N (either with @WxH "
                             "for a frame size, e.g. usb:0@1280x720), a video file or a "
                             "folder of images (Infinifield actions are read from it)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the companion's dice for new games (tests, demos)")
    return parser


def configure_kivy(args: argparse.Namespace, data_dir: Path) -> None:
    """Set Kivy's environment and configuration; must run before Kivy opens a window."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_HOME", str(data_dir / "kivy"))
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    if args.kiosk:
        os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm") if not os.environ.get("DISPLAY") \
            else None
    from kivy.config import Config

    Config.set("kivy", "log_level", os.environ.get("INFINITE_COMPANION_LOG", "warning"))
    Config.set("kivy", "exit_on_escape", "0" if args.kiosk else "1")
    Config.set("graphics", "maxfps", str(max(1, args.fps)))
    Config.set("graphics", "resizable", "1")
    Config.set("input", "mouse", "mouse,multitouch_on_demand")
    if args.kiosk:
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
        Config.set("input", "hidinput", "probesysfs,provider=hidinput")
    else:
        Config.set("graphics", "width", str(args.size[0]))
        Config.set("graphics", "height", str(args.size[1]))


def main(argv: Sequence[str] | None = None) -> int:
    """Start the app; returns the exit status."""
    args = build_parser().parse_args(argv)
    data_dir = args.data_dir or default_data_dir()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"infinite-companion: cannot use the data directory {data_dir}: {error}",
              file=sys.stderr)
        return 2
    configure_kivy(args, data_dir)
    from companion.app.application import AppOptions, CompanionApp
    from companion.app.settings_store import SettingsError

    options = AppOptions(data_dir, args.lang, args.kiosk or args.resume_latest, args.seed,
                         args.fps, nfc_reader=args.kiosk, camera=args.camera)
    try:
        app = CompanionApp(options)
    except SettingsError as error:
        print(f"infinite-companion: {error}", file=sys.stderr)
        return 2
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
