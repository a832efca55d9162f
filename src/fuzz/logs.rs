//! The network crates' own refusals, heard: renetcode and renet report a dropped packet only
//! through `log::error!`, so during fuzzing a logger keeps the latest such message per thread
//! and the targets name it as the input's error kind.

use std::cell::RefCell;
use std::sync::OnceLock;

thread_local! {
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

struct Recorder;

static RECORDER: Recorder = Recorder;

impl log::Log for Recorder {
    fn enabled(&self, meta: &log::Metadata<'_>) -> bool {
        meta.level() <= log::Level::Warn
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            let text = record.args().to_string();
            LAST.with(|l| *l.borrow_mut() = Some(kind_of(&text)));
        }
    }

    fn flush(&self) {}
}

/// A message without its numbers and addresses: the same refusal reads the same every time.
fn kind_of(text: &str) -> String {
    let text = text.rsplit(": ").next().unwrap_or(text);
    let kept: String = text.chars().filter(|c| !c.is_ascii_digit()).take(60).collect();
    kept.trim().to_string()
}

/// Install the recorder (once per process; a logger someone else installed first stays, and
/// inputs are then named by their outcome alone).
pub fn install() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        if log::set_logger(&RECORDER).is_ok() {
            log::set_max_level(log::LevelFilter::Warn);
        }
    });
}

/// The refusal logged on this thread since the last call, if any.
pub fn take() -> Option<String> {
    LAST.with(|l| l.borrow_mut().take())
}
