//! Which server world answers a call. A create goes to the next shard in turn (skipping full
//! ones), a call naming a room code to the shard that created it, health to all; with one
//! shard every call goes to it. The router also keeps who created each live room, which is
//! what the per-address room limits count ([`super::quota`]): the code table is pruned of
//! rooms that closed, from a shard's 404 and from each shard's list of live codes, asked every
//! [`PRUNE_EVERY`].

use super::answer::NamedError;
use super::api::{ApiBody, ApiError, CreateBody, QuickSeat};
use super::call::{ApiCall, METRICS_PATH, RECODE_PATH, ROOM_CODES_PATH, ROOM_LIST_PATH};
use super::counters::WebCounters;
use super::quota::RoomQuota;
use crate::net::wire::directory::RoomEntry;
use crate::net::wire::tokens::parse_code;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How long a call waits for its world's answer (a world answers within a frame).
pub const ANSWER_WAIT: Duration = Duration::from_secs(3);
/// How often the code table is pruned of closed rooms.
pub const PRUNE_EVERY: Duration = Duration::from_secs(5);

/// Who holds a live room.
#[derive(Clone, Copy, Debug)]
struct Owner {
    shard: usize,
    /// The address that created it.
    by: Option<IpAddr>,
}

#[derive(Debug, Default)]
struct Table {
    /// Room code → owner, learnt from each create's answer.
    codes: HashMap<String, Owner>,
    next: usize,
}

/// The shards' inboxes, the code table and the room quota.
pub struct Router {
    shards: Vec<Sender<ApiCall>>,
    table: Mutex<Table>,
    quota: Mutex<RoomQuota>,
    counters: Arc<WebCounters>,
    /// Held through a quick match's look for a lobby and its create, so two at once cannot
    /// each miss the other's room and make one apiece.
    quick: tokio::sync::Mutex<()>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere never leaves these half-updated in a way worth refusing service over.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Router {
    pub fn new(shards: Vec<Sender<ApiCall>>, quota: RoomQuota, counters: Arc<WebCounters>) -> Self {
        Router {
            shards,
            table: Mutex::default(),
            quota: Mutex::new(quota),
            counters,
            quick: tokio::sync::Mutex::new(()),
        }
    }

    pub fn shards(&self) -> usize {
        self.shards.len()
    }

    /// Sends a call to one shard and waits (bounded by `wait`) for its answer.
    async fn ask(
        &self,
        shard: usize,
        method: &str,
        path: &str,
        body: ApiBody,
        peer: Option<IpAddr>,
        wait: Duration,
    ) -> (u16, Value) {
        let (reply, answer) = oneshot::channel();
        let call =
            ApiCall { method: method.to_string(), path: path.to_string(), body, peer, reply };
        if self.shards[shard].send(call).is_err() {
            return ApiError::ServerStopping.answer("the server world has stopped");
        }
        match tokio::time::timeout(wait, answer).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => ApiError::ServerStopping.answer("the server world has stopped"),
            Err(_) => ApiError::ServerBusy.answer("the server world did not answer in time"),
        }
    }

    /// `POST /api/rooms`: the caller's address limits first, then the shards in turn.
    pub async fn create(&self, body: CreateBody, peer: IpAddr) -> (u16, Value) {
        // Quick match: a seat in a public lobby of any shard is a join, not a new room (no
        // quota spent); only when none has the seats does it go on to make one.
        let _one_quick_at_a_time = match body.quick {
            Some(_) => Some(self.quick.lock().await),
            None => None,
        };
        if body.quick.is_some()
            && let Some(seated) = self.quick_join(&body, peer).await
        {
            return seated;
        }
        let live = lock(&self.table).codes.values().filter(|o| o.by == Some(peer)).count();
        if let Err(e) = lock(&self.quota).admit(peer, live, Instant::now()) {
            WebCounters::bump(match e {
                ApiError::RoomsPerAddress => &self.counters.rooms_per_address,
                _ => &self.counters.room_rate_limited,
            });
            return e.answer(match e {
                ApiError::RoomsPerAddress => "this address holds as many live rooms as it may",
                _ => "rooms created too fast from this address: try again later",
            });
        }
        let answer = self.create_on_a_shard(body, peer).await;
        lock(&self.quota).done(peer);
        answer
    }

    /// A quick match's seat in a public lobby with room on any shard, if one has it.
    async fn quick_join(&self, body: &CreateBody, peer: IpAddr) -> Option<(u16, Value)> {
        let join_only = CreateBody { quick: Some(QuickSeat::Join), ..body.clone() };
        for shard in 0..self.shards.len() {
            let body = ApiBody::Create(join_only.clone());
            let answer = self.ask(shard, "POST", "/api/rooms", body, Some(peer), ANSWER_WAIT).await;
            if answer.0 == 200 {
                return Some(answer);
            }
        }
        None
    }

    async fn create_on_a_shard(&self, body: CreateBody, peer: IpAddr) -> (u16, Value) {
        let n = self.shards.len();
        for _ in 0..n {
            let shard = {
                let mut t = lock(&self.table);
                let shard = t.next % n;
                t.next = t.next.wrapping_add(1);
                shard
            };
            let answer = self
                .ask(
                    shard,
                    "POST",
                    "/api/rooms",
                    ApiBody::Create(body.clone()),
                    Some(peer),
                    ANSWER_WAIT,
                )
                .await;
            // 201: a new room, this caller's (a quick seat in another's room answers 200).
            if answer.0 == 201
                && let Some(code) = answer.1["code"].as_str()
            {
                lock(&self.table).codes.insert(code.to_string(), Owner { shard, by: Some(peer) });
            }
            // A full shard (503) passes the create on, until every one has refused.
            if answer.0 != 503 {
                return answer;
            }
        }
        ApiError::RoomLimit.answer("every shard holds as many rooms as it may")
    }

