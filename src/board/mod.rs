//! The results board (issue 30 items 3 and 5): scores that only a replay enters. A player posts
//! a round's bundle to a host (a game server's web port with `--board`, or `undercooked
//! directory --board`); the host replays it itself on a bounded worker queue off the tick
//! thread and enters the score only when the level is one it publishes, the chain and the
//! final hash reproduce and the round is new. The best rounds per level and team size are
//! listed, each with its bundle to download (docs/NETWORK.md, "The results board").
//!
//! Native only. Files, one idea each: [`error`] (named refusals), [`entry`] (what is stored
//! and listed), [`published`] (which levels and recipes this host ranks), [`daily`] (a day's
//! generated kitchen, drawn again to check it), [`verify`] (a bundle's bytes to a verified
//! round), [`store`] (the trait) with [`sqlite`] (a file) and [`redis_board`] (`--redis`),
//! [`queue`] (the verification workers), [`running`] (a running board: what a port serves),
//! [`client`] (a board over HTTP: submit, list, fetch; the command line's and the window's),
//! [`cli`] (`undercooked board submit|list|fetch`). The HTTP side is the web port's
//! (`net::server::web::board`), so the game server and the directory serve the same routes.

pub mod cli;
pub mod client;
pub mod daily;
pub mod entry;
pub mod error;
pub mod published;
pub mod queue;
pub mod redis_board;
pub mod redis_link;
pub mod running;
pub mod sqlite;
pub mod store;
pub mod verify;
