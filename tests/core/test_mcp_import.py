"""MCP servers read from pasted JSON: the shapes Claude Desktop, Cursor and VS Code write,
what cannot be used and why (with the JSON error's line and column), names already set
up, and text too large, too deep or too strange to show."""

from __future__ import annotations

import json

import pytest

from desktop.core.mcp_import import (
    MAX_SERVERS,
    added_to,
    looks_like_servers,
    read_servers,
)
from desktop.core.mcp_json import MAX_PASTE_BYTES
from desktop.core.mcp_settings import McpServerSettings, McpTransport, dump_mcp_server

CLAUDE_DESKTOP = {
    "mcpServers": {
        "filesystem": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/ana/Desktop"],
        },
        "github": {
            "command": "docker",
            "args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
            "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_secret"},
        },
    }
}


def servers_of(text: str, existing=()):
    result = read_servers(text, existing)
    assert result.error == "", result.error
    return [s.server for s in result.servers], result.problems


def test_claude_desktops_config_gives_its_programs_turned_off():
    servers, problems = servers_of(json.dumps(CLAUDE_DESKTOP))
    assert problems == ()
    assert [(s.id, s.name, s.transport) for s in servers] == [
        ("filesystem", "filesystem", McpTransport.STDIO),
        ("github", "github", McpTransport.STDIO),
    ]
    assert servers[0].command == "npx"
    assert servers[0].args == (
        "-y",
        "@modelcontextprotocol/server-filesystem",
        "/Users/ana/Desktop",
    )
    assert servers[1].env == {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_secret"}
    assert not any(s.enabled for s in servers)  # nothing pasted runs on its own


def test_cursors_remote_servers_and_every_way_of_naming_the_kind():
    text = json.dumps(
        {
            "mcpServers": {
                "linear": {"url": "https://mcp.linear.app/sse", "headers": {"Authorization": "x"}},
                "sse": {"type": "sse", "url": "http://localhost:3000/sse"},
                "stream": {"transport": "streamable-http", "url": "https://a.example/mcp"},
                "camel": {"type": "streamableHttp", "url": "https://b.example/mcp"},
                "windsurf": {"serverUrl": "https://c.example/mcp"},
                "local": {"type": "stdio", "command": "uvx", "args": ["mcp-server-time"]},
            }
        }
    )
    servers, problems = servers_of(text)
    assert problems == ()
    kinds = {s.name: s.transport for s in servers}
    assert kinds == {
        "linear": McpTransport.HTTP,
        "sse": McpTransport.HTTP,  # Parley's HTTP kind falls back to SSE on its own
        "stream": McpTransport.HTTP,
        "camel": McpTransport.HTTP,
        "windsurf": McpTransport.HTTP,
        "local": McpTransport.STDIO,
    }
    assert servers[0].headers == {"Authorization": "x"}
    assert servers[4].url == "https://c.example/mcp"


@pytest.mark.parametrize(
    "wrapped",
    [
        {"servers": {"time": {"type": "stdio", "command": "uvx", "args": ["mcp-server-time"]}}},
        {"mcp": {"servers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}},
        {"time": {"command": "uvx", "args": ["mcp-server-time"]}},  # the bare inner object
    ],
    ids=["vs-code-mcp-json", "vs-code-settings", "bare"],
)
def test_vs_codes_shapes_and_the_bare_object(wrapped):
    servers, problems = servers_of(json.dumps(wrapped))
    assert problems == ()
    assert [(s.name, s.command, s.args) for s in servers] == [("time", "uvx", ("mcp-server-time",))]


def test_a_single_server_is_named_after_its_package_or_host():
    servers, _ = servers_of(
        '{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory@0.6", "x"]}'
    )
    assert servers[0].name == "server-memory"
    servers, _ = servers_of('{"url": "https://mcp.example.com/mcp"}')
    assert servers[0].name == "mcp.example.com"
    servers, _ = servers_of('{"name": "Mine", "command": "/opt/bin/srv.exe"}')
    assert servers[0].name == "Mine"
    servers, _ = servers_of('{"command": "C:\\\\tools\\\\weather.exe"}')
    assert servers[0].name == "weather"


def test_a_snippet_from_a_readme_and_json_with_comments_and_trailing_commas():
    snippet = '"fetch": {\n  "command": "uvx",\n  "args": ["mcp-server-fetch"],\n},\n'
    servers, _ = servers_of(snippet)
    assert [(s.name, s.args) for s in servers] == [("fetch", ("mcp-server-fetch",))]

    jsonc = """{
      // VS Code's mcp.json may have comments
      "servers": {
        "time": {"command": "uvx", "args": ["--from", "a//b", "/*not a comment*/"],},
        /* a block comment */
      },
    }"""
    servers, _ = servers_of(jsonc)
    assert servers[0].args == ("--from", "a//b", "/*not a comment*/")


def test_bad_json_says_where_in_the_text_the_person_pasted():
    text = '{\n  "mcpServers": {\n    "time": {"command": "uvx" "args": []}\n  }\n}'
    result = read_servers(text)
    assert result.servers == ()
    assert "line 3, column 31" in result.error
    # Comments blanked out do not move the position either.
    commented = '{ /* note */\n  // more\n  "mcpServers": {"a": {"command": "x"}}}}'
    assert "line 3, column 41" in read_servers(commented).error


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"args": ["x"]}, "neither"),
        ({"command": ""}, "“command” is empty"),
        ({"command": 5}, "“command” must be text"),
        ({"command": "x", "args": "--port 80"}, "“args” must be a list of strings"),
        ({"command": "x", "args": ["--port", 80]}, "“args” must be a list of strings"),
        ({"command": "x", "env": {"PORT": 80}}, "“env” must be an object"),
        ({"command": "x", "env": {"1BAD": "v"}}, "env.1BAD"),
        ({"url": "ftp://host/x"}, "http:// or https://"),
        ({"url": "https://h/x", "headers": {"Bad Name": "v"}}, "headers.Bad Name"),
        ({"type": "websocket", "url": "wss://h/x"}, "“websocket”"),
        ({"type": 3, "command": "x"}, "“type” must be a string"),
        ({"command": "x", "url": "https://h/x"}, "both"),
        ({"command": "x\u202egnp.exe"}, "text-direction"),
        ({"command": "x", "args": ["a\x1b[2Jb"]}, "control"),
        ({"command": "x", "args": ["a" * 9000]}, "longer than 8192"),
        ("uvx mcp-server-time", "is not a server"),
    ],
)
def test_an_entry_that_cannot_be_used_is_left_out_with_its_name_and_why(entry, words):
    text = json.dumps({"mcpServers": {"bad": entry, "good": {"command": "uvx"}}})
    servers, problems = servers_of(text)
    assert [s.name for s in servers] == ["good"]
    assert [p.name for p in problems] == ["bad"]
    assert words in problems[0].problem


