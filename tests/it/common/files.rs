//! Files the tests read or lay out: the repository's own (examples,
//! generated artifacts), modes, and trees copied into a rig.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::make_dir;

/// The repository this test binary belongs to (where `README.md`,
/// `plugins-examples/`, `deploy/`... are): the one place that knows.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The example plugins shipped in the repository, one directory a family.
pub fn examples() -> PathBuf {
    repo().join("plugins-examples")
}

/// The permission bits of a file (set-id and sticky bits included),
/// following a symlink.
pub fn mode(path: impl AsRef<Path>) -> u32 {
    let path = path.as_ref();
    fs::metadata(path)
        .unwrap_or_else(|e| panic!("stat {}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o7777
}

/// Copies the tree `from` into `to` with the modes plugctl wants whatever
/// the checkout's umask: directories 0755, files with any execute bit 0755
/// (plugins), other files 0644. A symlink is copied as what it points to.
pub fn copy_tree(from: &Path, to: &Path) {
    make_dir(to);
    fs::set_permissions(to, fs::Permissions::from_mode(0o755)).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let meta = fs::symlink_metadata(&src).unwrap();
        if meta.is_dir() {
            copy_tree(&src, &dst);
        } else {
            fs::copy(&src, &dst).unwrap();
            let executable = fs::metadata(&src).unwrap().permissions().mode() & 0o111 != 0;
            let mode = if executable { 0o755 } else { 0o644 };
            fs::set_permissions(&dst, fs::Permissions::from_mode(mode)).unwrap();
        }
    }
}
