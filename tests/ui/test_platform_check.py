"""Linux start without a display or with libraries Qt's xcb plugin needs missing: a clear
message naming what is missing and the Debian packages to install, instead of Qt's abort."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_app.ui import platform_check

ROOT = Path(__file__).resolve().parents[2]
X11 = {"DISPLAY": ":7"}

LDD_TWO_MISSING = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /opt/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f01)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f02)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f03)
"""


def _fake_ldd(text: str):
    calls = []

    def ldd(path, env):
        calls.append(path)
        return text

    return ldd, calls


def test_no_display_is_named_before_qt_starts(tmp_path):
    message = platform_check.check({}, plugin=tmp_path / "libqxcb.so", platform="linux")
    assert message is not None
    assert "DISPLAY" in message and "WAYLAND_DISPLAY" in message and "--selftest" in message


def test_other_platforms_and_plugins_are_left_to_qt(tmp_path):
    ldd, calls = _fake_ldd(LDD_TWO_MISSING)
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"\x7fELF")
    assert platform_check.check({"QT_QPA_PLATFORM": "offscreen"}, plugin=plugin, ldd=ldd) is None
    assert platform_check.check({"WAYLAND_DISPLAY": "wayland-0"}, plugin=plugin, ldd=ldd) is None
    assert platform_check.check({}, plugin=plugin, ldd=ldd, platform="win32") is None
    assert calls == []


def test_missing_xcb_libraries_are_named_with_their_debian_packages(tmp_path):
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"\x7fELF")
    ldd, calls = _fake_ldd(LDD_TWO_MISSING)
    message = platform_check.check(X11, plugin=plugin, ldd=ldd, platform="linux")
    assert calls == [plugin]
    assert message is not None
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1 are missing" in message
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1" in message
    assert "libxcb-cursor0" not in message  # Qt's own message names this one wrongly


def test_a_library_outside_the_table_is_still_named(tmp_path):
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"\x7fELF")
    ldd, _ = _fake_ldd("\tlibxcb-future.so.9 => not found\n")
    message = platform_check.check({"QT_QPA_PLATFORM": "xcb", **X11}, plugin=plugin, ldd=ldd)
    assert message is not None and "libxcb-future.so.9" in message
    assert "Install the packages that provide: libxcb-future.so.9" in message


def test_all_present_is_silent(tmp_path):
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"\x7fELF")
    ldd, _ = _fake_ldd(LDD_TWO_MISSING.replace("not found", "/lib/x.so (0x1)"))
    assert platform_check.check(X11, plugin=plugin, ldd=ldd, platform="linux") is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF and ldd: Linux only")
@pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("ldd") is None, reason="no gcc")
def test_a_real_plugin_with_a_really_missing_library(tmp_path):
    """A real ELF whose DT_NEEDED names a library that is gone, inspected by the real ldd
    (a name no machine has: the real xcb libraries are installed here)."""
    LIB = "libxcb-lexmem-probe.so.1"
    (tmp_path / "dep.c").write_text("int lexmem_dep(void) { return 1; }\n")
    (tmp_path / "plugin.c").write_text(
        "int lexmem_dep(void); int f(void) { return lexmem_dep(); }\n"
    )
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-o", LIB, f"-Wl,-soname,{LIB}", "dep.c"],
        cwd=tmp_path, check=True,
    )  # fmt: skip
    subprocess.run(
        ["gcc", "-shared", "-fPIC", "-o", "libqxcb.so", "plugin.c", "-L.", f"-l:{LIB}"],
        cwd=tmp_path, check=True,
    )  # fmt: skip
    (tmp_path / LIB).unlink()
    message = platform_check.check(X11, plugin=tmp_path / "libqxcb.so", platform="linux")
    assert message is not None and f"{LIB} is missing" in message
    assert f"Install the packages that provide: {LIB}" in message


def _installed_plugin() -> Path:
    plugin = platform_check.xcb_plugin({})
    if plugin is None or not plugin.exists():
        pytest.skip("PySide6's xcb plugin is not installed here")
    return plugin


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
@pytest.mark.skipif(shutil.which("ldd") is None, reason="no ldd")
def test_the_package_table_is_what_ldd_says_the_installed_plugin_needs():
    """Derived, not guessed: every library outside Qt's folder that ldd resolves for the
    installed libqxcb.so is in the table, and nothing else is; on Debian, dpkg agrees."""
    plugin = _installed_plugin()
    out = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True).stdout
    qt_dir = plugin.parents[2]
    needed = {}
    for soname, path in re.findall(r"^\s*(\S+) => (/\S+)", out, re.M):
        if Path(os.path.realpath(path)).is_relative_to(os.path.realpath(qt_dir)):
            continue
        if soname.startswith("ld-linux"):
            continue
        needed[soname] = path
    assert platform_check.missing_libraries(out) == [], "this machine lacks xcb libraries"
    assert sorted(needed) == sorted(platform_check.XCB_PLUGIN_PACKAGES)
    if shutil.which("dpkg"):
        wrong = {}
        for soname, path in needed.items():
            real = os.path.realpath(path)
            owner = ""
            for candidate in (real, real.removeprefix("/usr"), "/usr" + real):
                proc = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
                if proc.returncode == 0:
                    owner = proc.stdout.split(":", 1)[0]
                    break
            if owner != platform_check.XCB_PLUGIN_PACKAGES[soname]:
                wrong[soname] = owner
        assert wrong == {}


def test_readme_and_ci_name_every_package():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for pkg in platform_check.debian_packages():
        assert re.search(rf"(?<![\w-]){re.escape(pkg)}(?![\w-])", readme), pkg
        assert re.search(rf"(?<![\w-]){re.escape(pkg)}(?![\w-])", ci), pkg


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_lexmem_without_a_display_says_so_and_logs_it(tmp_path):
    """The way it was found: `lexmem` started with no display (no QT_QPA_PLATFORM)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    data = tmp_path / "data"
    proc = subprocess.run(
        [sys.executable, "-m", "desktop_app", "--data-dir", str(data)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 3, proc.stderr[-2000:]
    assert "no display was found" in proc.stderr
    assert "xcb-cursor0" not in proc.stderr
    logs = "".join(p.read_text(encoding="utf-8") for p in data.rglob("*.log"))
    assert "no display was found" in logs
