//! The F3 overlay's readings and its lines: what [`PerfReadings`] holds, how the connection's
//! statistics become [`NetReadings`], and [`PERF_LINES`], the one table of labels and formats
//! that the desktop panel (`perf_panel`) and the browser's text (`perf_text`) both draw.

use crate::net::client::uplink::Uplink;
use bevy::prelude::*;
use bevy_replicon_renet::RenetClient;
use std::time::Duration;

/// The overlay's root (bottom right, above the HUD); present while it is shown.
#[derive(Component, Debug)]
pub struct PerfOverlay;

/// What our entries show; `None` where there is nothing to show yet (the entry reads "-").
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct PerfReadings {
    /// Frames per second, smoothed.
    pub fps: Option<f64>,
    /// Frame time in ms: the smoothed value and the worst in the diagnostic's history.
    pub frame_ms: Option<(f64, f64)>,
    pub entities: Option<f64>,
    /// The room's current sim tick (local or replicated).
    pub tick: Option<u32>,
    pub net: Option<NetReadings>,
    /// Prediction corrections per second over the last refresh (online, once measured).
    pub corrections_per_s: Option<f64>,
}

/// The server connection's statistics, in display units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NetReadings {
    pub rtt_ms: f64,
    pub loss_pct: f64,
    /// Bytes per second sent and received.
    pub up: f64,
    pub down: f64,
    /// The input link (`net::client::uplink`), once a round is live: how far ahead of the server's
    /// clock frames are stamped, in ticks, and how many the server applied late.
    pub input: Option<(f64, u32)>,
}

/// The connection's statistics while it is connected (an online client); `None` otherwise.
/// The round trip is the uplink's (tick stamps both ways) once it has one, renet's before.
pub fn net_readings(
    client: Option<&RenetClient>,
    link: Option<(&Uplink, Duration)>,
) -> Option<NetReadings> {
    let info = client.filter(|c| c.is_connected())?.network_info();
    let measured = link.and_then(|(l, _)| l.stats.rtt_ms);
    Some(NetReadings {
        rtt_ms: measured.unwrap_or(info.rtt * 1000.0),
        loss_pct: info.packet_loss * 100.0,
        up: info.bytes_sent_per_second,
        down: info.bytes_received_per_second,
        input: link
            .filter(|_| measured.is_some())
            .map(|(l, now)| (l.input_delay_ticks(now), l.stats.late)),
    })
}

/// "up 0.9 KB/s, down 2.2 KB/s".
pub fn format_bandwidth(up: f64, down: f64) -> String {
    format!("up {:.1} KB/s, down {:.1} KB/s", up / 1000.0, down / 1000.0)
}

/// One line of the overlay: its label and its value from the readings (`None`: "-").
pub type PerfLine = (&'static str, fn(&PerfReadings) -> Option<String>);

/// Every line, in the order shown — one table for both overlays.
pub const PERF_LINES: [PerfLine; 10] = [
    ("FPS", |r| r.fps.map(|v| format!("{v:.1}"))),
    ("Frame time", |r| r.frame_ms.map(|(v, worst)| format!("{v:.1} ms (worst {worst:.1})"))),
    ("Entities", |r| r.entities.map(|v| format!("{v:.0}"))),
    ("Sim tick", |r| r.tick.map(|v| v.to_string())),
    // The input link's round trip, renet's until it has one.
    ("Round trip", |r| r.net.map(|n| format!("{:.0} ms", n.rtt_ms))),
    ("Loss", |r| r.net.map(|n| format!("{:.1} %", n.loss_pct))),
    ("Bandwidth", |r| r.net.map(|n| format_bandwidth(n.up, n.down))),
    // How far ahead of the server's clock frames are stamped.
    ("Input delay", |r| r.net.and_then(|n| n.input).map(|i| format!("{:.1} ticks", i.0))),
    ("Late frames", |r| r.net.and_then(|n| n.input).map(|i| i.1.to_string())),
    ("Corrections", |r| r.corrections_per_s.map(|v| format!("{v:.1} /s"))),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_reads_the_readings_and_formats_them() {
        let r = PerfReadings {
            fps: Some(59.94),
            frame_ms: Some((16.68, 33.3)),
            entities: Some(412.0),
            tick: Some(1234),
            net: Some(NetReadings {
                rtt_ms: 23.4,
                loss_pct: 0.0,
                up: 900.0,
                down: 2200.0,
                input: Some((3.24, 2)),
            }),
            corrections_per_s: Some(0.5),
        };
        let shown: Vec<(&str, Option<String>)> =
            PERF_LINES.iter().map(|(label, value)| (*label, value(&r))).collect();
        let want = [
            ("FPS", "59.9"),
            ("Frame time", "16.7 ms (worst 33.3)"),
            ("Entities", "412"),
            ("Sim tick", "1234"),
            ("Round trip", "23 ms"),
            ("Loss", "0.0 %"),
            ("Bandwidth", "up 0.9 KB/s, down 2.2 KB/s"),
            ("Input delay", "3.2 ticks"),
            ("Late frames", "2"),
            ("Corrections", "0.5 /s"),
        ];
        for ((label, value), (l, v)) in shown.iter().zip(want) {
            assert_eq!((*label, value.as_deref()), (l, Some(v)));
        }
        // Offline, before any measurement: the network lines have nothing to show.
        let offline = PerfReadings::default();
        assert!(PERF_LINES.iter().all(|(_, value)| value(&offline).is_none()));
    }
}
