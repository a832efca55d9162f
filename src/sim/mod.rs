//! The rules: a deterministic, integer-only simulation chained in `FixedUpdate`.

pub mod kinds;
