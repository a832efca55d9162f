//! The HTTP target: mutated requests (heads, JSON bodies, board submissions) to the web port over raw TCP, one
//! connection each, against a real server. After the run the server must still answer
//! `/api/health` and let a client create, connect to and join a room.

use super::live::LiveServer;
use super::mutate::mutate;
use super::target::{Outcome, Target};
use crate::sim::rng::SplitMix64;

/// Real requests of every route, and some the API refuses, as a client writes them.
fn requests() -> Vec<Vec<u8>> {
    let post = |path: &str, body: &str| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    };
    let get = |path: &str| {
        format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").into_bytes()
    };
    vec![
        get("/api/health"),
        get("/api/rooms/ACDEF"),
        get("/"),
        get("/index.html"),
        get("/../Cargo.toml"),
        post("/api/rooms", r#"{"name":"Fuzz","level":"tutorial"}"#),
        post("/api/rooms", r#"{"name":"Fuzz"}"#),
        post("/api/rooms/ACDEF/join", r#"{"name":"Fuzz","reconnect":"00112233445566778899aabbccddeeff"}"#),
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".to_vec(),
        b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n0\r\n\r\n".to_vec(),
        // The results board: a list, an entry, a ticket, and a bundle's head.
        get("/api/board?level=tutorial&team=2&limit=5"),
        get("/api/board/bundle/1"),
        get("/api/board/ticket/1"),
        post("/api/board", r#"(bundle_version:2,room:"ACDEF",round:1,reason:"finished",seed:7,level_id:"tutorial",level_hash:"2c9a9ac5e84826c0",level_source:"""#),
    ]
}

pub struct HttpTarget {
    server: LiveServer,
    corpus: Vec<Vec<u8>>,
}

impl HttpTarget {
    pub fn new() -> Result<HttpTarget, String> {
        let server = LiveServer::start("http")?;
        server.healthy()?;
        Ok(HttpTarget { server, corpus: requests() })
    }
}

impl Target for HttpTarget {
    fn input(&mut self, rng: &mut SplitMix64) -> Vec<u8> {
        let base = &self.corpus[rng.index(self.corpus.len())];
        mutate(rng, base, &self.corpus)
    }

    fn feed(&mut self, input: &[u8]) -> Outcome {
        self.server.exchange(input)
    }

    fn still_serving(&mut self) -> Result<(), String> {
        self.server.healthy()?;
        self.server.plays()
    }
}
