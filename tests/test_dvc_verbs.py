"""DVC's own verbs on this project: ``dvc exp run -S``, ``dvc exp show``, ``dvc metrics diff``,
``dvc plots diff``, and two ``dvc repro`` at once in one checkout (docs/workflow.md)."""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
import time

import pytest
import yaml
from workflow_utils import REPO, add_experiment_stages, copy_project, env, run


def _changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                  lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.mark.parametrize("override, expected", [
    ("experiments.slice.learner.C=1.0", []),  # the same value: not a byte moves
    ("experiments.slice.learner.C=0.5", ["-      C: 1.0", "+      C: 0.5"]),
    ("experiments.slice.encodings=[binary,tf]", ["-    - tfidf", "-    - binary-bns"]),
    ("+experiments.slice.learner.max_iter=5", ["+      max_iter: 5"]),
])
def test_params_yaml_is_what_dvc_set_param_writes_back(tmp_path, override, expected):
    """``dvc exp run -S`` rewrites params.yaml through ruamel.yaml, replacing every list (and the
    comments after it). params.yaml is kept in the form it writes: block lists, no comment or
    blank line after a list's last item. So -S changes the value it sets and nothing else."""
    from dvc.utils.hydra import apply_overrides  # what `dvc exp run -S` calls

    path = tmp_path / "params.yaml"
    shutil.copy2(REPO / "params.yaml", path)
    apply_overrides(path, [override])
    changed = _changed_lines((REPO / "params.yaml").read_text(), path.read_text())
    assert changed == expected, (
        "params.yaml is not in the form `dvc exp run -S` writes back: write lists in block style "
        "and move a comment that follows a list into the next mapping (docs/workflow.md)")


def _with_experiment_b(root):
    """A second experiment, ``b``, beside the built slice (disjoint outputs), and the slice's C
    changed so that its table is stale: two DVC runs with nothing to write in common."""
    params = yaml.safe_load((root / "params.yaml").read_text())
    params["experiments"]["b"] = json.loads(json.dumps(params["experiments"]["slice"]))
    params["experiments"]["slice"]["learner"]["C"] = 0.5
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))
    add_experiment_stages(root, "b")  # DVC: the per-encoding stanzas for `b`
    return root


