"""One small dispatch mechanism: events go from the session to its subscribers.

Subscribers are the hardware mapping, the UI and the log. A subscriber that raises is logged
and skipped, so a broken LED never stops the referee.

Example:
    >>> from companion.games.core import Event
    >>> bus = EventBus()
    >>> seen = []
    >>> subscription = bus.subscribe(seen.append, kinds={"capture"})
    >>> bus.publish([Event("capture", {"by": "Ann"}), Event("counter_advanced")])
    >>> [event.kind for event in seen]
    ['capture']
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

from companion.games.core import Event

log = logging.getLogger(__name__)

Subscriber = Callable[[Event], object]


@dataclass
class Subscription:
    """A handle on one subscriber; :meth:`cancel` (or leaving a ``with`` block) removes it."""

    bus: EventBus
    callback: Subscriber
    kinds: frozenset[str] | None
    active: bool = field(default=True)

    def wants(self, event: Event) -> bool:
        """Whether this subscriber listens to events of this kind."""
        return self.active and (self.kinds is None or event.kind in self.kinds)

    def cancel(self) -> None:
        """Stop receiving events. Safe to call more than once."""
        if self.active:
            self.active = False
            self.bus._remove(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.cancel()


class EventBus:
    """Delivers events, in order, to every subscriber that wants them."""

    def __init__(self) -> None:
        self._subscriptions: list[Subscription] = []

    def subscribe(self, callback: Subscriber,
                  kinds: Collection[str] | None = None) -> Subscription:
        """Call ``callback(event)`` for every published event (or only those of ``kinds``)."""
        subscription = Subscription(self, callback, frozenset(kinds) if kinds else None)
        self._subscriptions.append(subscription)
        return subscription

    def publish(self, events: Iterable[Event]) -> None:
        """Deliver ``events`` in order; a failing subscriber is logged and skipped."""
        for event in events:
            for subscription in list(self._subscriptions):
                if not subscription.wants(event):
                    continue
                try:
                    subscription.callback(event)
                except Exception:
                    log.exception("subscriber %r failed on %s", subscription.callback, event.kind)

    def _remove(self, subscription: Subscription) -> None:
        self._subscriptions = [s for s in self._subscriptions if s is not subscription]
