# Sourced (bash) by ./run and .ci/run: brings the pinned toolchain onto a machine that has only
# Node.js (any version) and npm, then puts it first on PATH for the rest of the caller.
#   bootstrap_toolchain    Node.js at .node-version's major (from the npm registry's `node`
#                          package when the machine's is another major or too old) and the
#                          pnpm package.json's packageManager pins, both under .tools/ (git-ignored)
#   bootstrap_dependencies pnpm install (frozen under CI)
#   bootstrap_test_tools   Debian's chromium and pgbouncer for the tests, unless there
# Everything it installs lives in .tools/: `rm -rf .tools` undoes it; a pin changed in
# .node-version or packageManager installs the new version beside the old one.

BOOTSTRAP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BOOTSTRAP_TOOLS="$BOOTSTRAP_ROOT/.tools"

bootstrap_say() { echo "bootstrap: $*" >&2; }

# 0 when version $1 >= version $2 (dotted numbers).
bootstrap_version_ge() {
  [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$2" ]
}

# npm, quiet, into a prefix of its own. --ignore-scripts=false: the `node` package's
# preinstall fetches the platform's binary package, and a user's npmrc may turn scripts off.
bootstrap_npm_install() {
  local prefix=$1 spec=$2
  rm -rf "$prefix"
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund \
    --ignore-scripts=false --loglevel=error "$spec" >&2
}

bootstrap_toolchain() {
  local want_node want_pnpm min_node have dir
  want_node=$(tr -d ' \r\nv' <"$BOOTSTRAP_ROOT/.node-version")
  want_pnpm=$(sed -n 's/.*"packageManager": *"pnpm@\([0-9.]*\).*/\1/p' "$BOOTSTRAP_ROOT/package.json")
  # engines.node's lower bound (">=24.11.0 <25" → 24.11.0).
  min_node=$(sed -n 's/.*"node": *"[^0-9]*\([0-9][0-9.]*\).*/\1/p' "$BOOTSTRAP_ROOT/package.json" | head -n1)
  if [ -z "$want_node" ] || [ -z "$want_pnpm" ] || [ -z "$min_node" ]; then
    bootstrap_say "cannot read .node-version, packageManager or engines.node"
    return 1
  fi
  mkdir -p "$BOOTSTRAP_TOOLS/bin"
  export PATH="$BOOTSTRAP_TOOLS/bin:$PATH"

  # The machine's Node.js serves if it is the pinned major and at least engines' minimum: a
  # Node 24.x the machine keeps up to date is as good as ours. Any other (older, or a newer
  # major the product is not tested on) gets the pinned one from the npm registry.
  rm -f "$BOOTSTRAP_TOOLS/bin/node"
  have=$(node -p 'process.versions.node' 2>/dev/null || true)
  if [ -n "$have" ] && [ "${have%%.*}" = "${want_node%%.*}" ] && bootstrap_version_ge "$have" "$min_node"; then
    :
  else
    dir="$BOOTSTRAP_TOOLS/node-$want_node"
    if [ "$("$dir/node_modules/.bin/node" --version 2>/dev/null || true)" != "v$want_node" ]; then
      bootstrap_say "Node.js ${have:-none} here; installing Node.js $want_node (npm package node) into .tools/"
      bootstrap_npm_install "$dir" "node@$want_node"
    fi
    ln -s "../node-$want_node/node_modules/.bin/node" "$BOOTSTRAP_TOOLS/bin/node"
  fi
  hash -r

  # pnpm runs on the Node.js above (its launcher is `#!/usr/bin/env node`). COREPACK_*: a
  # corepack shim answering for pnpm must neither prompt nor stop on an outdated signing key;
  # if it still cannot give the pinned version, the npm package does.
  rm -f "$BOOTSTRAP_TOOLS/bin/pnpm" "$BOOTSTRAP_TOOLS/bin/pnpx"
  hash -r
  if [ "$(COREPACK_ENABLE_DOWNLOAD_PROMPT=0 pnpm --version 2>/dev/null || true)" != "$want_pnpm" ]; then
    dir="$BOOTSTRAP_TOOLS/pnpm-$want_pnpm"
    if [ "$(node "$dir/node_modules/pnpm/bin/pnpm.cjs" --version 2>/dev/null || true)" != "$want_pnpm" ]; then
      bootstrap_say "installing pnpm $want_pnpm into .tools/"
      bootstrap_npm_install "$dir" "pnpm@$want_pnpm"
    fi
    ln -s "../pnpm-$want_pnpm/node_modules/pnpm/bin/pnpm.cjs" "$BOOTSTRAP_TOOLS/bin/pnpm"
    ln -s "../pnpm-$want_pnpm/node_modules/pnpm/bin/pnpx.cjs" "$BOOTSTRAP_TOOLS/bin/pnpx"
    hash -r
  fi
  bootstrap_say "node $(node --version), pnpm $(pnpm --version)"
}

bootstrap_dependencies() {
  if [ -n "${CI:-}" ]; then
    (cd "$BOOTSTRAP_ROOT" && pnpm install --frozen-lockfile)
  else
    (cd "$BOOTSTRAP_ROOT" && pnpm install)
  fi
}

# What the tests need from Debian, installed in one apt-get when missing: Chromium for the
# browser tests (e2e/browser; playwright-core never downloads a browser; CHROMIUM_PATH names
# another one, a Chrome on macOS, say) and PgBouncer for the pooler test
# (e2e/test/pgbouncer.test.ts; PGBOUNCER_PATH names another binary; the package's service is
# never started, the test runs its own instances on free ports).
bootstrap_test_tools() {
  local packages=() sudo=()
  if [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then packages+=(chromium); fi
  if [ -z "${PGBOUNCER_PATH:-}" ] && [ ! -x /usr/sbin/pgbouncer ]; then packages+=(pgbouncer); fi
  if [ ${#packages[@]} -eq 0 ]; then return 0; fi
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      sudo=(sudo)
    else
      bootstrap_say "the tests need ${packages[*]}: install Debian's packages (apt-get install ${packages[*]}) or set CHROMIUM_PATH / PGBOUNCER_PATH"
      return 1
    fi
  fi
  if ! command -v apt-get >/dev/null; then
    bootstrap_say "the tests need ${packages[*]}: no apt-get here, set CHROMIUM_PATH / PGBOUNCER_PATH"
    return 1
  fi
  bootstrap_say "installing ${packages[*]}"
  "${sudo[@]}" apt-get update >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${packages[@]}" >&2
}