@pytest.mark.slow
def test_a_second_dvc_run_in_one_checkout_refuses_in_one_line(slice_dvc, tmp_path):
    """DVC unlocks the repository while a stage's command runs, so a second ``dvc repro`` can
    start meanwhile; its first step refuses, naming the first run, and no lock entry is lost."""
    root = _with_experiment_b(copy_project(slice_dvc, tmp_path / "p"))
    claim = root / ".dvc/tmp/termweight-dvc-run.json"
    claim.unlink(missing_ok=True)  # the fixture's own (finished) run
    first = subprocess.Popen(["dvc", "repro", "table@b"], cwd=root, env=env(), text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 300
        while not claim.exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert claim.exists(), "the first run's first step never started"
        refusal = None
        while first.poll() is None and refusal is None:
            # DVC itself refuses while the first run holds its lock between two stages; retry
            second = run(["dvc", "repro", "--single-item", "table@slice"], root, check=False)
            out = second.stdout + second.stderr
            assert second.returncode != 0, out
            lines = [line for line in out.splitlines() if "already running" in line]
            if lines:
                refusal = lines
        assert refusal is not None, "the first run ended before the second ran a step"
        assert len(refusal) == 1
        assert f"`dvc repro table@b` (PID {first.pid}) is already running" in refusal[0]
        assert str(root) in refusal[0]
    finally:
        out, _ = first.communicate(timeout=600)
    assert first.returncode == 0, out
    # the first run's entries are all there; the second, run again, adds its own
    run(["dvc", "repro", "--single-item", "table@slice"], root)
    assert "up to date" in run(["dvc", "status", "table@b", "table@slice"], root).stdout
    lock = yaml.safe_load((root / "dvc.lock").read_text())["stages"]
    assert {"table@b", "aggregate@b", "table@slice"} <= set(lock)


PAPERS = ("esuli", "mukras", "forman", "kim", "ferreira")


def _git_project(root):
    """The built slice as a git repository (DVC's experiments are git commits), with the papers'
    committed metrics and the headlines built, committed as the baseline."""
    run(["git", "init", "-q"], root)
    run(["dvc", "config", "core.no_scm", "false"], root)
    for sub in ("metrics", "macros", "tables", "figures"):  # the committed results of the
        (root / "reports" / sub).mkdir(parents=True, exist_ok=True)
        for path in (REPO / "reports" / sub).iterdir():  # papers (their stages are not run here)
            if not (root / "reports" / sub / path.name).exists():
                shutil.copy2(path, root / "reports" / sub / path.name)
    run(["dvc", "repro", "--quiet", "--single-item", "headlines", "report_macros@slice", "report"],
        root)
    from dvc.utils.serialize import modify_yaml

    with modify_yaml(root / "params.yaml"):  # the form DVC writes (as the repository's is)
        pass
    (root / ".gitignore").write_text("/data/\n/logs/\n/.snakemake/\n__pycache__/\n")
    for cmd in (["git", "add", "-A"],
                ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base"]):
        run(cmd, root)
    return root


@pytest.mark.heavy
def test_dvc_exp_run_set_param_then_metrics_and_plots_diff(slice_dvc, tmp_path):
    root = _git_project(copy_project(slice_dvc, tmp_path / "p"))
    before = (root / "params.yaml").read_text()
    base = json.loads((root / "reports/headlines.json").read_text())["slice"]
    # an experiment: the slice's C, from the first stage it changes down (docs/workflow.md)
    res = run(["dvc", "exp", "run", "-n", "c001", "-S", "experiments.slice.learner.C=0.01",
               "--downstream", "train"], root)
    ran = {line.split("'")[1] for line in res.stdout.splitlines() if line.startswith("Running stage")}
    assert {"aggregate@slice", "figure@slice", "headlines"} <= ran
    assert not {s for s in ran if s.split("@")[0] in ("split", "stats", "score", "encode")}
    assert _changed_lines(before, (root / "params.yaml").read_text()) == [
        "-      C: 1.0", "+      C: 0.01"]
    shown = json.loads(run(["dvc", "exp", "show", "--json"], root).stdout)
    exps = {e["name"]: e for row in shown for e in row.get("experiments") or []
            for e in [e["revs"][0]] if e.get("name")}
    moved = exps["c001"]["data"]["metrics"]["reports/headlines.json"]["data"]["slice"]
    assert moved["macro_f1"] != base["macro_f1"] and moved["micro_f1"] != base["micro_f1"]
    # back to the baseline: git's files and DVC's outputs as committed
    run(["git", "checkout", "--", "."], root)
    run(["dvc", "checkout", "--force", "--allow-missing", "--quiet"], root)
    assert run(["git", "status", "--porcelain"], root).stdout == ""
    assert "up to date" in run(["dvc", "status", "table@slice", "headlines"], root).stdout
    # the experiment beside the baseline, without applying it; then removed
    diff = json.loads(run(["dvc", "metrics", "diff", "HEAD", "c001", "--json"], root).stdout)
    changes = diff["reports/headlines.json"]
    assert changes["slice.macro_f1.binary"] == {"old": base["macro_f1"]["binary"],
                                                "new": moved["macro_f1"]["binary"],
                                                "diff": pytest.approx(moved["macro_f1"]["binary"]
                                                                      - base["macro_f1"]["binary"])}
    assert not any(k.startswith(PAPERS) for k in changes)  # the papers did not move
    run(["dvc", "exp", "remove", "c001"], root)
    # the same change as a second commit: DVC's run cache restores the experiment's outputs
    from dvc.utils.hydra import apply_overrides

    apply_overrides(root / "params.yaml", ["experiments.slice.learner.C=0.01"])
    res = run(["dvc", "repro", "--downstream", "train"], root)
    assert "Running stage 'train@binary'" not in res.stdout  # cached: not fitted again
    run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "C = 0.01"], root)
    assert run(["git", "status", "--porcelain"], root).stdout == ""
    diff = json.loads(run(["dvc", "metrics", "diff", "HEAD~1", "--json"], root).stdout)
    assert diff["reports/headlines.json"] == changes
    plots = json.loads(run(["dvc", "plots", "diff", "HEAD~1", "--json"], root).stdout)
    data = plots["data"]["reports/figures/slice.csv"][0]["content"]["data"]["values"]
    assert {row["rev"] for row in data} == {"HEAD~1", "workspace"}
    assert {row["series"] for row in data} == {"micro f1", "macro f1"}
    old, new = ({(r["series"], r["label"]): float(r["y"]) for r in data if r["rev"] == rev}
                for rev in ("HEAD~1", "workspace"))
    assert old != new and set(old) == set(new)
