"""Linux, before the QApplication: is there a display, and can Qt's X11 (xcb) plugin load?

Without this check a missing library makes Qt abort with "Could not load the Qt platform
plugin "xcb" … xcb-cursor0 or libxcb-cursor0 is needed", which names libxcb-cursor0 even when
the real gaps are libxcb-icccm4 and libxcb-keysyms1.  Here ``ldd`` on the plugin lists every
library that is not found, and the message names the Debian/Ubuntu packages providing them.
Imports no Qt: it has to run before Qt can abort the process.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

log = logging.getLogger(__name__)

#: every library ``ldd`` lists for PySide6's ``plugins/platforms/libqxcb.so`` outside Qt's own
#: folder -> the Debian 12 package that ships it (derived with ``ldd`` and ``dpkg -S``;
#: tests/ui/test_platform_check.py derives it again from the installed plugin and compares)
XCB_PLUGIN_PACKAGES: dict[str, str] = {
    "libbrotlicommon.so.1": "libbrotli1",
    "libbrotlidec.so.1": "libbrotli1",
    "libbsd.so.0": "libbsd0",
    "libc.so.6": "libc6",
    "libcap.so.2": "libcap2",
    "libdbus-1.so.3": "libdbus-1-3",
    "libdl.so.2": "libc6",
    "libEGL.so.1": "libegl1",
    "libexpat.so.1": "libexpat1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libgcc_s.so.1": "libgcc-s1",
    "libgcrypt.so.20": "libgcrypt20",
    "libGL.so.1": "libgl1",
    "libGLdispatch.so.0": "libglvnd0",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libGLX.so.0": "libglx0",
    "libgpg-error.so.0": "libgpg-error0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "liblz4.so.1": "liblz4-1",
    "liblzma.so.5": "liblzma5",
    "libm.so.6": "libc6",
    "libmd.so.0": "libmd0",
    "libpcre2-8.so.0": "libpcre2-8-0",
    "libpng16.so.16": "libpng16-16",
    "libpthread.so.0": "libc6",
    "libstdc++.so.6": "libstdc++6",
    "libsystemd.so.0": "libsystemd0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libXau.so.6": "libxau6",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb.so.1": "libxcb1",
    "libXdmcp.so.6": "libxdmcp6",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libz.so.1": "zlib1g",
    "libzstd.so.1": "libzstd1",
}

_NOT_FOUND = re.compile(r"^\s*(\S+)\s*=>\s*not found", re.M)

Ldd = Callable[[Path, Mapping[str, str]], str]


def debian_packages() -> list[str]:
    """The Debian packages Qt's xcb plugin needs, each once (README and .ci/run name them)."""
    return sorted(set(XCB_PLUGIN_PACKAGES.values()))


def xcb_plugin(env: Mapping[str, str] = os.environ) -> Path | None:
    """Where Qt will look for libqxcb.so: QT_QPA_PLATFORM_PLUGIN_PATH, else PySide6's own."""
    if env.get("QT_QPA_PLATFORM_PLUGIN_PATH"):
        return Path(env["QT_QPA_PLATFORM_PLUGIN_PATH"]) / "libqxcb.so"
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    return root / "Qt" / "plugins" / "platforms" / "libqxcb.so"


def run_ldd(path: Path, env: Mapping[str, str]) -> str:
    ldd_env = dict(env)
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:  # a frozen build loads its own copies first, as its loader does
        ldd_env["LD_LIBRARY_PATH"] = os.pathsep.join(
            p for p in (bundle, env.get("LD_LIBRARY_PATH", "")) if p
        )
    proc = subprocess.run(
        ["ldd", str(path)], capture_output=True, text=True, env=ldd_env, timeout=30
    )
    return proc.stdout


def missing_libraries(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` reports as "not found", in its order, each once."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def _requested_platform(env: Mapping[str, str]) -> str:
    # "-platform" on the command line is not used by LexMem; QT_QPA_PLATFORM may be a list
    return env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()


def check(
    env: Mapping[str, str] = os.environ,
    *,
    plugin: Path | None = None,
    ldd: Ldd = run_ldd,
    platform: str = sys.platform,
) -> str | None:
    """None when Qt can start; otherwise the message to show (English, then Chinese)."""
    if not platform.startswith("linux"):
        return None
    requested = _requested_platform(env)
    if requested and requested != "xcb":
        return None  # offscreen, wayland, minimal...: not the X11 plugin
    if not requested and env.get("WAYLAND_DISPLAY"):
        return None  # Qt takes Wayland in a Wayland session
    if not env.get("DISPLAY"):
        return (
            "LexMem needs a graphical desktop: no display was found (DISPLAY and "
            "WAYLAND_DISPLAY are not set). Start it from a desktop session, or over SSH with "
            "X forwarding (ssh -X). Without a screen, `lexmem --selftest` checks the "
            "installation and `lexmem-cli` works with the notes.\n"
            "律记需要图形桌面：未找到显示器（DISPLAY 与 WAYLAND_DISPLAY 均未设置）。"
            "请在桌面会话中启动，或通过 ssh -X 转发。"
        )
    plugin = plugin or xcb_plugin(env)
    if plugin is None or not plugin.exists() or not shutil.which("ldd"):
        return None  # nothing to inspect: Qt will say what it finds
    try:
        missing = missing_libraries(ldd(plugin, env))
    except (OSError, subprocess.SubprocessError):
        log.debug("ldd on %s failed", plugin, exc_info=True)
        return None
    if not missing:
        return None
    packages = sorted({XCB_PLUGIN_PACKAGES[m] for m in missing if m in XCB_PLUGIN_PACKAGES})
    unknown = [m for m in missing if m not in XCB_PLUGIN_PACKAGES]
    fix = f"On Debian/Ubuntu: sudo apt install {' '.join(packages)}" if packages else ""
    if unknown:
        fix += ("\n" if fix else "") + "Install the packages that provide: " + ", ".join(unknown)
    return (
        f"Qt's X11 plugin cannot load: {', '.join(missing)} "
        f"{'is' if len(missing) == 1 else 'are'} missing ({plugin}).\n{fix}\n"
        f"Qt 的 X11 插件无法加载，缺少：{', '.join(missing)}。"
        + (f"请安装：{' '.join(packages)}" if packages else "")
    )
