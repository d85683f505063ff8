"""OpsBench: evaluate assistants that act, by what they change in a simulated business."""

__version__ = "0.1.0"
