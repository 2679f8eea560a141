# ruff: noqa: UP031 - runs on MicroPython too; %-formatting keeps it simple
# Run under MicroPython by mp_runner.mjs: check codec.py against the shared vectors.
import sys

import codec
import vector_check

print("IMPLEMENTATION %s" % sys.implementation.name)
vector_check.main(codec, "/app/codec_vectors.json")
