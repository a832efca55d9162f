//! Ctrl+V on the Join screen: the system clipboard's text, for pasting a join link.
//!
//! Bevy's own clipboard (`bevy::clipboard`) reaches the system clipboard only with its
//! `system_clipboard` feature (arboard), and turning a Bevy feature on rebuilds Bevy in every
//! target dir and CI cache (docs/ARCHITECTURE.md, build economy). The one thing needed here is
//! to read text, so on Linux it is one X11 selection request through x11rb, which winit already
//! builds (this adds no crate and no feature): X11 desktops, and Wayland ones through XWayland.
//! Elsewhere paste is refused with a reason, and the link can still be typed.

use std::time::Duration;

/// The clipboard's text (X11 `CLIPBOARD` as UTF-8) on `display` (`None`: `$DISPLAY`), waiting
/// at most `patience` for its owner to answer.
#[cfg(target_os = "linux")]
pub fn clipboard_text(display: Option<&str>, patience: Duration) -> Result<String, String> {
    use x11rb::connection::Connection;
    use x11rb::protocol::Event;
    use x11rb::protocol::xproto::{
        AtomEnum, ConnectionExt as _, CreateWindowAux, EventMask, WindowClass,
    };

    fn fail<E: std::fmt::Display>(what: &'static str) -> impl Fn(E) -> String {
        move |e| format!("clipboard: {what}: {e}")
    }
    let (conn, screen) = x11rb::connect(display).map_err(fail("no X display"))?;
    let root = conn.setup().roots[screen].root;
    let window = conn.generate_id().map_err(fail("window id"))?;
    conn.create_window(
        x11rb::COPY_DEPTH_FROM_PARENT,
        window,
        root,
        0,
        0,
        1,
        1,
        0,
        WindowClass::INPUT_OUTPUT,
        0,
        &CreateWindowAux::new().event_mask(EventMask::PROPERTY_CHANGE),
    )
    .map_err(fail("window"))?;
    let atom = |name: &[u8]| -> Result<u32, String> {
        let reply = conn.intern_atom(false, name).map_err(fail("atom"))?;
        Ok(reply.reply().map_err(fail("atom"))?.atom)
    };
    let (clipboard, utf8, target, incr) =
        (atom(b"CLIPBOARD")?, atom(b"UTF8_STRING")?, atom(b"UNDERCOOKED_PASTE")?, atom(b"INCR")?);
    conn.convert_selection(window, clipboard, utf8, target, x11rb::CURRENT_TIME)
        .map_err(fail("request"))?;
    conn.flush().map_err(fail("request"))?;
    let deadline = std::time::Instant::now() + patience;
    loop {
        match conn.poll_for_event().map_err(fail("events"))? {
            Some(Event::SelectionNotify(e)) if e.requestor == window => {
                if e.property == x11rb::NONE {
                    return Err("the clipboard holds no text".into());
                }
                let reply = conn
                    .get_property(true, window, target, AtomEnum::ANY, 0, 1 << 16)
                    .map_err(fail("read"))?
                    .reply()
                    .map_err(fail("read"))?;
                if reply.type_ == incr {
                    return Err("the clipboard's text is too long to paste".into());
                }
                return String::from_utf8(reply.value)
                    .map_err(|_| "the clipboard's text is not UTF-8".to_string());
            }
            Some(_) => {}
            None if std::time::Instant::now() >= deadline => {
                return Err("nothing on the clipboard answered".into());
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub fn clipboard_text(_display: Option<&str>, _patience: Duration) -> Result<String, String> {
    Err("pasting is not supported on this platform yet: type the link".into())
}

/// A pasted text as one field's worth: its first non-empty line, trimmed.
pub fn first_line(text: &str) -> String {
    text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("").to_string()
}
