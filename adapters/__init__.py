"""Who answers: provider adapters, reference assistants and custom agents.

They implement the neutral contract of :mod:`contract` (messages, the ``Assistant`` protocol,
the infrastructure-error base). Provider SDKs are imported lazily inside the adapter that needs
them.
"""
