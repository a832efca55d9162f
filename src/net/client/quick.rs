//! Quick match natively (docs/NETWORK.md, "Quick match"): the directory's candidates
//! (`GET /api/quick`), the round trip this client measures to each ([`measure`]: each server's
//! web port, `GET /healthz`, the median of a few), the rule ([`super::quick_pick::pick`]) and
//! the seats ([`take_seat`]), asked of the chosen server exactly as a join by code or a create.

use crate::net::client::api::{quick_seat, request_seat};
use crate::net::client::directory::{list_quick, list_servers};
pub use crate::net::client::quick_pick::{
    MAX_MEASURED, Measured, NEAR_SLACK, QuickError, QuickPick, pick,
};
use crate::net::client::session::JoinReply;
use crate::net::wire::directory::ServerEntry;
use std::time::{Duration, Instant};

/// Timed requests per server; the round trip is their median.
const PINGS: usize = 3;
/// How long one timed request may take before the server counts as unreachable.
const PING_WAIT_SECS: u64 = 2;

/// The round trip to the web port at `address`: the median of [`PINGS`] timed
/// `GET /healthz` (each a fresh connection, as a seat request is), `None` when none answered.
pub fn round_trip(address: &str) -> Option<Duration> {
    let url = format!("http://{address}/healthz");
    let mut times: Vec<Duration> = (0..PINGS)
        .filter_map(|_| {
            let start = Instant::now();
            let resp = minreq::get(&url).with_timeout(PING_WAIT_SECS).send().ok()?;
            (resp.status_code == 200).then(|| start.elapsed())
        })
        .collect();
    times.sort();
    times.get(times.len() / 2).copied()
}

/// Each server's round trip, measured at once on a thread per server (at most
/// [`MAX_MEASURED`]; the rest are left out).
pub fn measure(servers: Vec<ServerEntry>) -> Vec<Measured> {
    let threads: Vec<_> = servers
        .into_iter()
        .take(MAX_MEASURED)
        .map(|server| {
            let address = server.address.clone();
            (server, std::thread::spawn(move || round_trip(&address)))
        })
        .collect();
    threads
        .into_iter()
        .map(|(server, t)| Measured { server, rtt: t.join().ok().flatten() })
        .collect()
}

/// The directory's servers, measured: what Play online shows and quick match picks from.
pub fn survey(directory: &str) -> Result<Vec<Measured>, QuickError> {
    let list = list_servers(directory).map_err(QuickError::Directory)?;
    Ok(measure(list.servers))
}

/// Asks the directory for the servers that could seat `seats` players (`GET /api/quick`, held
/// to the directory's quick-match rate), measures them, and picks where the players sit.
pub fn find(directory: &str, seats: u8) -> Result<QuickPick, QuickError> {
    let list = list_quick(directory, seats).map_err(QuickError::Directory)?;
    pick(&measure(list.servers), seats)
}

/// The seats at `pick`: a join by its code, or a quick seat on the server picked (a public
/// lobby another quick match just made there, else a new public room), the caller's name on each.
pub fn take_seat(pick: &QuickPick, name: &str, seats: u8) -> Result<JoinReply, QuickError> {
    match pick {
        QuickPick::Join { address, code, .. } => {
            request_seat(address, Some(code), name, None, seats)
        }
        QuickPick::Create { address, .. } => quick_seat(address, name, seats),
    }
    .map_err(QuickError::Seat)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_measured_round_trip_is_none_where_nothing_answers() {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        assert_eq!(round_trip(&format!("127.0.0.1:{port}")), None);
    }
}
