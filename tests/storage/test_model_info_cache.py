"""`model_info.json`: what endpoints said about their models, kept between runs."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from desktop.core.capabilities import ReportedCapabilities
from desktop.storage.model_info_cache import EndpointReport, ModelInfoCache

OLLAMA = "http://127.0.0.1:11434"
REPORT = EndpointReport(
    1_764_460_800.5,
    {
        "llava:7b": ReportedCapabilities(vision=True, tools=False, context_length=4096),
        "nomic-embed-text": ReportedCapabilities(chat=False),
    },
)


def test_a_report_is_written_and_read_back_by_the_next_run(tmp_path: Path) -> None:
    path = tmp_path / "model_info.json"
    cache = ModelInfoCache(path)
    assert cache.get("ollama", OLLAMA) is None
    cache.put("ollama", OLLAMA + "/", REPORT)  # the same address, however spelled
    assert cache.get("ollama", OLLAMA) == REPORT
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "version": 1,
        "endpoints": {
            f"ollama {OLLAMA}": {
                "fetched_at": 1_764_460_800.5,
                "models": {  # only what was stated
                    "llava:7b": {"vision": True, "tools": False, "context_length": 4096},
                    "nomic-embed-text": {"chat": False},
                },
            }
        },
    }
    again = ModelInfoCache(path)
    assert again.get("ollama", OLLAMA) == REPORT
    assert again.get("openai_chat", OLLAMA) is None  # another protocol, another endpoint
    assert [p.name for p in tmp_path.iterdir()] == ["model_info.json"]  # no temp files left


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"\xff\xfe", b"[]", b'{"version": 99, "endpoints": {}}', b'{"version": 1}'],
)
def test_an_unreadable_file_is_ignored_with_a_log_line(
    tmp_path: Path, content: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "model_info.json"
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="desktop.storage.model_info_cache"):
        cache = ModelInfoCache(path)
    assert cache.get("ollama", OLLAMA) is None
    assert "Ignoring" in caplog.text and str(path) in caplog.text
    cache.put("ollama", OLLAMA, REPORT)  # the next answer replaces it
    assert ModelInfoCache(path).get("ollama", OLLAMA) == REPORT


def test_a_malformed_entry_is_skipped_and_the_rest_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "model_info.json"
    good = {"fetched_at": 10, "models": {"m": {"vision": True, "added_later": "x"}}}
    endpoints = {
        "ollama http://good": good,
        "ollama http://bad-flag": {"fetched_at": 10, "models": {"m": {"vision": "yes"}}},
        "ollama http://bad-time": {"fetched_at": "today", "models": {}},
        "ollama http://bad-models": {"fetched_at": 10, "models": []},
    }
    path.write_text(json.dumps({"version": 1, "endpoints": endpoints}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="desktop.storage.model_info_cache"):
        cache = ModelInfoCache(path)
    # A field a later Parley added is skipped, not a reason to drop the entry.
    assert cache.get("ollama", "http://good") == EndpointReport(
        10.0, {"m": ReportedCapabilities(vision=True)}
    )
    for bad in ("http://bad-flag", "http://bad-time", "http://bad-models"):
        assert cache.get("ollama", bad) is None
    assert [r.getMessage().endswith("it is malformed") for r in caplog.records] == [True] * 3


def test_a_file_that_cannot_be_written_keeps_the_answer_in_memory(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "missing-folder" / "model_info.json"
    cache = ModelInfoCache(path)
    with caplog.at_level(logging.WARNING, logger="desktop.storage.model_info_cache"):
        cache.put("ollama", OLLAMA, REPORT)
    assert cache.get("ollama", OLLAMA) == REPORT
    assert "Could not write" in caplog.text
    assert not path.exists()
