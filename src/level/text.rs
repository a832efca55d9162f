//! Bytes → RON document, with every way a file can fail to be one turned into a named error.
//!
//! Shared by levels, the recipe book and the campaign index so "empty", "binary", "truncated"
//! and "the wrong kind of file" read the same everywhere and nothing reaches serde that could
//! only fail anonymously.

use serde::de::DeserializeOwned;

use super::error::{ErrorCode, LevelError, Pos};

/// The UTF-8 byte-order mark some editors write; it is not content.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Checks that `src` is non-empty UTF-8 text without binary control characters.
pub fn decode_text<'a>(src: &'a [u8], file: &str) -> Result<&'a str, Vec<LevelError>> {
    let src = src.strip_prefix(BOM).unwrap_or(src);
    let text = match std::str::from_utf8(src) {
        Ok(text) => text,
        Err(e) => {
            let valid = src.get(..e.valid_up_to()).unwrap_or_default();
            let pos = end_pos(std::str::from_utf8(valid).unwrap_or_default());
            let msg = format!(
                "not UTF-8 text (byte {} is not valid UTF-8); is this a binary file?",
                e.valid_up_to()
            );
            return Err(vec![not_a_file(file, Some(pos), msg)]);
        }
    };
    if text.trim().is_empty() {
        return Err(vec![not_a_file(file, None, "the file is empty")]);
    }
    if let Some((i, c)) =
        text.char_indices().find(|&(_, c)| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        let pos = end_pos(text.get(..i).unwrap_or_default());
        let msg =
            format!("control character U+{:04X} in the text; is this a binary file?", c as u32);
        return Err(vec![not_a_file(file, Some(pos), msg)]);
    }
    Ok(text)
}

/// Parses `text` as the RON type `T` whose top-level name is `kind` (`Level`, `RecipeBook`,
/// `Campaign`), classifying ron's error: end of input and a wrong top-level name mean "not
/// this kind of file" (NOT_A_LEVEL); everything else is RON_SYNTAX at ron's position.
pub fn parse_ron<T: DeserializeOwned>(
    text: &str,
    file: &str,
    kind: &str,
) -> Result<T, Vec<LevelError>> {
    let err = match ron::Options::default().from_str::<T>(text) {
        Ok(value) => return Ok(value),
        Err(err) => err,
    };
    let pos = Some(Pos { line: to_u32(err.span.start.line), col: to_u32(err.span.start.col) });
    let (code, message) = match &err.code {
        ron::Error::Eof | ron::Error::ExpectedStringEnd => (
            ErrorCode::NotALevel,
            format!("the file ends in the middle of the `{kind}(...)` (truncated?)"),
        ),
        ron::Error::ExpectedDifferentStructName { found, .. } => {
            (ErrorCode::NotALevel, format!("expected a `{kind}(...)` file, found `{found}(...)`"))
        }
        // ron names a cut-off file by whatever it expected next ("Expected end of string"):
        // an error that reaches the end of the text is a truncated file, not a typo.
        other if reaches_end(&err.span, text) => {
            (ErrorCode::NotALevel, format!("the file ends early (truncated?): {other}"))
        }
        other => (ErrorCode::RonSyntax, other.to_string()),
    };
    Err(vec![LevelError::new(code, file, pos, message)])
}

/// Does the error sit on the last line of a text that stops before its closing `)`? A
/// complete RON document ends with `)`, so that is a cut-off file.
fn reaches_end(span: &ron::error::Span, text: &str) -> bool {
    let trimmed = text.trim_end();
    let last_line = end_pos(trimmed).line;
    to_u32(span.end.line) >= last_line && !trimmed.ends_with(')')
}

fn not_a_file(file: &str, pos: Option<Pos>, msg: impl Into<String>) -> LevelError {
    LevelError::new(ErrorCode::NotALevel, file, pos, msg)
}

/// The position just past the end of `text` (1-based, columns in characters).
pub fn end_pos(text: &str) -> Pos {
    let line = 1 + text.chars().filter(|&c| c == '\n').count();
    let col = 1 + text.chars().rev().take_while(|&c| c != '\n').count();
    Pos { line: to_u32(line), col: to_u32(col) }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::schema::CampaignFile;

    fn code_of(r: Result<CampaignFile, Vec<LevelError>>) -> ErrorCode {
        r.err().and_then(|e| e.first().map(|e| e.code)).expect("an error")
    }

    fn parse(src: &[u8]) -> Result<CampaignFile, Vec<LevelError>> {
        decode_text(src, "f.ron").and_then(|t| parse_ron(t, "f.ron", "Campaign"))
    }

    #[test]
    fn empty_binary_and_truncated_are_not_files() {
        assert_eq!(code_of(parse(b"")), ErrorCode::NotALevel);
        assert_eq!(code_of(parse(b"  \n\t ")), ErrorCode::NotALevel);
        assert_eq!(code_of(parse(b"\xff\xfe\x00")), ErrorCode::NotALevel);
        assert_eq!(code_of(parse(b"Camp\x00aign()")), ErrorCode::NotALevel);
        assert_eq!(code_of(parse(b"Campaign(levels: [\"a\"")), ErrorCode::NotALevel);
        assert_eq!(code_of(parse(b"Level(levels: [])")), ErrorCode::NotALevel);
    }

    #[test]
    fn syntax_errors_carry_rons_position() {
        let errs = parse(b"Campaign(\n  levels: [\"a\",, ],\n)").expect_err("bad");
        assert_eq!(errs[0].code, ErrorCode::RonSyntax);
        assert_eq!(errs[0].line, Some(2));
    }

    #[test]
    fn bom_is_skipped() {
        assert!(parse(b"\xEF\xBB\xBFCampaign(levels: [\"a\"])").is_ok());
    }

    #[test]
    fn end_pos_counts_chars() {
        assert_eq!(end_pos(""), Pos { line: 1, col: 1 });
        assert_eq!(end_pos("ab\ncé"), Pos { line: 2, col: 3 });
    }
}
