//! The web port's static files over real sockets: the precompressed `.br`/`.gz` a build writes,
//! chosen by `Accept-Encoding` (weights, `*`, `identity;q=0`, malformed values) and decoding to
//! the original bytes; ETags, `If-None-Match` and 304; HEAD; a stale sibling never sent.

use brotli::enc::BrotliEncoderParams;
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use undercooked::net::server::web::WebConfig;
use undercooked::net::server::worlds::{HostConfig, ServerHandle, spawn_server};

const PATIENCE: Duration = Duration::from_secs(10);

/// A web root holding a build: index.html and `game.wasm` with its `.br` and `.gz`, the
/// original large enough to take several of the server's 64 KiB chunks.
fn root(name: &str) -> (PathBuf, Vec<u8>) {
    let dir = std::env::temp_dir().join(format!("uc-hostile-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><canvas></canvas>").unwrap();
    let original: Vec<u8> = (0..12_000u32)
        .flat_map(|i| format!("(func $f{i} (result i32) i32.const {})\n", i % 97).into_bytes())
        .collect();
    let wasm = dir.join("game.wasm");
    std::fs::write(&wasm, &original).unwrap();
    std::fs::write(sibling(&wasm, "br"), brotli(&original)).unwrap();
    std::fs::write(sibling(&wasm, "gz"), gzip(&original)).unwrap();
    (dir, original)
}

fn sibling(path: &Path, ext: &str) -> PathBuf {
    PathBuf::from(format!("{}.{ext}", path.display()))
}

/// Brotli as the build's `brotli` command writes it (quality 5 here: the debug-built encoder is
/// slow at 11, and the server sends whatever the file holds).
fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let params = BrotliEncoderParams { quality: 5, ..Default::default() };
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).unwrap();
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn server(name: &str, root: PathBuf) -> ServerHandle {
    let dir =
        std::env::temp_dir().join(format!("uc-hostile-files-data-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg =
        HostConfig { web: WebConfig { root, ..WebConfig::default() }, ..HostConfig::loopback(dir) };
    spawn_server(cfg).expect("server starts")
}

/// One response: status, headers (names lower-case) and the body's bytes as sent.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The body decoded by its `Content-Encoding`.
    fn decoded(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self.header("content-encoding") {
            None => out.clone_from(&self.body),
            Some("br") => {
                brotli::Decompressor::new(&self.body[..], 4096).read_to_end(&mut out).unwrap();
            }
            Some("gzip") => {
                GzDecoder::new(&self.body[..]).read_to_end(&mut out).unwrap();
            }
            Some(other) => panic!("unexpected Content-Encoding {other}"),
        }
        out
    }
}

/// `method path` on a fresh connection with `headers` (raw bytes, each line ending in CRLF).
fn request(addr: SocketAddr, method: &str, path: &str, headers: &[u8]) -> Answer {
    let mut s = TcpStream::connect_timeout(&addr, PATIENCE).unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut raw =
        format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n").into_bytes();
    raw.extend_from_slice(headers);
    raw.extend_from_slice(b"\r\n");
    s.write_all(&raw).unwrap();
    let mut text = Vec::new();
    s.read_to_end(&mut text).unwrap();
    let end = text.windows(4).position(|w| w == b"\r\n\r\n").expect("a whole head");
    let head = String::from_utf8_lossy(&text[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer { status, headers, body: text[end + 4..].to_vec() }
}

fn get(addr: SocketAddr, accept: Option<&[u8]>) -> Answer {
    let mut headers = Vec::new();
    if let Some(value) = accept {
        headers.extend_from_slice(b"Accept-Encoding: ");
        headers.extend_from_slice(value);
        headers.extend_from_slice(b"\r\n");
    }
    request(addr, "GET", "/game.wasm", &headers)
}

#[test]
fn static_files_come_in_the_coding_the_client_accepts() {
    let (dir, original) = root("codings");
    let h = server("codings", dir.clone());
    let addr = h.addrs.web;
    let wasm = dir.join("game.wasm");
    let on_disk = |coding: Option<&str>| {
        let path = match coding {
            Some("br") => sibling(&wasm, "br"),
            Some("gzip") => sibling(&wasm, "gz"),
            _ => wasm.clone(),
        };
        std::fs::metadata(path).unwrap().len()
    };
    let mut tags = std::collections::BTreeMap::new();
    for (accept, want) in [
        (Some(&b"br"[..]), Some("br")),
        (Some(b"gzip"), Some("gzip")),
        (Some(b"gzip, deflate, br, zstd"), Some("br")),
        (Some(b"gzip;q=1, br;q=0.5"), Some("gzip")),
        (Some(b"gzip;q=0, br;q=0"), None),
        (None, None),
        (Some(b""), None),
        (Some(b"identity"), None),
        (Some(b"*"), Some("br")),
        (Some(b"br;q=0, *"), Some("gzip")),
        (Some(b"br, identity;q=0"), Some("br")),
        (Some(b"identity;q=0"), None),
        // Malformed: identity, never an error.
        (Some(b"br;q=2"), None),
        (Some(b"br;level=11"), None),
        (Some(b"br\xff"), None),
        (Some(b"br;q=0.5;;"), None),
    ] {
        let what = format!("Accept-Encoding {:?}", accept.map(String::from_utf8_lossy));
        let a = get(addr, accept);
        assert_eq!(a.status, 200, "{what}");
        assert_eq!(a.header("content-encoding"), want, "{what}");
        assert_eq!(a.header("content-type"), Some("application/wasm"), "{what}");
        assert_eq!(a.header("vary"), Some("Accept-Encoding"), "{what}");
        assert_eq!(a.header("cache-control"), Some("no-cache"), "{what}");
        let len: u64 = a.header("content-length").unwrap().parse().unwrap();
        assert_eq!((len, a.body.len() as u64), (on_disk(want), on_disk(want)), "{what}");
        assert!(a.decoded() == original, "{what}: decodes to the original bytes");
        let tag = a.header("etag").expect("an ETag").to_string();
        assert!(tag.starts_with('"') && !tag.starts_with("W/"), "strong: {tag}");
        assert_eq!(*tags.entry(want).or_insert_with(|| tag.clone()), tag, "{what}: stable");
    }
    assert_eq!(tags.len(), 3, "each representation its own ETag: {tags:?}");
    eprintln!(
        "game.wasm: {} bytes, br {} (quality 5), gzip -9 {}",
        original.len(),
        on_disk(Some("br")),
        on_disk(Some("gzip"))
    );
    // Without siblings, a file is sent as it is, whatever the client accepts.
    let index = request(addr, "GET", "/", b"Accept-Encoding: br, gzip\r\n");
    assert_eq!((index.status, index.header("content-encoding")), (200, None));
    assert_eq!(index.header("vary"), Some("Accept-Encoding"));
    h.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_matching_if_none_match_gets_304_and_head_gets_the_headers_alone() {
    let (dir, _) = root("etag");
    let h = server("etag", dir.clone());
    let addr = h.addrs.web;
    let br = get(addr, Some(b"br"));
    let tag = br.header("etag").unwrap().to_string();
    let gz_tag = get(addr, Some(b"gzip")).header("etag").unwrap().to_string();
    let conditional = |accept: &str, if_none_match: &str, method: &str| {
        let headers = format!("Accept-Encoding: {accept}\r\nIf-None-Match: {if_none_match}\r\n");
        request(addr, method, "/game.wasm", headers.as_bytes())
    };
    for (if_none_match, method) in [
        (tag.clone(), "GET"),
        (format!("\"stale\", {tag}"), "GET"),
        (format!("W/{tag}"), "GET"),
        ("*".to_string(), "GET"),
        (tag.clone(), "HEAD"),
    ] {
        let what = format!("{method} If-None-Match {if_none_match}");
        let a = conditional("br", &if_none_match, method);
        assert_eq!(a.status, 304, "{what}");
        assert!(a.body.is_empty(), "{what}: no body");
        assert_eq!(a.header("etag"), Some(tag.as_str()), "{what}");
        assert_eq!(a.header("vary"), Some("Accept-Encoding"), "{what}");
        assert_eq!(a.header("cache-control"), Some("no-cache"), "{what}");
    }
    // Another representation's tag, or one that does not parse: the whole file.
    for (accept, if_none_match) in [("br", gz_tag.as_str()), ("gzip", &tag), ("br", "junk")] {
        let a = conditional(accept, if_none_match, "GET");
        assert_eq!(a.status, 200, "{accept} with {if_none_match}");
        assert!(!a.body.is_empty());
    }

    let head = request(addr, "HEAD", "/game.wasm", b"Accept-Encoding: br\r\n");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty(), "HEAD: headers only");
    for name in ["content-encoding", "content-length", "content-type", "etag", "vary"] {
        assert_eq!(head.header(name), br.header(name), "HEAD's {name} is GET's");
    }
    h.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_compressed_file_older_than_its_original_is_not_sent() {
    let (dir, original) = root("stale");
    let wasm = dir.join("game.wasm");
    // A build rewrote game.wasm after the .gz beside it was made.
    let now = SystemTime::now();
    let set = |path: &Path, t: SystemTime| {
        std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
    };
    set(&sibling(&wasm, "gz"), now - Duration::from_secs(60));
    set(&wasm, now);
    set(&sibling(&wasm, "br"), now);
    let h = server("stale", dir.clone());
    let addr = h.addrs.web;
    let gz = get(addr, Some(b"gzip"));
    assert_eq!(
        (gz.status, gz.header("content-encoding")),
        (200, None),
        "the stale .gz is not sent"
    );
    assert!(gz.body == original);
    let br = get(addr, Some(b"gzip, br;q=0.5"));
    assert_eq!(br.header("content-encoding"), Some("br"), "the fresh .br still is (same mtime)");
    h.stop();
    let _ = std::fs::remove_dir_all(&dir);
}
