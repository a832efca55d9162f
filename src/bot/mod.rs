//! Bot cooks: navigation and errand execution that emit input frames, never touching sim state.

pub mod errand;
pub mod nav;
