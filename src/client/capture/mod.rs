//! Automated looking: screenshots and measuring (`shot`), `play --check-framing`, and the
//! designer run's exit report (`report`).

pub mod framing;
pub mod report;
pub mod shot;
