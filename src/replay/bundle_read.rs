//! Reading a bundle file: `replay check BUNDLE`, and a bundle of any format this build knows
//! (issue 30 item 4): its version is read
//! first, alone, so a bundle is never refused with a parse error at a column because its
//! frames have another shape. Version 2 is today's; version 1, written before the second button
//! (dash / throw), has 8-field frames and is read with that button up in every frame, which is
//! what its players pressed (the rules of a round without the button are unchanged). Any other
//! version is refused by name with both versions.

use super::bundle::{BUNDLE_VERSION, Bundle, BundleFrame, OLDEST_BUNDLE_VERSION, check_bundle};
use super::golden::FieldDelta;
use crate::sim::assist::Assist;
use crate::sim::kinds::Dir4;
use serde::Deserialize;
use std::path::Path;

/// Why a bundle's text could not be read.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum BundleReadError {
    /// Not a bundle at all, or cut before its version.
    #[error("BUNDLE_UNREADABLE: no bundle version could be read: {0}")]
    Unreadable(String),
    /// A version this build does not read (newer, or older than the oldest it converts).
    #[error(
        "BUNDLE_VERSION_UNSUPPORTED: bundle version {found}; this build reads versions \
         {OLDEST_BUNDLE_VERSION} to {BUNDLE_VERSION}"
    )]
    Unsupported { found: u32 },
    /// A known version whose text ends before its body does (cut short in transit or by hand).
    #[error("BUNDLE_TRUNCATED: version {version} bundle: its text ends at byte {at}")]
    Truncated { version: u32, at: usize },
    /// A known version whose body does not parse (edited by hand).
    #[error("BUNDLE_MALFORMED: version {version} bundle: {detail}")]
    Malformed { version: u32, detail: String },
}

/// How far into the text the version must appear (it is a bundle's first field).
const VERSION_WITHIN: usize = 256;

/// The `bundle_version: N` at the head of a bundle's text, read without parsing the rest, so a
/// bundle cut short or of another shape still names its version.
fn peek_version(text: &str) -> Option<u32> {
    // Cut at a character boundary: a hostile file may put a multi-byte character there.
    let end = (0..=text.len().min(VERSION_WITHIN)).rev().find(|&i| text.is_char_boundary(i))?;
    let head = &text[..end];
    let after = &head[head.find("bundle_version")? + "bundle_version".len()..];
    let after = after.trim_start().strip_prefix(':')?.trim_start();
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// A version 1 frame: (admitted at, seat, seq, tick, move x, move y, action, face).
type FrameV1 = (u32, u8, u32, u32, i16, i16, bool, Option<Dir4>);

/// A version 1 bundle: today's fields, frames without the second button.
#[derive(Deserialize)]
struct BundleV1 {
    bundle_version: u32,
    room: String,
    round: u32,
    reason: String,
    seed: u64,
    level_id: String,
    level_hash: String,
    level_source: String,
    recipes_hash: String,
    recipes_source: String,
    seats: Vec<(u8, String)>,
    ticks: u32,
    record_every: u32,
    final_hash: String,
    hashes: Vec<(u32, String)>,
    fields: Vec<FieldDelta>,
    frames: Vec<FrameV1>,
    result: String,
    #[serde(default)]
    assist: Assist,
}

impl From<BundleV1> for Bundle {
    fn from(b: BundleV1) -> Bundle {
        let frames: Vec<BundleFrame> = b
            .frames
            .into_iter()
            .map(|(at, seat, seq, tick, mx, my, action, face)| {
                (at, seat, seq, tick, mx, my, action, face, false)
            })
            .collect();
        Bundle {
            bundle_version: b.bundle_version,
            room: b.room,
            round: b.round,
            reason: b.reason,
            seed: b.seed,
            level_id: b.level_id,
            level_hash: b.level_hash,
            level_source: b.level_source,
            recipes_hash: b.recipes_hash,
            recipes_source: b.recipes_source,
            seats: b.seats,
            ticks: b.ticks,
            record_every: b.record_every,
            final_hash: b.final_hash,
            hashes: b.hashes,
            fields: b.fields,
            frames,
            result: b.result,
            assist: b.assist,
            // Version 1 predates survival.
            survival: false,
        }
    }
}

/// Whether a text that does not parse was cut short: the parser ran out of input, or the text
/// ends with a string, list or struct still open (a whole bundle closes every one it opens, so
/// an edit inside it leaves them balanced while a cut does not).
fn ends_the_text(text: &str, e: &ron::error::SpannedError) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0i64, false, false);
    for c in text.chars() {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, '\\') => escaped = true,
            (true, false, '"') => in_string = false,
            (true, false, _) => {}
            (false, _, '"') => in_string = true,
            (false, _, '(' | '[' | '{') => depth += 1,
            (false, _, ')' | ']' | '}') => depth -= 1,
            (false, _, _) => {}
        }
    }
    e.code == ron::Error::Eof || in_string || depth > 0
}

