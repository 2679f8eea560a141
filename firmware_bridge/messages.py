"""What the host reader hands to the session: tag taps, the firmware's hello, errors, link state.

These are plain frozen values, safe to pass from the reader's thread to the main loop.

Example:
    >>> from firmware_bridge import codec
    >>> payload = codec.tag_payload(bytes.fromhex("04a1b2c3d4e5f6"))
    >>> frame = codec.Frame(codec.TAG_PRESENT, 1, payload)
    >>> message_from_frame(frame)
    TagPresent(uid='04A1B2C3D4E5F6', sak=0)
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge import codec


@dataclass(frozen=True)
class TagPresent:
    """A tag was laid on the reader. ``uid`` is upper-case hex (8, 14 or 20 digits)."""

    uid: str
    sak: int = 0


@dataclass(frozen=True)
class TagRemoved:
    """The tag left the reader."""

    uid: str


@dataclass(frozen=True)
class Hello:
    """The firmware introduced itself."""

    protocol: int
    firmware: tuple[int, int, int]
    board: str

    @property
    def firmware_version(self) -> str:
        """``"1.0.0"``."""
        return ".".join(str(part) for part in self.firmware)


@dataclass(frozen=True)
class Heartbeat:
    """The firmware is alive: its uptime and how many tags it sees."""

    uptime_s: int
    tags_present: int


@dataclass(frozen=True)
class BridgeError:
    """The firmware reported a problem (``code_name`` from ``codec.ERROR_NAMES``)."""

    code: int
    message: str

    @property
    def code_name(self) -> str:
        """``"reader-not-found"`` and the like."""
        return codec.ERROR_NAMES.get(self.code, f"error-{self.code}")


LINK_STATES = ("connected", "lost", "silent", "incompatible")


@dataclass(frozen=True)
class LinkStatus:
    """The serial link changed state.

    ``state`` is ``connected`` (port open), ``lost`` (unplugged or unreadable), ``silent``
    (heartbeats missed; the port is reopened) or ``incompatible`` (the firmware speaks another
    protocol version).
    """

    state: str
    port: str = ""
    detail: str = ""

    @property
    def ok(self) -> bool:
        """Whether the reader works (what the status light shows: ``report("reader", ok)``)."""
        return self.state == "connected"


Message = TagPresent | TagRemoved | Hello | Heartbeat | BridgeError | LinkStatus


def message_from_frame(frame: codec.Frame) -> Message | None:
    """The message a firmware frame carries; ``None`` for host-bound types it does not know.

    Raises:
        codec.CodecError: the payload does not fit its message type.
    """
    if frame.type == codec.TAG_PRESENT:
        uid, sak = codec.parse_tag(frame.payload)
        return TagPresent(uid.hex().upper(), sak)
    if frame.type == codec.TAG_REMOVED:
        uid, _ = codec.parse_tag(frame.payload)
        return TagRemoved(uid.hex().upper())
    if frame.type == codec.HEARTBEAT:
        uptime, tags = codec.parse_heartbeat(frame.payload)
        return Heartbeat(uptime, tags)
    if frame.type == codec.HELLO:
        protocol, firmware, board = codec.parse_hello(frame.payload)
        return Hello(protocol, tuple(firmware), board)
    if frame.type == codec.ERROR:
        code, text = codec.parse_error(frame.payload)
        return BridgeError(code, text)
    return None
