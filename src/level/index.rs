//! The published index, `levels/index.ron`: the campaign in play order, each level with the
//! hash of the file that was proven, its target, the bots' proof and the build that proved it.
//!
//! `undercooked level publish` writes it; the hosted server and the campaign trust a level file
//! only while its bytes hash to its entry (seed 004's "content index trusted by hash"). The
//! hash is the replay bundles' content hash (FNV-1a 64 as 16 hex digits), so one digest names a
//! level's text everywhere. An index in the old format (plain ids) is refused by name
//! (`INDEX_OLD_FORMAT`), not migrated: migrating would mark files published that no bot proved.

use serde::Deserialize;
use std::fmt::Write as _;
use std::hash::Hasher;

use super::error::{ErrorCode, LevelError};
use super::schema::CampaignFile;
use super::source_map::SourceMap;
use super::text::{decode_text, parse_ron};

/// One team size's proof: wins over the seeds tried, and the median ticks to the verdict.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamProof {
    pub bots: u8,
    pub wins: u32,
    pub median_ticks: u32,
}

/// What the bots showed: seeds 1..=`seeds` for every team size in `teams`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proof {
    pub seeds: u32,
    pub teams: Vec<TeamProof>,
}

/// One versus team size's proof (bots split between the teams by their spawns): wins per
/// side and draws over the seeds, and the median ticks to the buzzer's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VersusSideProof {
    /// Bots in the round, both teams together (2: one a side, 4: two a side).
    pub bots: u8,
    pub a_wins: u32,
    pub b_wins: u32,
    pub draws: u32,
    pub median_ticks: u32,
}

/// What the bots showed on a versus kitchen: seeds 1..=`seeds` for every size in `sizes`, on
/// each of which both teams scored.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VersusProof {
    pub seeds: u32,
    pub sizes: Vec<VersusSideProof>,
}

/// One published level. A co-op kitchen's entry has a target and a co-op [`Proof`]; a versus
/// kitchen's (`levels_versus/index.ron`) has no target (the buzzer names a team) and a
/// [`VersusProof`] instead, so its `target` is 0 and its `proof` empty.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexEntry {
    pub id: String,
    /// [`file_hash`] of the level file's bytes when it was published.
    pub hash: String,
    /// The target score the publishing rule set (also the file's `target_score`); 0 for a
    /// versus kitchen.
    #[serde(default)]
    pub target: i32,
    #[serde(default)]
    pub proof: Proof,
    /// A versus kitchen's proof (`None` for a co-op kitchen).
    #[serde(default)]
    pub versus: Option<VersusProof>,
    /// The binary that proved it (`undercooked VERSION`).
    pub build: String,
}

/// The whole index: entries in play order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename = "Campaign", deny_unknown_fields)]
pub struct PublishedIndex {
    pub levels: Vec<IndexEntry>,
}

/// The content hash of a level file's bytes: the same FNV-1a 64 as
/// `replay::bundle::content_hash` (for UTF-8 text the two agree), as 16 hex digits.
pub fn file_hash(bytes: &[u8]) -> String {
    let mut h = fnv::FnvHasher::default();
    h.write(bytes);
    // Sixteen lower-case digits, as `replay::hex` writes a digest (not imported: replay
    // already stands on level, and folders must not import each other both ways).
    format!("{:016x}", h.finish())
}

impl PublishedIndex {
    pub fn get(&self, id: &str) -> Option<&IndexEntry> {
        self.levels.iter().find(|e| e.id == id)
    }

    pub fn ids(&self) -> Vec<String> {
        self.levels.iter().map(|e| e.id.clone()).collect()
    }

    /// Replaces the entry of the same id in place (its place in the campaign is kept), or
    /// appends a new one at the end.
    pub fn upsert(&mut self, entry: IndexEntry) {
        match self.levels.iter_mut().find(|e| e.id == entry.id) {
            Some(slot) => *slot = entry,
            None => self.levels.push(entry),
        }
    }

    /// Is a file with these bytes the published version of `id`? `Err` is LEVEL_NOT_PUBLISHED
    /// naming both hashes (the index's is `none` when no entry lists the id).
    pub fn verify(&self, id: &str, file: &str, bytes: &[u8]) -> Result<(), LevelError> {
        let on_disk = file_hash(bytes);
        let listed = self.get(id).map(|e| e.hash.as_str());
        if listed == Some(on_disk.as_str()) {
            return Ok(());
        }
        let why = if listed.is_some() { "changed since it was published" } else { "not listed" };
        let msg = format!(
            "level `{id}` is {why}: the file hashes {on_disk}, the index entry {}; run \
             `undercooked level publish {file}` (or play it with --designer)",
            listed.unwrap_or("none")
        );
        Err(LevelError::new(ErrorCode::LevelNotPublished, file, None, msg))
    }

