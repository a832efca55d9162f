//! The Agones SDK sidecar stand-in: what the real sidecar is to a game server in a pod, on
//! 127.0.0.1, so tests/agones.rs can watch a real server process speak Agones where Kubernetes
//! cannot run. Its gRPC service is generated (build.rs) from the `agones` crate's own .proto
//! files; it keeps what it is told — Ready, health pings, Shutdown, labels, the Counters and
//! Lists — in a [`Record`], and can refuse every call or vanish to show a server rides that out.
#![cfg(feature = "stand-in")]
// tonic's generated service traits answer with `tonic::Status` by value (176 bytes): the
// stand-in's helpers return what those traits return.
#![allow(clippy::result_large_err)]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tonic::{Request, Response, Status, Streaming};

/// The generated SDK messages and services (`agones.dev.sdk`, `agones.dev.sdk.beta`).
pub mod api {
    tonic::include_proto!("agones.dev.sdk");
    pub mod beta {
        tonic::include_proto!("agones.dev.sdk.beta");
    }
}

use api::beta;

/// A List as the stand-in holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListState {
    pub capacity: i64,
    pub values: Vec<String>,
}

/// A Counter as the stand-in holds it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CounterState {
    pub count: i64,
    pub capacity: i64,
}

/// Everything the game server told the stand-in, in the order it came.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// Each call's name, in order ("Ready", "Health", "AddListValue", ...).
    pub calls: Vec<&'static str>,
    /// Health pings received (each message on a Health stream is one).
    pub health: u64,
    /// For each Ready: what the test's [`Sidecar::on_ready`] check said at that moment.
    pub ready_checks: Vec<bool>,
    pub shutdowns: u32,
    pub labels: BTreeMap<String, String>,
    pub lists: BTreeMap<String, ListState>,
    pub counters: BTreeMap<String, CounterState>,
}

impl Record {
    pub fn count(&self, call: &str) -> usize {
        self.calls.iter().filter(|c| **c == call).count()
    }
}

/// What the stand-in answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// As the real sidecar does.
    Serve,
    /// Every call refused (`UNAVAILABLE`), nothing recorded but the refusal count.
    Refuse,
}

type ReadyCheck = Arc<dyn Fn() -> bool + Send + Sync>;

#[derive(Clone)]
struct State {
    record: Arc<Mutex<Record>>,
    answer: Arc<Mutex<Answer>>,
    refused: Arc<Mutex<u64>>,
    on_ready: Arc<Mutex<Option<ReadyCheck>>>,
    game_server: tokio::sync::watch::Sender<api::GameServer>,
}

impl State {
    /// Refuses when told to; otherwise records `call` and lets `f` change the record.
    fn take<T>(
        &self,
        call: &'static str,
        f: impl FnOnce(&mut Record) -> Result<T, Status>,
    ) -> Result<Response<T>, Status> {
        if *self.answer.lock().unwrap() == Answer::Refuse {
            *self.refused.lock().unwrap() += 1;
            return Err(Status::unavailable("stand-in told to refuse"));
        }
        let mut r = self.record.lock().unwrap();
        r.calls.push(call);
        f(&mut r).map(Response::new)
    }
}

/// The stand-in, serving on its own thread and runtime until dropped or [`Sidecar::vanish`]ed.
pub struct Sidecar {
    pub addr: SocketAddr,
    state: State,
    serving: Option<(tokio::sync::oneshot::Sender<()>, std::thread::JoinHandle<()>)>,
}

impl Sidecar {
    /// Serves on a free 127.0.0.1 port as the sidecar of the GameServer `name`, with the
    /// `rooms` List and `players` Counter a Fleet declares (capacities 0 until the server sets
    /// them).
    pub fn start(name: &str) -> Sidecar {
        let mut record = Record::default();
        record.lists.insert("rooms".into(), ListState::default());
        record.counters.insert("players".into(), CounterState::default());
        let gs = api::GameServer {
            object_meta: Some(api::game_server::ObjectMeta {
                name: name.into(),
                namespace: "default".into(),
                ..Default::default()
            }),
            status: Some(api::game_server::Status {
                state: "Scheduled".into(),
                ..Default::default()
            }),
            ..Default::default()
        };
        let state = State {
            record: Arc::new(Mutex::new(record)),
            answer: Arc::new(Mutex::new(Answer::Serve)),
            refused: Arc::new(Mutex::new(0)),
            on_ready: Arc::new(Mutex::new(None)),
            game_server: tokio::sync::watch::channel(gs).0,
        };
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().unwrap();
        let mut s = Sidecar { addr, state, serving: None };
        s.serve(listener);
        s
    }

