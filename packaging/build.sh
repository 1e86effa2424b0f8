#!/usr/bin/env bash
# Builds Quartermaster's Linux packages from this checkout:
#   target/debian/quartermaster_<version>-1_amd64.deb   (cargo-deb; config in Cargo.toml)
#   target/appimage/Quartermaster-<version>-x86_64.AppImage
# Both carry the desktop entry and icon from assets/ and put `quartermaster` on the PATH.
#
# Usage: packaging/build.sh [deb|appimage|all]   (default: all)
# Needs: Rust, a C compiler, and for the AppImage `mksquashfs` (Debian: squashfs-tools).
# cargo-deb is installed with `cargo install --locked cargo-deb` when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
target_dir=${CARGO_TARGET_DIR:-target}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)

step() { printf '\n== %s ==\n' "$*"; }

step "release build (cargo build --release --locked)"
cargo build --release --locked
binary="$target_dir/release/quartermaster"

if [ "$what" = deb ] || [ "$what" = all ]; then
  step ".deb (cargo deb)"
  command -v cargo-deb >/dev/null || cargo install --locked cargo-deb
  cargo deb --no-build --locked
  ls -l "$target_dir"/debian/*.deb
fi

if [ "$what" = appimage ] || [ "$what" = all ]; then
  step "AppImage"
  command -v mksquashfs >/dev/null || {
    echo "mksquashfs is missing: apt-get install squashfs-tools" >&2
    exit 1
  }
  # The runtime comes from a crate on crates.io (see packaging/appimage-runtime/Cargo.toml),
  # checked against the digest it had when this script was written.
  manifest=packaging/appimage-runtime/Cargo.toml
  cargo fetch --locked --manifest-path "$manifest"
  crate_dir=$(cargo metadata --locked --format-version 1 --manifest-path "$manifest" |
    python3 -c 'import json,sys,os; m=json.load(sys.stdin); print(next(os.path.dirname(p["manifest_path"]) for p in m["packages"] if p["name"]=="appimage"))')
  runtime="$crate_dir/assets/runtime-x86_64"
  expected=$(cat packaging/appimage-runtime.sha256)
  actual=$(sha256sum "$runtime" | cut -d' ' -f1)
  if [ "$expected" != "$actual" ]; then
    echo "the AppImage runtime's digest changed ($actual, expected $expected): not using it" >&2
    exit 1
  fi
  out="$target_dir/appimage"
  appdir="$out/Quartermaster.AppDir"
  rm -rf "$appdir"
  mkdir -p "$appdir/usr/bin" "$appdir/usr/share/applications" \
    "$appdir/usr/share/icons/hicolor/256x256/apps"
  cp "$binary" "$appdir/usr/bin/quartermaster"
  strip "$appdir/usr/bin/quartermaster"
  cp assets/quartermaster.desktop "$appdir/usr/share/applications/"
  cp assets/quartermaster.png "$appdir/usr/share/icons/hicolor/256x256/apps/"
  # The AppDir's own entry points: AppRun starts the app; the desktop entry and icon at the
  # top are what desktops and AppImage tools read.
  ln -s usr/bin/quartermaster "$appdir/AppRun"
  cp assets/quartermaster.desktop "$appdir/quartermaster.desktop"
  cp assets/quartermaster.png "$appdir/quartermaster.png"
  ln -s quartermaster.png "$appdir/.DirIcon"
  image="$out/Quartermaster-$version-x86_64.AppImage"
  rm -f "$image" "$out/image.squashfs"
  mksquashfs "$appdir" "$out/image.squashfs" -root-owned -noappend -comp gzip -quiet
  cat "$runtime" "$out/image.squashfs" > "$image"
  chmod +x "$image"
  rm "$out/image.squashfs"
  ls -l "$image"
fi