    /// A call naming room `code` (`GET /api/rooms/CODE`, `POST …/join`).
    pub async fn room(
        &self,
        method: &str,
        path: &str,
        code: &str,
        body: ApiBody,
        peer: IpAddr,
    ) -> (u16, Value) {
        let code = parse_code(code);
        let shard = match (&code, self.shards.len()) {
            (_, 1) => Some(0),
            (Some(c), _) => lock(&self.table).codes.get(c).map(|o| o.shard),
            (None, _) => None,
        };
        let Some(shard) = shard else {
            return ApiError::NoSuchRoom.answer("no room has that code");
        };
        let answer = self.ask(shard, method, path, body, Some(peer), ANSWER_WAIT).await;
        if answer.0 == 404
            && answer.1["error"] == ApiError::NoSuchRoom.to_string()
            && let Some(c) = code
        {
            lock(&self.table).codes.remove(&c);
        }
        answer
    }

    /// `GET /api/health`: rooms summed over the shards, every shard's UDP addresses.
    pub async fn health(&self) -> (u16, Value) {
        let (mut rooms, mut udp) = (0, Vec::new());
        for shard in 0..self.shards.len() {
            let (_, v) =
                self.ask(shard, "GET", "/api/health", ApiBody::Empty, None, ANSWER_WAIT).await;
            rooms += v["rooms"].as_u64().unwrap_or(0);
            udp.extend(v["udp"].as_array().cloned().unwrap_or_default());
        }
        (200, json!({"rooms": rooms, "udp": udp}))
    }

    /// How many shards answered health within `wait` (all asked at once).
    pub async fn ready(&self, wait: Duration) -> usize {
        let asks = (0..self.shards.len())
            .map(|s| self.ask(s, "GET", "/api/health", ApiBody::Empty, None, wait));
        futures_util::future::join_all(asks).await.iter().filter(|(s, _)| *s == 200).count()
    }

    /// `GET /metrics`: the Prometheus text shard 0's world answers, or its refusal. The
    /// worlds share one registry per process (each series labelled with its shard), so one
    /// world answers for all of them.
    pub async fn metrics(&self) -> Result<String, (u16, Value)> {
        match self.ask(0, "GET", METRICS_PATH, ApiBody::Empty, None, ANSWER_WAIT).await {
            (200, Value::String(text)) => Ok(text),
            refused => Err(refused),
        }
    }

    /// Drops from the code table every room its shard no longer has. Only codes known before
    /// the shard was asked are dropped: a create answered meanwhile is not in its list yet.
    pub async fn prune(&self) {
        for shard in 0..self.shards.len() {
            let known: Vec<String> = lock(&self.table)
                .codes
                .iter()
                .filter(|(_, o)| o.shard == shard)
                .map(|(c, _)| c.clone())
                .collect();
            if known.is_empty() {
                continue;
            }
            let (status, v) =
                self.ask(shard, "GET", ROOM_CODES_PATH, ApiBody::Empty, None, ANSWER_WAIT).await;
            let Some(live) = v["codes"].as_array().filter(|_| status == 200) else { continue };
            let live: HashSet<&str> = live.iter().filter_map(Value::as_str).collect();
            let mut t = lock(&self.table);
            for code in known.iter().filter(|c| !live.contains(c.as_str())) {
                t.codes.remove(code);
            }
        }
    }

    /// Every shard's rooms as the directory is told of them (`net::server::announce`), by code.
    pub async fn listing(&self) -> Vec<RoomEntry> {
        let mut all = Vec::new();
        for shard in 0..self.shards.len() {
            let (status, v) =
                self.ask(shard, "GET", ROOM_LIST_PATH, ApiBody::Empty, None, ANSWER_WAIT).await;
            if status == 200
                && let Ok(rooms) = serde_json::from_value::<Vec<RoomEntry>>(v["rooms"].clone())
            {
                all.extend(rooms);
            }
        }
        all.sort_by(|a, b| a.code.cmp(&b.code));
        all
    }

    /// Gives room `code` a fresh code on the shard holding it (the directory holds `code` for
    /// another server); the new code, or None when the room is gone.
    pub async fn recode(&self, code: &str) -> Option<String> {
        let shard = match self.shards.len() {
            1 => 0,
            _ => lock(&self.table).codes.get(code).map(|o| o.shard)?,
        };
        let path = format!("{RECODE_PATH}/{code}");
        let (status, v) = self.ask(shard, "POST", &path, ApiBody::Empty, None, ANSWER_WAIT).await;
        let new = v["code"].as_str().filter(|_| status == 200)?.to_string();
        let mut t = lock(&self.table);
        if let Some(owner) = t.codes.remove(code) {
            t.codes.insert(new.clone(), owner);
        }
        Some(new)
    }

    /// Rooms in the code table (tests read it to see pruning).
    pub fn known_rooms(&self) -> usize {
        lock(&self.table).codes.len()
    }
}
