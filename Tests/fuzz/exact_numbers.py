"""For scripts/fuzz-api's hooks (hooks.py): keep generated integers within what the daemon stores exactly.

The API document says a number that neither a 64-bit integer nor a 64-bit float holds exactly is refused with 400
malformedJSON (it would be stored as another number); JSON Schema cannot say so, so the generator draws integers of
any size. Each such integer is clamped to the 64-bit range. Every bound the document gives lies inside that range,
so a clamped value keeps or breaks its schema as the drawn one did: a positive test stays positive and a negative
one negative. (Folding them, as an earlier version did, turned a `step` of 2**63, drawn to break `maximum`, into 0,
a valid step, and the fuzzer then failed the daemon for accepting it: RELIABILITY.md, commit seed 70911893.) Floats
need nothing: Python writes a float in its shortest exact form, which the daemon keeps as written."""
LIMIT = 2 ** 63


def within_64_bits(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return max(-LIMIT, min(LIMIT - 1, value))
    if isinstance(value, list):
        return [within_64_bits(item) for item in value]
    if isinstance(value, dict):
        return {key: within_64_bits(item) for key, item in value.items()}
    return value
