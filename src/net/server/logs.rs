//! The host's log lines on stderr: Bevy's human-readable `key=value` lines, or one JSON object
//! per line (`--log-format json`) for a log pipeline to parse without a regex.

use bevy::log::{BoxedFmtLayer, LogPlugin};

/// How the server writes its log lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// `2026-12-02T00:00:00Z  WARN undercooked::net::server::udp: message key=value` lines.
    #[default]
    Text,
    /// `{"timestamp":…,"level":"WARN","target":…,"fields":{"message":…,"key":…}}` lines.
    Json,
}

/// The log subscriber for `format`; installed once per process (it is global).
pub fn log_plugin(format: LogFormat) -> LogPlugin {
    match format {
        LogFormat::Text => LogPlugin::default(),
        LogFormat::Json => LogPlugin { fmt_layer: json_layer, ..Default::default() },
    }
}

fn json_layer(_: &mut bevy::app::App) -> Option<BoxedFmtLayer> {
    let layer = json_subscriber::layer()
        .with_current_span(false)
        .with_span_list(false)
        .with_writer(std::io::stderr);
    Some(Box::new(layer))
}
