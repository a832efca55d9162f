//! The UDP proxy in front of an echo server: delay, loss, duplication, reordering, one upstream
//! socket per client, and stopping with datagrams still queued.

use super::*;
use crate::net::tools::impair::{Conditions, ProxyStats, UdpProxy};
use std::collections::{BTreeSet, HashMap};

/// Nothing in flight: every datagram sent reached the proxy and was dropped or delivered, and
/// so was every echo of it.
fn settled(s: &ProxyStats, sent: u64) -> bool {
    let done = |d: &crate::net::tools::impair::DirectionStats| {
        d.delivered + d.errors == d.received - d.dropped + d.duplicated
    };
    s.up.received == sent && done(&s.up) && s.down.received == s.up.delivered && done(&s.down)
}

/// Sends `count` test datagrams from `client` (as client `id`) through `proxy`, `gap` apart,
/// and after every `batch` waits for everything to settle, so no socket buffer overflows
/// however slowly the machine runs the threads.
fn send(client: &UdpSocket, proxy: &UdpProxy, start: Instant, id: u32, count: u32, batch: u32) {
    send_spaced(client, proxy, start, id, count, batch, Duration::ZERO);
}

fn send_spaced(
    client: &UdpSocket,
    proxy: &UdpProxy,
    start: Instant,
    id: u32,
    count: u32,
    batch: u32,
    gap: Duration,
) {
    let before = proxy.stats().up.received;
    for seq in 0..count {
        let p = packet(id, seq, start.elapsed().as_micros() as u64);
        client.send_to(&p, proxy.local_addr()).expect("send to the proxy");
        if !gap.is_zero() {
            std::thread::sleep(gap);
        }
        if (seq + 1) % batch == 0 || seq + 1 == count {
            let sent = before + u64::from(seq + 1);
            let ok = wait_until(PATIENCE, || settled(&proxy.stats(), sent));
            assert!(ok, "never settled after {sent} datagrams: {}", proxy.stats());
        }
    }
}

fn client() -> UdpSocket {
    UdpSocket::bind(loopback()).expect("bind a client")
}

#[test]
fn udp_mean_one_way_delay_matches_the_configuration() {
    let echo = Recorder::echo();
    let link = Conditions { delay_ms: 40, jitter_ms: 10, ..Conditions::none() };
    let proxy = UdpProxy::spawn(echo.addr, link, link, 1).expect("start the proxy");
    let socket = client();
    let inbox = Recorder::listen(&socket);
    let start = Instant::now();
    send_spaced(&socket, &proxy, start, 0, 100, 100, Duration::from_millis(3));
    let got = inbox.finish();
    assert_eq!(got.len(), 100, "{}", proxy.stats());
    let rtts: Vec<Duration> = got
        .iter()
        .map(|r| {
            let (_, _, sent_us) = unpack(&r.bytes);
            r.at.duration_since(start).saturating_sub(Duration::from_micros(sent_us))
        })
        .collect();
    let min = rtts.iter().min().copied().unwrap_or_default();
    let one_way = rtts.iter().sum::<Duration>() / rtts.len() as u32 / 2;
    println!(
        "udp delay: configured {} ms + jitter mean {} ms each way; measured one-way mean {:.1} ms, \
         round trip min {:.1} ms",
        link.delay_ms,
        link.jitter_ms,
        one_way.as_secs_f64() * 1e3,
        min.as_secs_f64() * 1e3
    );
    assert!(min >= Duration::from_millis(80), "a round trip beat the 2 × 40 ms floor: {min:?}");
    assert!(one_way >= Duration::from_millis(40), "{one_way:?}");
    assert!(one_way < link.mean_delay() + Duration::from_millis(100), "{one_way:?}");
}

/// 2 000 datagrams through 5 % upstream loss: the echoed sequence numbers and the counters.
fn lossy_run(seed: u64) -> (ProxyStats, BTreeSet<u32>) {
    let echo = Recorder::echo();
    let up = Conditions { loss_ppm: 50_000, ..Conditions::none() };
    let proxy = UdpProxy::spawn(echo.addr, up, Conditions::none(), seed).expect("start the proxy");
    let socket = client();
    let inbox = Recorder::listen(&socket);
    send(&socket, &proxy, Instant::now(), 0, 2_000, 50);
    let echoed = inbox.finish().iter().map(|r| unpack(&r.bytes).1).collect();
    (proxy.stats(), echoed)
}

#[test]
fn udp_loss_with_a_fixed_seed_lands_in_its_band_and_repeats() {
    let (a, echoed_a) = lossy_run(7);
    let (b, echoed_b) = lossy_run(7);
    let (c, echoed_c) = lossy_run(8);
    println!(
        "udp loss 5 % of 2000: seed 7 dropped {} and {} (same datagrams: {}), seed 8 dropped {}",
        a.up.dropped,
        b.up.dropped,
        echoed_a == echoed_b,
        c.up.dropped
    );
    assert_eq!(a.up.received, 2_000);
    assert!((60..=140).contains(&a.up.dropped), "{a}");
    assert_eq!(a.up.delivered, 2_000 - a.up.dropped);
    assert_eq!(echoed_a.len() as u64, a.up.delivered, "every delivered datagram echoed");
    assert_eq!(echoed_a, echoed_b, "the same seed loses the same datagrams");
    assert_ne!(echoed_a, echoed_c, "another seed loses others");
    assert_eq!((a.down.dropped, a.up.errors, a.down.errors), (0, 0, 0));
}

