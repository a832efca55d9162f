//! What stops `bench compare`, by name: a base that is not a commit, a tree or a build that
//! fails, a run that fails or prints something other than what the command prints.

use std::path::PathBuf;

/// Why `bench compare` could not give its verdict (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("not inside a git checkout (bench compare builds commits of this repository): {0}")]
    NoCheckout(String),
    #[error("`{base}` is not a commit of this repository: {reason}")]
    BadBase { base: String, reason: String },
    #[error("git {args}: {reason}")]
    Git { args: String, reason: String },
    #[error("building {label} in {}: {reason}", tree.display())]
    Build { label: String, tree: PathBuf, reason: String },
    #[error("{label}: `{command}` failed: {reason}")]
    Run { label: String, command: String, reason: String },
    #[error("{label}: `{command}` printed no JSON line to read: {reason}")]
    Output { label: String, command: String, reason: String },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("the head tree's campaign: {0}")]
    Campaign(String),
}

impl CompareError {
    /// An I/O failure on `path`, for `map_err`.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> CompareError {
        let path = path.into();
        move |source| CompareError::Io { path, source }
    }
}
