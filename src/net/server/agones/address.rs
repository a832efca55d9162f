//! Where players reach a fleet's game server. In a pod the process binds its container ports,
//! but players dial the node's address and the host ports Agones allocated (`portPolicy:
//! Dynamic`): connect tokens and the directory must name those. Agones writes them into the
//! GameServer's status before the pod starts, so `--agones` without `--public` asks the SDK
//! sidecar once, before the worlds are built, and uses its address and the ports named
//! [`NETCODE_PORT`] and [`WEB_PORT`].

use agones::Sdk;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// The Fleet's port names (deploy/k8s/fleet.yaml).
pub const NETCODE_PORT: &str = "netcode";
pub const WEB_PORT: &str = "web";

/// Tries at reading the GameServer before the host gives up (the SDK's own connect waits up
/// to 30 s for the sidecar each time).
const TRIES: u32 = 3;

/// The addresses players reach this game server at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FleetAddresses {
    pub netcode: SocketAddr,
    pub web: SocketAddr,
}

/// Why the fleet addresses could not be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("the Agones SDK sidecar did not answer: {0}")]
    Sidecar(String),
    #[error("the GameServer has no address yet (is this pod a fleet's game server?)")]
    NoAddress,
    #[error("the GameServer's address {0:?} is not an IP address")]
    NotAnIp(String),
    #[error("the GameServer has no port named {0:?} (deploy/k8s/fleet.yaml names them)")]
    NoPort(&'static str),
}

/// Reads this GameServer's address and ports from the sidecar at `sidecar_port` (None:
/// `AGONES_SDK_GRPC_PORT`), on a runtime of its own that ends with the call.
pub fn fleet_addresses(sidecar_port: Option<u16>) -> Result<FleetAddresses, AddressError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| AddressError::Sidecar(e.to_string()))?;
    let status = runtime.block_on(async {
        let mut last = String::new();
        for _ in 0..TRIES {
            match Sdk::new_with_host(None, sidecar_port, None).await {
                Ok(mut sdk) => match sdk.get_gameserver().await {
                    Ok(gs) => return Ok(gs.status.unwrap_or_default()),
                    Err(e) => last = format!("{e:?}"),
                },
                Err(e) => last = format!("{e:?}"),
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        Err(AddressError::Sidecar(last))
    })?;
    addresses_of(&status.address, &status.ports)
}

/// The addresses in a GameServer status: its address and its named ports.
pub fn addresses_of(address: &str, ports: &[agones::Port]) -> Result<FleetAddresses, AddressError> {
    if address.is_empty() {
        return Err(AddressError::NoAddress);
    }
    let ip: IpAddr = address.parse().map_err(|_| AddressError::NotAnIp(address.to_string()))?;
    let port = |name: &'static str| {
        let p = ports.iter().find(|p| p.name == name).ok_or(AddressError::NoPort(name))?;
        u16::try_from(p.port).map_err(|_| AddressError::NoPort(name))
    };
    Ok(FleetAddresses {
        netcode: SocketAddr::new(ip, port(NETCODE_PORT)?),
        web: SocketAddr::new(ip, port(WEB_PORT)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(name: &str, port: i32) -> agones::Port {
        agones::Port { name: name.into(), port }
    }

    #[test]
    fn the_status_names_the_node_and_both_host_ports() {
        let ports = [port("web", 7043), port("netcode", 7012)];
        let got = addresses_of("203.0.113.9", &ports).unwrap();
        assert_eq!(got.netcode, "203.0.113.9:7012".parse().unwrap());
        assert_eq!(got.web, "203.0.113.9:7043".parse().unwrap());
    }

    #[test]
    fn a_status_without_address_or_ports_is_a_named_error() {
        assert_eq!(addresses_of("", &[]), Err(AddressError::NoAddress));
        assert_eq!(
            addresses_of("node-1.example", &[]),
            Err(AddressError::NotAnIp("node-1.example".into()))
        );
        let only_web = [port("web", 7043)];
        assert_eq!(addresses_of("10.0.0.1", &only_web), Err(AddressError::NoPort("netcode")));
        let huge = [port("web", 7043), port("netcode", 70_000)];
        assert_eq!(addresses_of("10.0.0.1", &huge), Err(AddressError::NoPort("netcode")));
    }
}
