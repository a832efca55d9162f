//! Every fuzz target for a fixed, seeded number of inputs: no panic, and the servers still
//! serve afterwards. The counts are sized to take a few seconds each in a debug build; the long
//! runs are `undercooked fuzz` (docs/PERFORMANCE.md, "Fuzzing").

use undercooked::fuzz::runner::{TargetId, print_report, run_target};

/// The CI seed; a failure prints it with the input, and `undercooked fuzz --seed` replays it.
const SEED: u64 = 20;

fn no_panic(target: TargetId, iterations: u64) {
    let report = run_target(target, iterations, SEED).expect("the target starts");
    print_report(&report);
    assert_eq!(report.panic, None, "a panic in {}", target.name());
    assert_eq!(report.unhealthy, None, "{} stopped serving", target.name());
    assert_eq!(report.inputs, iterations);
    assert!(report.kinds.len() > 1, "the inputs met more than one outcome: {:?}", report.kinds);
}

#[test]
fn netcode_receive_path_survives_mutated_datagrams() {
    no_panic(TargetId::Netcode, 3_000);
}

#[test]
fn renet_survives_hostile_packets_behind_real_encryption() {
    no_panic(TargetId::Renet, 3_000);
}

#[test]
fn loaders_answer_mutated_files_with_typed_errors() {
    no_panic(TargetId::Loaders, 400);
}

#[test]
fn http_api_survives_mutated_requests_and_still_plays() {
    no_panic(TargetId::Http, 150);
}

#[test]
fn relay_survives_mutated_websocket_frames_and_still_plays() {
    no_panic(TargetId::Relay, 1_000);
}
