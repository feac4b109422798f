#!/usr/bin/env bash
# Every check of the project: system packages the tests need, lint, types, the documentation
# site, the test suite
# (a PostgreSQL server on loopback for the PostgreSQL tests, axe-core for the accessibility
# tests), and the source documents' vectors.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${VENV:-.venv}/bin

# Debian packages for the browser, PDF and proxy tests (installed when missing and we are root).
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v pdftotext >/dev/null || need+=(poppler-utils)
command -v npm >/dev/null || need+=(npm)
# the reverse proxies of docs/ops-proxies.md, run by tests/test_proxy_docs.py
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
command -v caddy >/dev/null || need+=(caddy)
command -v openssl >/dev/null || need+=(openssl)
if ((${#need[@]})) && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# axe-core, the accessibility checker the browser tests inject into each page (tests/test_axe.py):
# the npm package, installed once into .axe/ (ignored by git); no CDN at run time.
AXE_VERSION=4.14.1
AXE_JS=.axe/node_modules/axe-core/axe.min.js
if [ ! -f "$AXE_JS" ] || ! grep -q "axe v$AXE_VERSION" "$AXE_JS"; then
  echo "== installing axe-core $AXE_VERSION (npm) into .axe/"
  npm install --prefix .axe --no-audit --no-fund --no-save --loglevel=error "axe-core@$AXE_VERSION" >/dev/null
fi
export REBELOTE_AXE="$PWD/$AXE_JS"  # the axe test fails (not skips) if it is missing

# A throwaway PostgreSQL server on loopback, when the machine has one.
pg_stop() { :; }
if [ -z "${REBELOTE_TEST_PG_URL:-}" ] && { command -v pg_ctl >/dev/null || [ -x /usr/lib/postgresql/15/bin/pg_ctl ]; }; then
  PGBIN=$(dirname "$(readlink -f "$(command -v pg_ctl 2>/dev/null || echo /usr/lib/postgresql/15/bin/pg_ctl)")")
  PGDIR=$(mktemp -d /tmp/rebelote-pg.XXXXXX)
  PGPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  RUNAS=()
  if [ "$(id -u)" = 0 ]; then chown postgres "$PGDIR" 2>/dev/null && RUNAS=(runuser -u postgres --); fi
  if "${RUNAS[@]}" "$PGBIN/initdb" -D "$PGDIR/data" -U rebelote --auth=trust >/dev/null 2>&1 &&
     "${RUNAS[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -o "-p $PGPORT -k $PGDIR -c listen_addresses=127.0.0.1" -l "$PGDIR/log" -w start >/dev/null 2>&1; then
    "${RUNAS[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U rebelote rebelote_test >/dev/null 2>&1 || true
    export REBELOTE_TEST_PG_URL="postgresql+psycopg://rebelote@127.0.0.1:$PGPORT/rebelote_test"
    pg_stop() { "${RUNAS[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$PGDIR"; }
    echo "== PostgreSQL on 127.0.0.1:$PGPORT"
  else
    echo "== no PostgreSQL server could be started: its tests will be skipped"
  fi
fi
trap pg_stop EXIT

# Python's bytecode caches are written even where the environment says not to (many container
# images set PYTHONDONTWRITEBYTECODE): without them each pytest worker compiles every module
# again, and rewrites the assertions of every test module and plugin (12 s of CPU per worker
# instead of 5 s), and each server and command the tests start compiles rebelote again.
export PYTHONDONTWRITEBYTECODE=

echo "== ruff"; "$BIN/ruff" check src tests $([ -d bench ] && echo bench) scripts
# mypy, import-linter and the documentation site run beside the test suite, at a lower
# priority: its workers leave a core idle at times (waiting for a server, a page, a clock),
# and mypy without its cache (a fresh clone) takes 15 s of CPU. Their output comes after the
# suite's; any failure fails the run.
checks=$(mktemp /tmp/rebelote-checks.XXXXXX)
(
  set +e
  echo "== mypy --strict"; nice -n 10 "$BIN/mypy"; a=$?
  echo "== import-linter (the layers of docs/architecture.md)"; nice -n 10 "$BIN/lint-imports"; b=$?
  # the documentation site: every page in the nav, every link and anchor resolving
  # (mkdocs.yml); built offline into site/ (ignored by git)
  echo "== mkdocs build --strict"
  NO_MKDOCS_2_WARNING=1 nice -n 10 "$BIN/mkdocs" build --strict --quiet; c=$?
  exit $((a || b || c))
) >"$checks" 2>&1 &
checks_pid=$!
# --dist loadgroup: each xdist group on one worker; --no-loadscope-reorder: the tests handed
# out in the order tests/conftest.py gives them (the groups that wait spread among the rest)
echo "== pytest"
status=0
"$BIN/pytest" -n 3 --dist loadgroup --no-loadscope-reorder -q --durations=10 "$@" || status=$?
checks_status=0
wait "$checks_pid" || checks_status=$?
cat "$checks"; rm -f "$checks"
if [ "$checks_status" != 0 ]; then echo "== mypy, import-linter or mkdocs failed (above)"; fi
exit $((status ? status : checks_status))
