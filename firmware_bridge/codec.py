# ruff: noqa: UP031 - %-formatting keeps the one source MicroPython-friendly
r"""The NFC bridge's frame codec, shared unchanged by the Pico firmware and the host.

This one file runs on CPython 3.11 and on MicroPython (it is copied to the Pico as is), so it
uses only what both have: ``bytes``/``bytearray``, ``binascii.crc32`` (with a pure-Python
fallback giving the same result) and plain classes.

A frame on the wire::

    0x00  COBS( version | type | seq | length | payload[length] | crc32 big-endian )  0x00

- ``0x00`` never occurs inside a COBS-encoded body, so a reader resynchronises at the next
  zero byte after any garbage; frames are sent with a zero on both sides so a frame that
  follows garbage is always delivered whole.
- ``version`` is :data:`PROTOCOL_VERSION`; a frame of another version is counted and dropped.
- ``length`` must equal the payload's real length (so truncation and duplication are caught
  whatever the CRC says) and is capped at :data:`MAX_PAYLOAD`; an over-long run of bytes is
  discarded up to the next zero without being buffered.
- ``crc32`` (IEEE, as ``binascii.crc32``) covers everything before it.

Example:
    >>> wire = encode_frame(TAG_PRESENT, 7, tag_payload(b"\x04\xa1\xb2\xc3\xd4\xe5\xf6"))
    >>> frame = Decoder().feed(b"garbage" + wire)[0]
    >>> (frame.type, frame.seq, parse_tag(frame.payload)[0].hex())
    (3, 7, '04a1b2c3d4e5f6')
"""

try:
    from binascii import crc32 as _native_crc32
except ImportError:  # pragma: no cover - a MicroPython build without binascii.crc32
    _native_crc32 = None  # type: ignore[assignment]

PROTOCOL_VERSION = 1
"""Bumped whenever a frame layout or a message's payload changes incompatibly."""

MAX_PAYLOAD = 64
"""The longest payload a frame may carry, in bytes."""

HEADER_SIZE = 4
CRC_SIZE = 4
MAX_BODY = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 1
"""The longest COBS-encoded body a valid frame can have (without its zero delimiters)."""

# Firmware -> host.
HELLO = 0x01
HEARTBEAT = 0x02
TAG_PRESENT = 0x03
TAG_REMOVED = 0x04
ERROR = 0x05
# Host -> firmware.
HELLO_REQUEST = 0x10
REPL_REQUEST = 0x11
"""Stop the firmware and give the REPL back (for flashing); payload must be :data:`REPL_MAGIC`."""
REPL_MAGIC = b"repl"

MESSAGE_NAMES = {
    HELLO: "hello",
    HEARTBEAT: "heartbeat",
    TAG_PRESENT: "tag-present",
    TAG_REMOVED: "tag-removed",
    ERROR: "error",
    HELLO_REQUEST: "hello-request",
    REPL_REQUEST: "repl-request",
}

# Error codes carried by ERROR frames.
ERR_READER_NOT_FOUND = 1
ERR_READER_IO = 2
ERR_BAD_RESPONSE = 3
ERR_BAD_REQUEST = 4
ERR_INTERNAL = 5

ERROR_NAMES = {
    ERR_READER_NOT_FOUND: "reader-not-found",
    ERR_READER_IO: "reader-io",
    ERR_BAD_RESPONSE: "bad-response",
    ERR_BAD_REQUEST: "bad-request",
    ERR_INTERNAL: "internal",
}

UID_LENGTHS = (4, 7, 10)
"""ISO 14443A UID sizes: single, double and triple size (cascade levels 1, 2 and 3)."""


class CodecError(ValueError):
    """A frame or payload that cannot be built or read."""


def _make_table() -> list:
    table = []
    for byte in range(256):
        value = byte
        for _ in range(8):
            value = (value >> 1) ^ 0xEDB88320 if value & 1 else value >> 1
        table.append(value)
    return table


_TABLE = _make_table()


def crc32_pure(data: bytes) -> int:
    """CRC-32 (IEEE 802.3) in pure Python; the same result as ``binascii.crc32``.

    Example:
        >>> hex(crc32_pure(b"123456789"))
        '0xcbf43926'
    """
    value = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        value = table[(value ^ byte) & 0xFF] ^ (value >> 8)
    return value ^ 0xFFFFFFFF


def crc32(data: bytes) -> int:
    """CRC-32 of ``data``, native when the platform has it.

    Example:
        >>> crc32(b"123456789") == crc32_pure(b"123456789")
        True
    """
    if _native_crc32 is None:  # pragma: no cover - exercised on MicroPython builds only
        return crc32_pure(data)
    return _native_crc32(data) & 0xFFFFFFFF