def test_names_already_set_up_are_renamed_and_the_same_server_is_left_out():
    existing = (
        McpServerSettings("time", "Time", command="uvx", args=("mcp-server-time",)),
        McpServerSettings("web", "Web", McpTransport.HTTP, url="https://web.example/mcp"),
    )
    text = json.dumps(
        {
            "mcpServers": {
                "time": {"command": "uvx", "args": ["mcp-server-time", "--local-timezone=UTC"]},
                "clock": {"command": "uvx", "args": ["mcp-server-time"]},  # same as "Time"
                "web": {"url": "https://other.example/mcp"},
                "Web (2)": {"url": "https://third.example/mcp"},
            }
        }
    )
    result = read_servers(text, existing)
    added = [(i.server.id, i.server.name) for i in result.servers]
    assert added == [("time-2", "time (2)"), ("web-2", "web (2)"), ("web-2-2", "Web (2) (2)")]
    assert "Renamed to “time (2)”" in result.servers[0].notes[0]
    assert [(p.name, p.problem) for p in result.problems] == [
        ("clock", "is already set up as “Time”: left out")
    ]


def test_a_name_given_twice_in_the_paste_is_said():
    text = '{"mcpServers": {"a": {"command": "one"}, "a": {"command": "two"}}}'
    servers, problems = servers_of(text)
    assert [s.command for s in servers] == ["two"]
    assert problems[0].name == "a" and "twice" in problems[0].problem


