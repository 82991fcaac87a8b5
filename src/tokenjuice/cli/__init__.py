"""Command-line interface: `main.py` dispatches to one module per command."""
