//! Panics caught: while a fuzz session runs, the panic hook records each panic's message and
//! location (on any thread: the servers the network targets run have their own) and prints one
//! line instead of the default report and backtrace; the run then reports it with its input.

use std::panic::{self, PanicHookInfo};
use std::sync::{Arc, Mutex, MutexGuard};

/// Only one session may own the hook at a time (tests run in parallel threads).
static SESSION: Mutex<()> = Mutex::new(());

/// The panics recorded while a [`Quiet`] is alive.
type Log = Arc<Mutex<Vec<String>>>;

/// While alive, panics are recorded instead of printed; dropping it restores the old hook.
pub struct Quiet {
    log: Log,
    _session: MutexGuard<'static, ()>,
}

impl Quiet {
    pub fn start() -> Quiet {
        let session = SESSION.lock().unwrap_or_else(|p| p.into_inner());
        let log: Log = Arc::default();
        let sink = log.clone();
        panic::set_hook(Box::new(move |info: &PanicHookInfo<'_>| {
            let message = crate::caught::panic_message(info.payload());
            let at = info.location().map(|l| format!(" at {l}")).unwrap_or_default();
            let thread = std::thread::current().name().unwrap_or("unnamed").to_string();
            sink.lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(format!("{message}{at} (thread {thread})"));
        }));
        Quiet { log, _session: session }
    }

    /// The panics recorded since the last call (oldest first).
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.log.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        // `take_hook` itself panics on a panicking thread (a double panic aborts): unwinding
        // past a session keeps the recording hook, which is harmless.
        if !std::thread::panicking() {
            let _ = panic::take_hook();
        }
    }
}
