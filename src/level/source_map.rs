//! Finds where things are in a RON source text, so semantic errors can carry line:column.
//!
//! ron reports positions only for syntax errors, so after a successful parse we re-scan the
//! text with a tiny tokenizer (identifiers, punctuation, strings, chars; comments skipped) and
//! look fields up by name. This is only ever run on text ron already accepted, but it never
//! panics on anything: unknown characters are skipped, unterminated literals end the scan.

use super::error::Pos;

/// One token of the scanned text.
#[derive(Clone, Debug, PartialEq)]
enum TokKind {
    Ident(String),
    Punct(char),
    /// A string literal with the position of every decoded character.
    Str(Vec<Pos>),
    /// Anything else (numbers, char literals): only its position matters.
    Other,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: TokKind,
    pos: Pos,
}

/// The tokens of one file, searchable by field name.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    toks: Vec<Tok>,
}

/// A string literal found in the text: where its opening quote is, and each decoded char.
#[derive(Clone, Debug)]
pub struct StrLoc {
    pub start: Pos,
    chars: Vec<Pos>,
}

impl StrLoc {
    /// The position of the `i`th decoded character, or just past the last one (so an error
    /// about a missing character points at the end of the row).
    pub fn char_pos(&self, i: usize) -> Pos {
        match self.chars.get(i) {
            Some(p) => *p,
            None => match self.chars.last() {
                Some(last) => Pos { line: last.line, col: last.col.saturating_add(1) },
                None => Pos { line: self.start.line, col: self.start.col.saturating_add(1) },
            },
        }
    }
}

struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: u32,
    col: u32,
}

impl Cursor<'_> {
    fn pos(&self) -> Pos {
        Pos { line: self.line, col: self.col }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else {
            self.col = self.col.saturating_add(1);
        }
        Some(c)
    }
}

impl SourceMap {
    pub fn new(text: &str) -> SourceMap {
        let mut cur = Cursor { chars: text.chars().peekable(), line: 1, col: 1 };
        let mut toks = Vec::new();
        while let Some(tok) = next_token(&mut cur) {
            toks.push(tok);
        }
        SourceMap { toks }
    }

