"""One module per CLI command; each defines `add_arguments(parser)` and `run(args) -> int`."""