def cobs_encode(data: bytes) -> bytes:
    r"""Consistent Overhead Byte Stuffing: ``data`` with every zero byte removed.

    Example:
        >>> cobs_encode(b"\x11\x00\x22")
        b'\x02\x11\x02"'
    """
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    last = len(data) - 1
    for index in range(len(data)):
        byte = data[index]
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF and index < last:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    r"""Undo :func:`cobs_encode`.

    Raises:
        CodecError: ``data`` is not a valid COBS encoding.

    Example:
        >>> cobs_decode(b'\x02\x11\x02"')
        b'\x11\x00"'
    """
    out = bytearray()
    index = 0
    size = len(data)
    while index < size:
        code = data[index]
        end = index + code
        if code == 0 or end > size:
            raise CodecError("malformed COBS block at byte %d" % index)
        out.extend(data[index + 1:end])
        if code < 0xFF and end < size:
            out.append(0)
        index = end
    return bytes(out)


class Frame:
    """One decoded frame: its message type, sequence number and payload.

    Example:
        >>> Frame(HEARTBEAT, 3, b"")
        Frame(heartbeat, seq=3, payload=b'')
    """

    def __init__(self, type: int, seq: int, payload: bytes) -> None:
        self.type = type
        self.seq = seq
        self.payload = bytes(payload)

    @property
    def name(self) -> str:
        """The message type's name (``"tag-present"``), or ``"type-0x.."`` when unknown."""
        return MESSAGE_NAMES.get(self.type, "type-0x%02x" % self.type)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Frame) and self.type == other.type
                and self.seq == other.seq and self.payload == other.payload)

    def __hash__(self) -> int:
        return hash((self.type, self.seq, self.payload))

    def __repr__(self) -> str:
        return "Frame(%s, seq=%d, payload=%r)" % (self.name, self.seq, self.payload)


def encode_frame(type: int, seq: int, payload: bytes = b"") -> bytes:
    r"""The bytes to write for one frame, zero delimiters included.

    Raises:
        CodecError: the payload is longer than :data:`MAX_PAYLOAD` or a field is out of range.

    Example:
        >>> encode_frame(HEARTBEAT, 0)[:1], encode_frame(HEARTBEAT, 0)[-1:]
        (b'\x00', b'\x00')
    """
    if len(payload) > MAX_PAYLOAD:
        raise CodecError("payload of %d bytes exceeds the cap of %d" % (len(payload), MAX_PAYLOAD))
    if not 0 <= type <= 0xFF or not 0 <= seq <= 0xFF:
        raise CodecError("type and seq must be bytes (0-255)")
    body = bytearray((PROTOCOL_VERSION, type, seq, len(payload)))
    body.extend(payload)
    check = crc32(bytes(body))
    body.extend(bytes(((check >> 24) & 0xFF, (check >> 16) & 0xFF, (check >> 8) & 0xFF,
                       check & 0xFF)))
    return b"\x00" + cobs_encode(bytes(body)) + b"\x00"


class Decoder:
    r"""Turns a byte stream, garbage and all, into frames; never raises on any input.

    Attributes:
        frames: frames delivered so far.
        rejected: segments dropped for a bad COBS block, length or CRC.
        oversize: runs of bytes longer than any valid frame, dropped unbuffered.
        wrong_version: well-formed frames of another protocol version, dropped.
        last_version: the protocol version of the last such frame (0 when none).

    Example:
        >>> decoder = Decoder()
        >>> wire = encode_frame(HEARTBEAT, 1, b"\x00\x00\x00\x05")
        >>> decoder.feed(wire[:5]), decoder.feed(wire[5:])
        ([], [Frame(heartbeat, seq=1, payload=b'\x00\x00\x00\x05')])
    """

    def __init__(self) -> None:
        self._pending = bytearray()
        self._discarding = False
        self.frames = 0
        self.rejected = 0
        self.oversize = 0
        self.wrong_version = 0
        self.last_version = 0

    def reset(self) -> None:
        """Forget a partly received frame (after a reconnect)."""
        self._pending = bytearray()
        self._discarding = False

    def feed(self, data: bytes) -> list:
        """Take the next bytes from the line; return the frames they complete, in order."""
        found = []
        start = 0
        size = len(data)
        while start < size:
            end = data.find(b"\x00", start)
            if end < 0:
                if not self._discarding:
                    if len(self._pending) + size - start > MAX_ENCODED:
                        self._drop_oversize()
                    else:
                        self._pending.extend(data[start:])
                break
            if self._discarding:
                self._discarding = False
            elif len(self._pending) + end - start > MAX_ENCODED:
                self.oversize += 1
            elif len(self._pending) + end - start > 0:
                self._pending.extend(data[start:end])
                frame = self._decode(bytes(self._pending))
                if frame is not None:
                    found.append(frame)
            self._pending = bytearray()
            start = end + 1
        return found

    def _drop_oversize(self) -> None:
        self.oversize += 1
        self._discarding = True
        self._pending = bytearray()

    def _decode(self, segment: bytes) -> "Frame | None":
        try:
            body = cobs_decode(segment)
        except CodecError:
            self.rejected += 1
            return None
        size = len(body)
        if size < HEADER_SIZE + CRC_SIZE or body[3] != size - HEADER_SIZE - CRC_SIZE \
                or body[3] > MAX_PAYLOAD:
            self.rejected += 1
            return None
        check = (body[-4] << 24) | (body[-3] << 16) | (body[-2] << 8) | body[-1]
        if crc32(body[:-4]) != check:
            self.rejected += 1
            return None
        if body[0] != PROTOCOL_VERSION:
            self.wrong_version += 1
            self.last_version = body[0]
            return None
        self.frames += 1
        return Frame(body[1], body[2], body[HEADER_SIZE:-CRC_SIZE])


