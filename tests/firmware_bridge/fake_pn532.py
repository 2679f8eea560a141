# A PN532 simulated at the I2C bus level (runs on CPython and MicroPython).
#
# It answers the frames the PN532 User Manual describes (section 6.2; I2C: every read starts
# with a status byte, 0x01 once an answer is ready): an ACK, then the command's answer.
# Tests put tags in the field, take the chip off the bus, or make it glitch.

ACK = b"\x00\x00\xff\x00\xff\x00"


def _frame(data):
    length = len(data)
    return (b"\x00\x00\xff" + bytes((length, (256 - length) & 0xFF)) + bytes(data)
            + bytes(((256 - sum(data)) & 0xFF, 0x00)))


class FakePN532Bus:
    ADDRESS = 0x24

    def __init__(self):
        self.tags = []            # [(uid bytes, sak)] in the field; the first one is read
        self.on_bus = True        # False: every transfer fails like an absent device
        self.glitch = None        # "cascade" or "checksum": spoil the next target answer
        self.pending = []
        self.commands = []

    def _check(self, address):
        if address != self.ADDRESS or not self.on_bus:
            raise OSError(19)     # ENODEV, as machine.I2C raises for a missing device

    def writeto(self, address, buf):
        self._check(address)
        buf = bytes(buf)
        assert buf[:3] == b"\x00\x00\xff", "bad preamble"
        length = buf[3]
        assert (length + buf[4]) & 0xFF == 0, "bad LCS"
        data = buf[5:5 + length]
        assert (sum(data) + buf[5 + length]) & 0xFF == 0, "bad DCS"
        assert data[0] == 0xD4, "not a host frame"
        command = data[1]
        self.commands.append(command)
        self.pending.append(ACK)
        self.pending.append(self._answer(command, data[2:]))

    def _answer(self, command, params):
        reply = bytes((0xD5, command + 1))
        if command == 0x02:
            return _frame(reply + b"\x32\x01\x06\x07")
        if command in (0x14, 0x32):
            return _frame(reply)
        if command == 0x52:
            return _frame(reply + b"\x00")
        if command == 0x4A:
            if not self.tags:
                return _frame(reply + b"\x00")
            uid, sak = self.tags[0]
            atqa = b"\x00\x44" if len(uid) > 4 else b"\x00\x04"
            if self.glitch == "cascade":
                self.glitch = None
                body = b"\x01\x01" + atqa + b"\x04\x04\x88" + uid[:3]
                return _frame(reply + body)
            frame = _frame(reply + b"\x01\x01" + atqa + bytes((sak, len(uid))) + uid)
            if self.glitch == "checksum":
                self.glitch = None
                frame = frame[:-2] + bytes(((frame[-2] + 1) & 0xFF, 0))
            return frame
        return _frame(b"\x7f")    # syntax error frame

    def readfrom(self, address, count):
        self._check(address)
        if not self.pending:
            return bytes(count)   # status 0x00: busy
        if count == 1:
            return b"\x01"
        frame = self.pending.pop(0)
        data = b"\x01" + frame
        return (data + bytes(count))[:count]
