# ruff: noqa: UP031 - runs on MicroPython too; %-formatting keeps it simple
"""The firmware's main loop against a simulated PN532, on a simulated clock.

Runs unchanged on CPython (imported by test_firmware.py) and on MicroPython (run by
mp_runner.mjs through mp_firmware_main.py). Each scenario returns "" or what went wrong.
"""

NTAG = (b"\x04\x9a\x3b\x72\x5c\x61\x80", 0x00)       # NTAG215: 7-byte UID, SAK 0x00
MIFARE = (b"\xde\xad\xbe\xef", 0x08)                 # 4-byte UID
TRIPLE = (b"\x04\x11\x22\x33\x44\x55\x66\x77\x88\x99", 0x20)  # 10-byte UID


class Clock:
    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.now += ms


class Rig:
    def __init__(self, env):
        self.env = env
        self.codec = env["codec"]
        self.clock = Clock()
        self.bus = env["FakePN532Bus"]()
        self.out = []
        reader = env["PN532"](self.bus, self.clock.sleep_ms, self.clock.ticks_ms,
                              self.clock.ticks_diff)
        self.bridge = env["Bridge"](reader, self.out.append, self.clock.ticks_ms,
                                    self.clock.ticks_diff,
                                    reader_errors=(OSError, env["PN532Error"]))
        self.decoder = self.codec.Decoder()
        self.bridge.hello()

    def run(self, ms, step=5):
        end = self.clock.now + ms
        while self.clock.now < end:
            self.bridge.tick()
            self.clock.sleep_ms(step)

    def events(self, heartbeats=False):
        """Frames sent so far as short strings: 'present 049A3B725C6180 sak=0'."""
        codec = self.codec
        found = []
        for frame in self.decoder.feed(b"".join(self.out)):
            name = codec.MESSAGE_NAMES.get(frame.type, "?")
            if frame.type in (codec.TAG_PRESENT, codec.TAG_REMOVED):
                uid, sak = codec.parse_tag(frame.payload)
                found.append("%s %s sak=%d" % (name, hexu(uid), sak))
            elif frame.type == codec.HEARTBEAT:
                if heartbeats:
                    found.append("heartbeat %d %d" % codec.parse_heartbeat(frame.payload))
            elif frame.type == codec.ERROR:
                found.append("error %s" % codec.ERROR_NAMES[codec.parse_error(frame.payload)[0]])
            elif frame.type == codec.HELLO:
                protocol, firmware, board = codec.parse_hello(frame.payload)
                found.append("hello v%d %d.%d.%d %s" % (protocol, firmware[0], firmware[1],
                                                          firmware[2], board))
            else:
                found.append(name)
        self.out.clear()
        return found


def hexu(data):
    return "".join("%02X" % b for b in data)


def expect(got, wanted):
    return "" if got == wanted else "got %r, wanted %r" % (got, wanted)


def hello_then_a_heartbeat_every_second(env):
    rig = Rig(env)
    rig.run(3050)
    return expect(rig.events(heartbeats=True), [
        "hello v1 1.0.0 pico-pn532", "heartbeat 0 0", "heartbeat 1 0", "heartbeat 2 0",
        "heartbeat 3 0"])


def seven_byte_ntag_reported_once_then_removed(env):
    rig = Rig(env)
    rig.run(200)
    rig.bus.tags = [NTAG]
    rig.run(1000)
    middle = rig.events()
    rig.bus.tags = []
    rig.run(500)
    return expect(middle + rig.events(), [
        "hello v1 1.0.0 pico-pn532", "tag-present 049A3B725C6180 sak=0",
        "tag-removed 049A3B725C6180 sak=0"])


def four_and_ten_byte_uids(env):
    rig = Rig(env)
    rig.bus.tags = [MIFARE]
    rig.run(300)
    rig.bus.tags = [TRIPLE]
    rig.run(300)
    return expect(rig.events()[1:], [
        "tag-present DEADBEEF sak=8", "tag-removed DEADBEEF sak=8",
        "tag-present 04112233445566778899 sak=32"])


def a_missed_read_or_two_is_not_a_removal(env):
    rig = Rig(env)
    rig.bus.tags = [NTAG]
    rig.run(300)
    rig.bus.tags = []
    rig.run(200)                 # two polls miss it
    rig.bus.tags = [NTAG]
    rig.run(300)
    first = rig.events()[1:]
    rig.bus.tags = []
    rig.run(400)                 # three misses: gone
    return expect(first + rig.events(), [
        "tag-present 049A3B725C6180 sak=0", "tag-removed 049A3B725C6180 sak=0"])


def an_incomplete_cascade_is_never_reported_as_a_short_uid(env):
    rig = Rig(env)
    rig.bus.tags = [NTAG]
    rig.bus.glitch = "cascade"
    rig.run(50)
    rig.run(300)
    return expect(rig.events()[1:], ["error bad-response", "tag-present 049A3B725C6180 sak=0"])


