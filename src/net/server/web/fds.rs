//! Room for many sockets: the web port holds one descriptor per connection, and the usual
//! soft limit (1,024) would turn the thousandth idle peer into accept errors for everyone.

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

/// Raises the process's open-file soft limit to its hard limit; the soft limit now.
pub fn raise_nofile() -> Option<u64> {
    let now = getrlimit(Resource::Nofile);
    match (now.current, now.maximum) {
        (Some(current), Some(maximum)) if current < maximum => {
            let raised = Rlimit { current: Some(maximum), maximum: Some(maximum) };
            match setrlimit(Resource::Nofile, raised) {
                Ok(()) => Some(maximum),
                Err(_) => Some(current),
            }
        }
        (current, _) => current,
    }
}
