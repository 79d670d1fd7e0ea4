"""Probe (#65, deviations entry ``kim-corrected-t``): which of Kim's verdicts would the plain
paired t over the 10 random 50/50 splits give differently from Nadeau & Bengio's corrected
resampled t, on the same committed fits?

The plain paired t is the corrected one with ``n_test/n_train`` = 0 (variance ``s^2/k`` instead of
``(1/k + n_test/n_train) s^2``; ``termweight.inference.corrected_resampled_t``). The probe runs
``kim-report`` twice into a temporary directory, once as committed and once with that ratio set
to 0, and records every claim (and every stripped-text sensitivity verdict) that differs:

    PYTHONPATH=src python benchmarks/probe_kim_plain_t.py [--out benchmarks/results/probe_kim_plain_t.json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path


def report(out: Path) -> dict:
    """kim-report on the committed fits, its metrics JSON written under ``out``."""
    from termweight.runner.cli import main

    for d in ("tables", "figures", "macros"):
        (out / d).mkdir(parents=True, exist_ok=True)
    rc = main(["kim-report", "--params", "params.yaml", "--meta", "data/corpus/{dataset}/meta.json",
               "--fits", "data/kim/{key}/fit/{split}.csv", "--convergence", "data/kim/convergence.json",
               "--sg-probe", "benchmarks/results/probe_kim_single_sg.json",
               "--out-runs", str(out / "runs.csv"), "--out-json", str(out / "kim.json"),
               "--tables", str(out / "tables"), "--figures", str(out / "figures"),
               "--macros", str(out / "macros/kim.tex")])
    if rc:
        raise SystemExit(rc)
    return json.loads((out / "kim.json").read_text())


def differences(corrected: dict, plain: dict) -> list[dict]:
    """Claims (and sensitivity rows) whose verdict differs between the two tests."""
    out = []
    for part, field, result in (("claims", "verdict", "result"),
                                ("text_sensitivity", "sensitivity_verdict", "sensitivity_result")):
        b = {c["id"]: c for c in plain[part]}
        for c in corrected[part]:
            # a claim whose result is the same on both texts is not listed
            other = b.get(c["id"], {field: "(same result on both texts)", result: ""})
            if c[field] != other[field]:
                out.append({"id": c["id"], "where": part, "corrected": c[field],
                            "plain": other[field],
                            # the result's text names the corrected test; here its t is the plain one
                            "plain_result": other[result].replace("corrected resampled t",
                                                                  "plain paired t")})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/probe_kim_plain_t.json"))
    args = ap.parse_args()
    import termweight.experiments.kim.claims as kc
    from termweight import inference

    with tempfile.TemporaryDirectory() as tmp:
        corrected = report(Path(tmp, "corrected"))
        kc.paired = lambda a, b, ratio: inference.corrected_resampled_t(a, b, 0.0)
        plain = report(Path(tmp, "plain"))
    diff = differences(corrected, plain)
    args.out.write_text(json.dumps({
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "what": "Kim's verdicts under the plain paired t (n_test/n_train = 0) that differ from the "
                "committed ones (corrected resampled t), same fits",
        "claims": len(corrected["claims"]), "differ": diff}, indent=1) + "\n")
    for d in diff:
        print(f"{d['id']} ({d['where']}): {d['corrected']} -> plain t: {d['plain']}")


if __name__ == "__main__":
    main()
