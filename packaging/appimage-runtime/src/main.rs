//! Quartermaster's AppImage runtime: the executable every AppImage starts with.
//!
//! An AppImage is this program with a SquashFS image of the app appended. The usual runtime
//! mounts the image with FUSE 2, which most current systems no longer install; this one needs
//! nothing but the kernel. On first start it unpacks the image into the user's cache
//! (`$XDG_CACHE_HOME/quartermaster/appimage/<image key>`, written under a temporary name and
//! renamed once complete, so an interrupted unpack is never used), then runs the image's
//! `AppRun` with the arguments given, setting `APPIMAGE`, `APPDIR` and `ARGV0` as the usual
//! runtime does. Later starts find the unpacked copy and start at once.
//!
//! `--appimage-extract` unpacks into `./squashfs-root` and `--appimage-offset` prints where the
//! image starts, as the usual runtime's options do.

use std::error::Error;
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::{PermissionsExt, symlink};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use backhand::{FilesystemReader, InnerNode};

type Result<T> = std::result::Result<T, Box<dyn Error>>;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(error) => {
            eprintln!("Quartermaster AppImage: {error}");
            ExitCode::from(127)
        }
    }
}

fn run() -> Result<ExitCode> {
    let appimage = std::env::current_exe()?;
    let mut args = std::env::args_os();
    let argv0 = args.next().unwrap_or_default();
    let args: Vec<OsString> = args.collect();
    let offset = image_offset(&mut File::open(&appimage)?)?;
    match args.first().and_then(|a| a.to_str()) {
        Some("--appimage-offset") => {
            println!("{offset}");
            return Ok(ExitCode::SUCCESS);
        }
        Some("--appimage-extract") => {
            unpack(&appimage, offset, Path::new("squashfs-root"))?;
            println!("squashfs-root");
            return Ok(ExitCode::SUCCESS);
        }
        _ => {}
    }
    let appdir = unpacked(&appimage, offset)?;
    let error = Command::new(appdir.join("AppRun"))
        .args(&args)
        .env("APPIMAGE", &appimage)
        .env("APPDIR", &appdir)
        .env("ARGV0", &argv0)
        .exec();
    Err(format!("cannot start {}: {error}", appdir.join("AppRun").display()).into())
}

/// Where the appended image starts: the end of this program's ELF file, which is its section
/// header table's end (the table comes last in the file the linker writes).
fn image_offset(file: &mut File) -> Result<u64> {
    let mut header = [0u8; 64];
    file.read_exact(&mut header)?;
    if &header[..4] != b"\x7fELF" || header[4] != 2 || header[5] != 1 {
        return Err("not a 64-bit little-endian ELF file".into());
    }
    let u64_at = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap_or([0; 8]));
    let u16_at = |at: usize| u16::from_le_bytes([header[at], header[at + 1]]);
    let section_headers = u64_at(0x28);
    let entry_size = u64::from(u16_at(0x3a));
    let entries = u64::from(u16_at(0x3c));
    let end = section_headers + entry_size * entries;
    let length = file.seek(SeekFrom::End(0))?;
    if end >= length {
        return Err("no image is appended to this AppImage".into());
    }
    Ok(end)
}

/// The unpacked image in the user's cache, unpacked now if it is not there yet.
fn unpacked(appimage: &Path, offset: u64) -> Result<PathBuf> {
    let key = image_key(appimage, offset)?;
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|c| !c.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("quartermaster")
        .join("appimage");
    let dir = cache.join(&key);
    if dir.join("AppRun").exists() {
        return Ok(dir);
    }
    fs::create_dir_all(&cache)?;
    let partial = cache.join(format!(".{key}.{}", std::process::id()));
    let _ = fs::remove_dir_all(&partial);
    unpack(appimage, offset, &partial)?;
    match fs::rename(&partial, &dir) {
        Ok(()) => {}
        // Another start unpacked the same image meanwhile: use its copy.
        Err(_) if dir.join("AppRun").exists() => {
            let _ = fs::remove_dir_all(&partial);
        }
        Err(error) => return Err(error.into()),
    }
    // Older images of this AppImage's name are not kept: a cache holds one copy per version.
    if let Ok(entries) = fs::read_dir(&cache) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name != key && !name.starts_with('.') && name.starts_with(stem(&key)) {
                let _ = fs::remove_dir_all(entry.path());
            }
        }
    }
    Ok(dir)
}

/// The part of a key naming the AppImage file, before its image digest.
fn stem(key: &str) -> &str {
    key.rsplit_once('-').map_or(key, |(stem, _)| stem)
}

/// A name for this image: the AppImage's file name and a digest of the image's superblock
/// (which holds its size and the time it was made), so a new version unpacks afresh.
fn image_key(appimage: &Path, offset: u64) -> Result<String> {
    let mut file = File::open(appimage)?;
    file.seek(SeekFrom::Start(offset))?;
    let mut superblock = [0u8; 96];
    file.read_exact(&mut superblock)?;
    // FNV-1a: a name, not a security check (the image is this very file).
    let digest = superblock.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let name = appimage
        .file_name()
        .map_or_else(|| "app".to_string(), |n| n.to_string_lossy().into_owned());
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok(format!("{name}-{digest:016x}"))
}

/// Writes every directory, file and link of the image under `to`.
fn unpack(appimage: &Path, offset: u64, to: &Path) -> Result<()> {
    let reader = BufReader::new(File::open(appimage)?);
    let image = FilesystemReader::from_reader_with_offset(reader, offset)?;
    fs::create_dir_all(to)?;
    for node in image.files() {
        let relative = node.fullpath.strip_prefix("/").unwrap_or(&node.fullpath);
        if relative.as_os_str().is_empty() {
            continue;
        }
        if relative
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(
                format!("the image holds a path outside it: {}", relative.display()).into(),
            );
        }
        let path = to.join(relative);
        let mode = u32::from(node.header.permissions) & 0o7777;
        match &node.inner {
            InnerNode::Dir(_) => {
                fs::create_dir_all(&path)?;
                fs::set_permissions(&path, fs::Permissions::from_mode(mode | 0o700))?;
            }
            InnerNode::File(file) => {
                let mut out = File::create(&path)?;
                io::copy(&mut image.file(file).reader(), &mut out)?;
                fs::set_permissions(&path, fs::Permissions::from_mode(mode))?;
            }
            InnerNode::Symlink(link) => symlink(&link.link, &path)?,
            // Devices, pipes and sockets have no place in an app's image.
            _ => {}
        }
    }
    Ok(())
}
