"""One module per CLI command; each declares `OPTIONS` and defines `run(args) -> int`."""