    /// Token indices of every `name:` field key, in text order.
    fn field_keys(&self, name: &str) -> impl Iterator<Item = usize> + '_ {
        let name = name.to_string();
        (0..self.toks.len()).filter(move |&i| {
            matches!(&self.toks[i].kind, TokKind::Ident(s) if *s == name)
                && matches!(self.toks.get(i + 1).map(|t| &t.kind), Some(TokKind::Punct(':')))
        })
    }

    /// Where the `n`th (0-based) `name:` key is.
    pub fn field_nth(&self, name: &str, n: usize) -> Option<Pos> {
        self.field_keys(name).nth(n).map(|i| self.toks[i].pos)
    }

    /// Where the first `name:` key is.
    pub fn field(&self, name: &str) -> Option<Pos> {
        self.field_nth(name, 0)
    }

    /// Where the first value token after the first `name:` key starts.
    pub fn field_value(&self, name: &str) -> Option<Pos> {
        let i = self.field_keys(name).next()?;
        self.toks.get(i + 2).map(|t| t.pos)
    }

    /// Token ranges `[start, end)` of the direct items of the list value of the first `name:`
    /// key (`name: [A(..), B(..)]`), in order.
    fn list_items(&self, name: &str) -> Vec<(usize, usize)> {
        let Some(key) = self.field_keys(name).next() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut depth = 0i32;
        let mut start: Option<usize> = None;
        for i in key + 2..self.toks.len() {
            match &self.toks[i].kind {
                TokKind::Punct('[' | '(' | '{') => {
                    depth += 1;
                    if depth == 1 {
                        continue;
                    }
                }
                TokKind::Punct(']' | ')' | '}') => {
                    depth -= 1;
                    if depth <= 0 {
                        if let Some(s) = start.take() {
                            out.push((s, i));
                        }
                        break;
                    }
                }
                TokKind::Punct(',') if depth == 1 => {
                    if let Some(s) = start.take() {
                        out.push((s, i));
                    }
                    continue;
                }
                _ if depth == 0 => break,
                _ => {}
            }
            if depth >= 1 && start.is_none() {
                start = Some(i);
            }
        }
        out
    }

    /// Where the `k`th (0-based) item of the list value of the first `name:` key starts.
    pub fn list_item(&self, name: &str, k: usize) -> Option<Pos> {
        self.list_items(name).get(k).map(|&(s, _)| self.toks[s].pos)
    }

    /// Where the value of the `field:` key inside the `k`th item of the `name:` list starts,
    /// else where the item starts.
    pub fn list_item_field(&self, name: &str, k: usize, field: &str) -> Option<Pos> {
        let &(s, e) = self.list_items(name).get(k)?;
        let found = (s..e).find(|&i| {
            matches!(&self.toks[i].kind, TokKind::Ident(n) if n == field)
                && matches!(self.toks.get(i + 1).map(|t| &t.kind), Some(TokKind::Punct(':')))
        });
        match found {
            Some(i) => self.toks.get(i + 2).map(|t| t.pos),
            None => Some(self.toks[s].pos),
        }
    }

    /// The string literals of the list value of the first `name:` key (`name: ["a", "b"]`),
    /// in order. Nested brackets are skipped over; only direct string items are returned.
    pub fn field_strings(&self, name: &str) -> Vec<StrLoc> {
        let Some(key) = self.field_keys(name).next() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut depth = 0i32;
        for tok in self.toks.iter().skip(key + 2) {
            match &tok.kind {
                TokKind::Punct('[' | '(' | '{') => depth += 1,
                TokKind::Punct(']' | ')' | '}') => {
                    depth -= 1;
                    if depth <= 0 {
                        break;
                    }
                }
                TokKind::Str(chars) if depth == 1 => {
                    out.push(StrLoc { start: tok.pos, chars: chars.clone() })
                }
                _ if depth == 0 => break,
                _ => {}
            }
        }
        out
    }
}

fn next_token(cur: &mut Cursor) -> Option<Tok> {
    loop {
        let c = cur.peek()?;
        if c.is_whitespace() {
            cur.bump();
            continue;
        }
        let pos = cur.pos();
        if c == '/' {
            cur.bump();
            match cur.peek() {
                Some('/') => skip_line(cur),
                Some('*') => skip_block_comment(cur),
                _ => {}
            }
            continue;
        }
        if c == '"' {
            cur.bump();
            return Some(Tok { kind: TokKind::Str(scan_string(cur)), pos });
        }
        if c == '\'' {
            cur.bump();
            scan_char(cur);
            return Some(Tok { kind: TokKind::Other, pos });
        }
        if c.is_alphabetic() || c == '_' {
            let ident = scan_ident(cur);
            // A raw string `r"..."` / `r#"..."#` starts like an identifier.
            if ident == "r" && matches!(cur.peek(), Some('"' | '#')) {
                return Some(Tok { kind: TokKind::Str(scan_raw_string(cur)), pos });
            }
            return Some(Tok { kind: TokKind::Ident(ident), pos });
        }
        cur.bump();
        let kind = if c.is_ascii_punctuation() { TokKind::Punct(c) } else { TokKind::Other };
        return Some(Tok { kind, pos });
    }
}

fn skip_line(cur: &mut Cursor) {
    while let Some(c) = cur.bump() {
        if c == '\n' {
            return;
        }
    }
}

