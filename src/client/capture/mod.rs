//! Automated looking: screenshots and measuring (`shot`), `play --check-framing`, the
//! designer run's exit report (`report`) and what a screenshot run's HUD said (`readout`).

pub mod framing;
pub mod readout;
pub mod report;
pub mod shot;
