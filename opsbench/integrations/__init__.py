"""Where teams' own tooling meets OpsBench: MCP, Inspect AI, agent frameworks.

Each module here imports its third-party SDK lazily or only when it is itself imported, and no
core module imports this package, so a missing optional extra breaks only its own integration.

    mcp_tools   a set of tools as an MCP server (the official ``mcp`` SDK), over any door
    mcp_serve   ``opsbench mcp --task T``: one task's world served over stdio or HTTP
    bridge      an agent that runs its own tool loop, as an OpsBench assistant
    mcp_agent   an agent whose tools are MCP: the harness hands it each episode's server
    inspect_*   the Inspect AI task ``opsbench/opsbench`` (solver, scorer, model bridge)
    parity      the same assistant through ``opsbench run`` and the Inspect task
    new_business  ``opsbench businesses new``: a business and one task per coverage cell that
                pass ``validate --matrix``, rendered from the templates in ``skeleton/``
"""
