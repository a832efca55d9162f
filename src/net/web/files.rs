//! Static files of the web port: the browser build (`web/build.sh` writes `web/dist/`) served
//! at `/` from `--web-root`. `/?room=CODE` is the same index.html: the page reads its own query.
//! Paths never leave the root (no `..`, no absolute parts); a missing build answers a page that
//! says how to make one.

use std::path::{Component, Path, PathBuf};

/// What a GET of a static path answers; the web port streams a file, sends a page whole.
pub enum StaticAnswer {
    File { path: PathBuf, mime: &'static str },
    Page { status: u16, html: String },
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

/// What a GET of `url_path` answers.
pub fn answer(root: &Path, url_path: &str) -> StaticAnswer {
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
            StaticAnswer::File { path, mime }
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
    }
}
