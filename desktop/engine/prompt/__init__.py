"""What the model is sent besides the stored messages: the composed system prompt and
the request-only transformers, put together for each model step by `pipeline`."""
