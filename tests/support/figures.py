"""Figures a test measured (build times, sizes), shown in the terminal summary.

A test or fixture calls `note_figure`; the line rides on that test's report, so it
reaches the summary whichever process ran the test (the suite runs on every core, one
worker process each) and is printed once, after the run. A timing is never a pass/fail
condition: the figures are for people reading the run.
"""

from __future__ import annotations

import pytest

_KEY = "figure"
_pending: list[str] = []  # noted in this process, not yet on a report
_gathered: list[str] = []  # every figure of the run, as the reports came in


def note_figure(line: str) -> None:
    _pending.append(line)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    outcome = yield
    report = outcome.get_result()
    while _pending:
        report.user_properties.append((_KEY, _pending.pop(0)))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _gathered.extend(value for key, value in report.user_properties if key == _KEY)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _gathered:
        terminalreporter.section("figures")
        for line in _gathered:
            terminalreporter.write_line(line)
