//! The loaders target: mutations of the shipped files (levels/, goldens/levels/, the recipe
//! book, goldens/scripts/, a replay bundle and a Tandem one written by the real encoders, and
//! in client builds the key-bindings config.ron) fed to the parser each kind of file goes through. Each must
//! answer with a typed error; the kind counted is the error's code.

use super::mutate::mutate;
use super::target::{Outcome, Target};
use crate::bot::random::RandomCooks;
use crate::level::compile::parse_level;
use crate::level::recipes::parse_recipes;
use crate::replay::admitted::run_admitted;
use crate::replay::bundle::{
    BUNDLE_EVERY, BUNDLE_VERSION, Bundle, ChainRecorder, check_bundle, content_hash,
};
use crate::replay::bundle_read::{BundleReadError, read_bundle};
use crate::replay::hex::hex;
use crate::replay::script::InputScript;
use crate::sim::open::SeatSpec;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::rng::SplitMix64;
use crate::sim::room::Room;
use crate::tandem::bundle::{TandemBundle, check_bundle as check_tandem_bundle};
use std::path::Path;
use std::sync::Arc;

/// The kinds of file, one parser each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Level,
    Recipes,
    Script,
    Bundle,
    TandemBundle,
    #[cfg(feature = "client")]
    Config,
}

/// Every kind, in `FileKind::from_byte` order.
const KINDS: &[FileKind] = &[
    FileKind::Level,
    FileKind::Recipes,
    FileKind::Script,
    FileKind::Bundle,
    FileKind::TandemBundle,
    #[cfg(feature = "client")]
    FileKind::Config,
];

impl FileKind {
    fn name(self) -> &'static str {
        match self {
            FileKind::Level => "level",
            FileKind::Recipes => "recipes",
            FileKind::Script => "script",
            FileKind::Bundle => "bundle",
            FileKind::TandemBundle => "tandem bundle",
            #[cfg(feature = "client")]
            FileKind::Config => "config",
        }
    }

    fn from_byte(b: u8) -> FileKind {
        KINDS[b as usize % KINDS.len()]
    }
}

/// A bundle re-runs its round; a mutated `ticks` could ask for billions. The harness looks
/// for panics, not for slow inputs, so longer bundles are parsed but not re-run.
const BUNDLE_RUN_MAX: u32 = 400;

/// The shipped files by kind, and the book levels are compiled against.
pub struct LoadersTarget {
    book: RecipeBook,
    corpus: Vec<(FileKind, Vec<u8>)>,
    all: Vec<Vec<u8>>,
}

fn read_dir(dir: &str, kind: FileKind, out: &mut Vec<(FileKind, Vec<u8>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    // Directory order is the filesystem's: sorted, so a seed picks the same files everywhere.
    paths.sort();
    for p in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "ron")) {
        if let Ok(bytes) = std::fs::read(&p) {
            out.push((kind, bytes));
        }
    }
}

/// A real bundle: a short round of the first shipped level with random cooks, through the
/// server's own recorder and `Bundle::to_ron` (also the window's `play --bundle` test).
pub fn sample_bundle(book_source: &str, book: &RecipeBook) -> Option<Vec<u8>> {
    let source = std::fs::read_to_string(Path::new("levels/tutorial.ron")).ok()?;
    let level = Arc::new(parse_level(source.as_bytes(), "tutorial", book).ok()?);
    let seats = SeatSpec::numbered(2);
    let mut room = Room::new(level.clone(), Arc::new(book.clone()), 5, &seats);
    let ticks = 2 * BUNDLE_EVERY;
    // The random cooks' frames depend on their seed and the tick only, so the whole log can be
    // drawn first (as the server's gate would have admitted it: each at its own tick).
    let mut cooks = RandomCooks::new(5, 2);
    let admitted: Vec<_> = (0..ticks)
        .flat_map(|t| (0..2).map(move |s| (t, s)))
        .map(|(t, s)| (t, s as u8, cooks.frame(s, t)))
        .collect();
    let mut rec = ChainRecorder::default();
    rec.record(&room);
    run_admitted(&mut room, &admitted, ticks, |room| {
        if ChainRecorder::due(room.tick) {
            rec.record(room);
        }
    });
    rec.record(&room);
    let bundle = Bundle {
        bundle_version: BUNDLE_VERSION,
        room: "ACDEF".into(),
        round: 1,
        reason: "finished".into(),
        seed: 5,
        level_id: level.id.clone(),
        level_hash: content_hash(&source),
        level_source: source,
        recipes_hash: content_hash(book_source),
        recipes_source: book_source.to_string(),
        seats: seats.iter().map(|s| (s.seat, s.name.clone())).collect(),
        ticks,
        record_every: BUNDLE_EVERY,
        final_hash: hex(room.hash),
        hashes: rec.hashes.iter().map(|(t, h)| (*t, hex(*h))).collect(),
        fields: rec.fields,
        frames: crate::replay::bundle::pack_frames(&admitted),
        result: "{}".into(),
        assist: Default::default(),
        survival: false,
    };
    Some(bundle.to_ron().into_bytes())
}

