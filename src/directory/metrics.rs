//! What a directory's operator watches on `GET /metrics`: announces, lookups and every named
//! refusal as counters, the listed servers and rooms as gauges, in the same OpenMetrics text
//! as the game server's (`undercooked_directory_…`), followed by the web port's connection
//! series (`undercooked_web_…`, [`crate::net::server::web::WebCounters`]).

use super::error::DirError;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The directory's own counters.
#[derive(Debug, Default)]
pub struct DirCounters {
    /// Announces accepted (new entries and renewals).
    pub announces: AtomicU64,
    /// New entries (a first announce, or one after its entry expired).
    pub registered: AtomicU64,
    /// Code lookups answered with a room.
    pub lookups: AtomicU64,
    /// Code lookups of a code no live server holds.
    pub lookups_unknown: AtomicU64,
    /// Quick matches' candidate lists answered.
    pub quick_matches: AtomicU64,
    /// Every refusal, by its wire name.
    refused: Mutex<BTreeMap<DirError, u64>>,
}

impl DirCounters {
    pub fn bump(c: &AtomicU64) {
        c.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts one refusal (or `n` rooms refused with the same name).
    pub fn refuse(&self, e: DirError, n: u64) {
        *self.refused.lock().unwrap_or_else(|p| p.into_inner()).entry(e).or_default() += n;
    }

    /// Refusals so far of `e`.
    pub fn refused(&self, e: DirError) -> u64 {
        self.refused.lock().map(|m| m.get(&e).copied().unwrap_or(0)).unwrap_or(0)
    }

    /// The series as OpenMetrics text; `listed` is (servers, rooms) live now, or None when the
    /// store did not answer.
    pub fn prometheus(&self, listed: Option<(u64, u64)>) -> String {
        let mut out = String::new();
        let v = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let counters = [
            ("announces", "Announces accepted.", v(&self.announces)),
            ("registered", "Entries created.", v(&self.registered)),
            ("lookups", "Room codes resolved.", v(&self.lookups)),
            ("lookups_unknown", "Lookups of codes no live server holds.", v(&self.lookups_unknown)),
            ("quick_matches", "Quick matches' candidate lists answered.", v(&self.quick_matches)),
        ];
        for (family, help, value) in counters {
            let _ = writeln!(out, "# HELP undercooked_directory_{family} {help}");
            let _ = writeln!(out, "# TYPE undercooked_directory_{family} counter");
            let _ = writeln!(out, "undercooked_directory_{family}_total {value}");
        }
        let _ = writeln!(out, "# HELP undercooked_directory_refused Requests refused, by error.");
        let _ = writeln!(out, "# TYPE undercooked_directory_refused counter");
        if let Ok(m) = self.refused.lock() {
            for (error, n) in m.iter() {
                let _ =
                    writeln!(out, "undercooked_directory_refused_total{{error=\"{error}\"}} {n}");
            }
        }
        if let Some((servers, rooms)) = listed {
            for (family, help, value) in
                [("servers", "Servers listed now.", servers), ("rooms", "Rooms held now.", rooms)]
            {
                let _ = writeln!(out, "# HELP undercooked_directory_{family} {help}");
                let _ = writeln!(out, "# TYPE undercooked_directory_{family} gauge");
                let _ = writeln!(out, "undercooked_directory_{family} {value}");
            }
        }
        out
    }
}
