"""The benchmark's registered analyses (termweight.experiments.registrations): the file is read
and checked, every analysis that states an outcome has an entry, and the git history shows each
entry committed before any of its results."""

import subprocess
from pathlib import Path

import pytest

from termweight.experiments import registrations
from termweight.runner.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]


def git(*args) -> str:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_every_analysis_that_states_an_outcome_has_an_entry():
    entries = registrations.load()
    assert {"second-seed", "learning-curves", "reference-row", "edge-probe"} <= set(entries)
    for e in entries.values():
        assert str(e["hypothesis"]).strip() and e["results"]


def test_an_entry_is_committed_before_its_results():
    """The commit adding an entry's id is an ancestor of the first commit of each results file,
    so no result was seen when its hypothesis and rule were written."""
    if not (REPO / ".git").exists():
        pytest.skip("no git history here")
    rel = str(registrations.REGISTRY.relative_to(REPO))
    for entry_id, e in registrations.load().items():
        added = git("log", "--format=%H", "-S", f"id: {entry_id}", "--", rel).splitlines()
        for path in e["results"]:
            first = git("log", "--diff-filter=A", "--format=%H", "--", path).splitlines()
            if not first:
                continue  # not run yet
            assert added, f"{entry_id}: {path} is committed, the entry is not"
            ok = subprocess.run(["git", "merge-base", "--is-ancestor", added[-1], first[-1]],
                                cwd=REPO).returncode == 0
            assert ok, f"{entry_id}: {path} was committed before the entry ({added[-1][:8]})"


def test_the_outcome_names_the_learners_it_held_for(tmp_path):
    out = registrations.outcome("second-seed", {"linearsvc": True, "mnb": False},
                                {"linearsvc": "LinearSVC", "mnb": "naive Bayes"})
    assert out["held"] == {"linearsvc": True, "mnb": False}
    assert out["text"].startswith("Registered before the run (")
    assert "it held for LinearSVC, not for naive Bayes." in out["text"]
    assert "\\texttt{second-seed}" in out["text"]
    assert "every learner" in registrations.outcome("second-seed", {"a": True})["text"]


@pytest.mark.parametrize("text, words", [
    ("- id: a\n", "missing registered"),
    ("{}\n", "expected a list"),
    ("- {id: a, registered: x, analysis: x, hypothesis: x, rule: x, seen_before: x, "
     "results: []}\n", "non-empty list"),
    ("- {id: a, registered: x, analysis: x, hypothesis: x, rule: x, seen_before: x, "
     "results: [p]}\n" * 2, "appears twice"),
])
def test_a_malformed_registry_is_one_line_naming_the_file(tmp_path, text, words):
    path = tmp_path / "registrations.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=words) as e:
        registrations.load(path)
    assert str(path) in str(e.value)
