"""The simulated businesses and their tasks, as data, with the loader that checks them."""

from businesses.errors import LoadError
from businesses.loader import PUBLIC_DIR, initial_tables, load_business
from businesses.sets import load_set

__all__ = ["PUBLIC_DIR", "LoadError", "initial_tables", "load_business", "load_set"]
