//! What a player sets and keeps: key bindings and the config file, the devices they speak of,
//! the accessibility options and the colour palettes.

pub mod access;
pub mod access_sync;
pub mod config;
pub mod device;
pub mod palette;
pub mod rebind;
