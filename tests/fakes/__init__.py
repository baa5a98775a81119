"""Test doubles that are real programs: a scripted OpenAI-compatible server on 127.0.0.1."""