# -- payloads ------------------------------------------------------------------------------

def hello_payload(firmware: tuple, board: str = "") -> bytes:
    """HELLO: the protocol version, the firmware version (major, minor, patch) and a board name.

    Example:
        >>> parse_hello(hello_payload((1, 2, 3), "pico-pn532"))
        (1, (1, 2, 3), 'pico-pn532')
    """
    name = board.encode()
    if len(name) > MAX_PAYLOAD - 4:
        raise CodecError("board name too long")
    return bytes((PROTOCOL_VERSION, firmware[0], firmware[1], firmware[2])) + name


def parse_hello(payload: bytes) -> tuple:
    """``(protocol_version, (major, minor, patch), board)`` from a HELLO payload.

    Raises:
        CodecError: the payload is too short or the board name is not UTF-8.
    """
    if len(payload) < 4:
        raise CodecError("hello payload needs at least 4 bytes, got %d" % len(payload))
    try:
        board = bytes(payload[4:]).decode()
    except UnicodeError:
        raise CodecError("hello board name is not UTF-8") from None
    return payload[0], (payload[1], payload[2], payload[3]), board


def heartbeat_payload(uptime_s: int, tags_present: int) -> bytes:
    """HEARTBEAT: seconds since the firmware started (32 bits) and how many tags it sees.

    Example:
        >>> parse_heartbeat(heartbeat_payload(90061, 1))
        (90061, 1)
    """
    uptime_s &= 0xFFFFFFFF
    return bytes(((uptime_s >> 24) & 0xFF, (uptime_s >> 16) & 0xFF, (uptime_s >> 8) & 0xFF,
                  uptime_s & 0xFF, min(tags_present, 255)))


def parse_heartbeat(payload: bytes) -> tuple:
    """``(uptime_s, tags_present)`` from a HEARTBEAT payload.

    Raises:
        CodecError: the payload is not 5 bytes long.
    """
    if len(payload) != 5:
        raise CodecError("heartbeat payload must be 5 bytes, got %d" % len(payload))
    uptime = (payload[0] << 24) | (payload[1] << 16) | (payload[2] << 8) | payload[3]
    return uptime, payload[4]


def tag_payload(uid: bytes, sak: int = 0) -> bytes:
    r"""TAG_PRESENT / TAG_REMOVED: the UID's length, the UID (4, 7 or 10 bytes) and the SAK.

    Raises:
        CodecError: the UID is not 4, 7 or 10 bytes long.

    Example:
        >>> parse_tag(tag_payload(b"\x01\x02\x03\x04", 0x08))
        (b'\x01\x02\x03\x04', 8)
    """
    if len(uid) not in UID_LENGTHS:
        raise CodecError("a UID is 4, 7 or 10 bytes, not %d" % len(uid))
    return bytes((len(uid),)) + bytes(uid) + bytes((sak & 0xFF,))


def parse_tag(payload: bytes) -> tuple:
    """``(uid, sak)`` from a TAG_PRESENT or TAG_REMOVED payload.

    Raises:
        CodecError: the length byte is not 4, 7 or 10 or does not match the payload.
    """
    if not payload or payload[0] not in UID_LENGTHS or len(payload) != payload[0] + 2:
        raise CodecError("tag payload must be a UID length (4/7/10), the UID and the SAK")
    return bytes(payload[1:1 + payload[0]]), payload[-1]


def error_payload(code: int, message: str = "") -> bytes:
    """ERROR: an error code (see ``ERROR_NAMES``) and a short message, cut to fit.

    Example:
        >>> parse_error(error_payload(ERR_READER_NOT_FOUND, "no PN532 at 0x24"))
        (1, 'no PN532 at 0x24')
    """
    text = message.encode()[:MAX_PAYLOAD - 1]
    return bytes((code & 0xFF,)) + text


def parse_error(payload: bytes) -> tuple:
    """``(code, message)`` from an ERROR payload (undecodable text is replaced, not raised).

    Raises:
        CodecError: the payload is empty.
    """
    if not payload:
        raise CodecError("error payload must hold at least the error code")
    try:
        text = bytes(payload[1:]).decode()
    except UnicodeError:
        text = repr(bytes(payload[1:]))
    return payload[0], text
