//! Reading the files a user hands the engine (adventures, 5e-database folders) with a size
//! bound: a file of any size, or one that never ends (`/dev/zero`, a pipe), is refused after
//! reading one byte past the bound, instead of being read until memory runs out.

use std::io::Read;
use std::path::Path;

/// Reads a UTF-8 text file of at most `max_bytes` bytes.
///
/// A larger file is an [`std::io::ErrorKind::FileTooLarge`] error whose message gives the
/// bound; text that is not UTF-8 is [`std::io::ErrorKind::InvalidData`].
///
/// ```
/// let dir = std::env::temp_dir().join("dnd-engine-files-doctest");
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("small.json");
/// std::fs::write(&path, "{}").unwrap();
/// assert_eq!(dnd_engine::files::read_text_limited(&path, 10).unwrap(), "{}");
/// let error = dnd_engine::files::read_text_limited(&path, 1).unwrap_err();
/// assert_eq!(error.kind(), std::io::ErrorKind::FileTooLarge);
/// ```
pub fn read_text_limited(path: &Path, max_bytes: usize) -> std::io::Result<String> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    let wanted = u64::try_from(max_bytes)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    file.take(wanted).read_to_end(&mut bytes)?;
    if bytes.len() > max_bytes {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!("the file is larger than {max_bytes} bytes, the most accepted here"),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "the file is not UTF-8 text (an invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every Unix has /dev/zero; elsewhere the test is listed as ignored, with the reason.
    #[test]
    #[cfg_attr(
        not(unix),
        ignore = "needs /dev/zero, a file that never ends (Unix only)"
    )]
    fn a_file_that_never_ends_is_refused_at_the_bound() {
        let path = Path::new("/dev/zero");
        let error = read_text_limited(path, 1 << 16).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::FileTooLarge);
        assert!(error.to_string().contains("65536 bytes"), "{error}");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_invalid_data() {
        let dir = tempfile_dir();
        let path = dir.join("latin1.txt");
        std::fs::write(&path, b"caf\xe9").unwrap();
        let error = read_text_limited(&path, 100).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
        assert!(error.to_string().contains("offset 3"), "{error}");
    }

    fn tempfile_dir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("dnd-engine-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
