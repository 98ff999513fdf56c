#!/usr/bin/env bash
# The lint step of the GitHub Action (action.yml): runs `v2-migrate lint` with the action's inputs
# (INPUT_* variables) and records its exit code as a step output. A usage or config error (exit 2)
# fails here; findings (exit 1) fail in the action's last step, after the SARIF upload.
set -uo pipefail

fail() {
  echo "::error title=v2-migrate::$1"
  exit 2
}

format=${INPUT_FORMAT:-github}
case "$format" in
  sarif | github) ;;
  *) fail "input format must be sarif or github (got \"$format\")" ;;
esac

args=(lint --format "$format" --max-warnings "${INPUT_MAX_WARNINGS:-0}")
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
sarif=''
if [ "$format" = sarif ]; then
  sarif=${INPUT_SARIF_FILE:-v2-migrate.sarif}
  # The upload step runs at the repository root, not in working-directory: it gets an absolute path.
  case "$sarif" in
    /*) ;;
    *) sarif="$PWD/$sarif" ;;
  esac
  args+=(--output-file "$sarif")
fi
read -r -d '' -a paths <<< "${INPUT_PATHS:-.}"
[ ${#paths[@]} -gt 0 ] || paths=(.)

# The project's own v2-migrate (its lockfile pins it): node_modules/.bin here or in a folder above, up
# to the workspace (a package of a monorepo whose dependencies are hoisted to the root).
project_cli() {
  local dir=$PWD
  while :; do
    if [ -x "$dir/node_modules/.bin/v2-migrate" ]; then
      echo "$dir/node_modules/.bin/v2-migrate"
      return 0
    fi
    if [ "$dir" = "${GITHUB_WORKSPACE:-/}" ] || [ "$dir" = / ]; then return 1; fi
    dir=$(dirname "$dir")
  done
}

# Only code the workflow pinned runs, never whatever the registry serves under the name v2-migrate:
# the cli input, an exact version input, the project's own install, else this action's checked-out
# code (the ref of `uses:`), built from its lockfile on first use.
if [ -n "${INPUT_CLI:-}" ]; then
  read -r -a cli <<< "$INPUT_CLI"
elif [ -n "${INPUT_VERSION:-}" ]; then
  version=$INPUT_VERSION
  [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || fail "input version must be an exact version such as 1.2.3 (got \"$version\")"
  prefix="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/v2-migrate-$version"
  if [ ! -f "$prefix/node_modules/v2-migrate/bin/v2-migrate.js" ]; then
    npm install --prefix "$prefix" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund "v2-migrate@$version" >&2 || fail "could not install v2-migrate@$version"
  fi
  cli=(node "$prefix/node_modules/v2-migrate/bin/v2-migrate.js")
elif own=$(project_cli); then
  cli=("$own")
else
  action=${V2_MIGRATE_ACTION_PATH:?the action path is not set}
  if [ ! -f "$action/dist/lib/cli.js" ]; then
    echo "v2-migrate is not installed in this project: building the action's own code (add it as a devDependency to skip this)" >&2
    (cd "$action" && npm ci --ignore-scripts --no-audit --no-fund && npm run build) >&2 || fail "could not build v2-migrate in $action"
  fi
  cli=(node "$action/bin/v2-migrate.js")
fi

echo "${cli[*]} ${args[*]} ${paths[*]}"
"${cli[@]}" "${args[@]}" "${paths[@]}"
code=$?

out=${GITHUB_OUTPUT:-/dev/null}
echo "exit-code=$code" >> "$out"
[ -n "$sarif" ] && echo "sarif-file=$sarif" >> "$out"
[ "$code" -ge 2 ] && exit "$code"
exit 0
