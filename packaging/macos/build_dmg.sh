#!/usr/bin/env bash
# Builds dist/Parley-<version>.dmg on macOS: Parley.app (PyInstaller's BUNDLE step in
# packaging/parley.spec, with packaging/macos/Info.plist) beside a link to
# /Applications, so it installs by dragging.
#
#   packaging/macos/build_dmg.sh [--app dist/Parley.app] [--out dist]
#
# Needs PyInstaller ($PYTHON -m PyInstaller, pip install -e ".[package]") unless --app
# names a built app. The app is not signed or notarized: set CODESIGN_IDENTITY to sign
# it (Developer ID Application: ...); notarization (xcrun notarytool) is left to the
# release process. Written for macOS; not run where Parley's packaging was tested.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
app=""
out="$root/dist"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --app) app="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: $0 [--app Parley.app] [--out DIR]" >&2; exit 2 ;;
  esac
done
if [[ "$(uname -s)" != "Darwin" ]]; then
  echo "build_dmg.sh runs on macOS (it needs hdiutil)" >&2
  exit 1
fi

version="$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$root/desktop/__init__.py")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [[ -z "$app" ]]; then
  "${PYTHON:-python3}" -m PyInstaller --noconfirm --log-level WARN \
    --distpath "$work/dist" --workpath "$work/build" "$root/packaging/parley.spec" >&2
  app="$work/dist/Parley.app"
fi
if [[ ! -x "$app/Contents/MacOS/parley" ]]; then
  echo "no app bundle at $app (expected $app/Contents/MacOS/parley)" >&2
  exit 1
fi

if [[ -n "${CODESIGN_IDENTITY:-}" ]]; then
  codesign --force --deep --options runtime --timestamp --sign "$CODESIGN_IDENTITY" "$app"
fi

# The app must pass its own check before it is packed.
"$app/Contents/MacOS/parley" --smoke-test --data-dir "$work/smoke-data"

stage="$work/stage"
mkdir -p "$stage"
cp -R "$app" "$stage/Parley.app"
ln -s /Applications "$stage/Applications"
mkdir -p "$out"
dmg="$out/Parley-$version.dmg"
rm -f "$dmg"
hdiutil create -volname "Parley $version" -srcfolder "$stage" -fs HFS+ -format UDZO -ov "$dmg" >&2
echo "$dmg"
