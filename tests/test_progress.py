"""A step that runs longer than a minute says how far it is, on the terminal and in its log."""

from __future__ import annotations

import logging

import pytest

from termweight.runner import parallel


def _noop(item):
    return None


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_long_step_reports_done_of_total(monkeypatch, capsys, jobs):
    monkeypatch.setattr(parallel, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(parallel, "PROGRESS_EVERY", 0.0)
    monkeypatch.setattr(parallel, "LABEL", "termweight train")
    parallel.for_each(jobs, _noop, range(4))
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in lines] == [
        f"termweight train: {k} of 4 done" for k in range(1, 5)]
    assert all(line.endswith("s elapsed") for line in lines)


def test_a_short_step_says_nothing(capsys):
    assert parallel.PROGRESS_AFTER == 60.0  # a minute, then at most every 30 s and the last item
    parallel.for_each(1, _noop, range(4))
    assert capsys.readouterr().err == ""


def test_progress_goes_to_the_log_file_too(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(parallel, "PROGRESS_AFTER", 0.0)
    monkeypatch.setattr(parallel, "PROGRESS_EVERY", 3600.0)  # the first and the last line only
    monkeypatch.setattr(parallel, "LABEL", "termweight")
    handler = logging.FileHandler(tmp_path / "step.log")
    root = logging.getLogger()
    root.addHandler(handler)
    old = root.level
    root.setLevel(logging.INFO)
    try:
        parallel.for_each(1, _noop, range(5))
    finally:
        root.removeHandler(handler)
        root.setLevel(old)
        handler.close()
    err = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in err] == ["termweight: 1 of 5 done",
                                                    "termweight: 5 of 5 done"]
    assert (tmp_path / "step.log").read_text().count("of 5 done") == 2
