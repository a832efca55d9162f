//! The round end's board line: where the round's bundle was written, and, when a board is set
//! (`play --board URL`) and the round may be ranked, B submits it: the POST (and a queued
//! ticket's follow-up) runs on its own thread, so no frame waits on the network, and the line
//! then shows the board's answer (entered with its rank, or the refusal's name).

use super::round_bundle::{BundleState, Ranking, RoundRecord};
use super::{BoardLine, RoundPhase};
use crate::board::client::{Submitted, submit_bundle};
use crate::client::args::Options;
use crate::client::state::{AppState, local_play};
use bevy::prelude::*;
use std::sync::{Arc, Mutex};

/// Where this round's submission is.
#[derive(Clone, Debug, PartialEq)]
pub enum SubmitState {
    Sending,
    Answered(Submitted),
}

/// A round's submission, once B was pressed: the round's bundle state it was for (a restart
/// makes a new one, and this submission is then another round's) and its own state.
#[derive(Resource, Clone, Debug)]
pub struct RoundSubmission {
    pub round: Arc<Mutex<BundleState>>,
    pub state: Arc<Mutex<SubmitState>>,
}

impl RoundSubmission {
    /// Its state, when it is for `record`'s round.
    fn for_round(&self, record: &RoundRecord) -> Option<SubmitState> {
        if !Arc::ptr_eq(&self.round, &record.state) {
            return None;
        }
        self.state.lock().ok().map(|s| s.clone())
    }
}

/// B on a local round's end, and the line that answers it.
pub struct BoardSubmitPlugin;

impl Plugin for BoardSubmitPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (submit_on_key, update_board_line)
                .chain()
                .run_if(in_state(AppState::Playing).and_then(local_play)),
        );
    }
}

/// B on the round end, with a written, rankable bundle and a board set: post it off the main
/// thread.
pub fn submit_on_key(
    keys: Res<ButtonInput<KeyCode>>,
    phase: Res<RoundPhase>,
    options: Res<Options>,
    record: Option<Res<RoundRecord>>,
    sent: Option<Res<RoundSubmission>>,
    mut commands: Commands,
) {
    if *phase != RoundPhase::Over || !keys.just_pressed(KeyCode::KeyB) {
        return;
    }
    let (Some(record), Some(board)) = (record, options.0.board.clone()) else { return };
    if sent.is_some_and(|s| s.for_round(&record).is_some()) {
        return;
    }
    let BundleState::Written(path) = record.state() else { return };
    if record.ranking != Ranking::Ranked {
        return;
    }
    let state = Arc::new(Mutex::new(SubmitState::Sending));
    commands.insert_resource(RoundSubmission { round: record.state.clone(), state: state.clone() });
    let spawned = std::thread::Builder::new().name("undercooked-board-submit".into()).spawn({
        let state = state.clone();
        move || {
            let answer = match std::fs::read(&path) {
                Ok(bytes) => submit_bundle(&board, bytes, |_| {}),
                Err(e) => Submitted::Unreachable(format!("{}: {e}", path.display())),
            };
            info!(?answer, "board submission answered");
            if let Ok(mut s) = state.lock() {
                *s = SubmitState::Answered(answer);
            }
        }
    });
    if let Err(e) = spawned
        && let Ok(mut s) = state.lock()
    {
        *s = SubmitState::Answered(Submitted::Unreachable(format!("no thread: {e}")));
    }
}

/// The board's answer in a line.
fn answer_line(answer: &Submitted) -> String {
    match answer {
        Submitted::Entered(v) => {
            let kept =
                if v["kept"].as_bool() == Some(false) { " (below the kept places)" } else { "" };
            format!(
                "On the board: rank {} for {} cook(s), score {} (entry {}){kept}",
                v["rank"], v["entry"]["team"], v["entry"]["score"], v["entry"]["id"]
            )
        }
        Submitted::Refused(why) => format!("The board refused it: {why}"),
        Submitted::Queued(t) => format!("Still queued on the board (ticket {t})"),
        Submitted::Unreachable(e) => format!("The board was not reached: {e}"),
    }
}

/// What the round end says about the bundle and the board.
fn board_text(record: &RoundRecord, board: Option<&str>, sent: Option<&SubmitState>) -> String {
    let path = match record.state() {
        BundleState::Playing => return String::new(),
        BundleState::Writing => return "Writing the round's bundle...".into(),
        BundleState::None(why) => return format!("No bundle for this round: {why}"),
        BundleState::Written(path) => path,
    };
    let offer = match (&record.ranking, board, sent) {
        (Ranking::NotRanked(why), _, _) => format!("Not for a board: {why}"),
        (Ranking::Ranked, None, _) => {
            "A board takes it: play --board URL, or undercooked board submit".into()
        }
        (Ranking::Ranked, Some(url), None) => format!("B: submit it to the board at {url}"),
        (Ranking::Ranked, Some(url), Some(SubmitState::Sending)) => {
            format!("Submitting to {url}...")
        }
        (Ranking::Ranked, _, Some(SubmitState::Answered(a))) => answer_line(a),
    };
    format!("Bundle: {}\n{offer}", path.display())
}

/// Keeps the round end's board line current.
pub fn update_board_line(
    options: Res<Options>,
    record: Option<Res<RoundRecord>>,
    sent: Option<Res<RoundSubmission>>,
    mut lines: Query<&mut Text, With<BoardLine>>,
) {
    let Some(record) = record else { return };
    let sent = sent.and_then(|s| s.for_round(&record));
    let text = board_text(&record, options.0.board.as_deref(), sent.as_ref());
    for mut t in &mut lines {
        if t.0 != text {
            t.0 = text.clone();
        }
    }
}
