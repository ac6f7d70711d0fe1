"""Paths inside a workspace folder, and nothing outside it.

Every path a model gives is relative to the workspace. Absolute paths are refused
outright; anything else is resolved (following `..` and symlinks) and refused unless
the result is the workspace itself or inside it, so a symlink pointing out of the
folder cannot be used to read or write beyond it.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath, PureWindowsPath

from desktop.engine.tools.registry import ToolFailure


def workspace_root(workspace: Path | None) -> Path:
    if workspace is None:
        raise ToolFailure("This conversation has no workspace folder.")
    try:
        root = workspace.resolve(strict=True)
    except OSError:
        raise ToolFailure(f"The workspace folder {workspace} is not available.") from None
    if not root.is_dir():
        raise ToolFailure(f"The workspace {workspace} is not a folder.")
    return root


def inside(root: Path, relative: str) -> Path:
    """`relative` resolved within `root` (already resolved); ToolFailure if it leaves."""
    text = relative.strip() or "."
    if (
        PurePosixPath(text).is_absolute()
        or PureWindowsPath(text).is_absolute()
        or (PureWindowsPath(text).drive)
    ):
        raise ToolFailure(
            f"Refused: {relative!r} is an absolute path. Use a path relative to the workspace."
        )
    candidate = (root / text).resolve()
    if candidate != root and root not in candidate.parents:
        raise ToolFailure(f"Refused: {relative!r} is outside the workspace folder.")
    return candidate


def shown(root: Path, path: Path) -> str:
    """How a path inside the workspace is shown to the model: relative, with '/'."""
    relative = path.relative_to(root).as_posix()
    return relative or "."
