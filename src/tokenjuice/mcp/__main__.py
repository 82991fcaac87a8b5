"""`python -m tokenjuice.mcp [options]`: the same as `tokenjuice mcp`."""

from tokenjuice.mcp.server import main

raise SystemExit(main())
