"""Each stage's code as one digest (termweight.pipeline.codedigest): one lock entry per stage, and
a comment or docstring edit reruns the digests and nothing else."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
import yaml
from workflow_utils import DVC_SLICE, REPO, copy_project, digests, run

from termweight.pipeline import codedeps, codedigest, dvcyaml


def test_a_digest_ignores_comments_docstrings_and_blank_lines_only():
    base = b'"""Module."""\nimport x\n\n\ndef f(a):\n    """Doc."""\n    return a + 1  # one\n'
    same = (b'"""Module, reworded\non two lines."""\n# a comment\nimport x\n\n'
            b'def f(a):\n    """Another doc."""\n\n    return a + 1\n')
    assert codedigest.code_md5(base) == codedigest.code_md5(same)
    for edit in (b"return a + 2", b"return a+1", b'return "a + 1"'):
        changed = base.replace(b"return a + 1", edit)
        assert codedigest.code_md5(changed) != codedigest.code_md5(base), edit
    # a string that is not a docstring is code; so is a '#' inside a string
    assert codedigest.code_md5(b'x = "doc"\n') != codedigest.code_md5(b'x = "other"\n')
    assert codedigest.code_md5(b'x = "#a"\n') != codedigest.code_md5(b'x = "#b"\n')
    # never a file's own MD5 (the migration keeps a stage recorded against other code stale)
    import hashlib

    text = codedigest.code_text(base)
    assert codedigest.code_md5(base) != hashlib.md5(text).hexdigest()
    # non-ASCII before a docstring on its line: ast's byte columns become characters
    assert b"Doc" not in codedigest.code_text(
        'def g():\n    """Dé."""; y = "é"\n'.encode())


def test_no_result_reads_a_docstring():
    """A digest leaves docstrings out, so no step's output may depend on one: the places that
    read ``__doc__`` feed ``--help`` and ``list`` only (a new one must be judged and added)."""
    allowed = {
        "clihelp.py", "steps/catalogue.py", "steps/workflow.py", "steps/results.py",
        "steps/column.py", "steps/reference.py", "experiments/benchmark.py",
        "experiments/sensitivity.py", "experiments/curves.py", "experiments/reference.py",
        "experiments/seed.py",
        "experiments/external.py",  # argparse descriptions
        "scoring.py",  # METRIC_DESCRIPTIONS: `list metrics` (steps/catalogue.py) only
        "datasets/cachopo.py", "datasets/arff.py", "datasets/reuters.py",  # parser's __doc__
    }
    code = {str(p.relative_to(codedeps.SOURCE)): codedigest.code_text(p.read_bytes()).decode()
            for p in codedeps.SOURCE.rglob("*.py")}
    found = {f for f, text in code.items() if re.search(r"__doc__|getdoc\(", text)}
    assert found <= allowed, sorted(found - allowed)
    readers = {f for f, text in code.items() if "METRIC_DESCRIPTIONS" in text}
    assert readers == {"scoring.py", "steps/catalogue.py"}


def test_every_stage_has_one_code_entry_and_its_digest_stage_the_files():
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    lock = yaml.load((REPO / "dvc.lock").read_text(), Loader=yaml.CSafeLoader)["stages"]
    for name, stage in stages.items():
        if name.startswith(codedigest.STAGE_PREFIX):
            base = name.removeprefix(codedigest.STAGE_PREFIX)
            assert stage["outs"] == [{codedigest.digest_path(base): {"cache": False}}]
            assert set(dvcyaml.digested_code(stages, base)) <= set(stage["deps"])
            continue
        deps = stage.get("do", stage).get("deps", [])
        assert not [d for d in deps if d.endswith(".py")], name
    stale = []
    for name, entry in lock.items():
        code = [d for d in entry.get("deps", []) if d["path"].endswith(".py")]
        assert name.startswith(codedigest.STAGE_PREFIX) or not code, name
        # the lock records each code file as it is committed: `dvc status` finds no code stage
        # changed in a fresh clone (a missed `dvc repro code_X` failed the quick start's check)
        stale += [(name, d["path"]) for d in code
                  if hashlib.md5((REPO / d["path"]).read_bytes()).hexdigest() != d["md5"]]
    assert not stale, stale
    # the committed digests are what the code digests now (dvc status agrees: tests elsewhere),
    # over the files dvc.yaml lists
    for name in stages:
        if name.startswith(codedigest.STAGE_PREFIX):
            base = name.removeprefix(codedigest.STAGE_PREFIX)
            entries = dvcyaml.digest_entries(stages, base)
            md5s = codedigest.stage_md5s(entries)
            assert sorted(md5s) == sorted(dvcyaml.digested_code(stages, base)), base
            assert (REPO / codedigest.digest_path(base)).read_bytes() == codedigest.render(
                md5s, entries), base


def test_a_digest_hashes_the_definitions_a_stage_reaches():
    """Per definition: a function the stage does not reach, or a new one, changes nothing; an
    edit to one it reaches, to import-time code, or to a constant computed by a call does."""
    src = (b'import os\nTABLE = {"a": 1}\nMADE = dict(a=1)\n\n\ndef used():\n    return TABLE, os.sep\n'
           b'\n\n@functools.cache\ndef other():\n    return 2\n')
    reached = frozenset({"used", "TABLE"})
    h = codedigest.defs_md5(src, reached)
    assert codedigest.defs_md5(src.replace(b"return 2", b"return 3"), reached) == h
    assert codedigest.defs_md5(src.replace(b"@functools.cache\n", b""), reached) == h
    assert codedigest.defs_md5(src + b"\n\ndef new():\n    pass\n", reached) == h
    assert codedigest.defs_md5(src + b"\nEXTRA = 5\n", reached) == h
    for edit in (b'{"a": 2}', b"import posixpath as os", b"dict(a=2)", b"return TABLE, 1"):
        old = {b'{"a": 2}': b'{"a": 1}', b"import posixpath as os": b"import os",
               b"dict(a=2)": b"dict(a=1)", b"return TABLE, 1": b"return TABLE, os.sep"}[edit]
        assert codedigest.defs_md5(src.replace(old, edit), reached) != h, edit
    # the whole module (None): every definition counts, and it is not a per-file md5
    assert codedigest.defs_md5(src, None) != codedigest.defs_md5(
        src.replace(b"return 2", b"return 3"), None)
    assert codedigest.defs_md5(src, None) != codedigest.code_md5(src)


def test_where_an_import_is_written_does_not_change_a_digest():
    """An import moved from the top into the function that uses it (so that a step that never
    calls that function does not pay for it) hashes the same; binding the name to something
    else does not, and a function that does not use it does not see it."""
    top = (b"import numpy as np\nfrom sklearn.model_selection import KFold\n\n\n"
           b"def make(n):\n    return list(KFold(n).split(np.zeros(n)))\n\n\n"
           b"def load(p):\n    return np.load(p)\n")
    inside = (b"import numpy as np\n\n\n"
              b"def make(n):\n    from sklearn.model_selection import KFold\n\n"
              b"    return list(KFold(n).split(np.zeros(n)))\n\n\n"
              b"def load(p):\n    return np.load(p)\n")
    for names in (frozenset({"make"}), frozenset({"load"}), None):
        assert codedigest.defs_md5(top, names) == codedigest.defs_md5(inside, names), names
    other = inside.replace(b"import KFold", b"import StratifiedKFold as KFold")
    assert codedigest.defs_md5(other, frozenset({"make"})) != codedigest.defs_md5(
        inside, frozenset({"make"}))
    assert codedigest.defs_md5(other, frozenset({"load"})) == codedigest.defs_md5(
        inside, frozenset({"load"}))


def test_a_row_of_a_table_is_hashed_alone():
    """``TABLE/key`` (a ``PER_ITEM`` table's row): that row's text counts, the others and a new
    row do not, and its flag is part of it."""
    src = (b'def f(a):\n    return a\n\n\ndef g(a):\n    return -a\n\n\n'
           b'T = {"f": (f, False),\n     "g": (g, True)}\n')
    h = codedigest.defs_md5(src, frozenset({"T/f", "f"}))
    assert codedigest.defs_md5(src.replace(b"(g, True)", b"(g, False)"), frozenset({"T/f", "f"})) == h
    assert codedigest.defs_md5(src.replace(b"return -a", b"return a"), frozenset({"T/f", "f"})) == h
    assert codedigest.defs_md5(src.replace(b"(f, False)", b"(f, True)"), frozenset({"T/f", "f"})) != h
    assert codedigest.defs_md5(src.replace(b"return a\n", b"return 2 * a\n", 1),
                               frozenset({"T/f", "f"})) != h


def test_a_benchmark_column_depends_on_its_own_metric_only():
    """Each weighting's columns reach their own row of ``scoring.METRICS`` (and idf's, and the
    rows of the aliases they check), never the whole table: an edit to ``scoring.bns`` or its row
    stales the BNS columns and no other column."""
    stages = yaml.safe_load((REPO / "dvc.yaml").read_text())["stages"]
    module = "src/termweight/scoring.py"
    columns = [s for s in stages if s.startswith(("benchmark_column", "benchmark_sensitivity_column"))]
    assert len(columns) > 10
    for s in columns:
        names = codedeps.reached(*codedeps.parse_specs(dvcyaml.digest_entries(stages, s)))[module]
        assert names is not None and "METRICS" not in names, s
        weightings = stages[s]["matrix"]["weighting"]
        runs_bns = any(w.endswith("-bns") for w in weightings)
        assert ("bns" in names) == runs_bns and ("METRICS/bns" in names) == runs_bns, s
        assert "METRICS/idf" in names, s
    assert {"benchmark_column_bns", "benchmark_column_mixch"} <= set(columns)


@pytest.mark.slow
def test_a_docstring_edit_reruns_the_digests_a_code_edit_the_steps(slice_dvc, tmp_path):
    """`dvc repro` after a comment and docstring edit runs the digest stages of the module and
    nothing else (early cut-off); after a code edit, also the steps that compute with it."""
    project = copy_project(slice_dvc, tmp_path / "p")
    before = digests(project)
    path = project / "src/termweight/learners/linear.py"
    text = path.read_text()
    first_def = text.index('"""', text.index("\ndef ")) + 3
    path.write_text("# a comment\n" + text[:first_def] + "Reworded. " + text[first_def:])
    res = run(["dvc", "repro", *DVC_SLICE], project)
    ran = set(re.findall(r"Running stage '([^']+)'", res.stdout))
    assert ran and all(s.startswith(codedigest.STAGE_PREFIX) for s in ran), sorted(ran)
    assert digests(project) == before
    out = run(["dvc", "status", "--json", "--with-deps", *DVC_SLICE], project).stdout.strip()
    assert json.loads(out or "{}") == {}

    # a new function and a new constant: code no stage reaches, so again only the digests
    path.write_text(path.read_text() + "\n_AN_EDIT = 1\n\n\ndef _a_new_function():\n"
                    "    return _AN_EDIT\n")
    res = run(["dvc", "repro", *DVC_SLICE], project)
    ran = set(re.findall(r"Running stage '([^']+)'", res.stdout))
    assert ran and all(s.startswith(codedigest.STAGE_PREFIX) for s in ran), sorted(ran)

    # an edit to a function train@slice runs (no output changes: nothing after the steps)
    text = path.read_text()
    body = text.index('"""', text.index('"""', text.index("\ndef fit_one_vs_rest(")) + 3) + 3
    path.write_text(text[:body] + "\n    _unused = None" + text[body:])
    res = run(["dvc", "repro", *DVC_SLICE], project)
    ran = set(re.findall(r"Running stage '([^']+)'", res.stdout))
    # exactly the steps whose walk reaches that function
    stages = yaml.safe_load((project / "dvc.yaml").read_text())["stages"]
    module = "src/termweight/learners/linear.py"

    def reaches(s):
        names = codedeps.reached(*codedeps.parse_specs(dvcyaml.digest_entries(stages, s)))
        return module in names and (names[module] is None or "fit_one_vs_rest" in names[module])

    steps = {s for s in ran if not s.startswith(codedigest.STAGE_PREFIX)}
    assert "train@slice" in steps and steps == {
        s for s in steps | {"prepare_bbc@bbc", "tokenize@bbc", "count@bbc", "split@slice",
                            "encode@slice"} if reaches(s)}, sorted(ran)


