"""OpenAI Responses API: `adapter` (the spec), `request`, `stream`."""
