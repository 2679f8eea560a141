"""NFC cards into the session: the bridge's reader thread, or taps simulated on screen.

Both arrive the same way, through the main loop: the reader's thread (or a short-lived
thread standing in for it) calls :meth:`NfcLink.on_message`, which only *posts* the
message; on the main loop the bridge's :class:`~firmware_bridge.taps.TapHandler` turns the
tag into a proposed action and the session decides.

The players' pairings (tag -> card) live in ``cards.toml`` (:func:`load_pairings`): a tag the
map does not know offers the cards to pair it with (learn mode), and a pairing chosen on
screen is saved there at once, so it survives a restart. Simulated tags pair themselves with
the card tapped on screen in a separate in-memory map, so the simulation never writes the
players' file.

Example:
    >>> simulated_uid("goblin-lair")
    'E005D487'
"""

from __future__ import annotations

import logging
import threading
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.app.controller import TableController
from firmware_bridge.cards import DEFAULT_PATH, CardMap, CardMapError, card_games
from firmware_bridge.messages import LinkStatus, Message, TagPresent
from firmware_bridge.taps import TapHandler, TapResult

log = logging.getLogger(__name__)

Post = Callable[..., None]


def load_pairings(path: Path = DEFAULT_PATH) -> tuple[CardMap, Path | None, str]:
    """The players' pairings file, read for the kiosk's real reader.

    Returns:
        ``(cards, save_path, problem)``: the pairings, where new ones are saved, and an empty
        string; or, for a file that cannot be used, an empty map, ``None`` (the broken file
        is never overwritten: the players' pairings in it are not lost) and the problem in
        words, naming the file.
    """
    try:
        return CardMap.load(path), path, ""
    except (CardMapError, OSError, UnicodeDecodeError) as error:
        log.error("NFC pairings not loaded: %s", error)
        return CardMap({}, str(path)), None, f"{error} (not loaded; the file is left as it is)"


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
                 on_change: Callable[[], object] | None = None,
                 cards_path: Path | None = None,
                 on_link: Callable[[LinkStatus], object] | None = None) -> None:
        self.table = table
        self.post = post
        self.cards = cards or CardMap()
        self.cards_path = cards_path
        self.simulated = CardMap()
        self.last: TapResult | None = None
        self.link: LinkStatus | None = None
        self._on_change = on_change
        self._on_link = on_link
        self._handler: TapHandler | None = None
        self._simulated_handler: TapHandler | None = None
        self._pairing: TapHandler | None = None

    def handler(self, simulated: bool = False) -> TapHandler | None:
        """The tap handler of the open game (``None`` without one, or for a game without cards).

        Args:
            simulated: the handler of taps simulated on screen (its own in-memory pairings).
        """
        session = self.table.session
        if session is None or session.game.name not in card_games():
            return None
        if simulated:
            if self._simulated_handler is None or self._simulated_handler.session is not session:
                self._simulated_handler = TapHandler(session, self.simulated)
            return self._simulated_handler
        if self._handler is None or self._handler.session is not session:
            self._handler = TapHandler(session, self.cards, self.cards_path)
        return self._handler

    # -- from any thread -------------------------------------------------------------------
    def on_message(self, message: Message) -> None:
        """A message from the bridge (called on the reader's thread): post it to the UI."""
        self.post(self.handle, message)

    # -- on the main loop ------------------------------------------------------------------
    def handle(self, message: Message, simulated: bool = False) -> TapResult | None:
        """Let the tap handler act on the message; record its verdict at the table.

        A tag nobody has paired yet offers the cards it may stand for (:meth:`choose` pairs
        it); the bridge's link status goes to ``on_link`` (the status light).
        """
        if isinstance(message, LinkStatus):
            self.link = message
            if self._on_link is not None:
                self._on_link(message)
            return None
        handler = self.handler(simulated)
        if handler is None:
            return None
        result = handler.handle(message)
        if result is None:
            return None
        if result.card is None and handler.pending_uid is not None:
            choices = tuple(handler.pairing_choices())
            result = TapResult(result.uid, None, choices=choices, note=result.note)
            self._pairing = handler
        else:
            self._pairing = None
        self.last = result
        if result.verdict is not None:
            self.table.record_external(result.verdict)
        elif self._on_change is not None:
            self._on_change()
        return result

    def choose(self, notation: str) -> None:
        """The players picked one of a tap's choices: an action, or the card to pair a tag with.

        A pairing is saved to the pairings file at once (real reader) and the tap then acts.
        """
        pairing, self._pairing = self._pairing, None
        if pairing is not None and pairing.pending_uid is not None:
            try:
                result = pairing.pair_pending(notation)
            except (OSError, ValueError, LookupError) as error:
                log.error("NFC pairing not saved: %s", error)
                self.last = TapResult(pairing.pending_uid or "", None,
                                      note=f"Pairing not saved: {error}")
                if self._on_change is not None:
                    self._on_change()
                return
            self.last = result
            if result.verdict is not None:
                self.table.record_external(result.verdict)
            elif self._on_change is not None:
                self._on_change()
            return
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
        paired = set(handler.cards.cards(handler.game).values())
        paired |= set(self.simulated.cards(handler.game).values())
        cards = paired | set(handler.pairing_choices())
        return sorted((c for c in cards if c.lower() not in players), key=str.lower)[:limit]

    def simulate_tap(self, card: str) -> threading.Thread | None:
        """Tap ``card`` on the simulated reader: pair its tag, then send it from a thread."""
        handler = self.handler(simulated=True)
        if handler is None:
            return None
        uid = simulated_uid(card)
        if self.simulated.card_for(handler.game, uid) is None:
            self.simulated.pair(handler.game, uid, card)
        thread = threading.Thread(target=self.post, args=(self.handle, TagPresent(uid), True),
                                  name="simulated-nfc", daemon=True)
        thread.start()
        return thread


def start_reader(link: NfcLink) -> Any:
    """Start the real bridge reader (Pi kiosk); returns it, to close on exit."""
    from firmware_bridge.reader import BridgeReader

    return BridgeReader(on_message=link.on_message).start()