def test_a_step_under_dvc_refuses_a_stale_digest(tmp_path):
    """Run by DVC (DVC_ROOT, DVC_STAGE), a step whose code digest is not its code now refuses in
    one line naming the digest stage to run, exit 2; a current digest lets it run."""
    import subprocess
    import sys

    from workflow_utils import env

    entries = ["termweight.steps.learn:cmd_train"]
    (tmp_path / "data/code").mkdir(parents=True)
    digest = tmp_path / codedigest.digest_path("train")
    md5s = codedigest.stage_md5s(entries)
    digest.write_bytes(codedigest.render(md5s, entries))
    e = {**env(), "DVC_ROOT": str(tmp_path), "DVC_STAGE": "train@slice"}

    def version():
        return subprocess.run([sys.executable, "-m", "termweight", "--version"], env=e,
                              cwd=tmp_path, capture_output=True, text=True)

    assert version().returncode == 0
    # a digest of other code for learn.py (as after an edit to it)
    digest.write_bytes(codedigest.render(
        {**md5s, "src/termweight/steps/learn.py": "0" * 32}, entries))
    res = version()
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "data/code/train.json is out of date (src/termweight/steps/learn.py changed)" in \
        res.stderr
    assert "dvc repro code_train" in res.stderr
    digest.write_text("[1, 2]")
    res = version()
    assert res.returncode == 2 and "is not a digest" in res.stderr, res.stderr