/// The bundle in `text`, whatever known version wrote it, as today's [`Bundle`] (its
/// `bundle_version` kept as written, so a report can say which it was).
pub fn read_bundle(text: &str) -> Result<Bundle, BundleReadError> {
    let Some(version) = peek_version(text) else {
        return Err(BundleReadError::Unreadable(
            "no `bundle_version: N` at its head: not a bundle".into(),
        ));
    };
    let malformed = |e: ron::error::SpannedError| match ends_the_text(text, &e) {
        true => BundleReadError::Truncated { version, at: text.len() },
        false => BundleReadError::Malformed { version, detail: e.to_string() },
    };
    match version {
        BUNDLE_VERSION => ron::from_str::<Bundle>(text).map_err(malformed),
        1 => ron::from_str::<BundleV1>(text).map(Bundle::from).map_err(malformed),
        found => Err(BundleReadError::Unsupported { found }),
    }
}

/// `replay check BUNDLE`: read, re-run, print; returns the exit code (0 match, 1 mismatch,
/// 2 missing or invalid).
pub fn check_bundle_file(path: &Path) -> u8 {
    let checked = super::verdict::read_and_check(path, "bundle", |text| {
        read_bundle(text).map_err(|e| e.to_string()).and_then(|b| check_bundle(&b).map(|c| (b, c)))
    });
    let (bundle, check) = match checked {
        Ok(v) => v,
        Err(code) => return code,
    };
    if let Some((tick, msg)) = &check.panicked {
        println!("{}: the replay panicked at tick {tick}: {msg}", path.display());
    }
    let chain_code = super::cli::report_check(path, &check.chain);
    let code = super::verdict::fold_result_diffs(
        path,
        chain_code,
        &check.result_diffs,
        "the result payload",
    );
    if code == 0 {
        println!(
            "{}: room {} round {} ({}), {} frames, result reproduced",
            path.display(),
            bundle.room,
            bundle.round,
            bundle.reason,
            bundle.frames.len()
        );
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bundle's fields (not a playable round: reading is what is under test here).
    fn bundle(frames: Vec<BundleFrame>) -> Bundle {
        Bundle {
            bundle_version: BUNDLE_VERSION,
            room: "ACDEF".into(),
            round: 1,
            reason: "finished".into(),
            seed: 7,
            level_id: "tutorial".into(),
            level_hash: "00".into(),
            level_source: "()".into(),
            recipes_hash: "00".into(),
            recipes_source: "()".into(),
            seats: vec![(0, "Ann".into())],
            ticks: 3,
            record_every: 100,
            final_hash: "ff".into(),
            hashes: vec![(0, "aa".into())],
            fields: Vec::new(),
            frames,
            result: "{}".into(),
            assist: Assist::default(),
            survival: false,
        }
    }

    /// `b` as version 1 wrote it: 8-field frames, no second button.
    fn as_version_1(b: &Bundle) -> String {
        let text = b.to_ron().replace("bundle_version:2", "bundle_version:1");
        let mut out = text.clone();
        for f in &b.frames {
            let v2 = ron::to_string(f).unwrap();
            let v1 = ron::to_string(&(f.0, f.1, f.2, f.3, f.4, f.5, f.6, f.7)).unwrap();
            out = out.replacen(&v2, &v1, 1);
        }
        assert_ne!(out, text, "the frames were rewritten");
        out
    }

    #[test]
    fn todays_bundle_reads_back_as_written() {
        let b = bundle(vec![(1, 0, 1, 1, 5, -5, true, Some(Dir4::Up), true)]);
        assert_eq!(read_bundle(&b.to_ron()), Ok(b));
    }

    #[test]
    fn a_version_1_bundle_reads_with_the_second_button_up() {
        let frames = vec![
            (1, 0, 1, 1, 5, -5, true, Some(Dir4::Up), false),
            (2, 0, 2, 2, 0, 0, false, None, false),
        ];
        let b = bundle(frames);
        let read = read_bundle(&as_version_1(&b)).expect("version 1 reads");
        assert_eq!(read.bundle_version, 1);
        assert_eq!(read, Bundle { bundle_version: 1, ..b });
    }

    #[test]
    fn other_versions_and_broken_text_are_refused_by_name_never_at_a_column() {
        let b = bundle(vec![(1, 0, 1, 1, 5, -5, true, None, false)]);
        let v9 = b.to_ron().replace("bundle_version:2", "bundle_version:9");
        let e = read_bundle(&v9).unwrap_err();
        assert_eq!(e, BundleReadError::Unsupported { found: 9 });
        let said = e.to_string();
        assert!(said.contains("version 9") && said.contains("versions 1 to 2"), "{said}");
        // Cut short: a version 2 bundle that ends early names its version and the cut.
        let text = b.to_ron();
        let cut = &text[..text.len() / 2];
        let read = read_bundle(cut);
        assert!(
            matches!(read, Err(BundleReadError::Truncated { version: 2, .. })),
            "{read:?} {}",
            cut.len()
        );
        let edited = text.replace("seed:7", "seed:\"seven\"");
        let read = read_bundle(&edited);
        assert!(matches!(read, Err(BundleReadError::Malformed { version: 2, .. })), "{read:?}");
        assert!(matches!(read_bundle("(nonsense: 1)"), Err(BundleReadError::Unreadable(_))));
        assert!(matches!(read_bundle(""), Err(BundleReadError::Unreadable(_))));
        // A multi-byte character across the head's end is no panic.
        let wide = format!("({}bundle_version: 2", "é".repeat(200));
        assert!(read_bundle(&wide).is_err());
    }
}