#[test]
fn udp_duplicates_deliver_a_second_copy() {
    let echo = Recorder::echo();
    let up = Conditions::none().with_duplicate_percent(10.0);
    let proxy = UdpProxy::spawn(echo.addr, up, Conditions::none(), 2).expect("start the proxy");
    let socket = client();
    let inbox = Recorder::listen(&socket);
    send(&socket, &proxy, Instant::now(), 0, 300, 50);
    let mut copies: HashMap<u32, u32> = HashMap::new();
    for r in echo.finish() {
        *copies.entry(unpack(&r.bytes).1).or_default() += 1;
    }
    let twice = copies.values().filter(|&&n| n == 2).count() as u64;
    let stats = proxy.stats();
    let back = inbox.finish().len() as u64;
    println!(
        "udp duplicate 10 % of 300: {} duplicated, {twice} seen twice by the server, {back} echoes",
        stats.up.duplicated
    );
    assert_eq!(copies.len(), 300);
    assert!(copies.values().all(|&n| n <= 2));
    assert!(twice > 0);
    assert_eq!(twice, stats.up.duplicated);
    assert_eq!(back, 300 + twice);
}

#[test]
fn udp_jitter_reorders_datagrams() {
    let echo = Recorder::echo();
    let link = Conditions { delay_ms: 5, jitter_ms: 20, ..Conditions::none() };
    let proxy = UdpProxy::spawn(echo.addr, link, link, 3).expect("start the proxy");
    let socket = client();
    let inbox = Recorder::listen(&socket);
    send_spaced(&socket, &proxy, Instant::now(), 0, 200, 200, Duration::from_millis(1));
    let got = inbox.finish();
    let late = inversions(got.iter().map(|r| unpack(&r.bytes).1));
    let stats = proxy.stats();
    println!(
        "udp jitter 0..=40 ms, 200 datagrams 1 ms apart: {late} echoes arrived after a later one \
         (proxy counted {} up, {} down)",
        stats.up.reordered, stats.down.reordered
    );
    assert_eq!(got.len(), 200);
    assert!(late > 0);
    assert!(stats.up.reordered > 0 && stats.down.reordered > 0, "{stats}");
    assert_eq!(stats.up.held, 0, "no hold without reorder_ppm");
}

#[test]
fn udp_reorder_rate_holds_datagrams_back() {
    let echo = Recorder::echo();
    let up = Conditions::none().with_reorder_percent(10.0);
    let proxy = UdpProxy::spawn(echo.addr, up, Conditions::none(), 4).expect("start the proxy");
    let socket = client();
    let inbox = Recorder::listen(&socket);
    send_spaced(&socket, &proxy, Instant::now(), 0, 300, 300, Duration::from_millis(1));
    let got = inbox.finish();
    let late = inversions(got.iter().map(|r| unpack(&r.bytes).1));
    let stats = proxy.stats();
    println!(
        "udp reorder 10 % of 300 (no jitter): {} held 50 ms, {} overtaken, {late} echoes late",
        stats.up.held, stats.up.reordered
    );
    assert_eq!(got.len(), 300);
    assert!(stats.up.held > 0);
    assert!(stats.up.reordered > 0 && stats.up.reordered <= stats.up.held, "{stats}");
    assert!(late > 0);
}

#[test]
fn udp_each_client_gets_its_own_upstream_socket() {
    let echo = Recorder::echo();
    let proxy = UdpProxy::spawn(echo.addr, Conditions::none(), Conditions::none(), 5)
        .expect("start the proxy");
    let clients: Vec<UdpSocket> = (0..3).map(|_| client()).collect();
    let inboxes: Vec<Recorder> = clients.iter().map(Recorder::listen).collect();
    let start = Instant::now();
    for (id, socket) in clients.iter().enumerate() {
        send(socket, &proxy, start, id as u32, 5, 5);
    }
    for (id, inbox) in inboxes.into_iter().enumerate() {
        let got = inbox.finish();
        assert_eq!(got.len(), 5);
        assert!(got.iter().all(|r| unpack(&r.bytes).0 == id as u32), "only its own echoes");
    }
    let peers: BTreeSet<SocketAddr> = echo.finish().iter().map(|r| r.from).collect();
    let stats = proxy.stats();
    println!("udp sessions: 3 clients, the server saw peers {peers:?}");
    assert_eq!(peers.len(), 3);
    assert!(!peers.contains(&proxy.local_addr()));
    assert!(peers.iter().all(|p| p.ip().is_loopback()));
    assert_eq!((stats.sessions, stats.active), (3, 3));
}

#[test]
fn udp_stop_discards_queued_datagrams_and_returns() {
    let echo = Recorder::echo();
    let slow = Conditions { delay_ms: 10_000, ..Conditions::none() };
    let mut proxy = UdpProxy::spawn(echo.addr, slow, slow, 6).expect("start the proxy");
    let socket = client();
    for seq in 0..10 {
        socket.send_to(&packet(0, seq, 0), proxy.local_addr()).expect("send to the proxy");
    }
    assert!(wait_until(PATIENCE, || proxy.stats().up.received == 10));
    let begun = Instant::now();
    proxy.stop();
    let took = begun.elapsed();
    let stats = proxy.stats();
    println!("udp stop with 10 datagrams queued for 10 s: returned in {took:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!((stats.up.delivered, stats.active), (0, 0));
    drop(proxy);
    assert!(echo.finish().is_empty());
}
