"""tokenjuice as an MCP server over stdio: tools `run`, `read_output` and `reduce`.

`tools` holds the tool implementations (no MCP SDK needed), `schema` what the client
is shown, `server` the protocol side. The server needs the `mcp` extra
(`pip install 'tokenjuice[mcp]'`); nothing outside this package imports it.
Start it with `tokenjuice mcp` or `python -m tokenjuice.mcp`.
"""
