"""Rolling context: which messages a request carries in full, and the summary of the rest.

`planner` decides (pure), `summariser` writes summaries with a model, `service` ties
them to storage. Local history is never deleted: a summary only replaces old messages in
what is sent.
"""
