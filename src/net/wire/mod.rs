//! What both ends of a connection share: the renet channels, connect tokens and room codes,
//! netcode over a message socket, and the one network error type. Built for every target.

pub mod channels;
pub mod directory;
pub mod error;
pub mod netcode_ws;
pub mod tokens;
