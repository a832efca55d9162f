//! Validators of static files: a strong `ETag` per representation, and `If-None-Match`
//! (RFC 9110 §8.8.3, §13.1.2). The tag comes from the length and modification time of the file
//! being sent, read from the open file's metadata: no byte of a 14 MB .wasm is hashed per
//! request, and a new build (a rewritten file) gets a new tag at once.

use super::encoding::Coding;
use std::fs::Metadata;
use std::time::UNIX_EPOCH;

/// `"<length hex>-<mtime ns hex>[-br|-gz]"`: the coding's mark keeps the three representations
/// of one file apart even where their length and time could agree. None when the file system
/// keeps no modification time (then the answer has no tag, and is never a 304).
pub fn etag(meta: &Metadata, coding: Coding) -> Option<String> {
    let nanos = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?.as_nanos();
    let mark = match coding {
        Coding::Br => "-br",
        Coding::Gzip => "-gz",
        Coding::Identity => "",
    };
    Some(format!("\"{:x}-{nanos:x}{mark}\"", meta.len()))
}

/// Whether the `If-None-Match` lines name `tag` (or are `*`): then a GET or HEAD gets 304. The
/// comparison is the weak one the field calls for (a `W/` tag matches its strong twin). A line
/// that does not parse as a list of entity tags is ignored: the full answer is always correct.
pub fn none_match<'a>(lines: impl IntoIterator<Item = &'a [u8]>, tag: &str) -> bool {
    lines.into_iter().any(|line| names(line, tag.as_bytes()).unwrap_or(false))
}

/// `"*"` or `#entity-tag` (`[ "W/" ] DQUOTE *etagc DQUOTE`), matched against `tag`; None when
/// malformed.
fn names(line: &[u8], tag: &[u8]) -> Option<bool> {
    let skip = |i: &mut usize, also_comma: bool| {
        while line.get(*i).is_some_and(|&b| b == b' ' || b == b'\t' || (also_comma && b == b',')) {
            *i += 1;
        }
    };
    let mut i = 0;
    skip(&mut i, true);
    if line.get(i) == Some(&b'*') {
        i += 1;
        skip(&mut i, true);
        return (i == line.len()).then_some(true);
    }
    let mut found = false;
    while i < line.len() {
        if line[i..].starts_with(b"W/") {
            i += 2;
        }
        if line.get(i) != Some(&b'"') {
            return None;
        }
        // etagc is any visible byte but DQUOTE (commas included): the tag ends at the next quote.
        let len = line[i + 1..].iter().position(|&b| b == b'"')?;
        let opaque = &line[i..i + len + 2];
        if !opaque[1..opaque.len() - 1].iter().all(|&b| b == 0x21 || b >= 0x23 && b != 0x7f) {
            return None;
        }
        found |= opaque == tag;
        i += len + 2;
        skip(&mut i, false);
        match line.get(i) {
            None => break,
            Some(b',') => skip(&mut i, true),
            Some(_) => return None,
        }
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAG: &str = "\"1f-17a2b3c4d5e6f-br\"";

    fn hit(line: &str) -> bool {
        none_match([line.as_bytes()], TAG)
    }

    #[test]
    fn lists_stars_and_weak_tags_match() {
        assert!(hit(TAG));
        assert!(hit(&format!("\"other\", {TAG}")));
        assert!(hit(&format!("W/{TAG}")), "If-None-Match compares weakly");
        assert!(hit(&format!(" ,\"a,b\" ,{TAG} , ")), "a comma inside a tag is part of it");
        assert!(hit("*"));
        assert!(none_match([&b"\"x\""[..], TAG.as_bytes()], TAG), "lines of one header");
        assert!(!hit("\"1f-17a2b3c4d5e6f\""), "identity's tag is another representation");
        assert!(!hit("\"1f-17a2b3c4d5e6f-gz\""));
        assert!(!none_match([], TAG));
    }

    #[test]
    fn a_malformed_line_matches_nothing() {
        for line in [
            TAG.trim_matches('"'),
            &format!("{TAG} junk"),
            &format!("{TAG}\"x\""),
            "\"unterminated",
            "* , \"x\"",
            "w/\"1f-17a2b3c4d5e6f-br\"",
            "\"a\u{7f}\"",
        ] {
            assert!(!hit(line), "{line:?}");
        }
        assert!(!none_match([&b"\"\x01\""[..]], "\"\x01\""), "control bytes are not etagc");
    }

    #[test]
    fn each_representation_has_its_own_tag() {
        let meta = std::fs::metadata(file!()).or_else(|_| std::fs::metadata(".")).unwrap();
        let tags = [Coding::Identity, Coding::Br, Coding::Gzip].map(|c| etag(&meta, c).unwrap());
        assert!(tags[0] != tags[1] && tags[1] != tags[2] && tags[0] != tags[2], "{tags:?}");
        assert!(tags.iter().all(|t| t.starts_with('"') && t.ends_with('"')));
    }
}
