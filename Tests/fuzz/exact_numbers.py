"""schemathesis hooks for scripts/fuzz-api: keep generated integers within what the daemon stores exactly.

The API document says a number that neither a 64-bit integer nor a 64-bit float holds exactly is refused with 400
malformedJSON (it would be stored as another number); JSON Schema cannot say so, so the generator draws integers of
any size. Each such integer is folded into the 64-bit range, keeping its sign, so a positive test stays positive.
Floats need nothing: Python writes a float in its shortest exact form, which the daemon keeps as written."""
import schemathesis

LIMIT = 2 ** 63


def within_64_bits(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and not -LIMIT <= value < LIMIT:
        return value % LIMIT if value > 0 else -(-value % LIMIT)
    if isinstance(value, list):
        return [within_64_bits(item) for item in value]
    if isinstance(value, dict):
        return {key: within_64_bits(item) for key, item in value.items()}
    return value


@schemathesis.hook
def map_body(context, body):
    return within_64_bits(body)
