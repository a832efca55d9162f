//! The TCP proxy: bytes intact and in order through jitter and stalls, the delay floor, closes
//! passing through, a refused upstream, and stopping with connections open.

use super::*;
use crate::net::tools::impair::{Conditions, TcpProxy};

fn connect(proxy: &TcpProxy) -> TcpStream {
    let stream = TcpStream::connect(proxy.local_addr()).expect("connect to the proxy");
    stream.set_read_timeout(Some(PATIENCE)).expect("a read timeout");
    stream.set_nodelay(true).expect("nodelay");
    stream
}

/// The next connection the proxy makes to `listener` (nonblocking), within [`PATIENCE`].
fn accept(listener: &TcpListener) -> TcpStream {
    let mut got = None;
    let ok = wait_until(PATIENCE, || {
        got = got.take().or_else(|| listener.accept().ok().map(|(s, _)| s));
        got.is_some()
    });
    assert!(ok, "the proxy never connected upstream");
    let stream = got.expect("accepted");
    stream.set_nonblocking(false).expect("blocking");
    stream.set_read_timeout(Some(PATIENCE)).expect("a read timeout");
    stream
}

fn server() -> TcpListener {
    let listener = TcpListener::bind(loopback()).expect("bind a server");
    listener.set_nonblocking(true).expect("nonblocking");
    listener
}

/// True when a read answered end-of-stream or a reset, not a timeout.
fn closed(stream: &mut TcpStream) -> bool {
    let mut byte = [0; 1];
    match stream.read(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => !matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut),
    }
}

#[test]
fn tcp_bytes_arrive_intact_and_in_order_through_jitter_and_loss() {
    let echo = TcpEcho::spawn();
    let link = Conditions { delay_ms: 5, jitter_ms: 15, loss_ppm: 200_000, ..Conditions::none() };
    let proxy = TcpProxy::spawn(echo.addr, link, link, 3).expect("start the proxy");
    let client = connect(&proxy);
    let data: Vec<u8> =
        (0..256 * 1024u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
    let begun = Instant::now();
    let writer = {
        let mut w = client.try_clone().expect("clone the client");
        let data = data.clone();
        std::thread::spawn(move || {
            // Writes of varied sizes with pauses, so the proxy reads many chunks.
            let (mut at, mut size) = (0, 1);
            while at < data.len() {
                let end = (at + size).min(data.len());
                w.write_all(&data[at..end]).expect("write to the proxy");
                at = end;
                size = size * 7 % 8191 + 1;
                std::thread::sleep(Duration::from_millis(1));
            }
            w.shutdown(Shutdown::Write).expect("half-close");
        })
    };
    let mut back = Vec::new();
    (&client).read_to_end(&mut back).expect("read the echo to its end");
    writer.join().expect("the writer");
    let took = begun.elapsed();
    let stats = proxy.stats();
    println!(
        "tcp 256 KiB echoed through 5 ms + 0..=30 ms jitter and 20 % stalls in {took:?}: \
         up {} chunks ({} stalled), down {} chunks ({} stalled)",
        stats.up.received, stats.up.stalled, stats.down.received, stats.down.stalled
    );
    assert_eq!(back.len(), data.len());
    assert!(back == data, "bytes changed or reordered");
    assert!(stats.up.stalled + stats.down.stalled > 0, "{stats}");
    assert_eq!(stats.up.bytes_delivered, data.len() as u64);
    assert_eq!(stats.down.bytes_delivered, data.len() as u64);
}

#[test]
fn tcp_delay_floor_holds() {
    let echo = TcpEcho::spawn();
    let link = Conditions { delay_ms: 30, jitter_ms: 5, ..Conditions::none() };
    let proxy = TcpProxy::spawn(echo.addr, link, link, 4).expect("start the proxy");
    let mut client = connect(&proxy);
    let mut rtts = Vec::new();
    for i in 0..10u8 {
        let sent = Instant::now();
        client.write_all(&[i]).expect("write");
        let mut byte = [0; 1];
        client.read_exact(&mut byte).expect("read the echo");
        rtts.push(sent.elapsed());
        assert_eq!(byte, [i]);
    }
    let min = rtts.iter().min().copied().unwrap_or_default();
    let one_way = rtts.iter().sum::<Duration>() / rtts.len() as u32 / 2;
    println!(
        "tcp delay: configured 30 ms + jitter mean 5 ms each way; measured one-way mean {:.1} ms, \
         round trip min {:.1} ms",
        one_way.as_secs_f64() * 1e3,
        min.as_secs_f64() * 1e3
    );
    assert!(min >= Duration::from_millis(60), "a round trip beat the 2 × 30 ms floor: {min:?}");
    assert!(one_way < link.mean_delay() + Duration::from_millis(100), "{one_way:?}");
}

#[test]
fn tcp_close_propagates_both_ways() {
    let listener = server();
    let link = Conditions { delay_ms: 10, jitter_ms: 2, ..Conditions::none() };
    let proxy = TcpProxy::spawn(listener.local_addr().expect("addr"), link, link, 5)
        .expect("start the proxy");

    // The client half-closes: the server reads the end, answers, closes; the client reads both.
    let mut client = connect(&proxy);
    let mut upstream = accept(&listener);
    client.write_all(b"hello").expect("write");
    client.shutdown(Shutdown::Write).expect("half-close");
    let mut got = Vec::new();
    upstream.read_to_end(&mut got).expect("the server reads to the client's end");
    assert_eq!(got, b"hello");
    upstream.write_all(b"bye").expect("the server answers after the half-close");
    drop(upstream);
    let mut answer = Vec::new();
    client.read_to_end(&mut answer).expect("the client reads to the server's end");
    assert_eq!(answer, b"bye");
    drop(client);

    // The server closes first: the client sees the end.
    let mut client = connect(&proxy);
    let upstream = accept(&listener);
    drop(upstream);
    assert!(closed(&mut client), "the server's close did not reach the client");
    drop(client);

    let ok = wait_until(PATIENCE, || proxy.stats().active == 0);
    let stats = proxy.stats();
    println!("tcp closes: {stats}");
    assert!(ok, "connections left open: {stats}");
    assert_eq!(stats.sessions, 2);
}

#[test]
fn tcp_refused_upstream_closes_the_client() {
    let dead = TcpListener::bind(loopback()).expect("bind");
    let nobody = dead.local_addr().expect("addr");
    drop(dead);
    let proxy = TcpProxy::spawn(nobody, Conditions::none(), Conditions::none(), 6)
        .expect("start the proxy");
    let mut client = connect(&proxy);
    assert!(closed(&mut client), "the client was left hanging");
    assert!(wait_until(PATIENCE, || proxy.stats().up.errors == 1), "{}", proxy.stats());
}

#[test]
fn tcp_stop_closes_connections_and_joins() {
    let echo = TcpEcho::spawn();
    let slow = Conditions { delay_ms: 5_000, ..Conditions::none() };
    let mut proxy = TcpProxy::spawn(echo.addr, slow, slow, 7).expect("start the proxy");
    let mut client = connect(&proxy);
    client.write_all(b"x").expect("write");
    assert!(wait_until(PATIENCE, || proxy.stats().up.received == 1));
    let begun = Instant::now();
    proxy.stop();
    let took = begun.elapsed();
    let stats = proxy.stats();
    println!("tcp stop with a chunk queued for 5 s: returned in {took:?}");
    assert!(took < Duration::from_secs(4), "{took:?}");
    assert!(closed(&mut client), "stopping left the client open");
    assert_eq!((stats.up.delivered, stats.active), (0, 0));
}
