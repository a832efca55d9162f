//! A remote bot: the planner playing one seat of a hosted round from a client
//! (`undercooked join … --headless --inputs bot`).
//!
//! A client never sees the server's `Room`; it sees the replicated views (`protocol.rs`). Each
//! time the room's clock advances, [`snapshot`] rebuilds a read-only planning `Room` from those
//! views plus the level and recipe book compiled from the round's [`RoundSource`], and the same
//! [`BotTeam`] the server's bots use plans on it. The frame it emits goes out through the
//! client's input path like any other `--inputs` mode. Nothing here writes sim state: the
//! snapshot is thrown away after one plan.
//!
//! The one difference from a bot that reads the room it feeds is time: the view at room tick
//! `t` is the state *before* tick `t`, and the client stamps its frame for `t + lead` so it
//! reaches the server in time. A press therefore shows in the views `lead + 1` ticks after it
//! was planned, and the team is built with that latency (`BotTeam::latency`), so an action
//! waits for its press's outcome before the planner reads the kitchen again.

use super::claims::ClaimTable;
use super::planner::BotTeam;
use crate::level::compile::parse_level;
use crate::level::recipes::parse_recipes;
use crate::protocol::{
    CookMotion, CookView, GridView, ItemLook, ItemPlace, ItemView, RoomClock, RoomView,
    RoundSource, StationView,
};
use crate::sim::events::SimEvent;
use crate::sim::flight::Flight;
use crate::sim::ids::{ItemId, Seat};
use crate::sim::input::InputFrame;
use crate::sim::item::{Item, ItemKind, Mark, Place};
use crate::sim::kitchen::Level;
use crate::sim::open::SeatSpec;
use crate::sim::order::Order;
use crate::sim::recipe_book::RecipeBook;
use crate::sim::room::Room;
use crate::sim::v2::V2;
use std::fmt;
use std::sync::{Arc, Mutex};

/// Why a remote bot cannot plan on what the client sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteBotError {
    /// The round's recipe book does not compile (its errors, one per line).
    Recipes(String),
    /// The round's level does not compile against that book.
    Level(String),
    /// The views disagree with the compiled level (a grid or a fixture it does not have).
    Mismatch(String),
    /// A ticket names a recipe the book lacks.
    UnknownRecipe(String),
}

impl fmt::Display for RemoteBotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoteBotError::Recipes(e) => write!(f, "the round's recipe book: {e}"),
            RemoteBotError::Level(e) => write!(f, "the round's level: {e}"),
            RemoteBotError::Mismatch(e) => write!(f, "the views do not match the level: {e}"),
            RemoteBotError::UnknownRecipe(id) => write!(f, "a ticket for unknown recipe `{id}`"),
        }
    }
}

impl std::error::Error for RemoteBotError {}

fn joined(errors: Vec<crate::level::error::LevelError>) -> String {
    errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// Compiles a round's sources: the recipe book, then the level against it.
pub fn compile_round(
    source: &RoundSource,
) -> Result<(Arc<Level>, Arc<RecipeBook>), RemoteBotError> {
    let book = parse_recipes(source.recipes.as_bytes(), "<round recipes>")
        .map_err(|e| RemoteBotError::Recipes(joined(e)))?;
    let level = parse_level(source.level.as_bytes(), "<round level>", &book)
        .map_err(|e| RemoteBotError::Level(joined(e)))?;
    Ok((Arc::new(level), Arc::new(book)))
}

/// Everything a client sees of one round, borrowed from its world.
#[derive(Clone, Copy, Debug)]
pub struct Views<'a> {
    pub clock: RoomClock,
    pub room: &'a RoomView,
    pub grid: &'a GridView,
    /// Any order; the snapshot sorts by seat.
    pub cooks: &'a [(&'a CookView, &'a CookMotion)],
    /// Any order; every fixture of the level must be here.
    pub stations: &'a [&'a StationView],
    /// Any order.
    pub items: &'a [&'a ItemView],
    /// The events of the ticks since the last snapshot (the sim's `Denied` answers).
    pub events: &'a [SimEvent],
}

