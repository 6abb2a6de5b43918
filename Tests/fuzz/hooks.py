"""The schemathesis hooks scripts/fuzz-api loads (SCHEMATHESIS_HOOKS=hooks): each generated body is kept within what
the daemon stores exactly (exact_numbers.py), and a request sent through a session's network does not wait on its
clock (answered_at_once.py)."""
import schemathesis

from answered_at_once import answered_at_once
from exact_numbers import within_64_bits


@schemathesis.hook
def map_body(context, body):
    return answered_at_once(context, within_64_bits(body))
