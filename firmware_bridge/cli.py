"""``infinite-bridge``: flash the Pico, watch the NFC bridge live, pair tags with cards.

Examples::

    infinite-bridge flash                    # copy the firmware to the Pico with mpremote
    infinite-bridge monitor --seconds 30     # print frames and events as they arrive
    infinite-bridge pair infinidungeon       # tap unknown tags, type the room they are under

The Pico is found through the udev symlink ``/dev/infinite-nfc`` or by USB VID:PID
(``2e8a:0005``); ``--port`` names it explicitly.
"""

from __future__ import annotations

import argparse
import queue
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

import serial

from firmware_bridge import codec
from firmware_bridge.cards import DEFAULT_PATH, CardMap, CardMapError, card_games, card_kind
from firmware_bridge.firmware import FILES
from firmware_bridge.messages import Hello, LinkStatus, Message, TagPresent
from firmware_bridge.port_holders import KIOSK_SERVICE, PortHolder, port_holders
from firmware_bridge.ports import PortFinder, find_port, fixed_port
from firmware_bridge.reader import BridgeReader

PACKAGE = Path(__file__).parent


def firmware_files() -> list[Path]:
    """The files ``flash`` copies, in order (the shared codec, then the firmware proper)."""
    return [PACKAGE / name if name == "codec.py" else PACKAGE / "firmware" / name
            for name in FILES]


def _finder(port: str | None) -> PortFinder:
    return fixed_port(port) if port else find_port


def _stamp() -> str:
    now = time.time()
    return time.strftime("%H:%M:%S", time.localtime(now)) + f".{int(now * 1000) % 1000:03d}"


def describe(message: Message) -> str:
    """One line for a message (what ``monitor`` prints).

    Example:
        >>> describe(TagPresent("DEADBEEF", 8))
        'tag-present DEADBEEF sak=0x08'
    """
    if isinstance(message, TagPresent):
        return f"tag-present {message.uid} sak=0x{message.sak:02x}"
    if isinstance(message, Hello):
        return (f"hello firmware {message.firmware_version} protocol {message.protocol} "
                f"board {message.board}")
    if isinstance(message, LinkStatus):
        return f"link {message.state} {message.port} {message.detail}".rstrip()
    name = type(message).__name__
    fields = ", ".join(f"{k}={v}" for k, v in vars(message).items())
    return f"{name.lower()} {fields}"


# -- flash ---------------------------------------------------------------------------------
def _systemctl(verb: str, service: str) -> bool:
    result = subprocess.run(["systemctl", verb, service], capture_output=True, text=True,
                            check=False)
    if result.returncode != 0:
        print(f"systemctl {verb} {service} failed: {result.stderr.strip()}", file=sys.stderr)
    return result.returncode == 0


def _refuse_held_port(device: str, holders: list[PortHolder], stop_kiosk: bool) -> bool:
    """Say who holds the port and how to free it; True when flashing must not go on."""
    kiosk = [holder for holder in holders if holder.service == KIOSK_SERVICE]
    others = [holder for holder in holders if holder.service != KIOSK_SERVICE]
    if others:
        names = "; ".join(holder.describe() for holder in others)
        print(f"{device} is held open by {names}: close it (or stop that service) and flash "
              "again", file=sys.stderr)
        return True
    if kiosk and not stop_kiosk:
        print(f"{device} is held by the kiosk, {kiosk[0].describe()}: flashing now would "
              f"fight it for the port. Stop it with 'sudo systemctl stop {KIOSK_SERVICE}', or "
              "run 'infinite-bridge flash --stop-kiosk' (stops it, flashes, starts it again)",
              file=sys.stderr)
        return True
    return False


def cmd_flash(args: argparse.Namespace, out: TextIO) -> int:
    """Stop the running firmware with a repl-request, then copy the files with mpremote.

    A port held by another process is never taken over: the kiosk's service is named (and
    stopped, then started again, with ``--stop-kiosk``), any other holder too.
    """
    device = args.port or find_port()
    if device is None:
        print("no NFC bridge found: plug the Pico in (USB 2e8a:0005) or name it with --port",
              file=sys.stderr)
        return 1
    holders = port_holders(device)
    if _refuse_held_port(device, holders, args.stop_kiosk):
        return 1
    restart_kiosk = False
    if holders and not args.dry_run:
        print(f"stopping {KIOSK_SERVICE} while flashing", file=out)
        if not _systemctl("stop", KIOSK_SERVICE):
            return 1
        restart_kiosk = True
    try:
        return _flash(args, device, out)
    finally:
        if restart_kiosk:
            print(f"starting {KIOSK_SERVICE} again", file=out)
            _systemctl("start", KIOSK_SERVICE)


