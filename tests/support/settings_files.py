"""The settings file tests start Parley with: one provider on a loopback server.

Titles and follow-up suggestions are off unless `after_answer`: each is one more
request, which would take the answer a test scripted for its next message.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def write_settings(
    target: Path,
    base_url: str,
    models: Sequence[str] = ("test-model",),
    *,
    after_answer: bool = False,
    kind: str = "openai_chat",
    provider_id: str = "local",
    name: str = "Local",
    model_overrides: dict[str, Any] | None = None,
    **sections: Any,
) -> Path:
    """Write settings with one provider at `base_url` offering `models`; `sections` are
    further top-level settings (`tools`, `network`, ...). `target` is the settings file
    (a `.json` path) or the data folder that holds `settings.json`. Returns the file."""
    path = target if target.suffix == ".json" else target / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    provider: dict[str, Any] = {
        "id": provider_id,
        "name": name,
        "kind": kind,
        "base_url": base_url,
        "models": list(models),
    }
    if model_overrides:
        provider["model_overrides"] = model_overrides
    data = {
        "version": 1,
        "providers": [provider],
        "auto_titles": after_answer,
        "follow_up_suggestions": after_answer,
        **{key: value for key, value in sections.items() if value is not None},
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def write_tool_settings(target: Path, base_url: str) -> Path:
    """Settings whose test model is known to call tools."""
    return write_settings(target, base_url, model_overrides={"test-model": {"tools": True}})


def write_after_answer_settings(target: Path, base_url: str, **sections: Any) -> Path:
    """Settings with titles and suggestions on, a small `mini` model beside the test
    model, and a test model whose context is 1,000 tokens."""
    return write_settings(
        target,
        base_url,
        ("test-model", "mini"),
        after_answer=True,
        model_overrides={"test-model": {"context_length": 1000}},
        **sections,
    )


def saved_settings(data_dir: Path) -> dict[str, Any]:
    """The settings file in `data_dir` as it is now on disk (after Parley saved it)."""
    return json.loads((data_dir / "settings.json").read_text(encoding="utf-8"))
