//! The verification queue: submissions wait in a bounded channel (a full one refuses the next
//! by name, `BOARD_BUSY`, rather than growing) for a few worker threads of their own, which
//! run at the lowest scheduling priority (nice 19: on Linux a thread's own), so a flood of
//! submissions takes only the CPU a live round's tick leaves. Each replay is bounded before it
//! starts (`verify`'s tick and frame bounds, from the level's round length) and its thread CPU
//! time is measured ([`BoardCounters`]). Every submission has a ticket whose verdict is kept
//! for a while ([`Tickets`]), for a submitter that stopped waiting.

use super::entry::Entered;
use super::error::{BoardError, BoardRefusal};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;

/// What a submission came to.
pub type Verdict = Result<Entered, BoardRefusal>;

/// Verdicts kept for tickets (the oldest forgotten first).
const KEEP_TICKETS: usize = 4_096;

/// A ticket's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TicketState {
    Queued,
    Done(Verdict),
}

/// Every recent submission's ticket.
#[derive(Default)]
pub struct Tickets {
    next: AtomicU64,
    states: Mutex<BTreeMap<u64, TicketState>>,
}

impl Tickets {
    fn states(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, TicketState>> {
        self.states.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn issue(&self) -> u64 {
        let n = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut states = self.states();
        states.insert(n, TicketState::Queued);
        while states.len() > KEEP_TICKETS {
            states.pop_first();
        }
        n
    }

    fn settle(&self, n: u64, verdict: &Verdict) {
        if let Some(s) = self.states().get_mut(&n) {
            *s = TicketState::Done(verdict.clone());
        }
    }

    fn forget(&self, n: u64) {
        self.states().remove(&n);
    }

    /// A ticket's state, if it is still kept.
    pub fn get(&self, n: u64) -> Option<TicketState> {
        self.states().get(&n).cloned()
    }
}

/// What the queue has done (a board's metrics).
#[derive(Debug, Default)]
pub struct BoardCounters {
    pub replays: AtomicU64,
    /// Thread CPU time of every verification, in µs, and the longest one.
    pub cpu_micros: AtomicU64,
    pub cpu_max_micros: AtomicU64,
    pub entered: AtomicU64,
    pub refused: AtomicU64,
    pub busy: AtomicU64,
}

impl BoardCounters {
    /// The counters as OpenMetrics families (`undercooked_board_*`), for a port's `/metrics`.
    pub fn prometheus(&self) -> String {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let seconds = |c: &AtomicU64| load(c) as f64 / 1e6;
        let series: [(&str, &str, &str, String); 6] = [
            (
                "replays",
                "counter",
                "Submissions verified (replayed or refused before).",
                load(&self.replays).to_string(),
            ),
            (
                "entered",
                "counter",
                "Verified rounds entered on the board.",
                load(&self.entered).to_string(),
            ),
            (
                "refused",
                "counter",
                "Submissions a worker refused by name.",
                load(&self.refused).to_string(),
            ),
            (
                "busy",
                "counter",
                "Submissions refused BOARD_BUSY (the queue full).",
                load(&self.busy).to_string(),
            ),
            (
                "cpu_seconds",
                "counter",
                "Thread CPU time of the verifications.",
                seconds(&self.cpu_micros).to_string(),
            ),
            (
                "cpu_max_seconds",
                "gauge",
                "The longest verification's thread CPU time.",
                seconds(&self.cpu_max_micros).to_string(),
            ),
        ];
        let mut out = String::new();
        for (name, kind, help, value) in series {
            let sample = if kind == "counter" { format!("{name}_total") } else { name.to_string() };
            out.push_str(&format!(
                "# HELP undercooked_board_{name} {help}\n# TYPE undercooked_board_{name} {kind}\nundercooked_board_{sample} {value}\n"
            ));
        }
        out
    }
}

/// One submission on its way to a worker.
struct Job {
    ticket: u64,
    bytes: Vec<u8>,
    reply: oneshot::Sender<Verdict>,
}

/// The work a verification does: the bundle's bytes to a verdict (verify, then store).
pub type Work = Arc<dyn Fn(&[u8]) -> Verdict + Send + Sync>;

/// The queue and its workers (they end when it is dropped).
pub struct VerifyQueue {
    tx: SyncSender<Job>,
    pub tickets: Arc<Tickets>,
    pub counters: Arc<BoardCounters>,
}

/// CPU time the calling thread has used.
fn thread_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn work_on(
    rx: Arc<Mutex<Receiver<Job>>>,
    work: Work,
    tickets: Arc<Tickets>,
    counters: Arc<BoardCounters>,
) {
    // The lowest priority this thread can have: ticks come first. (Linux: per thread.)
    let _ = rustix::process::setpriority_process(None, 19);
    loop {
        let job = match rx.lock().unwrap_or_else(|p| p.into_inner()).recv() {
            Ok(job) => job,
            Err(_) => return,
        };
        let start = thread_cpu();
        let verdict =
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&job.bytes))) {
                Ok(v) => v,
                Err(p) => Err(BoardRefusal::new(
                    BoardError::ReplayPanicked,
                    crate::caught::panic_message(p.as_ref()),
                )),
            };
        let spent = thread_cpu().saturating_sub(start).as_micros() as u64;
        counters.replays.fetch_add(1, Ordering::Relaxed);
        counters.cpu_micros.fetch_add(spent, Ordering::Relaxed);
        counters.cpu_max_micros.fetch_max(spent, Ordering::Relaxed);
        let tally = if verdict.is_ok() { &counters.entered } else { &counters.refused };
        tally.fetch_add(1, Ordering::Relaxed);
        tickets.settle(job.ticket, &verdict);
        let _ = job.reply.send(verdict);
    }
}

