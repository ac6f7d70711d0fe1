"""Google Gemini: `adapter` (the spec), `request`, `stream`, `models`, `schema`, `signatures`."""
