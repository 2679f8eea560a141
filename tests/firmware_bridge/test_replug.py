"""Replug: the pty is closed and recreated 100 times while a session takes card taps.

Issue 8 "Reliability tests": every time the host reconnects within 2 s and the session keeps
running. The session is a real :class:`companion.session.Session` over a small test game;
messages go through a queue to a "main loop" exactly as in the app.
"""

from __future__ import annotations

import queue
import time
from pathlib import Path

from companion.session import Session
from firmware_bridge import codec
from firmware_bridge.cards import CardMap
from firmware_bridge.messages import Hello, LinkStatus, Message, TagPresent
from firmware_bridge.ports import fixed_port
from firmware_bridge.reader import BridgeReader
from firmware_bridge.taps import TapHandler
from tests.firmware_bridge.card_game import GAME, SETUP
from tests.firmware_bridge.pty_pico import PtyPico

REPLUGS = 100
RECONNECT_DEADLINE = 2.0
TAGS = {"fireball": bytes.fromhex("04A1B2C3D4E5F6"), "shield": bytes.fromhex("DEADBEEF"),
        "goblin-lair": bytes.fromhex("04112233445566778899")}


def wait_for(inbox: queue.Queue[Message], kind: type, deadline: float) -> Message | None:
    """Take messages until one of ``kind`` (returned) or the deadline (``None``)."""
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = inbox.get(timeout=left)
        except queue.Empty:
            return None
        if isinstance(message, kind):
            return message
    return None


def test_host_reconnects_within_two_seconds_after_each_of_100_replugs_and_play_goes_on(
        tmp_path: Path) -> None:
    symlink = tmp_path / "infinite-nfc"
    inbox: queue.Queue[Message] = queue.Queue()
    session = Session.new(GAME, SETUP, seed=1)
    cards = CardMap({"cardtap": {uid.hex().upper(): card for card, uid in TAGS.items()}},
                    games=["cardtap"])
    handler = TapHandler(session, cards)
    taps = {33: "fireball", 66: "shield", 99: "goblin-lair"}  # replug cycle -> card tapped
    pico = PtyPico(symlink)
    pico.plug()
    with BridgeReader(fixed_port(str(symlink)), on_message=inbox.put, retry_interval=0.05):
        assert wait_for(inbox, Hello, time.monotonic() + 5) is not None
        for cycle in range(REPLUGS):
            pico.unplug()
            assert wait_for(inbox, LinkStatus, time.monotonic() + RECONNECT_DEADLINE)
            pico.plug()
            assert wait_for(inbox, Hello, pico.plugged_at + RECONNECT_DEADLINE), cycle
            if cycle in taps:  # the table taps a card on the freshly replugged reader
                pico.send(codec.TAG_PRESENT, codec.tag_payload(TAGS[taps[cycle]]))
                tap = wait_for(inbox, TagPresent, time.monotonic() + RECONNECT_DEADLINE)
                result = handler.handle(tap)  # the main loop's side of the queue
                if result is not None and result.choices:
                    handler.choose(result.choices[-1])
    pico.unplug()
    assert session.history == ["play fireball", "play shield", "play goblin-lair"]
    assert {entry.source for entry in session.record} == {"nfc"}
    assert session.finished
    assert pico.hello_requests == REPLUGS + 1


def test_a_silent_link_is_reported_and_reopened(tmp_path: Path) -> None:
    """A link that stays open but stops sending heartbeats counts as silent (docs/nfc-bridge.md
    "Host reader"), and the reader asks the firmware for a hello again."""
    symlink = tmp_path / "infinite-nfc"
    inbox: queue.Queue[Message] = queue.Queue()
    pico = PtyPico(symlink)
    pico.plug()
    with BridgeReader(fixed_port(str(symlink)), on_message=inbox.put, heartbeat_timeout=0.3):
        assert wait_for(inbox, Hello, time.monotonic() + 5) is not None
        status = wait_for(inbox, LinkStatus, time.monotonic() + 2)
        while isinstance(status, LinkStatus) and status.state == "connected":
            status = wait_for(inbox, LinkStatus, time.monotonic() + 2)
        assert isinstance(status, LinkStatus) and status.state == "silent"
        assert wait_for(inbox, Hello, time.monotonic() + 2) is not None
    pico.unplug()
    assert pico.hello_requests >= 2
