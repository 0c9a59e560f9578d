#!/usr/bin/env bash
# Mutation testing: how many deliberate small breaks (mutants) of the judging code the tests
# catch. mutmut (in [dev]) copies the package to mutants/, makes each mutant of the modules
# [tool.mutmut] in pyproject.toml names (only_mutate: slitherbench/puzzles/check.py, the independent
# judge of every recorded `solved`), runs the fast tests that cover it against each, and
# prints the score; surviving mutants are listed (`mutmut show NAME` prints one's diff).
#   bash experiments/mutation.sh [MODULE ...]
# MODULE: another module to mutate instead, e.g. slitherbench/models/formulations/qubo.py (its tests
# are then the same selection; add the ones that guard it to
# pytest_add_cli_args_test_selection). Runs on as many workers as MAX_CHILDREN (default 2).
# mutants/ is scratch (git-ignored); it is removed first so each run starts clean.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
MUTMUT=${MUTMUT:-$(dirname "$PY")/mutmut}
command -v "$MUTMUT" >/dev/null || MUTMUT=mutmut
rm -rf mutants
if [ "$#" -gt 0 ]; then
    # mutmut reads only_mutate from pyproject.toml: run on a copy that names the modules given
    patterns=$(printf '"%s", ' "$@")
    sed -i.orig "s#^only_mutate = .*#only_mutate = [${patterns%, }]#" pyproject.toml
    trap 'mv pyproject.toml.orig pyproject.toml' EXIT
fi
"$MUTMUT" run --max-children "${MAX_CHILDREN:-2}"
"$MUTMUT" results --all true | awk '{print $NF}' | sort | uniq -c
"$MUTMUT" results