/// A planning `Room` rebuilt from the views: exact in everything the planner reads (grid as it
/// is now, cooks, fixtures, items with their hand-off marks, rail, props, events). What the
/// views do not carry is left at a fresh room's value and never read by a bot: the rng, the
/// hash chain, the input queue, hazard timers, a fixture's release cooldown, and an item's
/// heat beyond its fixture's burn countdown.
pub fn snapshot(
    level: &Arc<Level>,
    book: &Arc<RecipeBook>,
    v: &Views,
) -> Result<Room, RemoteBotError> {
    let mut cooks: Vec<(&CookView, &CookMotion)> = v.cooks.to_vec();
    cooks.sort_by_key(|(c, _)| c.seat);
    if let Some(w) = cooks.windows(2).find(|w| w[0].0.seat == w[1].0.seat) {
        return Err(RemoteBotError::Mismatch(format!("two cooks on seat {}", w[0].0.seat)));
    }
    let seats: Vec<SeatSpec> = cooks.iter().map(|(c, _)| SeatSpec::new(c.seat, &c.name)).collect();
    let mut room = Room::new(level.clone(), book.clone(), 0, &seats);
    let grid = v.grid;
    if (grid.width, grid.height) != (level.width, level.height)
        || grid.tiles.len() != level.tiles.len()
    {
        return Err(RemoteBotError::Mismatch(format!(
            "a {}×{} grid for a {}×{} level",
            grid.width, grid.height, level.width, level.height
        )));
    }
    // A shifting floor: the grid as it is now, which is what paths and targeting read.
    if grid.tiles != level.tiles {
        Arc::make_mut(&mut room.level).tiles.clone_from(&grid.tiles);
    }
    room.tick = v.clock.tick;
    room.time_left = v.clock.time_left;
    for (cook, (view, motion)) in room.cooks.iter_mut().zip(&cooks) {
        cook.pos = V2::new(motion.pos.0, motion.pos.1);
        cook.vel = V2::new(motion.vel.0, motion.vel.1);
        cook.facing = view.facing;
        cook.state = view.state;
        cook.stun = view.stun;
        cook.held = view.held.map(ItemId);
        cook.action_ticks = view.action_ticks;
        cook.dash = view.dash;
        cook.dash_cooldown = view.dash_cooldown;
        cook.score = view.score;
        cook.dishes_served = view.dishes_served;
    }
    if v.stations.len() != room.stations.len() {
        return Err(RemoteBotError::Mismatch(format!(
            "{} fixtures seen, the level has {}",
            v.stations.len(),
            room.stations.len()
        )));
    }
    let mut heat = vec![0; room.stations.len()];
    for sv in v.stations {
        let i = usize::from(sv.index);
        let Some(st) = room.stations.get_mut(i) else {
            return Err(RemoteBotError::Mismatch(format!("fixture #{i} is not in the level")));
        };
        if st.kind != sv.kind || st.cell != sv.cell {
            return Err(RemoteBotError::Mismatch(format!(
                "fixture #{i} is a {} at {:?}, the level has a {} at {:?}",
                sv.kind.label(),
                sv.cell,
                st.kind.label(),
                st.cell
            )));
        }
        st.state = sv.state;
        st.progress = sv.progress;
        st.worker = sv.worker;
        heat[i] = sv.heat;
    }
    let fixtures = room.stations.len();
    let mut items: Vec<Item> = v
        .items
        .iter()
        .map(|iv| {
            let place = match iv.place {
                ItemPlace::Hand(s) => Place::Hand(s),
                ItemPlace::Station(s) if usize::from(s) < fixtures => Place::Station(s),
                ItemPlace::Station(s) => {
                    return Err(RemoteBotError::Mismatch(format!(
                        "item {} lies on fixture #{s}, the level has {fixtures}",
                        iv.id
                    )));
                }
                ItemPlace::Floor((x, y)) => Place::Floor(V2::new(x, y)),
                // Where it would drop if refused is not on the wire; a bot plans without it.
                ItemPlace::Flying { pos, dir, age, thrower, .. } => Place::Air(Flight {
                    thrower,
                    dir,
                    pos: V2::new(pos.0, pos.1),
                    age,
                    last_floor: None,
                }),
            };
            let kind = match &iv.look {
                ItemLook::Food(g, f) => ItemKind::Food(*g, *f),
                ItemLook::Plate(parts) => ItemKind::Plate { parts: parts.clone() },
                ItemLook::Extinguisher => ItemKind::Extinguisher,
            };
            let on_heat = match (place, &kind) {
                (Place::Station(s), ItemKind::Food(..)) => {
                    heat.get(usize::from(s)).copied().unwrap_or(0)
                }
                _ => 0,
            };
            Ok(Item {
                id: ItemId(iv.id),
                kind,
                place,
                quality: iv.quality,
                mark: iv.set_down.map(|(placer, tick)| Mark { placer, tick }),
                heat: on_heat,
            })
        })
        .collect::<Result<_, RemoteBotError>>()?;
    items.sort_by_key(|i| i.id);
    room.next_item = items.last().map_or(1, |i| i.id.0 + 1);
    room.items = items;
    let rv = v.room;
    room.plates_clean = rv.plates_clean;
    room.plates_dirty = rv.plates_dirty;
    room.pots_clean = rv.pots_clean;
    // Clean and dirty pots always sum to the level's stock.
    room.pots_dirty = level.props.pots.saturating_sub(rv.pots_clean);
    room.counters.served = rv.served;
    room.counters.missed = rv.missed;
    room.score = rv.score;
    room.streak = rv.streak;
    room.versus = rv.versus;
    room.result = rv.result;
    room.orders = rv
        .orders
        .iter()
        .map(|o| {
            let recipe = book
                .index_of(&o.recipe)
                .ok_or_else(|| RemoteBotError::UnknownRecipe(o.recipe.clone()))?;
            Ok(Order {
                id: o.id,
                recipe: recipe as u16,
                value: o.value,
                deadline: o.deadline,
                team: o.team,
            })
        })
        .collect::<Result<_, RemoteBotError>>()?;
    room.next_order_id = room.orders.last().map_or(1, |o| o.id + 1);
    room.events = v.events.to_vec();
    Ok(room)
}

