//! The log lines on stderr: Bevy's human-readable `key=value` lines (coloured only on a
//! terminal), or one JSON object per line (`--log-format json`) for a log pipeline to parse
//! without a regex.

use bevy::log::{BoxedFmtLayer, LogPlugin};
use std::io::IsTerminal;

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
        LogFormat::Text => LogPlugin { fmt_layer: text_layer, ..Default::default() },
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

/// Bevy's own text layer, with colour codes only when stderr is a terminal: a log written to a
/// file or a pipe (`2> server.log`, `| grep`) reads as plain text, not `\x1b[2m…` (Bevy's
/// default colours whatever stderr is, unless `NO_COLOR` is set).
fn text_layer(_: &mut bevy::app::App) -> Option<BoxedFmtLayer> {
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let layer = bevy::log::tracing_subscriber::fmt::Layer::default()
        .with_writer(std::io::stderr)
        .with_ansi(colour);
    Some(Box::new(layer))
}
