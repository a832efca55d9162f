//! A GET or HEAD of a static file as an HTTP response: the representation the client accepts
//! ([`super::files`]), its `ETag` ([`super::etag`]), 304 when `If-None-Match` names it, and
//! the bytes streamed ([`super::body`]). Every file answer says `Cache-Control: no-cache`: the
//! build's file names carry no content hash, so a browser must ask each visit whether a new
//! build came, and the ETag makes that question cost a 304 instead of the 14 MB module.

use super::body::{FileBody, WebBody, full};
use super::encoding::{Accepted, Coding};
use super::etag::{etag, none_match};
use super::files::{StaticAnswer, answer};
use hyper::body::Bytes;
use hyper::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, ETAG,
    HeaderMap, HeaderValue, IF_NONE_MATCH, VARY,
};
use hyper::{Method, Response, StatusCode};
use std::path::Path;

/// A page sent whole (the missing-build explanation, 404, 500).
fn page(status: u16, html: String) -> Response<WebBody> {
    let mut r = Response::new(full(html));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::NOT_FOUND);
    r.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    r
}

/// The answer to `method` (GET or HEAD) of `url` under `root`, given the request's `headers`.
pub async fn respond(
    root: &Path,
    url: &str,
    method: &Method,
    headers: &HeaderMap,
) -> Response<WebBody> {
    let accepted =
        Accepted::from_headers(headers.get_all(ACCEPT_ENCODING).iter().map(HeaderValue::as_bytes));
    // The checks stat the disk: off the runtime's thread, like the reads themselves.
    let (root, url) = (root.to_path_buf(), url.to_string());
    let found = tokio::task::spawn_blocking(move || answer(&root, &url, &accepted)).await;
    match found {
        Ok(StaticAnswer::Page { status, html }) => page(status, html),
        Ok(StaticAnswer::File { path, mime, coding }) => {
            let opened = async {
                let file = tokio::fs::File::open(&path).await?;
                let meta = file.metadata().await?;
                Ok::<_, std::io::Error>((file, meta))
            };
            match opened.await {
                Ok((file, meta)) => {
                    let tag = etag(&meta, coding);
                    let unchanged = tag.as_deref().is_some_and(|t| {
                        none_match(
                            headers.get_all(IF_NONE_MATCH).iter().map(HeaderValue::as_bytes),
                            t,
                        )
                    });
                    let mut r = if unchanged {
                        let mut r = Response::new(full(Bytes::new()));
                        *r.status_mut() = StatusCode::NOT_MODIFIED;
                        r
                    } else {
                        file_answer(file, meta.len(), mime, coding, method == Method::HEAD)
                    };
                    let h = r.headers_mut();
                    if let Some(tag) = tag.and_then(|t| HeaderValue::from_str(&t).ok()) {
                        h.insert(ETAG, tag);
                    }
                    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
                    // Every file, compressed siblings or not: a cache must not hand one client's
                    // coding to another, and a later build may add the siblings.
                    h.insert(VARY, HeaderValue::from_static("Accept-Encoding"));
                    r
                }
                Err(_) => page(404, "<!doctype html><p>No such file.</p>\n".into()),
            }
        }
        Err(_) => page(500, "<!doctype html><p>Server error.</p>\n".into()),
    }
}

/// A 200 with `len` bytes of `file` streamed (GET), or only the headers a GET would get (HEAD:
/// the file is not read at all).
fn file_answer(
    file: tokio::fs::File,
    len: u64,
    mime: &'static str,
    coding: Coding,
    head: bool,
) -> Response<WebBody> {
    let body = if head { full(Bytes::new()) } else { FileBody::boxed(file, len) };
    let mut r = Response::new(body);
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(mime));
    h.insert(CONTENT_LENGTH, HeaderValue::from(len));
    if let Some(name) = coding.header() {
        h.insert(CONTENT_ENCODING, HeaderValue::from_static(name));
    }
    r
}
