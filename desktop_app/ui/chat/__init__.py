"""The chat view: streamed Markdown replies with the memories they used."""
