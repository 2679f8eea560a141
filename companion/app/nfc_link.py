"""NFC cards into the session: the bridge's reader thread, or taps simulated on screen.

Both arrive the same way, through the main loop: the reader's thread (or a short-lived
thread standing in for it) calls :meth:`NfcLink.on_message`, which only *posts* the
message; on the main loop the bridge's :class:`~firmware_bridge.taps.TapHandler` turns the
tag into a proposed action and the session decides. Simulated tags pair themselves with the
card tapped on screen in an in-memory map, so the players' real pairings file is never
touched by the simulation.

Example:
    >>> simulated_uid("goblin-lair")
    'E005D487'
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable
from typing import Any

from companion.app.controller import TableController
from firmware_bridge.cards import CARD_KINDS, CardMap
from firmware_bridge.messages import Message, TagPresent
from firmware_bridge.taps import TapHandler, TapResult

Post = Callable[..., None]


def simulated_uid(card: str) -> str:
    """A stable 4-byte tag UID for a simulated card."""
    return f"{zlib.crc32(card.lower().encode()) | 0x80000000:08X}"


class NfcLink:
    """Hands NFC taps to the session on the main loop.

    Attributes:
        cards: the tag pairings in use.
        last: what the last tap did (the simulation panel shows its note and choices).
    """

    def __init__(self, table: TableController, post: Post, cards: CardMap | None = None,
                 on_change: Callable[[], object] | None = None) -> None:
        self.table = table
        self.post = post
        self.cards = cards or CardMap()
        self.last: TapResult | None = None
        self._on_change = on_change
        self._handler: TapHandler | None = None

    def handler(self) -> TapHandler | None:
        """The tap handler of the open game (``None`` without one, or for a game without cards)."""
        session = self.table.session
        if session is None or session.game.name not in CARD_KINDS:
            return None
        if self._handler is None or self._handler.session is not session:
            self._handler = TapHandler(session, self.cards)
        return self._handler

    # -- from any thread -------------------------------------------------------------------
    def on_message(self, message: Message) -> None:
        """A message from the bridge (called on the reader's thread): post it to the UI."""
        self.post(self.handle, message)

    # -- on the main loop ------------------------------------------------------------------
    def handle(self, message: Message) -> TapResult | None:
        """Let the tap handler act on the message; record its verdict at the table."""
        handler = self.handler()
        if handler is None:
            return None
        result = handler.handle(message)
        if result is None:
            return None
        self.last = result
        if result.verdict is not None:
            self.table.record_external(result.verdict)
        elif self._on_change is not None:
            self._on_change()
        return result

    def choose(self, notation: str) -> None:
        """The players picked one of a tap's several matching actions."""
        handler = self.handler()
        if handler is not None:
            self.last = None
            self.table.record_external(handler.choose(notation))

    def simulated_cards(self, limit: int = 8) -> list[str]:
        """Cards to offer as tappable on screen: those the legal actions name right now.

        Players' names are words of the actions too, but no card stands for a player.
        """
        handler = self.handler()
        if handler is None:
            return []
        players = {str(name).lower() for name in handler.session.options.get("players", ())}
        actor = handler.session.game.current_actor(handler.session.state)
        players.add(str(actor).lower())
        cards = set(handler.cards.cards(handler.game).values()) | set(handler.pairing_choices())
        return sorted((c for c in cards if c.lower() not in players), key=str.lower)[:limit]

    def simulate_tap(self, card: str) -> threading.Thread | None:
        """Tap ``card`` on the simulated reader: pair its tag, then send it from a thread."""
        handler = self.handler()
        if handler is None:
            return None
        uid = simulated_uid(card)
        if self.cards.card_for(handler.game, uid) is None:
            self.cards.pair(handler.game, uid, card)
        thread = threading.Thread(target=self.on_message, args=(TagPresent(uid),),
                                  name="simulated-nfc", daemon=True)
        thread.start()
        return thread


def start_reader(link: NfcLink) -> Any:
    """Start the real bridge reader (Pi kiosk); returns it, to close on exit."""
    from firmware_bridge.reader import BridgeReader

    return BridgeReader(on_message=link.on_message).start()
