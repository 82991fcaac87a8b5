"""Framework adapters: run an agent framework's tools through a tokenjuice `ToolExecutor`.

Each adapter is an optional extra and imports its framework only when imported itself:

    tokenjuice.adapters.langchain      pip install 'tokenjuice[langchain]'
    tokenjuice.adapters.openai_agents  pip install 'tokenjuice[openai-agents]'

A wrapped tool keeps its name, description and argument schema; what its call returns
to the model is redacted and reduced (see `tokenjuice.runtime`).
"""
