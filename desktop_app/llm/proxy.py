"""Which proxy (if any) a request to the model endpoint goes through, and what to warn about.

The policy, as the lawyer sees it in Settings (``PROXY_CHOICES``):

- **不使用代理 / No proxy** (the default): connect directly. Proxy variables in the
  environment (``HTTP_PROXY``, ``ALL_PROXY``…) are ignored: a stale one from an old VPN must
  neither break the app nor receive the API key.
- **使用系统代理 / System proxy**: the proxy of the operating system (Windows / macOS network
  settings, or the proxy environment variables on Linux), with its exceptions (``NO_PROXY``).
- **使用此代理 / This proxy**: the proxy URL the user typed (http, https or socks5).

Whatever the choice, an endpoint on this computer or on the local network (Ollama, LM Studio on
a LAN box) is always reached directly: a proxy cannot reach it, and with ``http://`` it would
see the key in clear text.

Sending an API key over plain ``http`` to a host that is not local is allowed (some in-house
gateways do it) but never silently: :func:`connection_warnings` returns a
:class:`PlaintextKeyWarning` the UI shows.
"""

from __future__ import annotations

import ipaddress
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote, urlsplit, urlunsplit

from desktop_app.core.errors import LexMemWarning, PlaintextKeyWarning, ProxyConfigError

Locality = Literal["local", "lan", "remote"]
ProxyMode = Literal["none", "system", "custom"]
PROXY_MODES: tuple[str, ...] = ("none", "system", "custom")
PROXY_SCHEMES = ("http", "https", "socks5", "socks5h")

_LAN_NETWORKS = tuple(
    ipaddress.ip_network(n)
    for n in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "169.254.0.0/16",  # link-local
        "fc00::/7",  # unique local IPv6
        "fe80::/10",  # link-local IPv6
    )
)
_LAN_SUFFIXES = (".local", ".lan", ".home.arpa", ".internal", ".localdomain")


def endpoint_locality(url: str) -> Locality:
    """``local`` (this computer), ``lan`` (a private address or a LAN host name) or ``remote``.

    A host name without a dot (``gpu-box``) counts as LAN, as Windows' "bypass proxy for local
    addresses" does. No name is resolved: deciding must not wait on DNS.
    """
    host = (urlsplit(url.strip()).hostname or "").lower().rstrip(".")
    if not host:
        return "remote"
    if host == "localhost" or host.endswith(".localhost"):
        return "local"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        if "." not in host or host.endswith(_LAN_SUFFIXES):
            return "lan"
        return "remote"
    if ip.is_loopback:
        return "local"
    if any(ip in net for net in _LAN_NETWORKS):
        return "lan"
    return "remote"


@dataclass(frozen=True, slots=True)
class ProxyPolicy:
    """The user's proxy choice. ``url`` is used by ``custom`` only; its password, if the proxy
    needs one, comes from the keyring (``password``), never from the settings file."""

    mode: str = "none"
    url: str = ""
    password: str | None = field(default=None, repr=False)

    @classmethod
    def from_settings(cls, settings: Any, password: str | None = None) -> ProxyPolicy:
        """The policy of a :class:`desktop_app.core.settings.Settings`."""
        return cls(
            getattr(settings, "proxy_mode", "none"), getattr(settings, "proxy_url", ""), password
        )


def proxy_key_id(proxy_url: str) -> str:
    """The keyring user name of a proxy's password (``proxy/<host:port>``)."""
    parts = urlsplit(proxy_url.strip())
    return f"proxy/{(parts.hostname or '').lower()}:{parts.port or ''}"


def resolve_proxy(policy: ProxyPolicy, base_url: str) -> str | None:
    """The proxy URL to use for ``base_url`` under ``policy``, or None for a direct connection.

    Raises :class:`ProxyConfigError` when the chosen proxy cannot work (an unknown scheme, no
    host, SOCKS without its support package).
    """
    if policy.mode not in PROXY_MODES:
        raise ProxyConfigError(f"unknown proxy mode {policy.mode!r}")
    if policy.mode == "none" or endpoint_locality(base_url) != "remote":
        return None
    if policy.mode == "custom":
        if not policy.url.strip():
            raise ProxyConfigError(
                "custom proxy chosen but no proxy URL",
                user_message="已选择“使用此代理”，但没有填写代理地址。 / "
                "“This proxy” is chosen but no proxy address is filled in.",
            )
        url = _with_password(policy.url.strip(), policy.password)
        source = "settings"
    else:
        url = _system_proxy(base_url)
        if url is None:
            return None
        source = "system"
    check_proxy_url(url, source=source)
    return url


