//! The browser's side of hosting (wasm32): the page's `WebSocket` as the [`PacketSocket`] under
//! [`NetcodeWs`], `fetch` for the web port's seat API, and the clock netcode starts from.
//!
//! The page is served by the web port itself, so the seat API is the page's own origin's
//! `/api/…` and the relay is `ws(s)://HOST/ws` (docs/NETWORK.md). Only the directory's lists and
//! the round trips quick match measures go elsewhere; a room on another server is joined by
//! going to that server's page ([`navigate`]).
//!
//! Bevy on wasm32 runs on the page's one thread, and the socket's callbacks run on it between
//! frames. JavaScript objects are not `Send`, which a resource must be: [`SendWrapper`] holds
//! them and would panic if another thread ever touched them, which in a page none can.

use crate::net::client::session::{JoinReply, PageQuery, parse_reply, seat_request};
use crate::net::wire::error::NetError;
use crate::net::wire::netcode_ws::{NetcodeWs, PacketSocket, WS_PATH};
use crate::net::wire::tokens::read_token;
use send_wrapper::SendWrapper;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    BinaryType, CloseEvent, Event, Headers, MessageEvent, Request, RequestInit, RequestMode,
    Response,
};

/// Packets received but not yet read are capped: past this (a page stalled in a background
/// tab) new ones are dropped, as a full UDP socket buffer would drop them.
const INBOX_CAP: usize = 4096;

fn js(what: &'static str) -> impl Fn(JsValue) -> NetError {
    move |v| NetError::Browser {
        what,
        message: v
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| v.as_string())
            .unwrap_or_else(|| format!("{v:?}")),
    }
}

fn window() -> Result<web_sys::Window, NetError> {
    web_sys::window().ok_or(NetError::NoWindow)
}

/// The Unix time, for netcode's clock.
pub fn unix_now() -> Duration {
    Duration::from_millis(js_sys::Date::now() as u64)
}

/// Reads `window.location`'s query (`?room=CODE&name=NAME&players=N`).
pub fn page_query() -> Result<PageQuery, NetError> {
    let search = window()?.location().search().map_err(js("location.search"))?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).map_err(js("query"))?;
    let get = |key: &str| params.get(key);
    Ok(PageQuery::new(get("room").as_deref(), get("name").as_deref(), get("players").as_deref())?)
}

/// The page's origin (`http://HOST:PORT`): the web port that served it.
pub fn page_origin() -> Result<String, NetError> {
    window()?.location().origin().map_err(js("location.origin"))
}

/// Asks the user for a line of text (the browser's own prompt); `None` when cancelled or blank.
pub fn prompt(message: &str, default: &str) -> Option<String> {
    let answer = window().ok()?.prompt_with_message_and_default(message, default).ok()??;
    let answer = answer.trim().to_string();
    (!answer.is_empty()).then_some(answer)
}

async fn post_json(path: &str, body: &Value) -> Result<(i32, Value), NetError> {
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(&body.to_string()));
    let headers = Headers::new().map_err(js("headers"))?;
    headers.set("Content-Type", "application/json").map_err(js("headers"))?;
    init.set_headers(&headers);
    let request = Request::new_with_str_and_init(path, &init).map_err(js("request"))?;
    let answer = JsFuture::from(window()?.fetch_with_request(&request))
        .await
        .map_err(js(path_what(path)))?;
    read_answer(answer.dyn_into().map_err(js("fetch answer"))?).await
}

/// A response's status and JSON body (`null` when the body is not JSON).
async fn read_answer(response: Response) -> Result<(i32, Value), NetError> {
    let text = JsFuture::from(response.text().map_err(js("answer body"))?)
        .await
        .map_err(js("answer body"))?
        .as_string()
        .unwrap_or_default();
    Ok((i32::from(response.status()), serde_json::from_str(&text).unwrap_or(Value::Null)))
}

fn path_what(path: &str) -> &'static str {
    if path.ends_with("/join") { "POST /api/rooms/CODE/join" } else { "POST /api/rooms" }
}

/// A seat from the page's web port: in room `code`, or in a new room when `None`, listed in
/// the server's directory when `public` (the native client's `net::client::api::request_seat`
/// and `create_room`, over fetch).
pub async fn request_seat(
    code: Option<&str>,
    name: &str,
    players: u8,
    public: bool,
) -> Result<JoinReply, NetError> {
    let (path, mut body) = seat_request(code, name, None, players);
    if code.is_none() && public {
        body["public"] = true.into();
    }
    let (status, v) = post_json(&path, &body).await?;
    parse_reply(status, v)
}

