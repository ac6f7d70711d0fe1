"""OpenAI Chat Completions: `adapter` (the spec), `request`, `stream`, `models`."""
