# ruff: noqa: UP031 - runs on MicroPython too; %-formatting keeps it simple
"""Checks the frame codec against the shared test vectors (runs on CPython and MicroPython).

``check(codec, vectors)`` returns one ``(name, failure)`` pair per vector, ``failure`` being
``""`` when it passed. The CPython test imports this module; the MicroPython run executes the
very same file under the WebAssembly build (``mp_runner.mjs``).
"""

import binascii


def _hex(data):
    return binascii.hexlify(bytes(data)).decode()


def _unhex(text):
    return binascii.unhexlify(text)


def _frames_json(frames):
    return [[frame.type, frame.seq, _hex(frame.payload)] for frame in frames]


def _check_one(codec, kind, vector):
    if kind == "crc32":
        data = _unhex(vector["data"])
        got = [codec.crc32(data), codec.crc32_pure(data)]
        return "" if got == [vector["crc"], vector["crc"]] else "crc %r" % (got,)
    if kind == "cobs":
        raw, encoded = _unhex(vector["raw"]), _unhex(vector["encoded"])
        if codec.cobs_encode(raw) != encoded:
            return "encoded %s" % _hex(codec.cobs_encode(raw))
        return "" if codec.cobs_decode(encoded) == raw else "decode mismatch"
    if kind == "frame":
        wire = codec.encode_frame(vector["type"], vector["seq"], _unhex(vector["payload"]))
        return "" if _hex(wire) == vector["wire"] else "wire %s" % _hex(wire)
    if kind == "stream":
        decoder = codec.Decoder()
        got = []
        data = _unhex(vector["data"])
        step = vector["chunk"]
        for start in range(0, len(data), step):
            got.extend(decoder.feed(data[start:start + step]))
        got = _frames_json(got)
        counts = [decoder.rejected, decoder.oversize, decoder.wrong_version]
        if got != vector["frames"]:
            return "frames %r" % (got,)
        if vector["counts"] is None:
            return ""
        return "" if counts == vector["counts"] else "counts %r" % (counts,)
    if kind == "reject_encode":
        try:
            codec.encode_frame(vector["type"], vector["seq"], _unhex(vector["payload"]))
        except codec.CodecError:
            return ""
        return "no CodecError"
    if kind == "payload":
        return _check_payload(codec, vector)
    return "unknown vector kind %r" % kind


def _check_payload(codec, vector):
    name, args = vector["message"], vector["args"]
    if name == "hello":
        payload = codec.hello_payload(tuple(args[0]), args[1])
        parsed = codec.parse_hello(payload)
        parsed = [parsed[0], list(parsed[1]), parsed[2]]
    elif name == "heartbeat":
        payload = codec.heartbeat_payload(args[0], args[1])
        parsed = list(codec.parse_heartbeat(payload))
    elif name == "tag":
        payload = codec.tag_payload(_unhex(args[0]), args[1])
        uid, sak = codec.parse_tag(payload)
        parsed = [_hex(uid), sak]
    elif name == "error":
        payload = codec.error_payload(args[0], args[1])
        parsed = list(codec.parse_error(payload))
    else:
        return "unknown message %r" % name
    if _hex(payload) != vector["payload"]:
        return "payload %s" % _hex(payload)
    return "" if parsed == vector["parsed"] else "parsed %r" % (parsed,)


def check(codec, vectors):
    """Run every vector; return ``[(name, failure), ...]`` with ``failure == ""`` on success."""
    results = []
    for kind in sorted(vectors):
        for index, vector in enumerate(vectors[kind]):
            name = "%s[%d]" % (kind, index)
            try:
                failure = _check_one(codec, kind, vector)
            except Exception as error:  # a vector must never raise: report it as a failure
                failure = "raised %s: %s" % (type(error).__name__, error)
            results.append((name, failure))
    return results


def main(codec_module, vectors_path):
    """Print ``PASS name`` / ``FAIL name: why`` lines and a ``SUMMARY passed failed`` line."""
    import json

    with open(vectors_path) as handle:
        vectors = json.load(handle)
    passed = failed = 0
    for name, failure in check(codec_module, vectors):
        if failure:
            failed += 1
            print("FAIL %s: %s" % (name, failure))
        else:
            passed += 1
            print("PASS %s" % name)
    print("SUMMARY %d %d" % (passed, failed))