    fn serve(&mut self, listener: std::net::TcpListener) {
        let state = self.state.clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                listener.set_nonblocking(true).unwrap();
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener);
                let server = tonic::transport::Server::builder()
                    .add_service(api::sdk_server::SdkServer::new(state.clone()))
                    .add_service(beta::sdk_server::SdkServer::new(state))
                    .serve_with_incoming(incoming);
                tokio::select! {
                    _ = server => {}
                    _ = stopped => {}
                }
            });
            // Dropping the runtime drops every connection's task: their sockets close.
            drop(runtime);
        });
        self.serving = Some((stop, thread));
    }

    /// The port, for `AGONES_SDK_GRPC_PORT`.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// What was recorded so far.
    pub fn record(&self) -> Record {
        self.state.record.lock().unwrap().clone()
    }

    /// Calls refused so far (while [`Answer::Refuse`]).
    pub fn refused(&self) -> u64 {
        *self.state.refused.lock().unwrap()
    }

    pub fn answer(&self, a: Answer) {
        *self.state.answer.lock().unwrap() = a;
    }

    /// A check run at the moment Ready arrives; its answer lands in [`Record::ready_checks`].
    pub fn on_ready(&self, check: impl Fn() -> bool + Send + Sync + 'static) {
        *self.state.on_ready.lock().unwrap() = Some(Arc::new(check));
    }

    /// The GameServer's address and its `netcode` and `web` ports, as Agones writes them into
    /// the status before the pod starts.
    pub fn set_ports(&self, address: &str, netcode: u16, web: u16) {
        self.state.game_server.send_modify(|gs| {
            let status = gs.status.get_or_insert_with(Default::default);
            status.address = address.into();
            status.ports = [("netcode", netcode), ("web", web)]
                .map(|(name, port)| api::game_server::status::Port {
                    name: name.into(),
                    port: port.into(),
                })
                .into();
        });
    }

    /// The GameServer's state moves to `state` (e.g. "Shutdown", as when Agones deletes it);
    /// every WatchGameServer stream is told.
    pub fn set_state(&self, state: &str) {
        self.state.game_server.send_modify(|gs| {
            gs.status.get_or_insert_with(Default::default).state = state.into();
        });
    }

    /// The sidecar goes away: its port closes and every stream on it breaks.
    pub fn vanish(&mut self) {
        if let Some((stop, thread)) = self.serving.take() {
            let _ = stop.send(());
            let _ = thread.join();
        }
    }

    /// The sidecar comes back on the same port (what it recorded is kept).
    pub fn come_back(&mut self) {
        let listener = std::net::TcpListener::bind(self.addr).expect("the old port again");
        self.serve(listener);
    }
}

impl Drop for Sidecar {
    fn drop(&mut self) {
        self.vanish();
    }
}

#[tonic::async_trait]
impl api::sdk_server::Sdk for State {
    async fn ready(&self, _: Request<api::Empty>) -> Result<Response<api::Empty>, Status> {
        let check = self.state_check();
        self.take("Ready", |r| {
            r.ready_checks.push(check);
            Ok(api::Empty {})
        })?;
        self.game_server.send_modify(|gs| {
            gs.status.get_or_insert_with(Default::default).state = "Ready".into();
        });
        Ok(Response::new(api::Empty {}))
    }

    async fn allocate(&self, _: Request<api::Empty>) -> Result<Response<api::Empty>, Status> {
        self.take("Allocate", |_| Ok(api::Empty {}))
    }

    async fn shutdown(&self, _: Request<api::Empty>) -> Result<Response<api::Empty>, Status> {
        self.take("Shutdown", |r| {
            r.shutdowns += 1;
            Ok(api::Empty {})
        })
    }

    async fn health(
        &self,
        request: Request<Streaming<api::Empty>>,
    ) -> Result<Response<api::Empty>, Status> {
        let mut stream = request.into_inner();
        while stream.message().await?.is_some() {
            self.take("Health", |r| {
                r.health += 1;
                Ok(())
            })?;
        }
        Ok(Response::new(api::Empty {}))
    }

    async fn get_game_server(
        &self,
        _: Request<api::Empty>,
    ) -> Result<Response<api::GameServer>, Status> {
        let gs = self.game_server.borrow().clone();
        self.take("GetGameServer", |_| Ok(gs))
    }

    type WatchGameServerStream = std::pin::Pin<
        Box<dyn tokio_stream::Stream<Item = Result<api::GameServer, Status>> + Send + 'static>,
    >;

    async fn watch_game_server(
        &self,
        _: Request<api::Empty>,
    ) -> Result<Response<Self::WatchGameServerStream>, Status> {
        let changes = tokio_stream::wrappers::WatchStream::new(self.game_server.subscribe());
        self.take("WatchGameServer", |_| {
            let stream: Self::WatchGameServerStream =
                Box::pin(tokio_stream::StreamExt::map(changes, Ok));
            Ok(stream)
        })
    }

