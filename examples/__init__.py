"""Example agents built with agent frameworks, each an OpsBench ``python:`` factory."""