/// Claims shared by the remote bots of one process (`--clients N --inputs bot`), so bots in
/// the same room do not chase the same onion, exactly like the server's bot teams.
pub type SharedClaims = Arc<Mutex<ClaimTable>>;

/// The round a remote bot is playing.
struct Round {
    /// Which round (the client's entity for the room): a new one rebuilds everything.
    key: u64,
    level: Arc<Level>,
    book: Arc<RecipeBook>,
    team: BotTeam,
}

/// One seat played by the planner from a client's views.
pub struct RemoteBot {
    seat: Seat,
    latency: u32,
    round: Option<Round>,
    claims: Option<SharedClaims>,
    /// The last reason the bot could not plan (it sends neutral frames meanwhile).
    pub error: Option<RemoteBotError>,
    /// Snapshots planned on.
    pub plans: u64,
}

impl RemoteBot {
    /// A bot for `seat` whose frames take effect `latency` ticks after the view it plans on
    /// (until [`RemoteBot::frame`] learns it from each frame's tick and the view's clock).
    pub fn new(seat: Seat, latency: u32) -> RemoteBot {
        RemoteBot { seat, latency, round: None, claims: None, error: None, plans: 0 }
    }

    /// Share claims with the other remote bots of this process.
    pub fn share_claims(&mut self, claims: SharedClaims) {
        self.claims = Some(claims);
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The planner's current label for this seat ("" before any plan).
    pub fn plan(&self) -> &str {
        self.round.as_ref().and_then(|r| r.team.bots.first()).map_or("", |b| b.plan.as_str())
    }

    /// The frame for `tick` planned on `views` of round `key` built from `source`. A round
    /// whose sources or views cannot be planned on gives a neutral frame and sets `error`.
    pub fn frame(
        &mut self,
        key: u64,
        source: &RoundSource,
        views: &Views,
        tick: u32,
    ) -> InputFrame {
        // Online the lead follows the link: the frame takes effect at `tick`, one tick after
        // which the bot sees its outcome.
        self.latency = tick.saturating_sub(views.clock.tick) + 1;
        match self.try_frame(key, source, views) {
            Ok(frame) => {
                self.error = None;
                InputFrame { tick, ..frame }
            }
            Err(e) => {
                self.error = Some(e);
                InputFrame { tick, ..InputFrame::default() }
            }
        }
    }

    fn try_frame(
        &mut self,
        key: u64,
        source: &RoundSource,
        views: &Views,
    ) -> Result<InputFrame, RemoteBotError> {
        if self.round.as_ref().is_none_or(|r| r.key != key) {
            self.round = None;
            let (level, book) = compile_round(source)?;
            let room = snapshot(&level, &book, views)?;
            let mut team = BotTeam::new(&room, &[self.seat]);
            team.latency = self.latency;
            if let Some(shared) = &self.claims
                && let Ok(mut table) = shared.lock()
            {
                // A new round: nothing anyone held in the last one is held now.
                table.release_all(self.seat);
            }
            self.round = Some(Round { key, level, book, team });
        }
        let Some(round) = self.round.as_mut() else {
            return Ok(InputFrame::default());
        };
        round.team.latency = self.latency;
        let room = snapshot(&round.level, &round.book, views)?;
        self.plans += 1;
        let shared = self.claims.as_ref().and_then(|c| c.lock().ok());
        let frames = match shared {
            Some(mut table) => {
                std::mem::swap(&mut round.team.claims, &mut *table);
                let frames = round.team.frames(&room);
                std::mem::swap(&mut round.team.claims, &mut *table);
                frames
            }
            None => round.team.frames(&room),
        };
        Ok(frames
            .into_iter()
            .find(|(s, _)| *s == self.seat)
            .map_or_else(InputFrame::default, |f| f.1))
    }
}
