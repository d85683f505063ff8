"""The neutral contract at the bottom of OpsBench.

Message and tool-call types (:mod:`contract.messages`), the ``Assistant`` protocol and what a
factory is told about an episode (:mod:`contract.assistant`), and the errors every layer may see
(:mod:`contract.errors`). It imports nothing above it; ``sandbox``, ``callers``, ``adapters`` and
``opsbench`` all build on it.
"""
