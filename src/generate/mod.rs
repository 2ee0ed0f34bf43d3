//! Every artifact derived from the clap definition: shell completion scripts
//! (`completions.rs`) and man pages (`man.rs`). They are committed (packagers
//! and users without a Rust toolchain need them), so the output must be a
//! pure function of the code — [`crate::cli::command`], and for the man
//! pages' own sections the exit codes ([`crate::exit::DOCUMENTED`]), the
//! registry's file names and [`EXAMPLES`]: no dates, no environment, no
//! machine. `tests/it/generated.rs` fails when the committed files fall
//! behind and rewrites them with `PLUGCTL_REGENERATE=1 cargo test --test it
//! generated::`.

mod completions;
mod man;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use clap_complete::Shell;

pub use completions::{CONTEXT_OPTIONS, JSON_AWK, ZSH_DISPATCH, completion, completion_file_name};
pub use man::{
    EXAMPLES, Example, OTHER_VARIABLES, environment, example_paths, examples_at, examples_for,
    files_section, man_pages,
};

/// The name completions are registered for and man pages are titled with.
pub const BIN_NAME: &str = "plugctl";

/// Every shell `plugctl completions` supports, in a stable order.
pub const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::Elvish,
    Shell::PowerShell,
];

/// Every generated file, as a path relative to the repository root and its
/// contents, in a stable order.
pub fn files() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = SHELLS
        .iter()
        .map(|&shell| {
            (
                Path::new("completions").join(completion_file_name(shell)),
                completion(shell).into_bytes(),
            )
        })
        .collect();
    files.extend(
        man_pages()
            .into_iter()
            .map(|(name, page)| (Path::new("man").join(name), page)),
    );
    files
}

/// Writes every generated file under `root` (the repository root), and
/// removes man pages of subcommands that no longer exist so that a renamed
/// command does not leave its old page installed forever.
pub fn write_all(root: &Path) -> io::Result<()> {
    let files = files();
    for dir in ["completions", "man"] {
        fs::create_dir_all(root.join(dir))?;
    }
    for stale in stale_man_pages(root, &files)? {
        fs::remove_file(root.join(stale))?;
    }
    for (rel, contents) in &files {
        let path = root.join(rel);
        // Unchanged files keep their mtime, so make and packagers see no change.
        if fs::read(&path).ok().as_deref() != Some(contents.as_slice()) {
            fs::write(&path, contents)?;
        }
    }
    Ok(())
}

/// `man/*.1` files under `root` that [`files`] would not produce, as paths
/// relative to `root`.
pub fn stale_man_pages(root: &Path, files: &[(PathBuf, Vec<u8>)]) -> io::Result<Vec<PathBuf>> {
    let dir = root.join("man");
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut stale = Vec::new();
    for entry in entries {
        let rel = Path::new("man").join(entry?.file_name());
        if rel.extension().is_some_and(|e| e == "1") && !files.iter().any(|(p, _)| *p == rel) {
            stale.push(rel);
        }
    }
    stale.sort();
    Ok(stale)
}
