//! Hostile inputs, bounded for CI: the fuzz targets and the soak (one module each; the
//! packet and web modules join here).

mod fuzz;
mod soak;
