//! The local addresses the proxies bind: towards an upstream, and by default.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The local address a socket towards `upstream` binds: loopback for a loopback server (so a
/// test never touches another interface), otherwise any interface of the same family.
pub(crate) fn local_for(upstream: SocketAddr) -> SocketAddr {
    let ip = match (upstream.ip(), upstream.ip().is_loopback()) {
        (IpAddr::V4(_), true) => IpAddr::V4(Ipv4Addr::LOCALHOST),
        (IpAddr::V4(_), false) => IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        (IpAddr::V6(_), true) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        (IpAddr::V6(_), false) => IpAddr::V6(Ipv6Addr::UNSPECIFIED),
    };
    SocketAddr::new(ip, 0)
}

/// Where the proxies listen by default: an ephemeral port on 127.0.0.1.
pub(crate) fn loopback_any_port() -> SocketAddr {
    SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0)
}