def a_garbled_answer_is_a_miss_not_a_tag(env):
    rig = Rig(env)
    rig.bus.tags = [MIFARE]
    rig.run(300)
    rig.bus.glitch = "checksum"
    rig.run(300)
    return expect(rig.events()[1:], ["tag-present DEADBEEF sak=8", "error bad-response"])


def reader_missing_at_boot_is_reported_once_then_found(env):
    rig = Rig(env)
    rig.bus.on_bus = False
    rig.run(4500)
    rig.bus.on_bus = True
    rig.bus.tags = [MIFARE]
    rig.run(2100)
    return expect(rig.events(), [
        "hello v1 1.0.0 pico-pn532", "error reader-not-found", "tag-present DEADBEEF sak=8"])


def reader_unplugged_mid_game_drops_the_tag_and_says_so(env):
    rig = Rig(env)
    rig.bus.tags = [NTAG]
    rig.run(300)
    rig.bus.on_bus = False
    rig.run(300)
    return expect(rig.events()[1:], [
        "tag-present 049A3B725C6180 sak=0", "error reader-io", "tag-removed 049A3B725C6180 sak=0"])


def host_requests_and_stray_bytes(env):
    codec = env["codec"]
    rig = Rig(env)
    results = [rig.bridge.feed_host(b"\x03\x03\x04garbage\x03")]
    results.append(rig.bridge.feed_host(codec.encode_frame(codec.HELLO_REQUEST, 0)))
    results.append(rig.bridge.feed_host(codec.encode_frame(codec.REPL_REQUEST, 1, b"nope")))
    rig.run(10)
    events = rig.events()
    results.append(rig.bridge.feed_host(codec.encode_frame(codec.REPL_REQUEST, 2,
                                                           codec.REPL_MAGIC)))
    return expect([results, events], [[None, None, None, "repl"], [
        "hello v1 1.0.0 pico-pn532", "hello v1 1.0.0 pico-pn532", "error bad-request"]])


def swapping_cards_reports_removal_then_the_new_card(env):
    rig = Rig(env)
    rig.bus.tags = [MIFARE]
    rig.run(300)
    rig.bus.tags = [NTAG]
    rig.run(300)
    return expect(rig.events()[1:], [
        "tag-present DEADBEEF sak=8", "tag-removed DEADBEEF sak=8",
        "tag-present 049A3B725C6180 sak=0"])


def the_reader_is_released_after_each_read(env):
    rig = Rig(env)
    rig.bus.tags = [MIFARE]
    rig.run(250)
    polls = rig.bus.commands.count(0x4A)
    releases = rig.bus.commands.count(0x52)
    return expect([rig.bus.commands[:3], polls, releases], [[0x02, 0x14, 0x32], 3, 3])


SCENARIOS = [
    hello_then_a_heartbeat_every_second,
    seven_byte_ntag_reported_once_then_removed,
    four_and_ten_byte_uids,
    a_missed_read_or_two_is_not_a_removal,
    an_incomplete_cascade_is_never_reported_as_a_short_uid,
    a_garbled_answer_is_a_miss_not_a_tag,
    reader_missing_at_boot_is_reported_once_then_found,
    reader_unplugged_mid_game_drops_the_tag_and_says_so,
    host_requests_and_stray_bytes,
    swapping_cards_reports_removal_then_the_new_card,
    the_reader_is_released_after_each_read,
]


def run_all(env):
    """[(scenario name, failure or "")] for every scenario."""
    results = []
    for scenario in SCENARIOS:
        try:
            failure = scenario(env)
        except Exception as error:
            failure = "raised %s: %s" % (type(error).__name__, error)
        results.append((scenario.__name__, failure))
    return results


def the_guarded_loop_survives_ctrl_c_and_errors_until_a_repl_request(env):
    codec = env["codec"]
    rig = Rig(env)
    rig.events()
    calls = []
    line = list(b"\x03\x03\x04\x03")                      # stray Ctrl-C / Ctrl-D bytes
    line += list(codec.encode_frame(codec.HELLO_REQUEST, 0))
    bridge = rig.bridge
    real_tick = bridge.tick
    troubles = ["interrupt", "crash"]

    def tick():
        if troubles:
            trouble = troubles.pop(0)
            if trouble == "interrupt":
                raise KeyboardInterrupt
            raise ValueError("boom")
        real_tick()
        if not line and len(calls) == 1 and rig.clock.now > 1500:
            line.extend(codec.encode_frame(codec.REPL_REQUEST, 1, codec.REPL_MAGIC))

    bridge.tick = tick
    env["serve"](bridge, lambda: bool(line), lambda: bytes((line.pop(0),)),
                 rig.clock.sleep_ms, calls.append)
    events = rig.events(heartbeats=True)
    return expect([calls, events[:3], "hello v1 1.0.0 pico-pn532" in events[3:],
                   events[-1].startswith("heartbeat 1")],
                  [[-1, 3], ["hello v1 1.0.0 pico-pn532", "hello v1 1.0.0 pico-pn532",
                             "error internal"], False, True])


SCENARIOS.append(the_guarded_loop_survives_ctrl_c_and_errors_until_a_repl_request)
