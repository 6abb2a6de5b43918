"""`scenarioctl mcp` driven by the official MCP Python SDK, as a coding agent's client drives it: stdio, initialize,
tools derived from GET /v1/models, a session worked through tools, errors as tool errors, resources and their
change notifications."""
import asyncio
import json
import subprocess

import anyio
import httpx
import pytest
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client


def agent(daemon, scenarioctl, body):
    """Runs `body(session, notifications)` in an MCP client session of `scenarioctl mcp --socket …`."""
    notifications = []

    async def handler(message):
        if isinstance(message, types.ServerNotification):
            notifications.append(message.root)

    async def main():
        parameters = StdioServerParameters(command=scenarioctl, args=["mcp", "--socket", daemon.socket])
        async with stdio_client(parameters) as (read, write):
            async with ClientSession(read, write, message_handler=handler) as session:
                initialized = await session.initialize()
                assert initialized.serverInfo.name == "scenariod"
                with anyio.fail_after(60):
                    return await body(session, notifications)

    return asyncio.run(main())


def test_tools_are_the_daemons_verbs_and_each_models_actions(daemon, scenarioctl):
    models = daemon.http.get("/v1/models").json()

    async def body(session, _):
        return (await session.list_tools()).tools

    tools = {tool.name: tool for tool in agent(daemon, scenarioctl, body)}
    for verb in ["list_scenarios", "list_models", "open_session", "close_session", "read_state", "read_journal",
                 "move_clock", "set_network_conditions", "list_streams", "push_to_stream", "close_stream", "send_request", "read_sent_request", "explore", "edit_store", "rewind",
                 "save_scenario"]:
        assert verb in tools, f"{verb} missing from {sorted(tools)}"
    action_tools = [name for name in tools if "_" in name and name.split("_")[0] in {m["name"].lower() for m in models}]
    assert len(action_tools) == sum(len(model["actions"]) for model in models) >= 5
    for model in models:
        for action in model["actions"]:
            tool = tools[f"{model['name'].lower()}_{action['name']}"]
            schema = tool.inputSchema
            properties = dict(schema["properties"])
            assert properties.pop("session")["type"] == "string"
            assert properties == {argument["name"]: {"type": argument["type"]} for argument in action["arguments"]}
            assert sorted(schema["required"]) == sorted(a["name"] for a in action["arguments"] if a["required"])
            assert schema["additionalProperties"] is False


def test_an_agent_opens_a_session_acts_moves_the_clock_and_reads_the_state(daemon, scenarioctl):
    async def body(session, _):
        opened = await session.call_tool("open_session", {"scenario": "offline-demo", "id": "agent-1"})
        assert not opened.isError, opened.content
        assert opened.structuredContent["session"]["id"] == "agent-1"
        assert opened.structuredContent["session"]["model"] == "FeedReader"
        reloaded = await session.call_tool("feedreader_reload", {"session": "agent-1"})
        assert not reloaded.isError, reloaded.content
        items = reloaded.structuredContent["state"]["items"]
        assert items, reloaded.structuredContent
        marked = await session.call_tool("feedreader_setIsRead", {"session": "agent-1", "url": items[0]["url"], "value": True})
        assert not marked.isError, marked.content
        moved = await session.call_tool("move_clock", {"session": "agent-1", "by": "90s"})
        assert not moved.isError, moved.content
        state = await session.call_tool("read_state", {"session": "agent-1"})
        history = await session.call_tool("read_history", {"session": "agent-1"})
        return opened, marked, moved, state, history

    opened, marked, moved, state, history = agent(daemon, scenarioctl, body)
    # What the tools say is what the API says.
    assert state.structuredContent["state"] == daemon.http.get("/v1/sessions/agent-1/state").json()
    assert json.loads(state.content[0].text)["state"] == state.structuredContent["state"]
    clock = daemon.http.get("/v1/sessions/agent-1/clock").json()
    assert moved.structuredContent["now"] == clock["now"]
    start = opened.structuredContent["session"]["now"]
    assert moved.structuredContent["now"] != start
    url = marked.structuredContent["state"]["items"][0]["url"]
    assert [item for item in state.structuredContent["state"]["items"] if item["url"] == url][0]["isRead"] is True
    kinds = [step["kind"] for step in history.structuredContent["steps"]]
    assert kinds[-3:] == ["action", "action", "advanceClock"], kinds


