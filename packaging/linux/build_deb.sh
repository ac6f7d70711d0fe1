#!/usr/bin/env bash
# Builds parley_<version>_<arch>.deb from the PyInstaller bundle.
#
#   packaging/linux/build_deb.sh [--bundle dist/parley] [--out dist]
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
while [[ $# -gt 0 ]]; do
  case "$1" in
    --bundle) bundle="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: $0 [--bundle DIR] [--out DIR]" >&2; exit 2 ;;
  esac
done

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

# The bundle carries Qt, ICU, Python and SQLite; everything else it links comes from
# the distribution (packaging/parley.spec leaves those libraries out): the C and C++
# runtimes and compression libraries, OpenSSL, GLib, D-Bus, fontconfig and freetype,
# X11, xcb and xkbcommon, OpenGL/EGL and Wayland's client libraries, plus a font.
# tests/packaging checks that every library the bundle needs and does not carry comes
# from a package named here. "| ...t64" names the same library after Debian 13's and
# Ubuntu 24.04's 64-bit time_t renames.
depends=(
  libc6 libgcc-s1 libstdc++6 zlib1g libbz2-1.0 liblzma5 libzstd1 libuuid1 libffi8
  "libssl3 | libssl3t64" libgssapi-krb5-2 "libglib2.0-0 | libglib2.0-0t64" libdbus-1-3
  libbrotli1 libexpat1 libfontconfig1 libfreetype6 "libpng16-16 | libpng16-16t64"
  libegl1 libgl1 libwayland-client0 libwayland-cursor0 libwayland-egl1
  libx11-6 libx11-xcb1 libxau6 libxdmcp6 libxkbcommon0 libxkbcommon-x11-0
  libxcb1 libxcb-cursor0 libxcb-glx0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1
  libxcb-randr0 libxcb-render0 libxcb-render-util0 libxcb-shape0 libxcb-shm0 libxcb-sync1
  libxcb-util1 libxcb-xfixes0 libxcb-xkb1
  fonts-dejavu-core
)
depends_line="$(printf '%s, ' "${depends[@]}")"
depends_line="${depends_line%, }"
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
