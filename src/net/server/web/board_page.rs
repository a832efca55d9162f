//! `GET /board`: the results board as a page a browser reads, rendered here (no script): each
//! ranked level (the daily kitchens first) and team size with its best rounds, every entry's
//! bundle a download link (`/api/board/bundle/ID`). Every text from a bundle (cooks' names,
//! level ids) is escaped. Served by the game server's web port and the directory alike.

use super::board::BoardDoor;
use super::body::{WebBody, full};
use crate::board::entry::Entry;
use crate::sim::units::{MAX_COOKS, TICK_HZ};
use hyper::Response;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue};
use std::fmt::Write;
use std::sync::Arc;

/// The page's path.
pub const BOARD_PAGE_PATH: &str = "/board";
/// Entries shown per level and team size.
const SHOWN: usize = 10;

/// `text` safe inside HTML text and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One level's tables: a team size each that has entries.
fn level_section(out: &mut String, id: &str, daily: bool, boards: &[(u8, Vec<Entry>)]) {
    let tag = if daily { " <small>(daily kitchen)</small>" } else { "" };
    let _ = writeln!(out, "<h2>{}{tag}</h2>", escape_html(id));
    if boards.iter().all(|(_, e)| e.is_empty()) {
        out.push_str("<p>No rounds entered yet.</p>\n");
        return;
    }
    for (team, entries) in boards.iter().filter(|(_, e)| !e.is_empty()) {
        let _ = write!(
            out,
            "<h3>{team} cook(s)</h3>\n<table>\n<tr><th>#</th><th>score</th><th>time</th>\
             <th>cooks</th><th>bundle</th></tr>\n"
        );
        for (i, e) in entries.iter().enumerate() {
            let secs = e.ticks / TICK_HZ;
            let names: Vec<String> = e.names.iter().map(|n| escape_html(n)).collect();
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}:{:02}</td><td>{}</td>\
                 <td><a href=\"/api/board/bundle/{id}\" download=\"board-{id}.ron\">board-{id}.ron</a></td></tr>",
                i + 1,
                e.score,
                secs / 60,
                secs % 60,
                names.join(", "),
                id = e.id
            );
        }
        out.push_str("</table>\n");
    }
}

/// The whole page from each level's boards.
fn render(levels: &[(String, bool, Vec<(u8, Vec<Entry>)>)], errors: &[String]) -> String {
    let mut out = String::from(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Undercooked: results board</title>\n<style>body{font-family:sans-serif;\
         max-width:50em;margin:2em auto;background:#12141f;color:#eee}a{color:#fc4}\
         td,th{padding:.2em .8em;text-align:left}</style></head><body>\n\
         <h1>Results board</h1>\n<p>Every round here was replayed by this host before it was \
         entered. Download a bundle and watch it: <code>undercooked play --bundle \
         board-ID.ron</code>.</p>\n",
    );
    for e in errors {
        let _ = writeln!(out, "<p><strong>{}</strong></p>", escape_html(e));
    }
    if levels.is_empty() {
        out.push_str("<p>This board ranks no levels.</p>\n");
    }
    for (id, daily, boards) in levels {
        level_section(&mut out, id, *daily, boards);
    }
    out.push_str("</body></html>\n");
    out
}

/// `GET /board`. `door` None: a page saying this host runs no board. The store is read on the
/// blocking pool.
pub async fn board_page(door: Option<&Arc<BoardDoor>>) -> Response<WebBody> {
    let html = match door {
        None => render(&[], &["This host runs no results board.".into()]),
        Some(door) => {
            let d = door.clone();
            let read = tokio::task::spawn_blocking(move || {
                let mut errors = Vec::new();
                let mut levels = Vec::new();
                for (id, hash, daily) in d.board.levels() {
                    let mut boards = Vec::new();
                    for team in 1..=MAX_COOKS as u8 {
                        match d.board.list(&hash, team, SHOWN) {
                            Ok(l) => boards.push((team, l.entries)),
                            Err(r) => errors.push(format!("{id}, {team} cook(s): {r}")),
                        }
                    }
                    levels.push((id, daily, boards));
                }
                render(&levels, &errors)
            })
            .await;
            read.unwrap_or_else(|e| render(&[], &[format!("the board's read stopped: {e}")]))
        }
    };
    let mut r = Response::new(full(html));
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cooks_name_and_a_level_id_are_escaped_on_the_page() {
        let entry = Entry {
            id: 7,
            level_id: "x".into(),
            level_hash: "0".repeat(16),
            team: 1,
            score: 40,
            ticks: 1_250,
            seed: 1,
            final_hash: "0".repeat(16),
            names: vec!["<script>alert('x')</script>".into()],
        };
        let page = render(&[("a&b".into(), true, vec![(1, vec![entry])])], &[]);
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), "{page}");
        assert!(page.contains("<h2>a&amp;b <small>(daily kitchen)</small></h2>"), "{page}");
        assert!(page.contains("<td>1:02</td>"), "{page}");
        assert!(page.contains("href=\"/api/board/bundle/7\""), "{page}");
    }
}