impl LoadersTarget {
    pub fn new() -> Result<LoadersTarget, String> {
        let book_source = std::fs::read_to_string(crate::level::cli::RECIPES_PATH)
            .map_err(|e| format!("{}: {e}", crate::level::cli::RECIPES_PATH))?;
        let book = parse_recipes(book_source.as_bytes(), "recipes")
            .map_err(|e| format!("recipes: {e:?}"))?;
        let mut corpus = Vec::new();
        read_dir("levels", FileKind::Level, &mut corpus);
        read_dir("goldens/levels", FileKind::Level, &mut corpus);
        read_dir("goldens/scripts", FileKind::Script, &mut corpus);
        corpus.push((FileKind::Recipes, book_source.clone().into_bytes()));
        if let Some(b) = sample_bundle(&book_source, &book) {
            corpus.push((FileKind::Bundle, b));
        }
        corpus.push((FileKind::TandemBundle, sample_tandem_bundle()));
        #[cfg(feature = "client")]
        corpus.push((
            FileKind::Config,
            crate::client::settings::config::bindings_text(&Default::default()).into_bytes(),
        ));
        let kinds = corpus.iter().map(|(k, _)| *k).collect::<Vec<_>>();
        let missing = KINDS.iter().find(|k| !kinds.contains(k));
        if let Some(k) = missing {
            return Err(format!(
                "no {} file to start from (run from the repository root)",
                k.name()
            ));
        }
        let all = corpus.iter().map(|(_, b)| b.clone()).collect();
        Ok(LoadersTarget { book, corpus, all })
    }
}

impl Target for LoadersTarget {
    fn input(&mut self, rng: &mut SplitMix64) -> Vec<u8> {
        let kind = FileKind::from_byte(rng.index(KINDS.len()) as u8);
        let of_kind: Vec<&Vec<u8>> =
            self.corpus.iter().filter(|(k, _)| *k == kind).map(|(_, b)| b).collect();
        let base = of_kind[rng.index(of_kind.len())];
        let mut out = vec![kind as u8];
        out.extend(mutate(rng, base, &self.all));
        out
    }

