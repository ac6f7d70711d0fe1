"""One chat turn: a send or a regeneration, from the person's message to the finished
answer. `chat_service.ChatService` is the entry point; `generation.Generation` drives one
answer (stream, tool steps, approvals, saves); `ports` says what a turn needs from the
rest of Parley."""
