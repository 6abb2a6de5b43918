"""A request sent through a session's network (sendRequest) goes with "wait": false.

One that waits would wait for a move of the session's clock, and the fuzzer, one client, makes none until it has its
answer: once a generated setNetworkConditions has added a delay, the wait would end only at the request timeout. The
wait itself is tested by Tests/ScenarioHostTests/OutsideRequestTests.swift and the API agreement test."""


def answered_at_once(context, body):
    operation = getattr(context, "operation", None)
    if isinstance(body, dict) and operation is not None and getattr(operation, "path", "").endswith("/network/requests"):
        return dict(body, wait=False)
    return body
