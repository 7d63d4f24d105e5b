//! Where a run log goes: a name of its own for every run, so that runs never overwrite
//! each other's logs.
//!
//! Without `--log`, a run writes `runs/<controller>-<UTC time>.mcap`; when that name is
//! taken (another run in the same second, here or in another process), the next free one
//! of `<controller>-<UTC time>-2.mcap`, `-3`, ... The file is created with `create_new`
//! (`O_EXCL`), so two processes never pick the same one. `--log DIR/` (a directory, or a
//! path ending in `/`) does the same in that directory; `--log FILE` writes exactly there
//! and replaces a file of that name (the caller says so).

use crate::Error;
use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The directory run logs go to by default.
pub const DEFAULT_DIR: &str = "runs";

/// How many suffixes are tried before giving up (a directory with that many logs of the
/// same controller and second is not a directory of run logs).
const MAX_SUFFIX: u32 = 100_000;

/// Where to write a run log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// A new file with a name of its own in this directory.
    UniqueIn(PathBuf),
    /// Exactly this file, replacing one that is there.
    Exactly(PathBuf),
}

impl Destination {
    /// What `--log` says: nothing is a unique name in `runs/`; a directory (one that
    /// exists, or a path ending in `/`) a unique name in it; anything else that file.
    pub fn from_arg(log: Option<&Path>) -> Self {
        match log {
            None => Self::UniqueIn(PathBuf::from(DEFAULT_DIR)),
            Some(p) if p.is_dir() || ends_with_separator(p) => Self::UniqueIn(p.to_path_buf()),
            Some(p) => Self::Exactly(p.to_path_buf()),
        }
    }
}

fn ends_with_separator(p: &Path) -> bool {
    p.as_os_str()
        .to_string_lossy()
        .ends_with(std::path::is_separator)
}

/// Which log file was created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    /// Its path.
    pub path: PathBuf,
    /// It replaced a file of that name (only for [`Destination::Exactly`]).
    pub replaced: bool,
}

/// Create the log file of `destination` (and its directory) for a run of `controller`
/// that starts at `epoch_s` (seconds since the Unix epoch, UTC): the file, open for
/// writing, and which it is.
pub fn create(
    destination: &Destination,
    controller: &str,
    epoch_s: u64,
) -> Result<(File, Created), Error> {
    match destination {
        Destination::UniqueIn(dir) => {
            make_dir(dir)?;
            let (file, path) = create_unique(dir, &stem(controller, epoch_s))?;
            let replaced = false;
            Ok((file, Created { path, replaced }))
        }
        Destination::Exactly(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                make_dir(dir)?;
            }
            let replaced = path.exists();
            let file = File::create(path).map_err(|e| Error::io("create the run log", path, e))?;
            let path = path.clone();
            Ok((file, Created { path, replaced }))
        }
    }
}

fn make_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create the log directory", dir, e))
}

/// `<controller>-<UTC time>`, with the controller's name made safe for a file name.
pub fn stem(controller: &str, epoch_s: u64) -> String {
    let name: String = controller
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = if name.is_empty() || name.starts_with('.') {
        format!("run{name}")
    } else {
        name
    };
    format!("{name}-{}", utc_stamp(epoch_s))
}

/// A new file `<stem>.mcap` in `dir`, else `<stem>-2.mcap`, `<stem>-3.mcap`, ...: the first
/// that nobody (no run here, no other process) has made, made atomically.
pub fn create_unique(dir: &Path, stem: &str) -> Result<(File, PathBuf), Error> {
    for n in 1..=MAX_SUFFIX {
        let name = if n == 1 {
            format!("{stem}.mcap")
        } else {
            format!("{stem}-{n}.mcap")
        };
        let path = dir.join(name);
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Error::io("create the run log", &path, e)),
        }
    }
    Err(Error::io(
        "find a free name for the run log in",
        dir,
        std::io::Error::other(format!("{stem}.mcap to {stem}-{MAX_SUFFIX}.mcap all exist")),
    ))
}

/// Seconds since the Unix epoch, now (0 if the clock is before it).
pub fn now_epoch_s() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
}

/// `YYYYMMDDTHHMMSSZ` for seconds since the Unix epoch.
pub fn utc_stamp(epoch_s: u64) -> String {
    let days = (epoch_s / 86_400) as i64;
    let rem = epoch_s % 86_400;
    // civil date from days since 1970-01-01 (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_stamps() {
        assert_eq!(utc_stamp(0), "19700101T000000Z");
        assert_eq!(utc_stamp(951_782_400), "20000229T000000Z");
        assert_eq!(utc_stamp(1_796_009_767), "20261130T033607Z");
    }

    #[test]
    fn stems_are_file_names() {
        assert_eq!(stem("wander", 0), "wander-19700101T000000Z");
        assert_eq!(stem("a/b c", 0), "a_b_c-19700101T000000Z");
        assert_eq!(stem("", 0), "run-19700101T000000Z");
        assert_eq!(stem("..", 0), "run..-19700101T000000Z");
    }

    #[test]
    fn what_log_says() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            Destination::from_arg(None),
            Destination::UniqueIn(PathBuf::from("runs"))
        );
        assert_eq!(
            Destination::from_arg(Some(dir.path())),
            Destination::UniqueIn(dir.path().to_path_buf())
        );
        let later = dir.path().join("sweep/");
        assert_eq!(
            Destination::from_arg(Some(&later)),
            Destination::UniqueIn(later.clone())
        );
        let file = dir.path().join("a.mcap");
        assert_eq!(
            Destination::from_arg(Some(&file)),
            Destination::Exactly(file)
        );
    }

    #[test]
    fn five_runs_in_one_second_get_five_files() {
        let dir = tempfile::tempdir().unwrap();
        let d = Destination::UniqueIn(dir.path().join("runs"));
        let names: Vec<PathBuf> = (0..5)
            .map(|_| create(&d, "wander", 1_796_009_767).unwrap().1.path)
            .collect();
        let file_names: Vec<String> = names
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            file_names,
            [
                "wander-20261130T033607Z.mcap",
                "wander-20261130T033607Z-2.mcap",
                "wander-20261130T033607Z-3.mcap",
                "wander-20261130T033607Z-4.mcap",
                "wander-20261130T033607Z-5.mcap",
            ]
        );
    }

    #[test]
    fn runs_at_once_never_share_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let d = Destination::UniqueIn(dir.path().to_path_buf());
        let barrier = std::sync::Barrier::new(8);
        let mut paths: Vec<PathBuf> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        barrier.wait();
                        create(&d, "wander", 0).unwrap().1.path
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        paths.sort();
        paths.dedup();
        assert_eq!(paths.len(), 8);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 8);
    }

    #[test]
    fn an_explicit_file_is_replaced_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("deep/a.mcap");
        let d = Destination::Exactly(p.clone());
        assert!(!create(&d, "x", 0).unwrap().1.replaced);
        assert!(create(&d, "x", 0).unwrap().1.replaced);
        assert_eq!(
            std::fs::read_dir(dir.path().join("deep")).unwrap().count(),
            1
        );
    }
}
