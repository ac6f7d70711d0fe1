"""Which of an endpoint's models turn text into vectors, judged by their names.

Settings → Knowledge offers these for a library; a chat picker has no use for them.
Where an endpoint states what a model does, that statement already keeps embedding
models out of the chat pickers (`ReportedCapabilities.chat`: Ollama's `/api/show`
without "completion", LM Studio's `type: embeddings`). Most endpoints state nothing
(OpenAI's `/models` is bare ids, so is Ollama's `/api/tags`), and there the name is all
there is: the families below name themselves. A name is a guess, so the person may
still type any model for a library; this only orders what is offered.

Pure functions, the same rule for both lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Searched in the id, case-insensitively, so vendor prefixes (`BAAI/`, `openai/`,
# `models/`) and Ollama tags (`:latest`, `:335m`) do not matter.
_EMBEDDING = re.compile(
    r"embed"  # text-embedding-3-*, nomic-embed-text, mxbai-embed-large, gemini-embedding-*,
    # snowflake-arctic-embed, qwen3-embedding, granite-embedding, embeddinggemma, jina-embeddings
    r"|(^|[/:_-])bge([-_:.]|$)"  # bge-m3, BAAI/bge-large-en-v1.5
    r"|(^|[/:_-])(multilingual-)?e5-"  # e5-large-v2, intfloat/multilingual-e5-base
    r"|(^|[/:_-])gte-"  # gte-large, Alibaba-NLP/gte-Qwen2-7B-instruct
    r"|mxbai"  # mixedbread's models
    r"|all-minilm|paraphrase-|sentence-t5"  # sentence-transformers
    r"|text-similarity-",  # OpenAI's first embedding models
    re.IGNORECASE,
)
# Rerankers share the embedding families' names but score pairs instead of making vectors.
_NOT_EMBEDDING = re.compile(r"rerank", re.IGNORECASE)


def is_embedding_model(model_id: str) -> bool:
    """Whether `model_id` names a model that makes vectors rather than answers."""
    return bool(_EMBEDDING.search(model_id)) and not _NOT_EMBEDDING.search(model_id)


def embedding_models(model_ids: Iterable[str]) -> list[str]:
    """The embedding models among `model_ids`, in their order, each once."""
    return [model for model in dict.fromkeys(model_ids) if is_embedding_model(model)]


def chat_models(model_ids: Iterable[str]) -> list[str]:
    """`model_ids` without the embedding models, in their order, each once."""
    return [model for model in dict.fromkeys(model_ids) if not is_embedding_model(model)]
