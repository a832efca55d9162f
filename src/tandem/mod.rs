//! Tandem, the second mode (seed 003): two cooks carry one couch through a generated
//! warehouse course. Integer rules of its own, beside the kitchen's `sim/` and importing none
//! of it: `course` (route, doorways, blocks, pillars, par, digest), `body` (the assembly),
//! `control` (orders and the control law), `physics` (a substep), `step` (the ten steps of a
//! tick), `hash`, `score`; the porter bot, scripts and goldens, replay bundles (`bundle`) and
//! their `recorder`, the bench. docs/TANDEM.md.

pub mod bench;
pub mod body;
pub mod bundle;
pub mod cli;
pub mod control;
pub mod course;
pub mod events;
pub mod geom;
pub mod hash;
pub mod physics;
pub mod porter;
pub mod progress;
pub mod prove;
pub mod recorder;
pub mod rng;
pub mod room;
pub mod route;
pub mod score;
pub mod script;
pub mod step;
pub mod trig;
pub mod view;
