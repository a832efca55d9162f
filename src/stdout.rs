//! Lines on standard output whose reader may go away (`| head`, a closed pipe): a named error
//! the command can end on, where `println!` would panic.

use std::io::Write;

/// A line that could not be written to standard output.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The reader has gone (a closed pipe): which line was lost.
    #[error("standard output is closed (its reader has gone): {0} not written")]
    Closed(&'static str),
    /// Any other write failure (a full disk behind a redirect, say).
    #[error("writing {what}: {source}")]
    Failed { what: &'static str, source: std::io::Error },
}

/// Writes `line` and a newline to standard output and flushes it, so a reader that has gone is
/// found at this line, not at some later one. `what` names the line in the error.
pub fn print_line(line: &str, what: &'static str) -> Result<(), OutputError> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").and_then(|()| out.flush()).map_err(|source| {
        if source.kind() == std::io::ErrorKind::BrokenPipe {
            OutputError::Closed(what)
        } else {
            OutputError::Failed { what, source }
        }
    })
}
