# PN532 NFC reader over I2C, for MicroPython (and CPython, for the host tests).
#
# Speaks the PN532's normal information frames (PN532 User Manual, section 6.2):
#   host -> PN532:  00 00 FF LEN LCS D4 CMD DATA... DCS 00
#   PN532 -> host:  (status byte 0x01 when ready) 00 00 FF LEN LCS D5 CMD+1 DATA... DCS 00
# and only the commands the bridge needs: GetFirmwareVersion, SAMConfiguration,
# RFConfiguration (few activation retries, so a poll returns at once when no tag is there),
# InListPassiveTarget (106 kbps ISO 14443A) and InRelease.
#
# Cascade levels: the PN532 runs the ISO 14443-3 anticollision loop itself and returns the
# whole UID (4, 7 or 10 bytes) with the cascade tags (0x88) removed. A read that stopped early
# shows as a UID starting with the cascade tag 0x88, or a SAK with bit 3 (0x04, "UID not
# complete") set; such a read is refused rather than reported as a wrong, shorter UID.

ADDRESS = 0x24
TFI_HOST = 0xD4
TFI_PN532 = 0xD5
ACK = b"\x00\x00\xff\x00\xff\x00"

CMD_GET_FIRMWARE_VERSION = 0x02
CMD_SAM_CONFIGURATION = 0x14
CMD_RF_CONFIGURATION = 0x32
CMD_IN_LIST_PASSIVE_TARGET = 0x4A
CMD_IN_RELEASE = 0x52

CASCADE_TAG = 0x88
SAK_UID_NOT_COMPLETE = 0x04


class PN532Error(Exception):
    """The PN532 answered something that is not a valid frame, or did not answer in time."""


def build_frame(data):
    """An information frame carrying ``data`` (TFI included)."""
    length = len(data)
    frame = bytearray(b"\x00\x00\xff")
    frame.append(length & 0xFF)
    frame.append((~length + 1) & 0xFF)
    frame.extend(data)
    frame.append((~sum(data) + 1) & 0xFF)
    frame.append(0x00)
    return bytes(frame)


def parse_frame(raw):
    """The data (TFI included) of the information frame in ``raw``; raises PN532Error."""
    offset = 0
    size = len(raw)
    while offset < size and raw[offset] == 0x00:
        offset += 1
    if offset == 0 or offset >= size - 2 or raw[offset] != 0xFF:
        raise PN532Error("no frame start")
    length = raw[offset + 1]
    if (length + raw[offset + 2]) & 0xFF != 0:
        raise PN532Error("bad length checksum")
    start = offset + 3
    end = start + length
    if end >= size:
        raise PN532Error("frame cut short")
    data = raw[start:end]
    if (sum(data) + raw[end]) & 0xFF != 0:
        raise PN532Error("bad data checksum")
    return bytes(data)


def uid_from_target(response):
    """``(uid, sak)`` from an InListPassiveTarget answer's data after D5 4B, or None.

    Layout: NbTg, Tg, SENS_RES (2), SEL_RES (1), NFCIDLength, NFCID1...
    Raises PN532Error for an incomplete cascade or an impossible UID length.
    """
    if len(response) < 1 or response[0] == 0:
        return None
    if len(response) < 6:
        raise PN532Error("target answer too short")
    sak = response[4]
    length = response[5]
    uid = bytes(response[6:6 + length])
    if len(uid) != length or length not in (4, 7, 10):
        raise PN532Error("UID of %d bytes" % length)
    if uid[0] == CASCADE_TAG or sak & SAK_UID_NOT_COMPLETE:
        raise PN532Error("incomplete cascade")
    return uid, sak


class PN532:
    """A PN532 on an I2C bus with ``writeto(addr, buf)`` and ``readfrom(addr, n)``."""

    def __init__(self, i2c, sleep_ms, ticks_ms, ticks_diff, address=ADDRESS, timeout_ms=100):
        self.i2c = i2c
        self.sleep_ms = sleep_ms
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.address = address
        self.timeout_ms = timeout_ms
        self.firmware = None

    def init(self):
        """Wake the chip, read its firmware version, enable normal mode, few retries."""
        version = self.command(CMD_GET_FIRMWARE_VERSION, b"", 4)
        if len(version) < 4:
            raise PN532Error("short firmware version")
        self.firmware = (version[0], version[1], version[2])
        self.command(CMD_SAM_CONFIGURATION, b"\x01\x14\x00", 0)
        # CfgItem 5: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation (1 retry: poll returns fast)
        self.command(CMD_RF_CONFIGURATION, b"\x05\xff\x01\x01", 0)
        return self.firmware

    def read_uid(self):
        """``(uid, sak)`` of a tag in the field, or None; the tag is released afterwards."""
        response = self.command(CMD_IN_LIST_PASSIVE_TARGET, b"\x01\x00", 20)
        found = uid_from_target(response)
        if found is not None:
            self.command(CMD_IN_RELEASE, b"\x00", 1)
        return found

    def command(self, cmd, params, response_length):
        """Send ``cmd`` and return the answer's data after D5 CMD+1."""
        self.i2c.writeto(self.address, build_frame(bytes((TFI_HOST, cmd)) + bytes(params)))
        self._wait_ready()
        ack = self.i2c.readfrom(self.address, len(ACK) + 1)
        if bytes(ack[1:]) != ACK:
            raise PN532Error("no ACK")
        self._wait_ready()
        raw = self.i2c.readfrom(self.address, response_length + 10)
        data = parse_frame(raw[1:])
        if len(data) < 2 or data[0] != TFI_PN532 or data[1] != cmd + 1:
            raise PN532Error("answer to another command")
        return data[2:]

    def _wait_ready(self):
        start = self.ticks_ms()
        while True:
            status = self.i2c.readfrom(self.address, 1)
            if status and status[0] == 0x01:
                return
            if self.ticks_diff(self.ticks_ms(), start) > self.timeout_ms:
                raise PN532Error("timeout")
            self.sleep_ms(1)
