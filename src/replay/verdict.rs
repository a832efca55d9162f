//! `replay check` on a bundle of either mode: the reading and the verdict on the result payload
//! are the same for the kitchen's and Tandem's bundles, so they are written once here.

use std::fmt::Display;
use std::path::Path;

/// Reads `path` and hands its text to `parse_check` (parse, then re-run); on failure prints a
/// named error and gives the exit code 2 (`kind` names the bundle: "bundle", "Tandem bundle").
pub fn read_and_check<B, C, E: Display>(
    path: &Path,
    kind: &str,
    parse_check: impl FnOnce(&str) -> Result<(B, C), E>,
) -> Result<(B, C), u8> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: {}: cannot read the {kind}: {e}", path.display());
        2
    })?;
    parse_check(&text).map_err(|e| {
        eprintln!("error: {}: not a valid {kind}: {e}", path.display());
        2
    })
}

/// Prints the result payload's differences (key, bundle's value, replay's value) and folds them
/// into the chain's exit code: a chain that matches but a result that does not is a mismatch
/// (1), named by `what` ("the result payload", "the outcome or score").
pub fn fold_result_diffs(
    path: &Path,
    chain_code: u8,
    diffs: &[(String, String, String)],
    what: &str,
) -> u8 {
    for (k, want, got) in diffs {
        println!("  {k}: bundle {want}, replayed {got}");
    }
    if chain_code == 0 && !diffs.is_empty() {
        println!("{}: MISMATCH in {what}", path.display());
        return 1;
    }
    chain_code
}
