"""WorldArchitect's MCP flow against Kiln, with the official Python SDK (mcp 2.x) as an independent client.

Run by KilnIntegrationTests (MCPTests): `python3 mcp_flow.py <command> <endpoint> <token> [<other node's endpoint>]`, it
prints one JSON object of what it saw, which the Swift test checks. With a second node, the client goes through a
round-robin proxy of its own in front of both, one connection per request, so a session's requests land on both nodes.
Commands:
  flow    initialize, list tools and resources, create a campaign, play three turns, export a PDF, read the state back,
          end the session; every progress notification is recorded with what arrived after it
  resume  create a campaign, then play a turn over raw HTTP, drop the SSE answer after its first events and resume it
          with Last-Event-ID; prints every event id and progress value seen, in order
"""

import asyncio
import json
import sys
from urllib.parse import urlsplit

import anyio
import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


def structured(result):
    return result.structured_content if hasattr(result, "structured_content") else result.structuredContent


async def flow(endpoint, token):
    seen = {"turns": []}
    headers = {"Authorization": f"Bearer {token}"}
    # No keep-alive: behind a round-robin proxy, every request may land on another API node.
    limits = httpx2.Limits(max_keepalive_connections=0)
    async with httpx2.AsyncClient(headers=headers, limits=limits, timeout=120) as http:
        async with streamable_http_client(endpoint, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                initialized = await session.initialize()
                seen["protocol_version"] = initialized.protocol_version
                seen["tools"] = sorted(tool.name for tool in (await session.list_tools()).tools)

                async def played(name, arguments):
                    log = []

                    async def on_progress(progress, total, message):
                        log.append({"progress": progress, "message": message})

                    result = await session.call_tool(name, arguments, progress_callback=on_progress)
                    content = structured(result)
                    # The callback runs as each notification arrives; everything logged came before the result.
                    return {
                        "is_error": bool(result.is_error if hasattr(result, "is_error") else result.isError),
                        "progress": [entry["progress"] for entry in log],
                        "streamed": "".join(entry["message"] or "" for entry in log),
                        "result": content,
                    }

                opened = await played(
                    "create_campaign",
                    {"title": "The Drowned Bells", "setting": "A drowned kingdom where bells ring under the sea.",
                     "character": {"name": "Kael", "class": "rogue"}, "style": "grim and terse"})
                seen["opened"] = opened
                campaign_id = opened["result"]["campaign"]["id"]
                for _ in range(3):
                    choices = seen["turns"][-1]["result"]["scene"]["planning_block"]["choices"] if seen["turns"] else \
                        opened["result"]["scene"]["planning_block"]["choices"]
                    seen["turns"].append(await played("process_action", {"campaign_id": campaign_id, "action": choices[0]["text"]}))

                exported = await session.call_tool("export_campaign", {"campaign_id": campaign_id, "format": "pdf"})
                link = structured(exported)
                seen["export"] = link
                document = await session.read_resource(link["uri"])
                blob = document.contents[0].blob
                seen["export_prefix"] = __import__("base64").b64decode(blob)[:5].decode("latin-1")
                seen["state"] = structured(await session.call_tool("get_campaign_state", {"campaign_id": campaign_id}))
                seen["resources"] = [str(resource.uri) for resource in (await session.list_resources()).resources]
                campaign = await session.read_resource(f"campaign://{campaign_id}")
                seen["resource_scenes"] = len(json.loads(campaign.contents[0].text)["scenes"])
    return seen


async def resume(endpoint, token):
    """One turn's SSE answer, dropped after its first events and resumed with Last-Event-ID."""
    base = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json"}
    async with httpx2.AsyncClient(timeout=120) as http:
        init = await http.post(endpoint, headers=base, json={
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "resume", "version": "1"}}})
        session = init.headers["mcp-session-id"]
        headers = dict(base, **{"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-06-18"})
        await http.post(endpoint, headers=headers, json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        opened = await http.post(endpoint, headers=headers, json={
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "create_campaign", "arguments": {"setting": "A salt desert.", "character": {"name": "Ona"}}}})
        # No progress token: the answer is JSON.
        campaign_id = opened.json()["result"]["structuredContent"]["campaign"]["id"]

        events = []

        async def read_events(response, limit=None):
            event = {}
            async for line in response.aiter_lines():
                if line.startswith("id: "):
                    event["id"] = line[4:]
                elif line.startswith("data: "):
                    event["data"] = json.loads(line[6:])
                elif line == "" and event:
                    events.append(event)
                    event = {}
                    if limit is not None and len(events) >= limit:
                        return

        turn = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                "params": {"name": "process_action", "arguments": {"campaign_id": campaign_id, "action": "Walk on."},
                           "_meta": {"progressToken": "turn-1"}}}
        async with http.stream("POST", endpoint, headers=headers, json=turn) as response:
            await read_events(response, limit=3)
        dropped_after = len(events)
        async with http.stream("GET", endpoint, headers=dict(headers, **{"Last-Event-ID": events[-1]["id"]})) as response:
            await read_events(response)
        deleted = await http.delete(endpoint, headers=headers)
        after_delete = await http.post(endpoint, headers=headers, json={"jsonrpc": "2.0", "id": 4, "method": "tools/list"})
    return {
        "dropped_after": dropped_after,
        "ids": [event.get("id") for event in events],
        "progress": [event["data"]["params"]["progress"] for event in events if event["data"].get("method") == "notifications/progress"],
        "final": [event["data"].get("id") for event in events if "result" in event["data"] or "error" in event["data"]],
        "deleted": deleted.status_code,
        "after_delete": after_delete.status_code,
    }


async def through_proxy(command, endpoints, token):
    """Runs `command` through a round-robin TCP proxy over the nodes of `endpoints`; counts connections per node."""
    nodes = [urlsplit(endpoint) for endpoint in endpoints]
    served = [0] * len(nodes)
    turn = 0

    async def pipe(reader, writer):
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()

    async def accept(client_reader, client_writer):
        nonlocal turn
        index = turn % len(nodes)
        turn += 1
        served[index] += 1
        node_reader, node_writer = await asyncio.open_connection(nodes[index].hostname, nodes[index].port)
        await asyncio.gather(pipe(client_reader, node_writer), pipe(node_reader, client_writer), return_exceptions=True)

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        seen = await (flow if command == "flow" else resume)(f"http://127.0.0.1:{port}{nodes[0].path}", token)
    seen["connections_per_node"] = served
    return seen


def main():
    command, endpoint, token = sys.argv[1:4]
    others = sys.argv[4:]
    if others:
        seen = anyio.run(through_proxy, command, [endpoint] + others, token)
    else:
        seen = anyio.run(flow if command == "flow" else resume, endpoint, token)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
