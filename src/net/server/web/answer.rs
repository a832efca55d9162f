//! A named refusal as an HTTP answer, for every JSON service on the project's web stack (the
//! game server's web port and the directory): an error enum with a stable wire name and a
//! status ([`NamedError`]), a refusal carrying one with its detail ([`Refusal`]), and the one
//! JSON response both send ([`json_response`]): `{"error": NAME, "detail": TEXT}`.

use super::body::{WebBody, full};
use hyper::Response;
use hyper::StatusCode;
use hyper::header::{CACHE_CONTROL, CONNECTION, CONTENT_TYPE, HeaderValue};
use serde_json::{Value, json};
use std::fmt;

/// An error enum whose `Display` is its wire name.
pub trait NamedError: Copy + fmt::Display + fmt::Debug {
    /// The HTTP status this refusal is answered with.
    fn status(self) -> u16;

    /// The answer: this error's status and `{"error", "detail"}`.
    fn answer(self, detail: impl Into<String>) -> (u16, Value) {
        (self.status(), json!({"error": self.to_string(), "detail": detail.into()}))
    }
}

/// A refused request: which rule, and what about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal<E> {
    pub error: E,
    pub detail: String,
}

impl<E: NamedError> Refusal<E> {
    pub fn new(error: E, detail: impl Into<String>) -> Self {
        Refusal { error, detail: detail.into() }
    }

    pub fn answer(&self) -> (u16, Value) {
        self.error.answer(self.detail.clone())
    }
}

impl<E: NamedError> fmt::Display for Refusal<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.error, self.detail)
    }
}

impl<E: NamedError> std::error::Error for Refusal<E> {}

/// A JSON answer, never cached; `close` also ends the connection (a refused body may still be
/// arriving, and its rest would be read as the next request).
pub fn json_response((status, value): (u16, Value), close: bool) -> Response<WebBody> {
    let mut r = Response::new(full(value.to_string()));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if close {
        h.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    r
}