    async fn set_label(&self, kv: Request<api::KeyValue>) -> Result<Response<api::Empty>, Status> {
        let kv = kv.into_inner();
        self.take("SetLabel", |r| {
            r.labels.insert(kv.key, kv.value);
            Ok(api::Empty {})
        })
    }

    async fn set_annotation(
        &self,
        _: Request<api::KeyValue>,
    ) -> Result<Response<api::Empty>, Status> {
        self.take("SetAnnotation", |_| Ok(api::Empty {}))
    }

    async fn reserve(&self, _: Request<api::Duration>) -> Result<Response<api::Empty>, Status> {
        self.take("Reserve", |_| Ok(api::Empty {}))
    }
}

impl State {
    fn state_check(&self) -> bool {
        let check = self.on_ready.lock().unwrap().clone();
        check.is_none_or(|c| c())
    }
}

fn list_of(name: &str, l: &ListState) -> beta::List {
    beta::List { name: name.into(), capacity: l.capacity, values: l.values.clone() }
}

fn counter_of(name: &str, c: CounterState) -> beta::Counter {
    beta::Counter { name: name.into(), count: c.count, capacity: c.capacity }
}

/// The real sidecar's answers for a List or Counter the GameServer does not declare.
fn undeclared(what: &str, name: &str) -> Status {
    Status::not_found(format!("{what} not found: {name}"))
}

#[tonic::async_trait]
impl beta::sdk_server::Sdk for State {
    async fn get_counter(
        &self,
        req: Request<beta::GetCounterRequest>,
    ) -> Result<Response<beta::Counter>, Status> {
        let name = req.into_inner().name;
        self.take("GetCounter", |r| {
            let c = r.counters.get(&name).ok_or_else(|| undeclared("counter", &name))?;
            Ok(counter_of(&name, *c))
        })
    }

    async fn update_counter(
        &self,
        req: Request<beta::UpdateCounterRequest>,
    ) -> Result<Response<beta::Counter>, Status> {
        let u = req.into_inner().counter_update_request.unwrap_or_default();
        self.take("UpdateCounter", |r| {
            let c = r.counters.get_mut(&u.name).ok_or_else(|| undeclared("counter", &u.name))?;
            let mut next = *c;
            if let Some(cap) = u.capacity {
                next.capacity = cap;
            }
            if let Some(count) = u.count {
                next.count = count;
            }
            next.count += u.count_diff;
            if next.count < 0 || next.count > next.capacity {
                return Err(Status::out_of_range("count outside 0..=capacity"));
            }
            *c = next;
            Ok(counter_of(&u.name, next))
        })
    }

    async fn get_list(
        &self,
        req: Request<beta::GetListRequest>,
    ) -> Result<Response<beta::List>, Status> {
        let name = req.into_inner().name;
        self.take("GetList", |r| {
            let l = r.lists.get(&name).ok_or_else(|| undeclared("list", &name))?;
            Ok(list_of(&name, l))
        })
    }

    async fn update_list(
        &self,
        req: Request<beta::UpdateListRequest>,
    ) -> Result<Response<beta::List>, Status> {
        let req = req.into_inner();
        let list = req.list.unwrap_or_default();
        let paths = req.update_mask.map(|m| m.paths).unwrap_or_default();
        self.take("UpdateList", |r| {
            let l = r.lists.get_mut(&list.name).ok_or_else(|| undeclared("list", &list.name))?;
            if paths.iter().any(|p| p == "capacity") {
                l.capacity = list.capacity;
                l.values.truncate(list.capacity.max(0) as usize);
            }
            if paths.iter().any(|p| p == "values") {
                l.values = list.values.clone();
            }
            Ok(list_of(&list.name, l))
        })
    }

    async fn add_list_value(
        &self,
        req: Request<beta::AddListValueRequest>,
    ) -> Result<Response<beta::List>, Status> {
        let req = req.into_inner();
        self.take("AddListValue", |r| {
            let l = r.lists.get_mut(&req.name).ok_or_else(|| undeclared("list", &req.name))?;
            if l.values.contains(&req.value) {
                return Err(Status::already_exists(req.value));
            }
            if l.values.len() as i64 >= l.capacity {
                return Err(Status::out_of_range("list at capacity"));
            }
            l.values.push(req.value);
            Ok(list_of(&req.name, l))
        })
    }

    async fn remove_list_value(
        &self,
        req: Request<beta::RemoveListValueRequest>,
    ) -> Result<Response<beta::List>, Status> {
        let req = req.into_inner();
        self.take("RemoveListValue", |r| {
            let l = r.lists.get_mut(&req.name).ok_or_else(|| undeclared("list", &req.name))?;
            let at = l.values.iter().position(|v| *v == req.value);
            let at = at.ok_or_else(|| Status::not_found(req.value.clone()))?;
            l.values.remove(at);
            Ok(list_of(&req.name, l))
        })
    }
}