def _system_proxy(base_url: str) -> str | None:
    parts = urlsplit(base_url.strip())
    host = parts.hostname or ""
    proxies = urllib.request.getproxies()  # environment, then the Windows / macOS settings
    if not proxies or urllib.request.proxy_bypass(host):
        return None
    return proxies.get(parts.scheme.lower()) or proxies.get("all") or None


def _with_password(url: str, password: str | None) -> str:
    if not password:
        return url
    parts = urlsplit(url)
    if not parts.username or parts.password:
        return url
    netloc = f"{parts.username}:{quote(password, safe='')}@{parts.netloc.split('@', 1)[1]}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def check_proxy_url(url: str, *, source: str = "settings") -> None:
    """Raise :class:`ProxyConfigError` unless ``url`` names a proxy this app can use."""
    where_zh = "系统代理设置" if source == "system" else "代理设置"
    where_en = "the system proxy setting" if source == "system" else "the proxy setting"
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in PROXY_SCHEMES or not parts.hostname:
        raise ProxyConfigError(
            f"unusable proxy URL from the {source} (scheme {scheme or 'missing'!r})",
            user_message=f"{where_zh}中的代理地址无法使用（只支持 http、https、socks5）。 / "
            f"The proxy address in {where_en} cannot be used (only http, https and socks5 work).",
        )
    if scheme.startswith("socks"):
        try:
            import socksio  # noqa: F401  (only its presence matters)
        except ImportError:
            raise ProxyConfigError(
                f"a SOCKS proxy from the {source} needs the 'socksio' package, which is not "
                "installed",
                user_message=f"{where_zh}使用 SOCKS 代理，但本程序缺少 SOCKS 支持组件（socksio）；"
                "请改用 HTTP 代理，或在设置中选择“不使用代理”。 / "
                f"{where_en[0].upper()}{where_en[1:]} uses a SOCKS proxy, but this installation "
                "lacks SOCKS support (socksio); use an HTTP proxy or choose “No proxy” in Settings.",
            ) from None


def connection_warnings(base_url: str, api_key: str | None) -> tuple[LexMemWarning, ...]:
    """What the user should know before the key is sent to ``base_url``."""
    scheme = urlsplit(base_url.strip()).scheme.lower()
    if scheme == "http" and api_key and endpoint_locality(base_url) == "remote":
        host = urlsplit(base_url.strip()).hostname or "?"
        return (PlaintextKeyWarning(f"the API key would be sent unencrypted to {host}"),)
    return ()


@dataclass(frozen=True, slots=True)
class ProxyChoice:
    """One proxy choice, worded for the Settings dialog (Chinese first, English after)."""

    mode: str
    label_zh: str
    label_en: str
    help_zh: str
    help_en: str


PROXY_CHOICES: tuple[ProxyChoice, ...] = (
    ProxyChoice(
        "none",
        "不使用代理",
        "No proxy",
        "直接连接模型服务（推荐）。电脑上残留的代理环境变量不会生效。",
        "Connect to the model service directly (recommended). Proxy variables left on this "
        "computer are ignored.",
    ),
    ProxyChoice(
        "system",
        "使用系统代理",
        "System proxy",
        "使用操作系统的代理设置（含例外列表）。本机和局域网内的服务始终直连。",
        "Use the operating system's proxy settings (with their exceptions). Services on this "
        "computer or the local network are always reached directly.",
    ),
    ProxyChoice(
        "custom",
        "使用此代理",
        "This proxy",
        "只通过下面填写的代理地址访问模型服务（http、https 或 socks5）。本机和局域网内的服务始终直连。",
        "Reach the model service only through the proxy address below (http, https or socks5). "
        "Services on this computer or the local network are always reached directly.",
    ),
)
