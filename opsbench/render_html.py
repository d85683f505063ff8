"""Placeholder: the HTML report is written next."""