    /// The index as text, fields always in the same order and one team per line, so a diff
    /// of a re-publish shows only what changed. `header` (comment lines) is written first.
    pub fn to_text(&self, header: &str) -> String {
        let mut s = String::from(header);
        s.push_str("Campaign(\n    levels: [\n");
        for e in &self.levels {
            let _ = writeln!(s, "        (");
            let _ = writeln!(s, "            id: {:?},", e.id);
            let _ = writeln!(s, "            hash: {:?},", e.hash);
            if let Some(v) = &e.versus {
                write_versus(&mut s, v);
                let _ = writeln!(s, "            build: {:?},", e.build);
                let _ = writeln!(s, "        ),");
                continue;
            }
            let _ = writeln!(s, "            target: {},", e.target);
            let _ = writeln!(s, "            proof: (");
            let _ = writeln!(s, "                seeds: {},", e.proof.seeds);
            let _ = writeln!(s, "                teams: [");
            for t in &e.proof.teams {
                let _ = writeln!(
                    s,
                    "                    (bots: {}, wins: {}, median_ticks: {}),",
                    t.bots, t.wins, t.median_ticks
                );
            }
            let _ = writeln!(s, "                ],");
            let _ = writeln!(s, "            ),");
            let _ = writeln!(s, "            build: {:?},", e.build);
            let _ = writeln!(s, "        ),");
        }
        s.push_str("    ],\n)\n");
        s
    }
}

/// A versus entry's proof, one team size a line (the co-op `target` and `proof` are left out).
fn write_versus(s: &mut String, v: &VersusProof) {
    let _ = writeln!(s, "            versus: Some((");
    let _ = writeln!(s, "                seeds: {},", v.seeds);
    let _ = writeln!(s, "                sizes: [");
    for t in &v.sizes {
        let _ = writeln!(
            s,
            "                    (bots: {}, a_wins: {}, b_wins: {}, draws: {}, median_ticks: {}),",
            t.bots, t.a_wins, t.b_wins, t.draws, t.median_ticks
        );
    }
    let _ = writeln!(s, "                ],");
    let _ = writeln!(s, "            )),");
}

/// The comment lines an index file starts with (kept by a re-publish).
pub fn index_header(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if !line.trim_start().starts_with("//") {
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Parses an index. One in the old format (plain ids) is INDEX_OLD_FORMAT at its first entry.
pub fn parse_index(src: &[u8], file: &str) -> Result<PublishedIndex, Vec<LevelError>> {
    let text = decode_text(src, file)?;
    let errors = match parse_ron::<PublishedIndex>(text, file, "Campaign") {
        Ok(index) => return Ok(index),
        Err(errors) => errors,
    };
    if ron::Options::default().from_str::<CampaignFile>(text).is_ok() {
        let map = SourceMap::new(text);
        let pos = map.field_strings("levels").first().map(|l| l.start).or(map.field("levels"));
        let msg = "this index lists plain level ids (the format before publishing): publish \
                   each level with `undercooked level publish FILE`, which writes its entry";
        return Err(vec![LevelError::new(ErrorCode::IndexOldFormat, file, pos, msg)]);
    }
    Err(errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_round_trips_through_its_text() {
        let entry = IndexEntry {
            id: "a".into(),
            hash: "0011223344556677".into(),
            target: 120,
            proof: Proof {
                seeds: 3,
                teams: vec![TeamProof { bots: 2, wins: 3, median_ticks: 900 }],
            },
            versus: None,
            build: "undercooked 0.1.0".into(),
        };
        let versus = IndexEntry {
            id: "v".into(),
            hash: "8899aabbccddeeff".into(),
            target: 0,
            proof: Proof::default(),
            versus: Some(VersusProof {
                seeds: 2,
                sizes: vec![VersusSideProof {
                    bots: 2,
                    a_wins: 1,
                    b_wins: 0,
                    draws: 1,
                    median_ticks: 3620,
                }],
            }),
            build: "undercooked 0.1.0".into(),
        };
        let index = PublishedIndex { levels: vec![entry, versus] };
        let text = index.to_text("// head\n");
        assert!(text.starts_with("// head\nCampaign("));
        assert_eq!(parse_index(text.as_bytes(), "i.ron"), Ok(index));
    }

    #[test]
    fn an_old_index_is_refused_by_name() {
        let old = b"Campaign(\n    levels: [\n        \"tutorial\",\n    ],\n)\n";
        let errors = parse_index(old, "index.ron").expect_err("old format");
        assert_eq!(errors[0].code, ErrorCode::IndexOldFormat);
        assert_eq!(errors[0].line, Some(3));
    }

    #[test]
    fn a_changed_file_names_both_hashes() {
        let index = PublishedIndex {
            levels: vec![IndexEntry {
                id: "a".into(),
                hash: file_hash(b"old"),
                target: 1,
                proof: Proof { seeds: 1, teams: Vec::new() },
                versus: None,
                build: String::new(),
            }],
        };
        assert!(index.verify("a", "a.ron", b"old").is_ok());
        let e = index.verify("a", "a.ron", b"new").expect_err("changed");
        assert_eq!(e.code, ErrorCode::LevelNotPublished);
        assert!(e.message.contains(&file_hash(b"old")) && e.message.contains(&file_hash(b"new")));
        let e = index.verify("b", "b.ron", b"new").expect_err("unlisted");
        assert!(e.message.contains("not listed"), "{}", e.message);
    }
}
