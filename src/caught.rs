//! A caught panic's payload as words: what `catch_unwind` and a panic hook hand over, for the
//! log line, the room's fault or the bundle checker's verdict. One reading, so every catcher
//! names a panic the same way.

use std::any::Any;

/// The panic's message: its `&str` or `String` payload, or a fixed phrase for any other.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

#[cfg(test)]
mod tests {
    use super::panic_message;

    #[test]
    fn a_payload_reads_as_its_text_or_the_fixed_phrase() {
        let caught = |f: fn()| std::panic::catch_unwind(f).expect_err("it panics");
        let prior = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let literal = caught(|| panic!("stove on fire"));
        let formatted = caught(|| panic!("tick {}", 7));
        let other = caught(|| std::panic::panic_any(42_u8));
        std::panic::set_hook(prior);
        assert_eq!(panic_message(literal.as_ref()), "stove on fire");
        assert_eq!(panic_message(formatted.as_ref()), "tick 7");
        assert_eq!(panic_message(other.as_ref()), "a panic without a message");
    }
}
