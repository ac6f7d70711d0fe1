"""Which listed models make vectors (`providers/embedding_models.py`): the names the
endpoints people use really list, embedding models and chat models side by side."""

from __future__ import annotations

import pytest

from desktop.providers.embedding_models import chat_models, embedding_models, is_embedding_model

EMBEDDING = [
    "text-embedding-3-small",  # OpenAI
    "text-embedding-3-large",
    "text-embedding-ada-002",
    "openai/text-embedding-3-small",  # OpenRouter
    "gemini-embedding-001",  # Gemini
    "models/text-embedding-004",
    "nomic-embed-text:latest",  # Ollama
    "mxbai-embed-large:335m",
    "snowflake-arctic-embed2",
    "bge-m3:latest",
    "BAAI/bge-large-en-v1.5",  # vLLM, LM Studio, Hugging Face ids
    "intfloat/multilingual-e5-large",
    "e5-mistral-7b-instruct",
    "Alibaba-NLP/gte-Qwen2-7B-instruct",
    "gte-large",
    "all-minilm:22m",
    "paraphrase-multilingual",
    "qwen3-embedding:8b",
    "granite-embedding:278m",
    "embeddinggemma",
    "jina-embeddings-v3",
    "mistral-embed",
]

CHAT = [
    "gpt-5",
    "gpt-4o-mini",
    "o3",
    "claude-sonnet-4-5",
    "gemini-2.5-flash",
    "gemma3:12b",
    "qwen3:8b",
    "llama3.1:8b",
    "deepseek-r1:14b",
    "mistral-large-latest",
    "phi4-mini",
    "bge-reranker-v2-m3",  # a reranker scores pairs: no vectors to store
    "gpt-5-nano",
    "minimax-m2",
]


@pytest.mark.parametrize("model", EMBEDDING)
def test_embedding_models_are_recognised(model: str):
    assert is_embedding_model(model)


@pytest.mark.parametrize("model", CHAT)
def test_chat_models_and_rerankers_are_not(model: str):
    assert not is_embedding_model(model)


def test_a_list_is_split_in_its_order_each_model_once():
    listed = ["gpt-5", "text-embedding-3-small", "qwen3:8b", "nomic-embed-text", "gpt-5"]
    assert embedding_models(listed) == ["text-embedding-3-small", "nomic-embed-text"]
    assert chat_models(listed) == ["gpt-5", "qwen3:8b"]