    fn feed(&mut self, input: &[u8]) -> Outcome {
        let Some((&k, bytes)) = input.split_first() else { return "empty".into() };
        let kind = FileKind::from_byte(k);
        let text = String::from_utf8_lossy(bytes);
        let what = match kind {
            FileKind::Level => match parse_level(bytes, "fuzz.ron", &self.book) {
                Ok(_) => "ok".to_string(),
                Err(errors) => {
                    errors.first().map_or("no errors".into(), |e| e.code.as_str().to_string())
                }
            },
            FileKind::Recipes => match parse_recipes(bytes, "fuzz.ron") {
                Ok(_) => "ok".to_string(),
                Err(errors) => {
                    errors.first().map_or("no errors".into(), |e| e.code.as_str().to_string())
                }
            },
            FileKind::Script => match InputScript::parse(&text) {
                Ok(_) => "ok".to_string(),
                Err(e) => script_kind(&e).to_string(),
            },
            FileKind::Bundle => match read_bundle(&text) {
                Ok(b) if b.ticks <= BUNDLE_RUN_MAX => match check_bundle(&b) {
                    Ok(c) if c.matches() => "re-run matches".to_string(),
                    Ok(_) => "re-run differs".to_string(),
                    Err(_) => "invalid bundle".to_string(),
                },
                Ok(_) => "parsed (too long to re-run)".to_string(),
                Err(BundleReadError::Unsupported { .. }) => "unsupported version".to_string(),
                Err(_) => "syntax".to_string(),
            },
            FileKind::TandemBundle => match TandemBundle::parse(&text) {
                Ok(b) if b.ticks <= BUNDLE_RUN_MAX => match check_tandem_bundle(&b) {
                    Ok(c) if c.matches() => "re-run matches".to_string(),
                    Ok(_) => "re-run differs".to_string(),
                    Err(e) => tandem_bundle_kind(&e).to_string(),
                },
                Ok(_) => "parsed (too long to re-run)".to_string(),
                Err(e) => tandem_bundle_kind(&e).to_string(),
            },
            #[cfg(feature = "client")]
            FileKind::Config => {
                match crate::client::settings::config::parse_bindings(&text, "config.ron") {
                    Ok(_) => "ok".to_string(),
                    Err(crate::client::settings::config::ConfigError::Malformed { .. }) => {
                        "CONFIG_MALFORMED".into()
                    }
                    Err(crate::client::settings::config::ConfigError::Conflict { .. }) => {
                        "CONFIG_CONFLICT".into()
                    }
                    Err(crate::client::settings::config::ConfigError::Unreadable { .. }) => {
                        "CONFIG_UNREADABLE".into()
                    }
                    Err(crate::client::settings::config::ConfigError::BadValue { .. }) => {
                        "CONFIG_BAD_VALUE".into()
                    }
                }
            }
        };
        format!("{}: {what}", kind.name())
    }
}

/// A real Tandem bundle: 200 ticks of a porter pair on seed 1, through the recorder the
/// window uses and `TandemBundle::to_ron`.
fn sample_tandem_bundle() -> Vec<u8> {
    use crate::tandem::control::Seat;
    use crate::tandem::porter::Porter;
    use crate::tandem::recorder::TandemRecorder;
    use crate::tandem::room::{TandemRoom, TurnTicks};
    let mut room = TandemRoom::new(1, TurnTicks::Live);
    let seats = vec![(0, "porter".to_string()), (1, "porter".to_string())];
    let mut rec = TandemRecorder::start(&room, "fuzz", 1, seats);
    let mut bots = Seat::BOTH.map(|s| Porter::new(s, &room.course, room.turn_ticks));
    for _ in 0..200 {
        let orders = [bots[0].order(&room), bots[1].order(&room)];
        if rec.step(&mut room, orders).is_err() {
            break;
        }
    }
    rec.finish(&room, "left").to_ron().into_bytes()
}

/// A Tandem bundle error's variant.
fn tandem_bundle_kind(e: &crate::tandem::bundle::BundleError) -> &'static str {
    use crate::tandem::bundle::BundleError as E;
    match e {
        E::Truncated { .. } => "truncated",
        E::Parse(_) => "syntax",
        E::Version { .. } => "version",
        E::CourseDigest { .. } => "course digest",
        E::CourseSeed { .. } => "course seed",
        E::Ticks(_) => "ticks",
        E::Cadence(_) => "cadence",
        E::Chain(_) => "chain",
        E::Seat { .. } => "seat",
        E::OrderAfterEnd { .. } => "order after end",
        E::Orders(_) => "orders",
        E::Seats(_) => "seats",
        E::Unplayable(_) => "unplayable",
    }
}

/// A script error's variant.
fn script_kind(e: &crate::replay::script::ScriptError) -> &'static str {
    use crate::replay::script::ScriptError as E;
    match e {
        E::Syntax(_) => "syntax",
        E::SeatOutOfRange { .. } => "seat out of range",
        E::BadSeatCount(_) => "bad seat count",
        E::ZeroRepeat { .. } => "zero repeat",
        E::NoSuchStation { .. } => "no such station",
        E::FrameAfterEnd { .. } => "frame after end",
        #[allow(unreachable_patterns)]
        _ => "other",
    }
}
