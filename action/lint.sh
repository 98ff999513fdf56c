#!/usr/bin/env bash
# The lint step of the GitHub Action (action.yml): runs `v2-migrate lint` with the action's inputs
# (INPUT_* variables) and records its exit code as a step output. A usage or config error (exit 2)
# fails here; findings (exit 1) fail in the action's last step, after the SARIF upload.
set -uo pipefail

format=${INPUT_FORMAT:-github}
case "$format" in
  sarif | github) ;;
  *)
    echo "::error title=v2-migrate::input format must be sarif or github (got \"$format\")"
    exit 2
    ;;
esac

args=(lint --format "$format" --max-warnings "${INPUT_MAX_WARNINGS:-0}")
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
sarif=''
if [ "$format" = sarif ]; then
  sarif=${INPUT_SARIF_FILE:-v2-migrate.sarif}
  args+=(--output-file "$sarif")
fi
read -r -d '' -a paths <<< "${INPUT_PATHS:-.}"
[ ${#paths[@]} -gt 0 ] || paths=(.)

# The project's own v2-migrate (a devDependency pins it), else this action's version from npm.
if [ -n "${INPUT_CLI:-}" ]; then
  read -r -a cli <<< "$INPUT_CLI"
elif [ -x node_modules/.bin/v2-migrate ]; then
  cli=(node_modules/.bin/v2-migrate)
else
  version=${INPUT_VERSION:-}
  if [ -z "$version" ] && [ -n "${V2_MIGRATE_ACTION_PATH:-}" ]; then
    version=$(node -p "require(process.argv[1]).version" "$V2_MIGRATE_ACTION_PATH/package.json")
  fi
  cli=(npx --yes "v2-migrate@${version:-latest}")
fi

echo "${cli[*]} ${args[*]} ${paths[*]}"
"${cli[@]}" "${args[@]}" "${paths[@]}"
code=$?

out=${GITHUB_OUTPUT:-/dev/null}
echo "exit-code=$code" >> "$out"
[ -n "$sarif" ] && echo "sarif-file=$sarif" >> "$out"
[ "$code" -ge 2 ] && exit "$code"
exit 0
