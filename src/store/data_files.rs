//! Reading the player's BattleScribe files from disk for an import: a folder (its `.gst`,
//! `.cat`, `.gstz` and `.catz` files), or those files one by one. The zipped forms are
//! unzipped here, in memory, with the size of what they inflate to capped at the same
//! [`MAX_FILE_BYTES`] as a plain file and the inflation ratio capped at [`MAX_ARCHIVE_RATIO`],
//! so a zip bomb is refused before it fills the memory. The front ends (the command line,
//! the window's background task) call this; the bytes go on to
//! [`read_import`](crate::rules::army_data::read_import).

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::rules::army_data::ImportFile;
use crate::rules::battlescribe::{DataError, MAX_FILE_BYTES};

/// The most a zipped file may inflate to per byte compressed. BattleScribe's XML compresses
/// about 10 to 1; a file that inflates a hundredfold more is not an army list.
pub const MAX_ARCHIVE_RATIO: u64 = 200;

const PLAIN: [&str; 2] = ["gst", "cat"];
const ZIPPED: [&str; 2] = ["gstz", "catz"];

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase()
}

fn shown(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Every BattleScribe file `paths` name (a folder stands for its files, in name order),
/// read and unzipped.
///
/// # Errors
/// The first path that cannot be read, is not BattleScribe data, is too large, or is a
/// broken or bomb-like archive.
pub fn read_paths(paths: &[PathBuf]) -> Result<Vec<ImportFile>, DataError> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = folder_files(path)?;
            if found.is_empty() {
                return Err(DataError::Unreadable {
                    file: path.display().to_string(),
                    message: "this folder holds no BattleScribe files (.gst, .cat, .gstz, .catz)"
                        .into(),
                });
            }
            found.sort();
            for file in found {
                read_one(&file, &mut out)?;
            }
        } else {
            read_one(path, &mut out)?;
        }
    }
    Ok(out)
}

fn folder_files(dir: &Path) -> Result<Vec<PathBuf>, DataError> {
    let entries = std::fs::read_dir(dir).map_err(|e| DataError::Unreadable {
        file: dir.display().to_string(),
        message: format!("cannot read the folder: {e}"),
    })?;
    Ok(entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let ext = extension(p);
            p.is_file() && (PLAIN.contains(&ext.as_str()) || ZIPPED.contains(&ext.as_str()))
        })
        .collect())
}

fn read_one(path: &Path, out: &mut Vec<ImportFile>) -> Result<(), DataError> {
    let name = shown(path);
    let ext = extension(path);
    if !PLAIN.contains(&ext.as_str()) && !ZIPPED.contains(&ext.as_str()) {
        return Err(DataError::Unreadable {
            file: name,
            message:
                "not a BattleScribe file: expected .gst, .cat, .gstz or .catz (or a folder of them)"
                    .into(),
        });
    }
    let bytes = read_capped(path, &name)?;
    if PLAIN.contains(&ext.as_str()) {
        out.push(ImportFile { name, bytes });
        return Ok(());
    }
    unzip(&name, bytes, out)
}

/// The file's bytes, refusing one larger than [`MAX_FILE_BYTES`] before reading it.
fn read_capped(path: &Path, name: &str) -> Result<Vec<u8>, DataError> {
    let unreadable = |e: std::io::Error| DataError::Unreadable {
        file: name.to_string(),
        message: format!("cannot read it: {e}"),
    };
    let size = std::fs::metadata(path).map_err(unreadable)?.len();
    if size > MAX_FILE_BYTES as u64 {
        return Err(too_large(name, size));
    }
    std::fs::read(path).map_err(unreadable)
}

fn too_large(name: &str, size: u64) -> DataError {
    DataError::TooLarge {
        file: name.to_string(),
        message: format!(
            "{:.1} MB is more than the {} MB an army list can be (the largest real catalogue is about 2 MB)",
            size as f64 / 1_048_576.0,
            MAX_FILE_BYTES / 1_048_576
        ),
    }
}

/// The BattleScribe files inside a zipped `.gstz`/`.catz`, each capped in size and ratio.
fn unzip(name: &str, bytes: Vec<u8>, out: &mut Vec<ImportFile>) -> Result<(), DataError> {
    let broken = |e: zip::result::ZipError| DataError::Unreadable {
        file: name.to_string(),
        message: format!("not a readable zip archive: {e}"),
    };
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(broken)?;
    let mut found = 0;
    for index in 0..archive.len() {
        let mut inner = archive.by_index(index).map_err(broken)?;
        let inner_name = inner.name().map_err(broken)?.to_string();
        let ext = extension(Path::new(&inner_name));
        if inner.is_dir() || !PLAIN.contains(&ext.as_str()) {
            continue;
        }
        let shown = format!("{name} › {inner_name}");
        let (size, packed) = (inner.size(), inner.compressed_size().max(1));
        if size > MAX_FILE_BYTES as u64 {
            return Err(too_large(&shown, size));
        }
        if size / packed > MAX_ARCHIVE_RATIO {
            return Err(DataError::TooLarge {
                file: shown,
                message: format!(
                    "it inflates {}-fold ({packed} bytes to {size}): more than the {MAX_ARCHIVE_RATIO}-fold of any army list — a zip bomb?",
                    size / packed
                ),
            });
        }
        // The sizes in the archive are the archive's word: read no more than the cap anyway.
        let mut data = Vec::new();
        (&mut inner)
            .take(MAX_FILE_BYTES as u64 + 1)
            .read_to_end(&mut data)
            .map_err(|e| DataError::Unreadable {
                file: shown.clone(),
                message: format!("cannot unzip it: {e}"),
            })?;
        if data.len() > MAX_FILE_BYTES {
            return Err(too_large(&shown, data.len() as u64));
        }
        out.push(ImportFile {
            name: shown,
            bytes: data,
        });
        found += 1;
    }
    if found == 0 {
        return Err(DataError::Unreadable {
            file: name.to_string(),
            message: "the archive holds no .gst or .cat file".into(),
        });
    }
    Ok(())
}
