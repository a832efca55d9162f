//! The two builds `bench compare` runs side by side: the base commit checked out in a worktree
//! of its own and the working tree as it stands, each built (release, server features: what
//! `bench sim` and `replay` need) into one shared target dir outside the checkout, so a second
//! compare against the same base rebuilds nothing and the head rebuilds only the crate.

use super::compare_error::CompareError;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One side of a comparison: what it is called, the tree it runs in (its levels, recipes and
/// goldens are read from there) and its binary.
#[derive(Clone, Debug)]
pub struct Side {
    pub label: String,
    pub tree: PathBuf,
    pub bin: PathBuf,
}

/// Where compare keeps its worktrees, target dir and binaries: `$UNDERCOOKED_COMPARE_DIR`, else
/// `$XDG_CACHE_HOME/undercooked-compare`, else `~/.cache/undercooked-compare`.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("UNDERCOOKED_COMPARE_DIR") {
        return dir.into();
    }
    let cache = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from).join(".cache")
    });
    cache.join("undercooked-compare")
}

/// Runs git in `dir`; its trimmed stdout, or a named error with its stderr.
fn git(dir: &Path, args: &[&str]) -> Result<String, CompareError> {
    let out = Command::new("git").current_dir(dir).args(args).output().map_err(|e| {
        CompareError::Git { args: args.join(" "), reason: format!("cannot run git: {e}") }
    })?;
    if !out.status.success() {
        return Err(CompareError::Git {
            args: args.join(" "),
            reason: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The top of the checkout the current directory is in.
pub fn checkout_root() -> Result<PathBuf, CompareError> {
    let here = std::env::current_dir().map_err(|e| CompareError::NoCheckout(e.to_string()))?;
    git(&here, &["rev-parse", "--show-toplevel"])
        .map(PathBuf::from)
        .map_err(|e| CompareError::NoCheckout(e.to_string()))
}

/// The full id of `base` (a commit, branch, tag or `HEAD~1`).
pub fn resolve(root: &Path, base: &str) -> Result<String, CompareError> {
    git(root, &["rev-parse", "--verify", "--quiet", &format!("{base}^{{commit}}")]).map_err(|e| {
        CompareError::BadBase {
            base: base.to_string(),
            reason: match e {
                CompareError::Git { reason, .. } if !reason.is_empty() => reason,
                _ => "git rev-parse found no such commit".into(),
            },
        }
    })
}

/// The head's name: the short commit, with `+changes` when the working tree differs from it.
pub fn head_label(root: &Path) -> String {
    let short = git(root, &["rev-parse", "--short", "HEAD"]).unwrap_or_else(|_| "HEAD".into());
    let dirty = git(root, &["status", "--porcelain", "--untracked-files=no"])
        .map(|s| !s.is_empty())
        .unwrap_or(false);
    if dirty { format!("{short}+changes") } else { short }
}

/// A worktree of `sha` under the cache, made once and reused (checked to still be at `sha`).
pub fn base_tree(root: &Path, sha: &str, cache: &Path) -> Result<PathBuf, CompareError> {
    let tree = cache.join("trees").join(sha);
    if tree.join(".git").exists() && git(&tree, &["rev-parse", "HEAD"]).ok().as_deref() == Some(sha)
    {
        return Ok(tree);
    }
    if tree.exists() {
        std::fs::remove_dir_all(&tree).map_err(CompareError::io(&tree))?;
    }
    git(root, &["worktree", "prune"])?;
    let parent = tree.parent().unwrap_or(cache);
    std::fs::create_dir_all(parent).map_err(CompareError::io(parent))?;
    git(root, &["worktree", "add", "--detach", "--force", &tree.to_string_lossy(), sha])?;
    Ok(tree)
}

/// Builds `tree`'s server binary into the shared target dir and copies it to `bin` (the target
/// dir's `release/undercooked` is the last tree built's, so each side keeps its own copy).
pub fn build(label: &str, tree: &Path, cache: &Path, bin: &Path) -> Result<(), CompareError> {
    let target = cache.join("target");
    eprintln!("bench compare: building {label} (release, server features) in {}", tree.display());
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .current_dir(tree)
        .env("CARGO_TARGET_DIR", &target)
        .args(["build", "--release", "--locked", "--no-default-features", "--features"])
        .args(["server", "--bin", "undercooked"])
        .status()
        .map_err(|e| build_error(label, tree, format!("cannot run cargo: {e}")))?;
    if !status.success() {
        return Err(build_error(label, tree, format!("cargo build exited with {status}")));
    }
    let built = target.join("release").join("undercooked");
    let dir = bin.parent().unwrap_or(cache);
    std::fs::create_dir_all(dir).map_err(CompareError::io(dir))?;
    std::fs::copy(&built, bin).map_err(CompareError::io(&built))?;
    Ok(())
}

fn build_error(label: &str, tree: &Path, reason: String) -> CompareError {
    CompareError::Build { label: label.to_string(), tree: tree.to_path_buf(), reason }
}

/// The base side: its worktree and binary, built only when the cache has no binary for `sha`.
pub fn base_side(root: &Path, sha: &str, cache: &Path) -> Result<Side, CompareError> {
    let tree = base_tree(root, sha, cache)?;
    let bin = cache.join("bin").join(sha).join("undercooked");
    let label = format!("base {}", &sha[..sha.len().min(9)]);
    if !bin.is_file() {
        build(&label, &tree, cache, &bin)?;
    }
    Ok(Side { label, tree, bin })
}

/// The head side: the checkout as it stands, rebuilt every time (cargo rebuilds what changed).
pub fn head_side(root: &Path, cache: &Path) -> Result<Side, CompareError> {
    let label = format!("head {}", head_label(root));
    let bin = cache.join("bin").join("head").join("undercooked");
    build(&label, root, cache, &bin)?;
    Ok(Side { label, tree: root.to_path_buf(), bin })
}