def test_an_agent_sends_a_request_through_the_sessions_routes(daemon, scenarioctl):
    async def body(session, _):
        await session.call_tool("open_session", {"scenario": "slow-network", "id": "agent-send"})
        sent = await session.call_tool("send_request", {"session": "agent-send", "url": "https://www.cocoawithlove.com/feed.json",
                                                        "headers": ["Accept: application/json"]})
        early = await session.call_tool("read_sent_request", {"session": "agent-send", "sequence": sent.structuredContent["sequence"]})
        await session.call_tool("move_clock", {"session": "agent-send", "by": "2s"})
        late = await session.call_tool("read_sent_request", {"session": "agent-send", "sequence": sent.structuredContent["sequence"]})
        missed = await session.call_tool("send_request", {"session": "agent-send", "method": "POST", "url": "https://www.cocoawithlove.com/feed.json"})
        return sent, early, late, missed

    sent, early, late, missed = agent(daemon, scenarioctl, body)
    # Never waits: the route's 2 s delay leaves it pending until the clock moves.
    assert sent.structuredContent["pending"] is True and sent.structuredContent["journal"]["outside"] is True, sent.structuredContent
    assert early.structuredContent.get("pending") is True
    assert late.structuredContent["status"] == 200 and "Cocoa with Love" in late.structuredContent["body"], late.structuredContent
    assert missed.isError is False and missed.structuredContent["fault"] == "connectionRefused"
    assert missed.structuredContent["journal"]["nearMisses"][0]["field"] == "/method", missed.structuredContent


def test_an_agent_opens_a_session_with_an_endpoint_for_a_page_it_tests(daemon, scenarioctl):
    async def body(session, _):
        opened = await session.call_tool("open_session", {"scenario": "offline-demo", "id": "agent-web", "endpoint": {"port": 0}})
        misspelt = await session.call_tool("open_session", {"scenario": "offline-demo", "endpoint": {"prot": 0}})
        return opened, misspelt

    opened, misspelt = agent(daemon, scenarioctl, body)
    endpoint = opened.structuredContent["session"]["endpoint"]
    answer = httpx.get(f"{endpoint['url']}/feed.json", headers={"Scenario-Token": endpoint["token"]}, timeout=30)
    assert answer.status_code == 200 and "Cocoa with Love" in answer.text
    assert misspelt.isError and "unknown field 'prot'" in misspelt.structuredContent["error"]["message"], misspelt.structuredContent


def test_an_agent_explores_a_scenario_in_the_daemon(daemon, scenarioctl):
    async def body(session, _):
        held = await session.call_tool("explore", {"scenario": "offline-demo", "walks": 30, "steps": 8, "seed": 7})
        again = await session.call_tool("explore", {"scenario": "offline-demo", "walks": 30, "steps": 8, "seed": 7})
        unknown = await session.call_tool("explore", {"scenario": "offline-dem"})
        negative = await session.call_tool("explore", {"scenario": "offline-demo", "seed": -1})
        return held, again, unknown, negative

    held, again, unknown, negative = agent(daemon, scenarioctl, body)
    assert not held.isError, held.content
    report = held.structuredContent["report"]
    assert report["walksRun"] == 30 and report["steps"] == 240 and "failure" not in report, report
    assert "every property held" in held.structuredContent["text"], held.structuredContent["text"]
    # The same seed, the same walks: only the timings differ.
    strip = lambda r: {key: value for key, value in r.items() if key not in ("seconds", "stepsPerSecond")}
    assert strip(again.structuredContent["report"]) == strip(report)
    assert daemon.http.get("/v1/explorations").json()["explorations"][-1]["status"] == "finished"
    assert unknown.isError and "offline-demo" in unknown.structuredContent["error"]["message"], unknown.structuredContent
    assert negative.isError and negative.structuredContent["error"]["code"] == "invalidArguments"


