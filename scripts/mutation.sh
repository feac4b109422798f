#!/usr/bin/env bash
# `make mutation`: mutation testing of the core modules (docs/mutation.md), not part of CI.
# mutmut mutates the modules listed in pyproject.toml's [tool.mutmut], sorts out with mypy the
# mutants that do not type-check, runs the fast core tests on the others (niced, one worker by
# default), then prints the score of each module. Results are kept in mutants/ and reused: a
# second run only tests what changed. MUTATION_FRESH=1 starts again from nothing;
# MUTATION_JOBS (1) sets the workers, MUTATION_TIMEOUT (4h) bounds the run; arguments go to
# `mutmut run` (mutant names or globs, e.g. 'rebelote.auction.*').
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
export PATH="$PWD/$VENV/bin:$PATH"   # mutmut calls `mypy` by name

if [ "${MUTATION_FRESH:-0}" = 1 ]; then rm -rf mutants; fi
mkdir -p mutants
echo "== mutmut run (log: mutants/run.log)"
status=0
timeout "${MUTATION_TIMEOUT:-4h}" nice -n "${MUTATION_NICE:-15}" \
  mutmut run --max-children "${MUTATION_JOBS:-1}" "$@" >mutants/run.log 2>&1 || status=$?
# The progress line is redrawn in place: show its last state and mutmut's closing lines.
tr '\r' '\n' <mutants/run.log | grep -v '^\s*$' | tail -n 3
if [ "$status" != 0 ]; then echo "== mutmut stopped with status $status (see mutants/run.log)"; fi
echo "== score per module"
"$VENV/bin/python" scripts/mutation_report.py
exit "$status"
