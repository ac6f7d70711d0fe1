#!/usr/bin/env bash
# Builds parley_<version>_<arch>.deb from the PyInstaller bundle.
#
#   packaging/linux/build_deb.sh [--bundle dist/parley] [--out dist]
#   packaging/linux/build_deb.sh --print-depends   (only print the Depends field)
#
# Without --bundle it first builds the bundle with packaging/parley.spec, using
# $PYTHON (default python3) with PyInstaller installed (pip install -e ".[package]").
# The package installs:
#   /opt/parley/                       the bundle (parley + _internal/)
#   /usr/bin/parley                    a two-line launcher for it
#   /usr/share/applications/parley.desktop
#   /usr/share/icons/hicolor/*/apps/parley.{png,svg}
#   /usr/share/metainfo/io.parley.Parley.metainfo.xml
# Menus and icon caches are refreshed by the desktop-file-utils and hicolor-icon-theme
# dpkg triggers, so the package needs no maintainer scripts. Prints the .deb's path.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bundle=""
out="$root/dist"
print_depends=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bundle) bundle="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --print-depends) print_depends=1; shift ;;
    *) echo "usage: $0 [--bundle DIR] [--out DIR] [--print-depends]" >&2; exit 2 ;;
  esac
done

# depends.txt as a Depends field: comments and blank lines out, the lines joined by ", ".
depends() {
  sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$here/depends.txt" | paste -sd, - \
    | sed 's/,/, /g'
}
if [[ -n "$print_depends" ]]; then
  depends
  exit 0
fi

version="$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$root/desktop/__init__.py")"
arch="$(dpkg --print-architecture)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [[ -z "$bundle" ]]; then
  "${PYTHON:-python3}" -m PyInstaller --noconfirm --log-level WARN \
    --distpath "$work/dist" --workpath "$work/build" "$root/packaging/parley.spec" >&2
  bundle="$work/dist/parley"
fi
if [[ ! -x "$bundle/parley" ]]; then
  echo "no PyInstaller bundle at $bundle (expected $bundle/parley)" >&2
  exit 1
fi

stage="$work/stage"
mkdir -p "$stage/opt" "$stage/usr/bin" "$stage/usr/share/applications" \
  "$stage/usr/share/metainfo" "$stage/usr/share/icons/hicolor/scalable/apps" "$stage/DEBIAN"
cp -a "$bundle" "$stage/opt/parley"
# A launcher rather than a symbolic link: the bundle finds its _internal folder next to
# the executable it was started as.
printf '#!/bin/sh\nexec /opt/parley/parley "$@"\n' > "$stage/usr/bin/parley"
chmod 0755 "$stage/usr/bin/parley"
install -m 0644 "$here/parley.desktop" "$stage/usr/share/applications/parley.desktop"
install -m 0644 "$here/io.parley.Parley.metainfo.xml" "$stage/usr/share/metainfo/"
cp -r "$root/resources/icons/hicolor" "$stage/usr/share/icons/"
install -m 0644 "$root/resources/icons/parley.svg" "$stage/usr/share/icons/hicolor/scalable/apps/"
find "$stage" -type d -exec chmod 0755 {} +
find "$stage/usr/share" -type f -exec chmod 0644 {} +

# What the bundle needs from the system: one package a line in depends.txt, which
# .ci/run reads too, so the two cannot drift apart.
depends_line="$(depends)"
installed_kb="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: parley
Version: $version
Architecture: $arch
Maintainer: Parley maintainers <maintainers@parley.invalid>
Installed-Size: $installed_kb
Section: net
Priority: optional
Depends: $depends_line
Recommends: fonts-noto-color-emoji
Description: desktop chat client for large language models
 Parley is a native desktop chat client for large language models: local
 servers (Ollama, LM Studio, llama.cpp, vLLM) or OpenAI-compatible, Anthropic
 and Google Gemini endpoints, with streamed Markdown answers, attachments,
 tools that run only with approval, and conversations saved as they happen.
CONTROL

mkdir -p "$out"
deb="$out/parley_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zzstd --build "$stage" "$deb" >&2
echo "$deb"
