"""MCP: other programs' tools as Hearth tools (client). See config, transport, client, tools."""
