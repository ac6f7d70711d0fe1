"""Anthropic Messages: `adapter` (the spec), `request`, `stream`, `models` (Claude families)."""
