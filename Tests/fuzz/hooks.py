"""The schemathesis hooks scripts/fuzz-api loads (SCHEMATHESIS_HOOKS=hooks): each generated body is kept within what
the daemon stores exactly (exact_numbers.py), and a request sent through a session's network does not wait on its
clock (answered_at_once.py)."""
import schemathesis

from answered_at_once import answered_at_once
from exact_numbers import within_64_bits


@schemathesis.hook
def map_body(context, body):
    return answered_at_once(context, within_64_bits(body))


@schemathesis.hook
def before_call(context, case, **kwargs):
    # The coverage phase builds bodies from the document's examples and bounds without map_body: a sendRequest with
    # "wait": true after a generated delay waited for a clock move that never came (seed 70256828).
    # Only that body is touched: assigning a case's body, even unchanged, loses what schemathesis knows of it (a
    # negative case then read as a positive one).
    body = answered_at_once(case, case.body)
    if body is not case.body:
        case.body = body