def test_hints_for_what_parley_does_not_fill_in():
    text = json.dumps(
        {
            "servers": {
                "gh": {
                    "command": "docker",
                    "args": ["run", "-e", "TOKEN"],
                    "env": {"TOKEN": "${input:token}"},
                    "envFile": "${workspaceFolder}/.env",
                }
            }
        }
    )
    result = read_servers(text)
    notes = " ".join(result.servers[0].notes)
    assert "envFile" in notes and "placeholders" in notes


def test_no_servers_or_not_an_object_is_one_clear_error():
    assert "No MCP servers" in read_servers('{"mcpServers": {}}').error
    assert "not an object" in read_servers('["uvx"]').error
    assert "must be an object" in read_servers('{"mcpServers": ["uvx"]}').error
    assert "nothing to read" in read_servers("  \n ").error
    assert "nothing to read" in read_servers("// only a comment\n").error


def test_text_too_large_is_refused_before_it_is_read():
    huge = '{"mcpServers": {"a": {"command": "' + "x" * (10 * 1024 * 1024) + '"}}}'
    result = read_servers(huge)
    assert "larger than 256 KiB" in result.error
    # Bytes count, not characters: 100,000 CJK characters are 300,000 bytes.
    assert "larger" in read_servers('"' + "中" * 100_000 + '"').error
    assert read_servers("{}" + " " * (MAX_PASTE_BYTES - 2)).error != ""  # read, at the limit


def test_hostile_json_ends_in_an_error_not_a_crash():
    assert "nested too deeply" in read_servers("[" * 200_000).error
    assert "nested too deeply" in read_servers('{"a":' * 50_000).error
    assert "line 1" in read_servers('{"a": "\x00"}').error  # a raw control character
    assert "not valid JSON" in read_servers('{"a": ' + "9" * 5000 + "}").error
    # Unclosed strings and comments, over and over: still one pass.
    assert "not valid JSON" in read_servers("/*/*" * 60_000).error
    assert "not valid JSON" in read_servers('"\\"' * 80_000).error


def test_at_most_max_servers_are_read_from_one_paste():
    many = {f"s{i}": {"command": "x"} for i in range(MAX_SERVERS + 5)}
    servers, problems = servers_of(json.dumps({"mcpServers": many}))
    assert len(servers) == MAX_SERVERS
    assert "first 100" in problems[-1].problem


def test_servers_read_are_what_the_settings_file_accepts():
    servers, _ = servers_of(json.dumps(CLAUDE_DESKTOP))
    for server in servers:
        assert dump_mcp_server(server)["enabled"] is False


def test_added_to_renames_again_against_the_settings_as_they_are_now():
    servers, _ = servers_of('{"mcpServers": {"time": {"command": "uvx"}}}')
    now = (McpServerSettings("time", "Time", command="other"),)
    result = added_to(now, servers)
    assert [(s.id, s.name, s.enabled) for s in result] == [
        ("time", "Time", True),
        ("time-2", "time (2)", False),
    ]


def test_looks_like_servers_is_a_cheap_first_look():
    assert looks_like_servers(json.dumps(CLAUDE_DESKTOP))
    assert looks_like_servers('  "time": {"command": "uvx"}')
    assert not looks_like_servers("hello world")
    assert not looks_like_servers('{"title": "not servers"}')
    assert looks_like_servers("{" + " " * (MAX_PASTE_BYTES + 1))  # said too large when read
