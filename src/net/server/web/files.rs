//! Static files of the web port: the browser build (`web/build.sh` writes `web/dist/`) served
//! at `/` from `--web-root`. `/?room=CODE` is the same index.html: the page reads its own query.
//! Paths never leave the root (no `..`, no absolute parts); a missing build answers a page that
//! says how to make one. A file with a fresh `X.br` or `X.gz` beside it (web/build.sh writes
//! them) is sent in the coding the client prefers ([`super::encoding`]).

use super::encoding::{Accepted, Coding};
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

/// What a GET of a static path answers; the web port streams a file, sends a page whole.
pub enum StaticAnswer {
    /// `path` is the file to send: the one asked for, or its `.br`/`.gz` when `coding` says so;
    /// `mime` is always the type of the one asked for.
    File {
        path: PathBuf,
        mime: &'static str,
        coding: Coding,
    },
    Page {
        status: u16,
        html: String,
    },
}

/// The MIME type browsers need for each kind of file the build holds (`.wasm` must be
/// `application/wasm` for streaming compilation).
pub fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "ogg" => "audio/ogg",
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "woff2" => "font/woff2",
        "txt" | "ron" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file under `root` that `url_path` (query already removed) names, if it is a safe path.
pub fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let rel = url_path.trim_start_matches('/');
    let rel =
        if rel.is_empty() || rel.ends_with('/') { format!("{rel}index.html") } else { rel.into() };
    let rel = Path::new(&rel);
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    Some(root.join(rel))
}

fn page(status: u16, title: &str, body: &str) -> StaticAnswer {
    StaticAnswer::Page {
        status,
        html: format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head>\
             <body><h1>{title}</h1>{body}</body></html>\n"
        ),
    }
}

/// `path` with `coding`'s suffix (`a.wasm` → `a.wasm.br`).
pub fn encoded(path: &Path, coding: Coding) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(coding.suffix());
    PathBuf::from(name)
}

/// Whether `path`'s file in `coding` is there and not older than `path` itself: a `.gz` left
/// from an earlier build (or copied in by hand before the file changed) must not be sent for
/// the new file. Files without modification times are never taken as fresh.
fn fresh(path: &Path, original: Option<SystemTime>, coding: Coding) -> bool {
    let Some(original) = original else { return false };
    std::fs::metadata(encoded(path, coding))
        .is_ok_and(|m| m.is_file() && m.modified().is_ok_and(|t| t >= original))
}

/// Which representation of the file at `path` to send to a client that accepts `accepted`.
pub fn representation(path: &Path, accepted: &Accepted) -> Coding {
    let original = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    accepted.choose(|c| fresh(path, original, c))
}

/// What a GET of `url_path` answers, to a client that accepts `accepted` (identity: the file
/// as it is on disk).
pub fn answer(root: &Path, url_path: &str, accepted: &Accepted) -> StaticAnswer {
    if !root.join("index.html").is_file() {
        return page(
            404,
            "Undercooked: no browser build here",
            &format!(
                "<p>This server serves the browser client from <code>{}</code>, which has no \
                 <code>index.html</code>.</p><p>Build it with <code>web/build.sh</code> (writes \
                 <code>web/dist/</code>), or start the server with <code>--web-root DIR</code>. \
                 Native players can still join: <code>undercooked join HOST:PORT --create \
                 --headless</code>.</p>",
                root.display()
            ),
        );
    }
    match resolve(root, url_path) {
        Some(path) if path.is_file() => {
            let mime = mime(&path);
            let coding = representation(&path, accepted);
            StaticAnswer::File { path: encoded(&path, coding), mime, coding }
        }
        _ => page(404, "Not found", "<p>No such file.</p>"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_root() {
        let root = Path::new("/srv/dist");
        assert_eq!(resolve(root, "/"), Some(root.join("index.html")));
        assert_eq!(resolve(root, "/assets/a.png"), Some(root.join("assets/a.png")));
        assert_eq!(resolve(root, "/../etc/passwd"), None);
        assert_eq!(resolve(root, "/a/../../b"), None);
        assert_eq!(mime(Path::new("x/game_bg.wasm")), "application/wasm");
        assert_eq!(encoded(Path::new("d/a.js"), Coding::Gzip), Path::new("d/a.js.gz"));
        assert_eq!(encoded(Path::new("d/a.js"), Coding::Identity), Path::new("d/a.js"));
    }
}