def test_a_bad_argument_is_a_tool_error_naming_the_field(daemon, scenarioctl):
    async def body(session, _):
        await session.call_tool("open_session", {"scenario": "offline-demo", "id": "agent-2"})
        wrong_type = await session.call_tool("feedreader_setIsRead", {"session": "agent-2", "url": "https://x.example/1", "value": "yes"})
        unknown = await session.call_tool("feedreader_setIsRead", {"session": "agent-2", "url": "https://x.example/1", "value": True, "colour": "red"})
        missing = await session.call_tool("feedreader_setIsRead", {"session": "agent-2", "value": True})
        no_session = await session.call_tool("read_state", {"session": "no-such-session"})
        return wrong_type, unknown, missing, no_session

    wrong_type, unknown, missing, no_session = agent(daemon, scenarioctl, body)
    for result, field in [(wrong_type, "value"), (unknown, "colour"), (missing, "url")]:
        assert result.isError is True
        assert result.structuredContent["error"]["code"] == "invalidArguments"
        assert f"'{field}'" in result.structuredContent["error"]["message"], result.structuredContent
        assert f"'{field}'" in result.content[0].text
    # A refusal of the daemon's own comes back with the API's code.
    assert no_session.isError is True
    assert no_session.structuredContent["error"]["code"] == "unknownSession"


def test_resources_are_scenario_files_and_session_states_with_change_notifications(daemon, scenarioctl):
    async def body(session, notifications):
        await session.call_tool("open_session", {"scenario": "offline-demo", "id": "agent-3"})
        listed = {str(resource.uri): resource for resource in (await session.list_resources()).resources}
        uri = "scenariod://sessions/agent-3/state"
        assert uri in listed and "scenariod://scenarios/offline-demo/scenario.yaml" in listed
        scenario_file = await session.read_resource("scenariod://scenarios/offline-demo/scenario.yaml")
        await session.subscribe_resource(uri)
        await session.call_tool("feedreader_reload", {"session": "agent-3"})
        while not any(isinstance(n, types.ResourceUpdatedNotification) and str(n.params.uri) == uri for n in notifications):
            await anyio.sleep(0.02)
        state = await session.read_resource(uri)
        with pytest.raises(Exception) as outside:
            await session.read_resource("file:///etc/passwd")
        return scenario_file, state, str(outside.value)

    scenario_file, state, outside = agent(daemon, scenarioctl, body)
    assert scenario_file.contents[0].text == daemon.http.get("/v1/scenarios/offline-demo/file").json()["text"]
    assert json.loads(state.contents[0].text) == daemon.http.get("/v1/sessions/agent-3/state").json()
    assert "reads no other file" in outside


def test_resource_templates_not_found_and_list_changed_on_save(daemon, scenarioctl):
    """resources/templates/list names both addresses (before: -32601); an unknown resource is the spec's
    resource-not-found (-32002), a session or scenario that is not there too; saving a scenario adds a resource, so
    the list is said to have changed (before: only opening and closing sessions said so). Action tools' descriptions
    read "a session whose scenario runs Assistant" (before: "a Assistant scenario")."""
    async def body(session, notifications):
        templates = (await session.list_resource_templates()).resourceTemplates
        errors = []
        for uri in ["file:///etc/passwd", "scenariod://sessions/no-such/state", "scenariod://scenarios/no-such/scenario.yaml"]:
            with pytest.raises(Exception) as refused:
                await session.read_resource(uri)
            errors.append(refused.value)
        await session.call_tool("open_session", {"scenario": "offline-demo", "id": "saver"})
        before = sum(isinstance(n, types.ResourceListChangedNotification) for n in notifications)
        saved = await session.call_tool("save_scenario", {"session": "saver", "name": "saved-by-agent"})
        assert saved.isError is not True, saved
        while sum(isinstance(n, types.ResourceListChangedNotification) for n in notifications) == before:
            await anyio.sleep(0.02)
        listed = {str(resource.uri) for resource in (await session.list_resources()).resources}
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        return templates, errors, listed, tools

    templates, errors, listed, tools = agent(daemon, scenarioctl, body)
    assert {template.uriTemplate for template in templates} == {"scenariod://sessions/{id}/state", "scenariod://scenarios/{name}/scenario.yaml"}
    for error in errors:
        assert getattr(error, "error", None) is not None and error.error.code == -32002, repr(error)
    assert "unknownSession" in errors[1].error.message and "unknownScenario" in errors[2].error.message
    assert "scenariod://scenarios/saved-by-agent/scenario.yaml" in listed
    assert "a session whose scenario runs Assistant" in tools["assistant_send"].description


