"""The one door from sensor threads into the UI: work posted here runs on Kivy's main loop.

Camera, NFC and serial threads never touch widgets or the session. They call
:meth:`MainLoopInbox.post`, which hands the call to ``Clock.schedule_once`` (thread-safe in
Kivy); the main loop then proposes the action to the session, and the screens redraw from
the session's state.

Example:
    >>> inbox = MainLoopInbox()
    >>> inbox.post(print, "runs on the next frame")  # doctest: +SKIP
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.clock import Clock


class MainLoopInbox:
    """Runs calls posted from any thread on the next frame of the main loop.

    Attributes:
        posted: how many calls were posted (from any thread).
        main_thread: the thread the UI runs on.
    """

    def __init__(self) -> None:
        self.posted = 0
        self.main_thread = threading.main_thread()

    def post(self, function: Callable[..., Any], *args: Any) -> None:
        """Run ``function(*args)`` on the main loop's next frame."""
        self.posted += 1
        Clock.schedule_once(partial(_call, function, args), 0)

    def on_main_thread(self) -> bool:
        """Whether the caller is on the UI's thread."""
        return threading.current_thread() is self.main_thread


def _call(function: Callable[..., Any], args: tuple[Any, ...], _dt: float) -> None:
    function(*args)
