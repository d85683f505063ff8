#!/usr/bin/env bash
# Mutation testing of the core (sandbox/ and tools/) with mutmut 3; not part of CI.
#
#   scripts/mutation.sh                      every mutant of sandbox/ and tools/
#   scripts/mutation.sh 'sandbox.rules*'     only the mutants whose names match (mutmut globs)
#
# The tests run are the fast subset in [tool.mutmut] of pyproject.toml (no application layer).
# Surviving mutants are listed at the end; each must be killed by a test or be listed, with why
# it is equivalent, in tests/mutation/equivalent.md. MUTATION_CHILDREN sets the parallelism
# (default 2). Results stay in ./mutants/ (git-ignored): `mutmut show NAME` prints a mutant.
set -euo pipefail
cd "$(dirname "$0")/.."
uv sync --frozen --extra dev --extra mutation >/dev/null
.venv/bin/mutmut run --max-children "${MUTATION_CHILDREN:-2}" "$@" || true
.venv/bin/python scripts/mutation_summary.py "$@"
