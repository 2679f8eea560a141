# ruff: noqa: UP031 - runs on MicroPython: the firmware scenarios under the real interpreter.
import sys

import bridge
import codec
import fake_pn532
import firmware_scenarios
import pn532

env = {"codec": codec, "Bridge": bridge.Bridge, "serve": bridge.serve, "PN532": pn532.PN532,
       "PN532Error": pn532.PN532Error, "FakePN532Bus": fake_pn532.FakePN532Bus}
print("IMPLEMENTATION %s" % sys.implementation.name)
failed = 0
for name, failure in firmware_scenarios.run_all(env):
    if failure:
        failed += 1
        print("FAIL %s: %s" % (name, failure))
    else:
        print("PASS %s" % name)
print("SUMMARY %d" % failed)
# main.py itself only wires the board (machine.I2C, stdin): check it compiles here.
with open("/app/main.py") as handle:
    compile(handle.read(), "main.py", "exec")
print("COMPILED main.py")
