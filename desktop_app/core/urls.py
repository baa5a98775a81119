"""The canonical form of an endpoint's base URL (shared by the settings and the LLM layer)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def normalize_base_url(url: str) -> str:
    """Canonical form of a base URL: scheme and host lower-cased, no trailing slash.

    Used for keyring names, for what is learnt about an endpoint and for the settings that
    remember it, so that ``https://API.deepseek.com/v1/`` and ``https://api.deepseek.com/v1``
    are the same endpoint.
    """
    url = url.strip()
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return url.rstrip("/")
    return urlunsplit(
        (parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/"), parts.query, "")
    )


def is_valid_base_url(url: str) -> bool:
    """Whether ``url`` is shaped like an endpoint address: http(s)://host[:port][/path].

    Only the shape: whether the endpoint answers is the connection test's job.  A malformed
    address gets its own message ("the address is not well-formed") instead of the
    misleading "cannot be reached" that an attempt to connect would give.
    """
    url = url.strip()
    if not url or any(c.isspace() for c in url):
        return False
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises ValueError for a non-numeric or out-of-range port
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
