#!/bin/sh
# Runs the real-keyring test inside a private D-Bus session with an unlocked GNOME Keyring.
# Needs Debian packages: gnome-keyring dbus dbus-x11 (installed by .ci/run).
# Usage: tests/core/run_real_keyring.sh [extra pytest args]
set -eu
cd "$(dirname "$0")/../.."
if ! command -v dbus-run-session >/dev/null || ! command -v gnome-keyring-daemon >/dev/null; then
  echo "run_real_keyring.sh: dbus-run-session or gnome-keyring-daemon missing" >&2
  exit 1
fi
export LEXMEM_REAL_KEYRING_ARGS="$*"
export LEXMEM_REQUIRE_REAL_KEYRING=1
exec dbus-run-session -- sh -c '
  # A throw-away password: the keyring lives in a temporary HOME and is deleted afterwards.
  export HOME="$(mktemp -d)"
  trap "rm -rf \"$HOME\"" EXIT
  echo lexmem-ci | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  python -m pytest -q -rs tests/core/test_secrets_real.py $LEXMEM_REAL_KEYRING_ARGS
'
