#!/usr/bin/env bash
# The newest versions pyproject.toml's lower bounds admit, checked against the lock
# (docs/environment.md): a fresh clone of this checkout in a scratch directory, a new venv with
# `pip install --upgrade -e ".[workflow,test]"` (no lock), the packages that differ from
# envs/requirements.lock.txt, the quick start (`snakemake --cores 2`, whose results must rewrite
# no committed file) and the default test tier. Not part of .ci/run: it tests tomorrow's releases.
#
#   bash envs/check_newest.sh [SCRATCH_DIR]
#
# Exit status: 0 when the quick start and the tests pass under the newest versions, 1 otherwise.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${1:-$(mktemp -d -t termweight-newest-XXXX)}"
mkdir -p "$scratch"
echo "scratch: $scratch"
git clone -q "$here" "$scratch/main" || exit 1
# the tests read the datasets beside the checkout
if [ -d "$here/../shared" ] && [ ! -e "$scratch/shared" ]; then ln -s "$(cd "$here/../shared" && pwd)" "$scratch/shared"; fi
cd "$scratch/main" || exit 1
python3 -m venv .venv && .venv/bin/pip install -q --upgrade pip >/dev/null \
    && .venv/bin/pip install -q --upgrade -e ".[workflow,test]" || exit 1
echo "== packages that differ from envs/requirements.lock.txt"
.venv/bin/python - <<'EOF'
from termweight.environment import lock_differences
import json
diff = lock_differences("envs/requirements.lock.txt")
for name, v in diff.items():
    print(f"  {name}: lock {v['lock']}, newest {v['installed']}")
print(f"  {len(diff)} packages differ")
json.dump(diff, open("../newest_differs.json", "w"), indent=1, sort_keys=True)
EOF
status=0
echo "== quick start (snakemake --cores 2) under the newest versions"
( . .venv/bin/activate && snakemake --cores 2 -q ) || status=1
echo "== files the quick start changed (none: same numbers as the lock's)"
git status --porcelain --untracked-files=no
[ -z "$(git status --porcelain --untracked-files=no -- data reports/metrics reports/tables)" ] || status=1
echo "== default test tier"
.venv/bin/python -m pytest -q -p no:cacheprovider || status=1
exit "$status"
