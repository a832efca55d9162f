//! Bot cooks: navigation, errands, and the planner that plays whole rounds — all of it emits
//! input frames and never touches sim state.

pub mod act;
pub mod author;
pub mod claims;
pub mod cook;
mod dish;
pub mod errand;
mod feed;
pub mod generate;
mod idle;
mod jam;
pub mod level_cli;
pub mod nav;
mod pass;
pub mod planner;
mod policy;
pub mod prove;
pub mod publish;
pub mod publish_versus;
pub mod random;
pub mod reach;
pub mod remote;
pub mod shape;
mod throwing;
pub mod tuning;
pub mod versus;
mod view;
pub mod why;
