# NFC bridge firmware for a Raspberry Pi Pico (MicroPython) with a PN532 on I2C0.
#
# Wiring (docs/wiring.md): PN532 SDA -> GP4 (pin 6), SCL -> GP5 (pin 7), VCC -> 3V3(OUT)
# (pin 36), GND -> GND (pin 38); the PN532's mode switches set to I2C.
#
# Frames go out on the USB serial port (stdout) and come in on stdin, both through the
# shared codec (codec.py, copied next to this file by `infinite-bridge flash`). The loop
# itself is bridge.serve(): it guards the REPL (micropython.kbd_intr(-1), so a stray Ctrl-C
# byte is just data) and survives any exception; `infinite-bridge flash` stops it with a
# CRC-checked repl-request frame before copying new files.

import select
import sys
import time

import micropython
from bridge import Bridge, serve
from machine import I2C, Pin
from pn532 import PN532, PN532Error

I2C_ID = 0
SDA_PIN = 4
SCL_PIN = 5
I2C_FREQ = 100000


def run():
    stdin = sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    i2c = I2C(I2C_ID, sda=Pin(SDA_PIN), scl=Pin(SCL_PIN), freq=I2C_FREQ)
    reader = PN532(i2c, time.sleep_ms, time.ticks_ms, time.ticks_diff)
    bridge = Bridge(reader, sys.stdout.buffer.write, time.ticks_ms, time.ticks_diff,
                    reader_errors=(OSError, PN532Error))
    serve(bridge, lambda: poller.poll(0), lambda: stdin.read(1), time.sleep_ms,
          micropython.kbd_intr)


run()
