"""Searching the web and reading pages, for the model's web tools.

- `engines.web_search(client, settings, query, max_results=, secret=)` asks the engine
  chosen in `core.web_search.WebSearchSettings` (SearXNG, Brave, Tavily, DuckDuckGo)
  and returns `results.WebResult`s: plain-text titles and snippets, http(s) addresses
  only, each page once.
- `page_text.fetch_page(client, url)` reads one page as text (`FetchedPage`), within a
  time, size and character budget.

Both take the application's httpx client, so the person's proxy and trusted
certificates apply, and raise `results.WebSearchError` / `WebFetchError` (both
`WebError`, a `ParleyError`) with a sentence fit to show; neither logs the query.
"""
