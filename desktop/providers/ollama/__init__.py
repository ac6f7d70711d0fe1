"""Ollama native API: `adapter` (the spec), `request`, `stream`, `models`."""
