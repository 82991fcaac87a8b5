"""The reduction pipeline and its steps."""
