//! Publishing (issue 34): the CI check that every shipped level hashes to its index entry,
//! `level publish`'s proof, target and refusal, what a folder with no index offers, and the
//! trust the watcher and the hosted server keep (an unpublished edit is refused by name, the
//! published version keeps running, an index edit is followed without a restart).

use super::{MOVE_A, MOVE_B, Seen, book, collect, read, root, scratch_dir, temp_levels};
use std::path::Path;
use std::process::Command;
use undercooked::bot::publish::{TEAMS, prove_for_publish, target_rule};
use undercooked::bot::publish_versus::VERSUS_SIZES;
use undercooked::level::compile::parse_level;
use undercooked::level::files::level_files;
use undercooked::level::{ErrorCode, Trust, file_hash, load_published, parse_index};

/// CI's check for the versus kitchens, as for the campaign: every file in `levels_versus/`
/// hashes to its entry in `levels_versus/index.ron`, whose proof has both teams scoring (the
/// publish refuses otherwise). After an edit: `undercooked level publish levels_versus/FILE`.
#[test]
fn every_shipped_versus_kitchen_hashes_to_its_index_entry() {
    let path = root().join("levels_versus/index.ron");
    let index = parse_index(&read(&path), "levels_versus/index.ron")
        .unwrap_or_else(|e| panic!("levels_versus/index.ron: {e:?}"));
    let files = level_files(&root().join("levels_versus")).expect("levels_versus/");
    assert_eq!(files.len(), index.levels.len(), "every shipped versus kitchen is published");
    for path in files {
        let bytes = read(&path);
        let file = path.display().to_string();
        let level = parse_level(&bytes, &file, &book()).expect("a shipped kitchen is valid");
        assert!(level.teams.is_some(), "{file}: a versus kitchen has teams");
        if let Err(e) = index.verify(&level.id, &file, &bytes) {
            panic!("{e}");
        }
        let versus = index.get(&level.id).and_then(|e| e.versus.as_ref());
        let versus = versus.unwrap_or_else(|| panic!("{file}: its entry has a versus proof"));
        let sizes: Vec<u8> = versus.sizes.iter().map(|s| s.bots).collect();
        assert_eq!(sizes, VERSUS_SIZES, "{file}: 1v1 and 2v2 proved");
    }
}

/// CI's check (`.ci/run`'s test step runs this binary): a shipped level file edited without
/// re-publishing fails here, naming both hashes.
#[test]
fn every_shipped_level_hashes_to_its_index_entry() {
    let index = parse_index(&read(&root().join("levels/index.ron")), "levels/index.ron")
        .unwrap_or_else(|e| panic!("levels/index.ron: {e:?}"));
    let files = level_files(&root().join("levels")).expect("levels/");
    assert_eq!(files.len(), index.levels.len(), "every shipped level is published");
    for path in files {
        let bytes = read(&path);
        let file = path.display().to_string();
        let level = parse_level(&bytes, &file, &book()).expect("a shipped level is valid");
        if let Err(e) = index.verify(&level.id, &file, &bytes) {
            panic!("{e}");
        }
        let entry = index.get(&level.id).expect("listed");
        assert_eq!(entry.target, level.target_score, "{file}: the index's target is the file's");
        let two = entry.proof.teams.iter().find(|t| t.bots == 2).expect("a two-bot proof");
        assert_eq!(two.wins, entry.proof.seeds, "{file}: two bots won every seed");
    }
}

#[test]
fn the_index_hash_is_the_replay_bundles_content_hash() {
    let text = std::fs::read_to_string(root().join("levels/tutorial.ron")).unwrap();
    assert_eq!(file_hash(text.as_bytes()), undercooked::replay::bundle::content_hash(&text));
}

