"""Opens a WorldArchitect campaign over Kiln's MCP endpoint with the official Python client (`mcp` 2.x), as the app does.

`python3 deploy/local/mcp-demo.py <endpoint> <token>`: initializes a session, lists the tools, calls `create_campaign`
with a progress token (the opening scene streams as progress notifications, printed as they come), then prints the
campaign and its first scene. `up.sh` runs it with a token from `kiln-dev mcp token`; it exits 1 when the call fails.
"""

import asyncio
import json
import sys

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main(endpoint, token):
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http:
        async with streamable_http_client(endpoint, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                initialized = await session.initialize()
                print(f"MCP session at {endpoint}, protocol {initialized.protocol_version}")
                tools = await session.list_tools()
                print("tools:", ", ".join(sorted(tool.name for tool in tools.tools)))

                async def on_progress(progress, total, message):
                    print(message or "", end="", flush=True)

                print("create_campaign: ", end="", flush=True)
                result = await session.call_tool(
                    "create_campaign",
                    {"title": "The Drowned Bells", "setting": "A drowned kingdom where bells ring under the sea.",
                     "character": {"name": "Kael", "class": "rogue"}},
                    progress_callback=on_progress)
                print()
                structured = result.structured_content if hasattr(result, "structured_content") else result.structuredContent
                is_error = result.is_error if hasattr(result, "is_error") else result.isError
                print(json.dumps(structured, indent=2))
                return 1 if is_error else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
