//! Automated looking: screenshots and measuring (`shot`), and `play --check-framing`.

pub mod framing;
pub mod shot;