/// One value of the page's query (`?directory=URL&quick=1`), blank counted as absent.
pub fn page_param(key: &str) -> Option<String> {
    let search = window().ok()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(key).map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

/// The page's host (`HOST:PORT`): the web port that served it.
pub fn page_host() -> Result<String, NetError> {
    window()?.location().host().map_err(js("location.host"))
}

/// Leaves this page for `url` (a room on another server: its own page joins it).
pub fn navigate(url: &str) -> Result<(), NetError> {
    window()?.location().set_href(url).map_err(js("location.href"))
}

/// Fetches `url` (`mode` as the caller needs) and waits for the response head.
async fn fetch(url: &str, mode: RequestMode) -> Result<Response, NetError> {
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_mode(mode);
    let request = Request::new_with_str_and_init(url, &init).map_err(js("request"))?;
    let answer =
        JsFuture::from(window()?.fetch_with_request(&request)).await.map_err(js("fetch"))?;
    answer.dyn_into().map_err(js("fetch answer"))
}

/// GET `url`, on this page's origin or another that allows it (the directory answers its GETs
/// to any origin): its status and JSON body (`null` when the body is not JSON).
pub async fn get_json(url: &str) -> Result<(i32, Value), NetError> {
    read_answer(fetch(url, RequestMode::Cors).await?).await
}

/// Timed requests per server; the round trip is their median (as the native client's).
const PINGS: usize = 3;

/// The round trip from this page to the web port at `address`: the median of a few timed
/// `GET /healthz` (no-cors: the answer's body is not read, only when it came), `None` when none
/// answered. The page's clock is `performance.now()`, a monotonic one.
pub async fn round_trip(address: &str) -> Option<Duration> {
    let clock = window().ok()?.performance()?;
    let url = format!("http://{address}/healthz");
    let mut times = Vec::with_capacity(PINGS);
    for _ in 0..PINGS {
        let start = clock.now();
        if fetch(&url, RequestMode::NoCors).await.is_ok() {
            times.push(Duration::from_micros(((clock.now() - start).max(0.0) * 1000.0) as u64));
        }
    }
    times.sort();
    times.get(times.len() / 2).copied()
}

/// Quick match's seat on this page's server: a public lobby with room, else a new public room
/// (the native `net::client::api::quick_seat`, over fetch).
pub async fn quick_seat(name: &str, players: u8) -> Result<JoinReply, NetError> {
    let (path, mut body) = seat_request(None, name, None, players);
    body["public"] = true.into();
    body["quick"] = "join_or_create".into();
    let (status, v) = post_json(&path, &body).await?;
    parse_reply(status, v)
}

/// The transport for a seat: the page's WebSocket to `ws(s)://HOST/ws` carrying netcode with
/// the seat's connect token.
pub fn connect(reply: &JoinReply) -> Result<NetcodeWs<BrowserSocket>, NetError> {
    let token = read_token(&reply.token)?;
    let location = window()?.location();
    let scheme = match location.protocol().map_err(js("location.protocol"))?.as_str() {
        "https:" => "wss",
        _ => "ws",
    };
    let host = location.host().map_err(js("location.host"))?;
    let socket = BrowserSocket::open(&format!("{scheme}://{host}{WS_PATH}"))?;
    NetcodeWs::new(socket, token, unix_now())
}

/// What the socket's callbacks hand to the frame loop.
#[derive(Default)]
struct Shared {
    inbox: VecDeque<Vec<u8>>,
    open: bool,
    closed: Option<String>,
}

struct Inner {
    ws: web_sys::WebSocket,
    shared: Rc<RefCell<Shared>>,
    _on_open: Closure<dyn FnMut(Event)>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_close: Closure<dyn FnMut(CloseEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // The callbacks die with this struct: the socket must not call them afterwards.
        self.ws.set_onopen(None);
        self.ws.set_onmessage(None);
        self.ws.set_onclose(None);
        self.ws.set_onerror(None);
        let _ = self.ws.close();
    }
}

/// The page's WebSocket, binary messages, one netcode packet each.
pub struct BrowserSocket(SendWrapper<Inner>);

impl BrowserSocket {
    /// Starts opening `url`. Until it is open, sent packets are dropped: netcode resends its
    /// connection requests every 100 ms, so the first one after `open` goes through.
    pub fn open(url: &str) -> Result<BrowserSocket, NetError> {
        let ws = web_sys::WebSocket::new(url).map_err(js("WebSocket"))?;
        ws.set_binary_type(BinaryType::Arraybuffer);
        let shared = Rc::new(RefCell::new(Shared::default()));
        let s = shared.clone();
        let on_open = Closure::<dyn FnMut(Event)>::new(move |_: Event| s.borrow_mut().open = true);
        let s = shared.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let mut s = s.borrow_mut();
            if s.inbox.len() < INBOX_CAP {
                // Text messages are not netcode's and are ignored, as the relay ignores them.
                if let Ok(buffer) = e.data().dyn_into::<js_sys::ArrayBuffer>() {
                    s.inbox.push_back(js_sys::Uint8Array::new(&buffer).to_vec());
                }
            }
        });
        let s = shared.clone();
        let on_close = Closure::<dyn FnMut(CloseEvent)>::new(move |e: CloseEvent| {
            let mut s = s.borrow_mut();
            s.open = false;
            s.closed.get_or_insert(format!(
                "closed by the relay (code {} {})",
                e.code(),
                e.reason()
            ));
        });
        let s = shared.clone();
        let on_error = Closure::<dyn FnMut(Event)>::new(move |_: Event| {
            s.borrow_mut().closed.get_or_insert("websocket error".into());
        });
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        ws.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(BrowserSocket(SendWrapper::new(Inner {
            ws,
            shared,
            _on_open: on_open,
            _on_message: on_message,
            _on_close: on_close,
            _on_error: on_error,
        })))
    }
}

impl PacketSocket for BrowserSocket {
    fn send(&mut self, packet: &[u8]) {
        let inner = &*self.0;
        let ready = {
            let s = inner.shared.borrow();
            s.open && s.closed.is_none()
        };
        if ready && let Err(e) = inner.ws.send_with_u8_array(packet) {
            let e = js("WebSocket.send")(e);
            inner.shared.borrow_mut().closed.get_or_insert(e.to_string());
        }
    }

    fn recv(&mut self) -> Option<Vec<u8>> {
        self.0.shared.borrow_mut().inbox.pop_front()
    }

    /// The browser sends as soon as `send` is called: nothing is queued here.
    fn flush(&mut self) {}

    fn close(&mut self) {
        let _ = self.0.ws.close();
        self.0.shared.borrow_mut().closed.get_or_insert("disconnected".into());
    }

    fn closed(&self) -> Option<String> {
        self.0.shared.borrow().closed.clone()
    }
}
