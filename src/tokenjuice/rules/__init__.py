"""Rule layers: schema, loading, selection, built-in rule files."""
