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
  # The runtime is our own (packaging/appimage-runtime): statically linked, it unpacks the image
  # into the user's cache and starts it, so the AppImage runs without FUSE 2 (which most
  # current systems lack). Built for the explicit target so the static flag skips build scripts.
  step "AppImage runtime (packaging/appimage-runtime, static)"
  RUSTFLAGS="-C target-feature=+crt-static" cargo build --release --locked \
    --manifest-path packaging/appimage-runtime/Cargo.toml \
    --target x86_64-unknown-linux-gnu --target-dir "$target_dir/appimage-runtime"
  runtime="$target_dir/appimage-runtime/x86_64-unknown-linux-gnu/release/quartermaster-appimage-runtime"
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
  # An AppImage's mark, "AI" and its type (2), in the ELF header's padding at offset 8.
  cp "$runtime" "$out/runtime"
  printf 'AI\002' | dd of="$out/runtime" bs=1 seek=8 conv=notrunc status=none
  cat "$out/runtime" "$out/image.squashfs" > "$image"
  chmod +x "$image"
  rm "$out/image.squashfs" "$out/runtime"
  ls -l "$image"
fi
