"""Include and exclude patterns on library-relative paths."""

from __future__ import annotations

import pytest

from desktop.engine.knowledge.patterns import PathFilter


@pytest.mark.parametrize(
    ("include", "exclude", "path", "wanted"),
    [
        ((), (), "any/file.bin", True),
        (("*.md",), (), "a.md", True),
        (("*.md",), (), "deep/down/B.MD", True),  # name patterns match at any depth, any case
        (("*.md",), (), "a.txt", False),
        (("notes/**/*.txt",), (), "notes/a.txt", True),
        (("notes/**/*.txt",), (), "notes/x/y/a.txt", True),
        (("notes/**/*.txt",), (), "other/notes/a.txt", False),
        (("notes/*.txt",), (), "notes/x/a.txt", False),  # * stays within a folder
        (("file?.md",), (), "file1.md", True),
        (("file?.md",), (), "file10.md", False),
        (("[ab].md",), (), "b.md", True),
        (("[!ab].md",), (), "b.md", False),
        (("./docs/**",), (), "docs/a/b.pdf", True),
        ((), ("drafts",), "drafts/a.md", False),  # a named folder excludes what is in it
        ((), ("drafts",), "x/drafts/a.md", False),
        ((), ("drafts",), "drafts.md", True),
        ((), ("build/cache",), "build/cache/a.md", False),
        ((), ("build/cache",), "build/a.md", True),
        ((), ("**/secret*",), "a/secret-plan.md", False),
        (("*.md",), ("*.tmp.md",), "a.tmp.md", False),  # exclude wins
        ((" ", ""), (), "a.md", True),  # blank patterns are no patterns
        (("[oops",), (), "[oops", True),  # a malformed class is taken literally
    ],
)
def test_wants_file(include, exclude, path, wanted):
    assert PathFilter(include, exclude).wants_file(path) is wanted


def test_wants_folder():
    wanted = PathFilter((), ("node_modules", "build/cache"))
    assert not wanted.wants_folder("node_modules")
    assert not wanted.wants_folder("web/node_modules")
    assert not wanted.wants_folder("build/cache")
    assert wanted.wants_folder("build")
