"""Hearth as an MCP server: its tools and whole tasks offered to other MCP clients."""
