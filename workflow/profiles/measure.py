"""Measure every slice rule's peak memory and run time, to set the profiles' ``set-resources``.

How: the COMMITTED workflow (``git archive HEAD``: Snakefile, rules, library; so that
uncommitted work in the tree does not disturb it) is unpacked into a temporary project with the
given params.yaml, and the library is imported from there (PYTHONPATH); the copy's Snakefile gets
``shell.prefix("/usr/bin/time -a -o <file> -f '...' ")``, so every job's command runs under GNU
time, which records its elapsed (wall) time, user + system CPU seconds and maximum resident set
size. The copy is then run with ``snakemake --cores N``; the repository itself is not touched.
A job is attributed to its rule by its ``--log logs/<step>/...`` argument. The script prints, per
rule, the job count and the maximum over its jobs of peak RSS (MB), wall and CPU seconds, and
writes them as JSON (``--out``).

    .venv/bin/python workflow/profiles/measure.py                 # repository params.yaml
    .venv/bin/python workflow/profiles/measure.py --params my.yaml --out measured.json

The figures behind workflow/profiles/default/config.yaml are in
workflow/profiles/measured-slice.json (the default slice: BBC, 4 folds x 2 repeats, 4 encodings).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

FORMAT = "%e\t%U\t%S\t%M\t%C"
# log directory (first component after logs/) -> rule name, where they differ
RULE_OF_LOG = {"prepare": "prepare_text", "split": "split"}


def measure(params: dict, cores: int) -> dict:
    from workflow_utils import env

    with tempfile.TemporaryDirectory(prefix="termweight-measure-") as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        tar = subprocess.run(["git", "-C", str(REPO), "archive", "HEAD"], check=True,
                             capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(root)], input=tar, check=True)
        shutil.rmtree(root / "reports", ignore_errors=True)  # committed outputs: rebuild all
        (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
        e = {**env(), "PYTHONPATH": str(root / "src")}
        if not (root / ".dvc").is_dir():
            subprocess.run(["dvc", "init", "--no-scm", "-q"], cwd=root, env=e, check=True)
        times = root / "time.tsv"
        snakefile = root / "Snakefile"
        snakefile.write_text(snakefile.read_text() + f'\nshell.prefix("/usr/bin/time -a -o {times} '
                             f"-f '{FORMAT}' \")\n")
        res = subprocess.run(["snakemake", "--cores", str(cores), "--quiet"], cwd=root, env=e,
                             capture_output=True, text=True, check=False)
        if res.returncode:
            raise SystemExit(f"snakemake failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}")
        rules: dict[str, dict] = {}
        for line in times.read_text().splitlines():
            parts = line.split("\t")
            if len(parts) != 5:
                continue  # a "Command exited with non-zero status" line
            wall, user, system, rss_kb, cmd = parts
            m = re.search(r"--log logs/([a-z_]+)/", cmd)
            step = m.group(1) if m else "onsuccess"  # the DVC commit hook, not a rule
            rule = RULE_OF_LOG.get(step, step)
            r = rules.setdefault(rule, {"jobs": 0, "max_rss_mb": 0.0, "max_wall_s": 0.0,
                                        "max_cpu_s": 0.0})
            r["jobs"] += 1
            r["max_rss_mb"] = max(r["max_rss_mb"], round(int(rss_kb) / 1024, 1))
            r["max_wall_s"] = max(r["max_wall_s"], float(wall))
            r["max_cpu_s"] = max(r["max_cpu_s"], round(float(user) + float(system), 2))
        return rules


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--params", default=str(REPO / "params.yaml"))
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--out", help="write the per-rule figures as JSON here")
    args = ap.parse_args(argv)
    params = yaml.safe_load(Path(args.params).read_text())
    # the slice only (paper sections may be newer than the committed schema); BBC is bundled
    params = {"mirror": None, "seed": params["seed"], "experiments": params["experiments"]}
    rules = measure(params, args.cores)
    print(f"{'rule':<16}{'jobs':>5}{'peak RSS MB':>13}{'wall s':>9}{'CPU s':>9}")
    for name, r in sorted(rules.items()):
        print(f"{name:<16}{r['jobs']:>5}{r['max_rss_mb']:>13.1f}{r['max_wall_s']:>9.2f}"
              f"{r['max_cpu_s']:>9.2f}")
    if args.out:
        Path(args.out).write_text(json.dumps({"params": params, "rules": rules}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
