//! Which page origins may call the API or open a relay: this host's configured names on the web
//! port and `--allow-origin`, never anything derived from the request (a DNS-rebinding page
//! sends its own name as `Host`, so "same as Host" would let it in).

use std::net::IpAddr;

/// The allow-list, normalised (lower case, no trailing slash).
#[derive(Clone, Debug, Default)]
pub struct Origins {
    allowed: Vec<String>,
}

impl Origins {
    /// The origins of pages this host serves: `http(s)://NAME:WEB_PORT` for the loopback
    /// names, the bind address (unless it is every interface) and each public host, plus
    /// `extra` as given.
    pub fn new(web_port: u16, bind: IpAddr, public: &[IpAddr], extra: &[String]) -> Self {
        let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()];
        let ips =
            std::iter::once(bind).filter(|ip| !ip.is_unspecified()).chain(public.iter().copied());
        for ip in ips {
            let host = match ip {
                IpAddr::V4(v4) => v4.to_string(),
                IpAddr::V6(v6) => format!("[{v6}]"),
            };
            if !hosts.contains(&host) {
                hosts.push(host);
            }
        }
        let mut allowed = Vec::new();
        for host in &hosts {
            for scheme in ["http", "https"] {
                allowed.push(format!("{scheme}://{host}:{web_port}"));
            }
            // A browser leaves the scheme's own port out of the origin it sends.
            match web_port {
                80 => allowed.push(format!("http://{host}")),
                443 => allowed.push(format!("https://{host}")),
                _ => {}
            }
        }
        allowed.extend(extra.iter().map(|o| normalise(o)));
        Origins { allowed }
    }

    /// Whether a request with this `Origin` header may go on. No header at all is a native
    /// client (Origin protects browsers; anything else could forge it anyway).
    pub fn allows(&self, origin: Option<&str>) -> bool {
        match origin {
            None => true,
            Some(o) => {
                let o = normalise(o);
                self.allowed.contains(&o)
            }
        }
    }
}

fn normalise(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_names_and_listed_origins_only() {
        let public: IpAddr = [203, 0, 113, 7].into();
        let o =
            Origins::new(7780, [0, 0, 0, 0].into(), &[public], &["https://Play.example/".into()]);
        assert!(o.allows(None));
        assert!(o.allows(Some("http://127.0.0.1:7780")));
        assert!(o.allows(Some("http://localhost:7780")));
        assert!(o.allows(Some("https://203.0.113.7:7780")));
        assert!(o.allows(Some("https://play.example")));
        assert!(!o.allows(Some("http://0.0.0.0:7780")), "every interface is no one's name");
        assert!(!o.allows(Some("http://evil.example:7780")), "a rebinding page's own name");
        assert!(!o.allows(Some("http://127.0.0.1:7781")));
        assert!(!o.allows(Some("null")));
    }
}
