//! A second peer on one machine: a TCP connection from another loopback address (127.0.0.2,
//! 127.0.0.3, …), so a server's per-address limits see it apart from 127.0.0.1. Shared by the
//! test binaries that need one (`#[path]`).

use std::net::{SocketAddr, TcpStream};

/// A blocking TCP connection to `to` whose socket was bound to `source` first.
pub fn connect_from(source: &str, to: SocketAddr) -> TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let tcp = runtime
        .block_on(async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(format!("{source}:0").parse().expect("a loopback address"))?;
            socket.connect(to).await
        })
        .and_then(|s| s.into_std())
        .expect("a TCP connection from the other address");
    tcp.set_nonblocking(false).unwrap();
    tcp
}
