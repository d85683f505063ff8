"""``python -m opsbench``: the same as the ``opsbench`` command."""

from opsbench.cli import main

main()