impl VerifyQueue {
    /// `workers` threads behind a queue of `depth` waiting submissions.
    pub fn start(workers: usize, depth: usize, work: Work) -> std::io::Result<Self> {
        let (tx, rx) = sync_channel(depth.max(1));
        let rx = Arc::new(Mutex::new(rx));
        let tickets = Arc::new(Tickets::default());
        let counters = Arc::new(BoardCounters::default());
        for i in 0..workers.max(1) {
            let (rx, work, tickets, counters) =
                (rx.clone(), work.clone(), tickets.clone(), counters.clone());
            std::thread::Builder::new()
                .name(format!("undercooked-board-{i}"))
                .spawn(move || work_on(rx, work, tickets, counters))?;
        }
        Ok(VerifyQueue { tx, tickets, counters })
    }

    /// Queues a submission: its ticket and where its verdict will come; `BOARD_BUSY` when the
    /// queue is full.
    pub fn offer(&self, bytes: Vec<u8>) -> Result<(u64, oneshot::Receiver<Verdict>), BoardRefusal> {
        let ticket = self.tickets.issue();
        let (reply, verdict) = oneshot::channel();
        match self.tx.try_send(Job { ticket, bytes, reply }) {
            Ok(()) => Ok((ticket, verdict)),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.tickets.forget(ticket);
                self.counters.busy.fetch_add(1, Ordering::Relaxed);
                Err(BoardRefusal::new(
                    BoardError::Busy,
                    "the verification queue is full: submit again later",
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn a_full_queue_refuses_by_name_and_every_ticket_keeps_its_verdict() {
        let (started, on_start) = channel::<()>();
        let (release, go) = channel::<()>();
        let (started, go) = (Mutex::new(started), Mutex::new(go));
        let work: Work = Arc::new(move |bytes| {
            let _ = started.lock().unwrap().send(());
            let _ = go.lock().unwrap().recv();
            Err(BoardRefusal::new(BoardError::ChainMismatch, format!("{} bytes", bytes.len())))
        });
        let q = VerifyQueue::start(1, 1, work).unwrap();
        let (first, _) = q.offer(vec![1]).unwrap();
        on_start.recv().unwrap();
        let (second, verdict) = q.offer(vec![1, 2]).unwrap();
        let busy = q.offer(vec![3]).unwrap_err();
        assert_eq!(busy.error, BoardError::Busy);
        assert_eq!(q.tickets.get(second), Some(TicketState::Queued));
        release.send(()).unwrap();
        release.send(()).unwrap();
        let got = verdict.blocking_recv().unwrap().unwrap_err();
        assert_eq!((got.error, got.detail.as_str()), (BoardError::ChainMismatch, "2 bytes"));
        assert!(matches!(q.tickets.get(first), Some(TicketState::Done(Err(_)))));
        assert_eq!(q.counters.busy.load(Ordering::Relaxed), 1);
    }
}
