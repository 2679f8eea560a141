# The NFC bridge's main loop logic, independent of the board (tested on the host).
#
# Every POLL_MS it asks the reader for a tag; a tag seen is reported once (tag-present), and
# reported gone (tag-removed) only after it has been missing from REMOVE_AFTER_MISSES polls
# in a row, so a single missed read never makes a card "blink". A different tag replacing it
# is reported as removed-then-present. A heartbeat goes out every HEARTBEAT_MS. Reader
# failures are reported as error frames (once per failure streak) and the reader is set up
# again every REINIT_MS. Frames from the host: hello-request (answered with a hello) and
# repl-request (the firmware stops so mpremote can flash it).

try:
    import codec
except ImportError:  # on the host (tests): the same module from the package
    from firmware_bridge import codec

FIRMWARE_VERSION = (1, 0, 0)
BOARD = "pico-pn532"
POLL_MS = 100
HEARTBEAT_MS = 1000
REMOVE_AFTER_MISSES = 3
REINIT_MS = 2000


class Bridge:
    """The firmware's loop state. ``reader`` has ``init()`` and ``read_uid()``; ``write``
    sends bytes to the host; ``ticks_ms``/``ticks_diff`` as in MicroPython's ``time``."""

    def __init__(self, reader, write, ticks_ms, ticks_diff, reader_errors=(OSError,)):
        self.reader = reader
        self.write = write
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.reader_errors = tuple(reader_errors)
        self.decoder = codec.Decoder()
        self.seq = 0
        self.started = ticks_ms()
        self.next_poll = self.started
        self.next_heartbeat = self.started
        self.next_init = self.started
        self.reader_ok = False
        self.reported_error = False
        self.present = None  # (uid, sak) reported present
        self.misses = 0

    def send(self, type_, payload=b""):
        self.write(codec.encode_frame(type_, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFF

    def hello(self):
        self.send(codec.HELLO, codec.hello_payload(FIRMWARE_VERSION, BOARD))

    def error(self, code, message):
        self.send(codec.ERROR, codec.error_payload(code, message))

    def feed_host(self, data):
        """Act on bytes from the host; returns "repl" when asked to stop."""
        for frame in self.decoder.feed(data):
            if frame.type == codec.HELLO_REQUEST:
                self.hello()
            elif frame.type == codec.REPL_REQUEST and frame.payload == codec.REPL_MAGIC:
                return "repl"
            else:
                self.error(codec.ERR_BAD_REQUEST, "unexpected %s" % frame.name)
        return None

    def _due(self, when, now):
        return self.ticks_diff(now, when) >= 0

    def tick(self):
        """Do whatever is due now: (re)initialise the reader, poll it, send a heartbeat."""
        now = self.ticks_ms()
        if not self.reader_ok and self._due(self.next_init, now):
            self._init_reader(now)
        if self.reader_ok and self._due(self.next_poll, now):
            self.next_poll = now + POLL_MS
            self._poll(now)
        if self._due(self.next_heartbeat, now):
            self.next_heartbeat = now + HEARTBEAT_MS
            uptime = self.ticks_diff(now, self.started) // 1000
            self.send(codec.HEARTBEAT,
                      codec.heartbeat_payload(uptime, 1 if self.present else 0))

    def _init_reader(self, now):
        try:
            self.reader.init()
        except self.reader_errors as error:
            self.next_init = now + REINIT_MS
            if not self.reported_error:
                self.reported_error = True
                self.error(codec.ERR_READER_NOT_FOUND, "PN532: %s" % error)
            return
        self.reader_ok = True
        self.reported_error = False

    def _poll(self, now):
        try:
            found = self.reader.read_uid()
        except self.reader_errors as error:
            if isinstance(error, OSError):  # the bus failed: the reader is gone
                self.reader_ok = False
                self.next_init = now + REINIT_MS
                self.error(codec.ERR_READER_IO, "PN532 I2C: %s" % error)
                self._lost_tag()
            else:  # a garbled answer: count it as a miss, say so once in a streak
                if not self.reported_error:
                    self.reported_error = True
                    self.error(codec.ERR_BAD_RESPONSE, "PN532: %s" % error)
                self._missed()
            return
        self.reported_error = False
        if found is None:
            self._missed()
            return
        self.misses = 0
        if self.present is not None and self.present[0] == found[0]:
            return
        if self.present is not None:
            self.send(codec.TAG_REMOVED, codec.tag_payload(self.present[0], self.present[1]))
        self.present = found
        self.send(codec.TAG_PRESENT, codec.tag_payload(found[0], found[1]))

    def _missed(self):
        if self.present is None:
            return
        self.misses += 1
        if self.misses >= REMOVE_AFTER_MISSES:
            self._lost_tag()

    def _lost_tag(self):
        if self.present is not None:
            self.send(codec.TAG_REMOVED, codec.tag_payload(self.present[0], self.present[1]))
        self.present = None
        self.misses = 0


def serve(bridge, input_ready, read_input, sleep_ms, kbd_intr, idle_ms=5):
    """The firmware's main loop: guard the REPL, then serve until a repl-request.

    ``kbd_intr(-1)`` first: a Ctrl-C byte (0x03) from the host is then plain data for the
    decoder instead of a KeyboardInterrupt. Any exception in the loop is reported as an
    error frame and the loop goes on, so the board never drops to a prompt by accident.
    Only a CRC-checked repl-request gives the REPL back (``kbd_intr(3)``) and returns.
    """
    kbd_intr(-1)
    bridge.hello()
    while True:
        try:
            while input_ready():
                if bridge.feed_host(read_input()) == "repl":
                    kbd_intr(3)
                    return
            bridge.tick()
        except KeyboardInterrupt:
            pass
        except Exception as error:
            try:
                bridge.error(codec.ERR_INTERNAL, "%s: %s" % (type(error).__name__, error))
            except Exception:
                pass
            sleep_ms(100)
        sleep_ms(idle_ms)
