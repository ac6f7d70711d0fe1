"""Parley's side of the typesetting child, with real children: reused, started again
after a crash or a timeout, given up on when it cannot run, ended on close."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from desktop.render.tex_process import (
    MAX_FAILURES,
    STOPPED,
    TIMED_OUT,
    UNAVAILABLE,
    TexProcess,
)
from tests.support.processes import alive
from tests.support.waiting import CEILING_S, wait_until


def typeset(tex: TexProcess, formula: str = "x^2") -> dict[str, str]:
    return tex.typeset(formula, False, "#000000", 16.0)


@pytest.fixture
def tex():
    process = TexProcess(timeout_s=CEILING_S)
    yield process
    process.close()


def test_one_child_answers_formula_after_formula(tex):
    assert tex.pid is None  # nothing runs before the first formula
    assert "<path" in typeset(tex)["svg"]
    pid = tex.pid
    assert pid is not None and pid != os.getpid()
    assert "<path" in typeset(tex, "\\sqrt{y}")["svg"]
    assert (tex.pid, tex.starts) == (pid, 1)


def test_a_child_that_died_is_replaced_by_the_next_formula(tex):
    typeset(tex)
    pid = tex.pid
    os.kill(pid, signal.SIGKILL)
    wait_until(lambda: tex.pid is None, "the dead child noticed")
    assert "<path" in typeset(tex)["svg"]
    assert tex.starts == 2 and tex.pid != pid


def test_a_formula_past_the_timeout_ends_the_child_and_the_next_one_works(tex):
    tex.timeout_s = 0.001  # no child starts, let alone answers, within a millisecond
    assert typeset(tex) == {"problem": TIMED_OUT}
    assert tex.pid is None
    tex.timeout_s = CEILING_S
    assert "<path" in typeset(tex)["svg"]


def test_a_child_that_cannot_run_is_given_up_after_a_few_tries(tex, monkeypatch):
    monkeypatch.setattr(sys, "executable", "/bin/false")  # starts, and ends at once
    answers = [typeset(tex) for _ in range(MAX_FAILURES + 2)]
    assert answers == [{"problem": STOPPED}] * MAX_FAILURES + [{"problem": UNAVAILABLE}] * 2
    assert tex.starts == MAX_FAILURES


def test_a_child_that_cannot_start_is_unavailable(tex, monkeypatch):
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    assert typeset(tex) == {"problem": UNAVAILABLE}
    assert typeset(tex) == {"problem": UNAVAILABLE} and tex.starts == 0


def test_stop_ends_the_child_for_now_and_close_for_good(tex):
    typeset(tex)
    pid = tex.pid
    tex.stop()
    assert not alive(pid) and tex.pid is None
    assert "<path" in typeset(tex)["svg"]  # a new one
    pid = tex.pid
    tex.close()
    assert not alive(pid)
    assert typeset(tex) == {"problem": UNAVAILABLE} and tex.starts == 2