def _flash(args: argparse.Namespace, device: str, out: TextIO) -> int:
    mpremote = shlex.split(args.mpremote) if args.mpremote else [sys.executable, "-m",
                                                                   "mpremote"]
    command = [*mpremote, "connect", device]
    for path in firmware_files():
        command += ["cp", str(path), f":{path.name}", "+"]
    command += ["reset"]
    print("stopping the firmware (repl-request frame)", file=out)
    if not args.dry_run:
        try:
            with serial.Serial(device, 115200, timeout=0.5, write_timeout=1) as port:
                port.write(codec.encode_frame(codec.REPL_REQUEST, 0, codec.REPL_MAGIC))
                port.flush()
            time.sleep(0.3)
        except (serial.SerialException, OSError) as error:
            print(f"{device}: cannot open: {error}", file=sys.stderr)
            return 1
    print(shlex.join(command), file=out)
    if args.dry_run:
        return 0
    return subprocess.run(command, check=False).returncode


# -- monitor -------------------------------------------------------------------------------
def cmd_monitor(args: argparse.Namespace, out: TextIO) -> int:
    """Print every frame and message until Ctrl-C (or ``--seconds``)."""
    def on_frame(frame: codec.Frame) -> None:
        if args.frames:
            print(f"{_stamp()} frame {frame.name} seq={frame.seq} "
                  f"payload={frame.payload.hex()}", file=out, flush=True)

    def on_message(message: Message) -> None:
        print(f"{_stamp()} {describe(message)}", file=out, flush=True)

    print("waiting for the NFC bridge (Ctrl-C to stop)", file=out, flush=True)
    reader = BridgeReader(_finder(args.port), on_message=on_message, on_frame=on_frame)
    try:
        with reader:
            deadline = time.monotonic() + args.seconds if args.seconds else None
            while deadline is None or time.monotonic() < deadline:
                time.sleep(0.05)
    except KeyboardInterrupt:
        pass
    decoder = reader.decoder
    print(f"frames {decoder.frames}, rejected {decoder.rejected}, oversize {decoder.oversize}, "
          f"wrong version {decoder.wrong_version}", file=out)
    return 0


# -- pair ----------------------------------------------------------------------------------
def cmd_pair(args: argparse.Namespace, out: TextIO, ask: Callable[[str], str] = input) -> int:
    """Learn mode: each tag tapped is shown; an unknown one is paired with a typed card."""
    path = Path(args.cards)
    try:
        cards = CardMap.load(path)
    except CardMapError as error:
        print(error, file=sys.stderr)
        return 1
    kind = card_kind(args.game)
    inbox: queue.Queue[Message] = queue.Queue()
    print(f"pairing {args.game} {kind}s into {path}: tap a tag (Ctrl-C to stop)", file=out,
          flush=True)
    paired = 0
    with BridgeReader(_finder(args.port), on_message=inbox.put):
        try:
            while args.count == 0 or paired < args.count:
                message = inbox.get()
                if isinstance(message, LinkStatus):
                    print(describe(message), file=out, flush=True)
                if not isinstance(message, TagPresent):
                    continue
                known = cards.card_for(args.game, message.uid)
                prompt = (f"tag {message.uid} is {known}; new {kind} (blank keeps it): "
                          if known else f"tag {message.uid} is new; which {kind}? ")
                answer = ask(prompt).strip()
                if not answer:
                    continue
                try:
                    cards.pair(args.game, message.uid, answer)
                except ValueError as error:
                    print(f"not paired: {error}", file=out, flush=True)
                    continue
                cards.save(path)
                paired += 1
                print(f"paired {message.uid} -> {answer}", file=out, flush=True)
        except (KeyboardInterrupt, EOFError):
            pass
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The ``infinite-bridge`` argument parser."""
    parser = argparse.ArgumentParser(prog="infinite-bridge", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    flash = sub.add_parser("flash", help="copy the firmware to the Pico with mpremote")
    flash.add_argument("--port", help="serial device (default: found by udev link or VID:PID)")
    flash.add_argument("--mpremote", help="mpremote command (default: python -m mpremote)")
    flash.add_argument("--dry-run", action="store_true", help="print the command only")
    flash.add_argument("--stop-kiosk", action="store_true",
                       help=f"stop {KIOSK_SERVICE} if it holds the port, start it after")
    monitor = sub.add_parser("monitor", help="print frames and events live")
    monitor.add_argument("--port")
    monitor.add_argument("--seconds", type=float, default=0, help="stop after this long")
    monitor.add_argument("--no-frames", dest="frames", action="store_false",
                         help="print events only, not every raw frame")
    pair = sub.add_parser("pair", help="pair unknown tags with cards (learn mode)")
    pair.add_argument("game", choices=sorted(card_games()))
    pair.add_argument("--cards", default=str(DEFAULT_PATH), help=f"default: {DEFAULT_PATH}")
    pair.add_argument("--port")
    pair.add_argument("--count", type=int, default=0, help="stop after this many pairings")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run ``infinite-bridge``; returns the exit status (0 ok, 1 failure, 2 usage).

    Example:
        >>> import io
        >>> main(["flash", "--port", "/dev/ttyACM0", "--dry-run"], out=io.StringIO())
        0
    """
    args = build_parser().parse_args(argv)
    out = out or sys.stdout
    commands = {"flash": cmd_flash, "monitor": cmd_monitor, "pair": cmd_pair}
    return commands[args.command](args, out)


if __name__ == "__main__":
    raise SystemExit(main())