def test_messages_split_across_reads_or_sharing_one_are_each_answered_and_standard_input_stays_blocking(daemon, scenarioctl):
    # scenarioctl reads standard input with blocking reads of its own (the SDK's transport slept 10 ms whenever
    # nothing was there, and set O_NONBLOCK on the descriptor it shares with its client): a message may arrive in
    # pieces, or several in one write, and each is answered once.
    import os
    import time
    process = subprocess.Popen([scenarioctl, "mcp", "--socket", daemon.socket], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        def message(number, method, params):
            return json.dumps({"jsonrpc": "2.0", "id": number, "method": method, "params": params}).encode() + b"\n"

        initialize = message(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                                "clientInfo": {"name": "pieces", "version": "1"}})
        for piece in (initialize[:7], initialize[7:40], initialize[40:]):
            process.stdin.write(piece)
            process.stdin.flush()
            time.sleep(0.05)
        assert json.loads(process.stdout.readline())["result"]["serverInfo"]["name"] == "scenariod"
        flags = open(f"/proc/{process.pid}/fdinfo/0").read()
        assert int(flags.split("flags:")[1].split()[0], 8) & os.O_NONBLOCK == 0, flags
        initialized = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode() + b"\n"
        process.stdin.write(initialized + message(2, "tools/list", {}) + b"\n" + message(3, "ping", {}))
        process.stdin.flush()
        answers = [json.loads(process.stdout.readline()) for _ in range(2)]
        assert sorted(answer["id"] for answer in answers) == [2, 3], answers
        assert any(tool["name"] == "open_session" for tool in next(a for a in answers if a["id"] == 2)["result"]["tools"])
        process.stdin.close()
        assert process.wait(timeout=30) == 0, process.stderr.read()
    finally:
        process.kill()


def test_tool_calls_answered_by_scenarioctl_match_the_sdks_errors_and_outlive_the_end_of_input(daemon, scenarioctl):
    # scenarioctl answers tools/call as it reads it (DirectToolCalls), not through the SDK's Server; a call that does
    # not decode is still the SDK's to refuse, and a client that closes its side after its last request still gets
    # every answer before scenarioctl exits.
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "pipe", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": "not an object"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "open_session", "arguments": {"scenario": "first-launch", "id": "piped"}}},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "feedreader_reload", "arguments": {"session": "piped"}}},
    ]
    given = "".join(json.dumps(request) + "\n" for request in requests).encode()
    finished = subprocess.run([scenarioctl, "mcp", "--socket", daemon.socket], input=given, capture_output=True, timeout=60)
    assert finished.returncode == 0, finished.stderr.decode()
    # Besides the answers, notifications (open_session changes the resource list).
    answers = {answer["id"]: answer for answer in map(json.loads, finished.stdout.decode().splitlines()) if "id" in answer}
    assert sorted(answers) == [1, 2, 3, 4, 5], finished.stdout.decode()
    assert answers[2]["error"]["code"] in (-32600, -32602, -32603), answers[2]
    assert answers[3]["error"]["code"] == -32602 and "no_such_tool" in answers[3]["error"]["message"], answers[3]
    assert not answers[4]["result"].get("isError"), answers[4]
    reloaded = answers[5]["result"]
    assert not reloaded.get("isError") and reloaded["structuredContent"]["state"]["items"], reloaded
    assert json.loads(reloaded["content"][0]["text"]) == reloaded["structuredContent"]
