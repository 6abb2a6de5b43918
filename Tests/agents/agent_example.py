# docs/use-from-an-agent.md's worked example, run by Tests/agents/test_docs.py: what an agent's MCP client does,
# written with the official MCP Python SDK.
import asyncio
import json
import os

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main():
    server = StdioServerParameters(command="scenarioctl", args=["mcp", "--socket", os.environ["SCENARIOD_SOCKET"]])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as agent:
        await agent.initialize()
        await agent.call_tool("open_session", {"scenario": "offline-demo", "id": "demo"})
        state = json.loads((await agent.call_tool("feedreader_reload", {"session": "demo"})).content[0].text)["state"]
        first = state["items"][0]["url"]
        await agent.call_tool("feedreader_setIsRead", {"session": "demo", "url": first, "value": False})
        await agent.call_tool("move_clock", {"session": "demo", "by": "1h"})
        wrong = await agent.call_tool("feedreader_setIsRead", {"session": "demo", "url": first, "value": "no"})
        print(wrong.content[0].text)
        await agent.call_tool("rewind", {"session": "demo", "step": 1})
        state = json.loads((await agent.call_tool("read_state", {"session": "demo"})).content[0].text)["state"]
        print(f"{first} read: {next(item['isRead'] for item in state['items'] if item['url'] == first)}")
        await agent.call_tool("close_session", {"session": "demo"})


asyncio.run(main())