def test_the_docs_quote_the_lock_as_it_is_and_as_measured():
    """docs/workflow.md's size of dvc.lock is the committed file's (to 0.1 MB), and its read and
    write times are those of benchmarks/results/dvc_commands.json."""
    text = " ".join((REPO / "docs/workflow.md").read_text().split())
    size = (REPO / "dvc.lock").stat().st_size / 1e6
    measured = json.loads((REPO / "benchmarks/results/dvc_commands.json").read_text())[
        "code digests (2026-11-28, second measurement)"]
    before = measured["ruamel.yaml read + write of dvc.lock (one DVC 'Updating lock file')"]
    m = re.search(r"rewrites the whole `dvc.lock`: ([\d.]+) MB since the code digests, ([\d.]+) s "
                  r"to read and ([\d.]+) s to write .*?\(([\d.]+) MB, ([\d.]+) s and ([\d.]+) s", text)
    assert m, "docs/workflow.md no longer quotes the lock's size and times"
    assert abs(float(m.group(1)) - size) < 0.1, (m.group(1), size)
    assert [float(m.group(i)) for i in (2, 3)] == before["after_s"]
    assert [float(m.group(i)) for i in (5, 6)] == before["before_s"]
    assert float(m.group(4)) == round(measured["dvc.lock bytes"]["before"] / 1e6, 1)