fn publish(file: &Path, seeds: &str) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_undercooked"))
        .args(["level", "publish"])
        .arg(file)
        .args(["--seeds", seeds])
        .current_dir(root())
        .env_remove("UNDERCOOKED_RECIPES")
        .output()
        .expect("the binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

#[test]
fn a_winnable_kitchen_is_published_with_its_hash_target_and_proof() {
    let dir = scratch_dir("publish-ok");
    let file = dir.join("tutorial.ron");
    std::fs::copy(root().join("levels/tutorial.ron"), &file).unwrap();
    let (code, out) = publish(&file, "2");
    assert_eq!(code, Some(0), "{out}");
    let bytes = read(&file);
    let level = parse_level(&bytes, "tutorial.ron", &book()).expect("still valid");
    let index = parse_index(&read(&dir.join("index.ron")), "index.ron").expect("written");
    let entry = index.get("tutorial").expect("the entry");
    assert_eq!(entry.hash, file_hash(&bytes), "the hash of the file as written");
    assert_eq!(entry.target, level.target_score);
    // The rule, recomputed in-process from the same rounds: the CLI wrote what it says.
    let proof = prove_for_publish(&level, &std::sync::Arc::new(book()), 2);
    assert_eq!(entry.target, target_rule(&proof.full_clock));
    assert_eq!(entry.proof, proof.proof());
    assert_eq!(entry.proof.teams.iter().map(|t| t.bots).collect::<Vec<_>>(), TEAMS);
    assert!(entry.build.starts_with("undercooked "), "{}", entry.build);
    // Publishing the published file again changes nothing: the index is stable text.
    let before = read(&dir.join("index.ron"));
    assert_eq!(publish(&file, "2").0, Some(0));
    assert_eq!(read(&dir.join("index.ron")), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_kitchen_no_team_can_win_is_refused_naming_the_team_sizes_and_seeds() {
    let dir = scratch_dir("publish-refused");
    let file = dir.join("tutorial.ron");
    let text = std::fs::read_to_string(root().join("levels/tutorial.ron")).unwrap();
    // Four seconds: no team serves a salad before the clock ends.
    let short = text.replace("time_limit: 180.0", "time_limit: 4.0");
    assert_ne!(short, text);
    std::fs::write(&file, &short).unwrap();
    let (code, out) = publish(&file, "2");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("PUBLISH_REFUSED"), "{out}");
    for bots in TEAMS {
        assert!(out.contains(&format!("{bots} bot(s) lost seeds [1, 2]")), "{out}");
    }
    assert!(!dir.join("index.ron").exists(), "nothing is published");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), short, "the file is untouched");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A versus kitchen gets the versus proof: both teams score on every seed, one a side and two
/// a side; its entry has wins per side, draws, no target, and its file is left as it was.
#[test]
fn a_versus_kitchen_is_published_with_the_versus_proof_and_no_target() {
    let dir = scratch_dir("publish-versus");
    let file = dir.join("split_salad.ron");
    std::fs::copy(root().join("levels_versus/split_salad.ron"), &file).unwrap();
    let before = read(&file);
    let (code, out) = publish(&file, "1");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("2 bots (1 a side)") && out.contains("4 bots (2 a side)"), "{out}");
    assert_eq!(read(&file), before, "a versus kitchen's file is not rewritten");
    let index = parse_index(&read(&dir.join("index.ron")), "index.ron").expect("written");
    let entry = index.get("split_salad").expect("the entry");
    assert_eq!((entry.hash.as_str(), entry.target), (file_hash(&before).as_str(), 0));
    let versus = entry.versus.as_ref().expect("a versus proof");
    let sizes: Vec<u8> = versus.sizes.iter().map(|s| s.bots).collect();
    assert_eq!(sizes, VERSUS_SIZES);
    for s in &versus.sizes {
        assert_eq!(s.a_wins + s.b_wins + s.draws, versus.seeds, "{s:?}");
    }
    // A co-op kitchen is refused from a versus index (one index, one kind).
    let coop = dir.join("tutorial.ron");
    std::fs::copy(root().join("levels/tutorial.ron"), &coop).unwrap();
    let (code, out) = publish(&coop, "1");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("PUBLISH_REFUSED") && out.contains("lists versus kitchens"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_versus_kitchen_where_a_team_cannot_score_is_refused_naming_the_seeds() {
    let dir = scratch_dir("publish-versus-dry");
    let file = dir.join("split_salad.ron");
    let text = std::fs::read_to_string(root().join("levels_versus/split_salad.ron")).unwrap();
    // Four seconds: no team serves a salad before the buzzer.
    let short = text.replace("time_limit: 180.0", "time_limit: 4.0");
    assert_ne!(short, text);
    std::fs::write(&file, &short).unwrap();
    let (code, out) = publish(&file, "2");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("PUBLISH_REFUSED"), "{out}");
    assert!(out.contains("2 bots: team a seeds [1, 2]"), "{out}");
    assert!(out.contains("4 bots: team b seeds [1, 2]"), "{out}");
    assert!(!dir.join("index.ron").exists(), "nothing is published");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn publishing_into_an_old_index_is_refused_by_name() {
    let dir = scratch_dir("publish-old-index");
    let file = dir.join("tutorial.ron");
    std::fs::copy(root().join("levels/tutorial.ron"), &file).unwrap();
    std::fs::write(dir.join("index.ron"), "Campaign(levels: [\"tutorial\"])\n").unwrap();
    let (code, out) = publish(&file, "1");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("INDEX_OLD_FORMAT"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// One rule for the host and the campaign screen: without an index every valid level runs,
/// in file-name order, unpublished; with one, only what hashes to its entry (or, for a
/// designer, every valid file).
#[test]
fn what_runs_follows_the_index_or_the_folder_without_one() {
    let dir = temp_levels("offered", true);
    let file = dir.join("tutorial.ron");
    let original = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, original.replace(MOVE_A, MOVE_B)).unwrap();
    let trusted = load_published(&dir, &book(), Trust::Published).expect("loads");
    assert!(!trusted.levels.iter().any(|l| l.id == "tutorial"), "the edit is not offered");
    let refused = &trusted.refused[0];
    assert_eq!(refused.code, ErrorCode::LevelNotPublished);
    let old = file_hash(original.as_bytes());
    let new = file_hash(original.replace(MOVE_A, MOVE_B).as_bytes());
    assert!(refused.message.contains(&old) && refused.message.contains(&new), "{refused}");
    let designer = load_published(&dir, &book(), Trust::Designer).expect("loads");
    assert_eq!(designer.levels[0].id, "tutorial", "a designer runs the edit");
    std::fs::remove_file(dir.join("index.ron")).unwrap();
    let folder = load_published(&dir, &book(), Trust::Published).expect("no index is no error");
    let mut names: Vec<String> = level_files(&dir)
        .unwrap()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let ids: Vec<String> = folder.levels.iter().map(|l| l.id.clone()).collect();
    assert_eq!(ids, names, "every valid level, in file-name order");
    assert!(folder.index.is_none() && folder.refused.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The campaign index changed (its play order and hashes), as the watcher saw it.
#[derive(bevy::prelude::Resource, Default)]
struct Campaigns(Vec<Vec<String>>);

fn collect_campaigns(
    mut seen: bevy::prelude::ResMut<Campaigns>,
    mut changed: bevy::prelude::MessageReader<undercooked::level::CampaignChanged>,
) {
    seen.0.extend(changed.read().map(|c| c.ids.clone()));
}

#[test]
fn a_trusted_watcher_keeps_the_published_level_until_the_index_publishes_the_edit() {
    use bevy::prelude::*;
    use std::time::Duration;
    use undercooked::level::{LevelLibrary, LevelWatchConfig, LevelWatchPlugin, TrustPublished};

    let dir = temp_levels("trusted", true);
    let file = dir.join("tutorial.ron");
    let original = std::fs::read_to_string(&file).unwrap();
    let mut app = undercooked::clock::headless_app();
    app.insert_resource(LevelWatchConfig {
        levels_dir: dir.clone(),
        recipes: Some(root().join("assets/recipes.ron")),
        poll_every: Duration::ZERO,
    });
    app.insert_resource(TrustPublished).add_plugins(LevelWatchPlugin);
    app.init_resource::<Seen>().init_resource::<Campaigns>();
    app.add_systems(Update, (collect, collect_campaigns));
    let tiles = |app: &App| app.world().resource::<LevelLibrary>().level("tutorial").unwrap();
    let published = tiles(&app).tiles.clone();

    // An edit nobody published: refused by name with both hashes; the published one stays.
    let edited = original.replace(MOVE_A, MOVE_B);
    std::fs::write(&file, &edited).unwrap();
    let rejected = (0..10).find_map(|_| {
        app.update();
        app.world().resource::<Seen>().rejected.first().cloned()
    });
    let e = rejected.expect("the edit is refused within 10 updates").errors[0].clone();
    assert_eq!(e.code, ErrorCode::LevelNotPublished);
    let (old, new) = (file_hash(original.as_bytes()), file_hash(edited.as_bytes()));
    assert!(e.message.contains(&old) && e.message.contains(&new), "{e}");
    assert_eq!(tiles(&app).tiles, published, "the published version keeps running");
    assert!(app.world().resource::<Seen>().reloaded.is_empty());

    // Publishing the edit (its hash into the index) is picked up without a restart.
    let index = std::fs::read_to_string(dir.join("index.ron")).unwrap();
    std::fs::write(dir.join("index.ron"), index.replace(&old, &new)).unwrap();
    let taken = (0..10).any(|_| {
        app.update();
        tiles(&app).tiles != published
    });
    assert!(taken, "the newly published edit is in the library within 10 updates");
    assert_eq!(app.world().resource::<Seen>().reloaded, vec!["tutorial".to_string()]);
    let campaigns = &app.world().resource::<Campaigns>().0;
    assert_eq!(campaigns.len(), 1, "one index change");
    assert_eq!(campaigns[0][0], "tutorial");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hosted server on a folder, its stderr lines on a channel.
pub(super) struct Host {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Host {
    fn start(levels: &Path) -> Host {
        Host::start_with(levels, &[])
    }

    /// A host on `levels` with `extra` arguments (`--designer`).
    pub(super) fn start_with(levels: &Path, extra: &[&str]) -> Host {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_undercooked"))
            .args(["--headless", "--port", "0", "--web-port", "0", "--bind", "127.0.0.1"])
            .args(extra)
            .arg("--levels")
            .arg(levels)
            .arg("--data-dir")
            .arg(levels.join("data"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        // The banner comes after the levels were scanned: edits from here on are edits.
        let mut banner = String::new();
        out.read_line(&mut banner).unwrap();
        assert!(banner.contains("undercooked server"), "banner: {banner}");
        std::thread::spawn(move || out.lines().for_each(drop));
        let (tx, lines) = std::sync::mpsc::channel::<String>();
        let err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(err).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Host { child, lines }
    }

    /// The first log line holding every needle (None after 30 s without one).
    pub(super) fn wait_for(&self, needles: &[&str]) -> Option<String> {
        let end = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while let Some(left) = end.checked_duration_since(std::time::Instant::now()) {
            let line = self.lines.recv_timeout(left).ok()?;
            if needles.iter().all(|n| line.contains(n)) {
                return Some(line);
            }
        }
        None
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_hosted_server_refuses_a_file_edited_after_publishing() {
    let dir = temp_levels("host-trust", true);
    let host = Host::start(&dir);
    let file = dir.join("tutorial.ron");
    let original = std::fs::read_to_string(&file).unwrap();
    let edited = original.replace(MOVE_A, MOVE_B);
    std::fs::write(&file, &edited).unwrap();
    let (old, new) = (file_hash(original.as_bytes()), file_hash(edited.as_bytes()));
    let refused = host.wait_for(&["level rejected:", "LEVEL_NOT_PUBLISHED", &old, &new]);
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(refused.is_some(), "the host names the unpublished edit with both hashes");
}

#[test]
fn the_hosted_server_runs_a_folder_without_an_index_and_says_so() {
    let dir = temp_levels("host-no-index", false);
    let host = Host::start(&dir);
    let said = host.wait_for(&["has no index.ron", "1 valid level(s)"]);
    drop(host);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(said.is_some(), "the host starts on a folder without index.ron and says so");
}
