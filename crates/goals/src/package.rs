//! An interface package of goal kinds as files: what `skipper interfaces` writes for
//! ROS 1 (catkin) and ROS 2 (ament). The ROS crates decide the files' contents; this
//! module holds the package and writes it to disk.

use std::path::{Path, PathBuf};

/// One interface package: its name and its files (path in the package, text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    /// `tutorial_msgs`
    pub name: String,
    /// (`action/Advance.action`, its text), in the order written
    pub files: Vec<(String, String)>,
}

/// Write `packages` under `out` (`out/<package>/...`, folders made as needed); returns
/// the files written.
pub fn write(out: &Path, packages: &[Package]) -> std::io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for p in packages {
        for (rel, text) in &p.files {
            let path = out.join(&p.name).join(rel);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&path, text)?;
            written.push(path);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_lands_under_its_package() {
        let dir = std::env::temp_dir().join(format!("skipper-package-{}", std::process::id()));
        let p = Package {
            name: "tutorial_msgs".into(),
            files: vec![
                ("package.xml".into(), "<package/>".into()),
                (
                    "action/Advance.action".into(),
                    "float64 distance\n---\n---\n".into(),
                ),
            ],
        };
        let written = write(&dir, &[p]).unwrap();
        assert_eq!(
            written,
            [
                dir.join("tutorial_msgs/package.xml"),
                dir.join("tutorial_msgs/action/Advance.action")
            ]
        );
        let text = std::fs::read_to_string(&written[1]).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(text, "float64 distance\n---\n---\n");
    }
}