/// RON block comments nest, like Rust's.
fn skip_block_comment(cur: &mut Cursor) {
    cur.bump();
    let mut depth = 1u32;
    while let Some(c) = cur.bump() {
        match (c, cur.peek()) {
            ('*', Some('/')) => {
                cur.bump();
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
            ('/', Some('*')) => {
                cur.bump();
                depth += 1;
            }
            _ => {}
        }
    }
}

fn scan_ident(cur: &mut Cursor) -> String {
    let mut s = String::new();
    while let Some(c) = cur.peek() {
        if c.is_alphanumeric() || c == '_' {
            s.push(c);
            cur.bump();
        } else {
            break;
        }
    }
    s
}

/// Scans after the opening quote; returns each decoded character's position. An escape
/// sequence decodes to one character positioned at its backslash.
fn scan_string(cur: &mut Cursor) -> Vec<Pos> {
    let mut chars = Vec::new();
    loop {
        let pos = cur.pos();
        match cur.bump() {
            None | Some('"') => return chars,
            Some('\\') => {
                skip_escape(cur);
                chars.push(pos);
            }
            Some(_) => chars.push(pos),
        }
    }
}

fn skip_escape(cur: &mut Cursor) {
    match cur.bump() {
        Some('u') if cur.peek() == Some('{') => {
            while let Some(c) = cur.bump() {
                if c == '}' {
                    return;
                }
            }
        }
        Some('x') => {
            cur.bump();
            cur.bump();
        }
        _ => {}
    }
}

fn scan_raw_string(cur: &mut Cursor) -> Vec<Pos> {
    let mut hashes = 0usize;
    while cur.peek() == Some('#') {
        cur.bump();
        hashes += 1;
    }
    if cur.bump() != Some('"') {
        return Vec::new();
    }
    let mut chars = Vec::new();
    let mut pending: Vec<Pos> = Vec::new();
    loop {
        let pos = cur.pos();
        let Some(c) = cur.bump() else {
            return chars;
        };
        if c == '"' {
            // Count the closing hashes; too few means the quote was content.
            let mut seen = 0usize;
            pending.clear();
            pending.push(pos);
            while seen < hashes && cur.peek() == Some('#') {
                pending.push(cur.pos());
                cur.bump();
                seen += 1;
            }
            if seen == hashes {
                return chars;
            }
            chars.append(&mut pending);
        } else {
            chars.push(pos);
        }
    }
}

fn scan_char(cur: &mut Cursor) {
    match cur.bump() {
        Some('\\') => skip_escape(cur),
        None => return,
        Some(_) => {}
    }
    if cur.peek() == Some('\'') {
        cur.bump();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r##"// a comment with grid: ["no"]
Level(
    /* block /* nested */ grid: */
    id: "x",
    grid: [
        "#.#",
        "a\"b",
    ],
    legend: {'x': Wall},
    orders: (pool: ["salad", "soup"], concurrent: 2),
)"##;

    #[test]
    fn finds_fields_outside_comments() {
        let map = SourceMap::new(SRC);
        assert_eq!(map.field("id"), Some(Pos { line: 4, col: 5 }));
        assert_eq!(map.field("grid"), Some(Pos { line: 5, col: 5 }));
        assert_eq!(map.field_value("concurrent"), Some(Pos { line: 10, col: 51 }));
        assert_eq!(map.field("missing"), None);
    }

    #[test]
    fn grid_strings_map_each_char_to_its_column() {
        let map = SourceMap::new(SRC);
        let rows = map.field_strings("grid");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].start, Pos { line: 6, col: 9 });
        assert_eq!(rows[0].char_pos(0), Pos { line: 6, col: 10 });
        assert_eq!(rows[0].char_pos(2), Pos { line: 6, col: 12 });
        // Past the end points just after the last char.
        assert_eq!(rows[0].char_pos(3), Pos { line: 6, col: 13 });
        // The escaped quote is one char; `b` follows it.
        assert_eq!(rows[1].char_pos(2), Pos { line: 7, col: 13 });
    }

    #[test]
    fn nested_list_strings_are_found() {
        let map = SourceMap::new(SRC);
        let pool = map.field_strings("pool");
        assert_eq!(pool.len(), 2);
        assert_eq!(pool[1].start, Pos { line: 10, col: 30 });
    }

    #[test]
    fn garbage_never_panics() {
        for src in ["\"unterminated", "r#\"raw", "'", "/* open", "a:", "grid: [", "'\\u{"] {
            let map = SourceMap::new(src);
            let _ = map.field_strings("grid");
            let _ = map.field_value("a");
        }
    }
}
