//! What a link does to traffic in one direction (delay, jitter, loss, reordering, duplication),
//! and the seeded draw that decides one datagram's or chunk's fate.
//!
//! Rates are integers in parts per million (1 % = 10 000 ppm), so a seed draws the same fates on
//! every platform and a rate as small as a datagram in a million can be asked for.

use crate::sim::rng::SplitMix64;
use std::fmt;
use std::time::Duration;

/// Parts per million: a rate of `PPM` is "always".
pub const PPM: u32 = 1_000_000;

/// The least extra hold of a datagram chosen for reordering: one server tick at 20 Hz, so the
/// next tick's datagram overtakes it even without jitter. Longer delays hold it by `delay_ms`
/// instead (the held datagram then takes about twice the one-way delay).
pub const REORDER_HOLD_MIN_MS: u32 = 50;

/// The least retransmission stall of a TCP chunk chosen as lost: Linux's minimum RTO.
pub const TCP_STALL_MIN_MS: u32 = 200;

/// One direction of a link. Each datagram (UDP) or chunk (TCP) gets a fate from these:
///
/// - **delay and jitter**: it is delivered `delay_ms` plus a uniform random extra delay in
///   `0..=2 × jitter_ms` (drawn in microseconds) after it arrived. Jitter only ever adds, as
///   queueing does on a real path: `delay_ms` is a floor no datagram beats, and the measured
///   mean one-way delay is `delay_ms + jitter_ms` ([`Conditions::mean_delay`]).
/// - **loss** (`loss_ppm`): UDP drops it; TCP cannot lose bytes, so the chunk is delivered after
///   a retransmission stall of `max(200 ms, 2 × delay_ms)` more ([`Conditions::tcp_stall`]), and
///   every later chunk waits behind it (head-of-line blocking).
/// - **reordering** (`reorder_ppm`, UDP only): it is held back by a further
///   `max(50 ms, delay_ms)` ([`Conditions::reorder_hold`]), so later datagrams overtake it.
///   Jitter reorders too, by itself, whenever datagrams are sent closer together than
///   `2 × jitter_ms`.
/// - **duplication** (`duplicate_ppm`, UDP only): a second copy is delivered too, with its own
///   delay and jitter drawn.
///
/// Every rate is in parts per million ([`PPM`]) and applies to this direction alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Conditions {
    /// One-way base delay, milliseconds.
    pub delay_ms: u32,
    /// Half the width of the uniform extra delay `0..=2 × jitter_ms`, milliseconds; also its mean.
    pub jitter_ms: u32,
    /// Chance a datagram is lost (TCP: a chunk stalls), parts per million.
    pub loss_ppm: u32,
    /// Chance a datagram is held back to be overtaken, parts per million (UDP only).
    pub reorder_ppm: u32,
    /// Chance a datagram is delivered twice, parts per million (UDP only).
    pub duplicate_ppm: u32,
}

/// What happens to one datagram or chunk, drawn by [`Conditions::fate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fate {
    /// Chosen as lost (UDP: dropped; TCP: stalled by [`Conditions::tcp_stall`]).
    pub lost: bool,
    /// When it is delivered, after it arrived: delay plus jitter.
    pub delay: Duration,
    /// To be held back a further [`Conditions::reorder_hold`] and overtaken (UDP only).
    pub held: bool,
    /// A duplicate's delay after arrival, when one is delivered too.
    pub copy: Option<Duration>,
}

impl Conditions {
    /// A perfect link: no delay, no loss.
    pub const fn none() -> Self {
        Conditions { delay_ms: 0, jitter_ms: 0, loss_ppm: 0, reorder_ppm: 0, duplicate_ppm: 0 }
    }

    /// One direction of a link with this base round trip: `rtt_ms / 2` each way (an odd
    /// millisecond is dropped), `jitter_ms` of jitter each way and `loss_percent` % loss in
    /// this direction. Use the same value for both directions of a proxy: the round trip's
    /// floor is then `rtt_ms`, its mean `rtt_ms + 2 × jitter_ms`, and a request and its answer
    /// both arrive with chance `(1 − loss)²`.
    pub fn from_rtt(rtt_ms: u32, jitter_ms: u32, loss_percent: f64) -> Self {
        Conditions {
            delay_ms: rtt_ms / 2,
            jitter_ms,
            loss_ppm: percent_to_ppm(loss_percent),
            ..Conditions::none()
        }
    }

    /// One direction of a link whose round trip averages `rtt_ms` and varies by `jitter_ms`
    /// each way: `rtt_ms / 2 − jitter_ms` of fixed delay plus the uniform 0..=2×jitter, so the
    /// mean one-way delay is half the round trip (what `bench net`'s "100 ms, 10 ms jitter"
    /// means). A jitter above half the round trip is cut to it.
    pub fn around_rtt(rtt_ms: u32, jitter_ms: u32, loss_percent: f64) -> Self {
        let jitter_ms = jitter_ms.min(rtt_ms / 2);
        Conditions {
            delay_ms: rtt_ms / 2 - jitter_ms,
            jitter_ms,
            ..Self::from_rtt(0, 0, loss_percent)
        }
    }

    /// These conditions with `percent` % of datagrams held back to be reordered.
    pub fn with_reorder_percent(self, percent: f64) -> Self {
        Conditions { reorder_ppm: percent_to_ppm(percent), ..self }
    }

    /// These conditions with `percent` % of datagrams delivered twice.
    pub fn with_duplicate_percent(self, percent: f64) -> Self {
        Conditions { duplicate_ppm: percent_to_ppm(percent), ..self }
    }

    /// True when nothing is impaired: every datagram passes at once.
    pub fn is_none(&self) -> bool {
        *self == Conditions::none()
    }

    /// The mean one-way delay a datagram sees (not counting reorder holds or TCP stalls):
    /// `delay_ms + jitter_ms`, the mean of the uniform jitter being `jitter_ms`.
    pub fn mean_delay(&self) -> Duration {
        Duration::from_millis(u64::from(self.delay_ms) + u64::from(self.jitter_ms))
    }

    /// The extra hold of a datagram chosen for reordering: `max(50 ms, delay_ms)`.
    pub fn reorder_hold(&self) -> Duration {
        Duration::from_millis(u64::from(self.delay_ms.max(REORDER_HOLD_MIN_MS)))
    }

    /// The extra delay of a TCP chunk chosen as lost, standing for its retransmission:
    /// `max(200 ms, 2 × delay_ms)` (Linux's minimum RTO, or about one round trip).
    pub fn tcp_stall(&self) -> Duration {
        Duration::from_millis(u64::from(self.delay_ms.saturating_mul(2).max(TCP_STALL_MIN_MS)))
    }

    /// Draws one datagram's fate. Always exactly five draws whatever the outcome, so which
    /// datagrams of a seeded stream are lost does not change when jitter, reordering or
    /// duplication do.
    pub fn fate(&self, rng: &mut SplitMix64) -> Fate {
        let lost = chance(rng, self.loss_ppm);
        let jitter = self.jitter(rng);
        let held = chance(rng, self.reorder_ppm);
        let duplicate = chance(rng, self.duplicate_ppm);
        let copy_jitter = self.jitter(rng);
        let base = Duration::from_millis(u64::from(self.delay_ms));
        Fate { lost, delay: base + jitter, held, copy: duplicate.then_some(base + copy_jitter) }
    }

    /// A uniform extra delay in `0..=2 × jitter_ms`, in microseconds so that small jitters
    /// still spread datagrams out.
    fn jitter(&self, rng: &mut SplitMix64) -> Duration {
        let span = u64::from(self.jitter_ms) * 2_000 + 1;
        Duration::from_micros(rng.next_u64() % span)
    }
}

impl fmt::Display for Conditions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |ppm: u32| f64::from(ppm) / 10_000.0;
        write!(
            f,
            "delay {} ms + 0..={} ms jitter, loss {}%, reorder {}%, duplicate {}%",
            self.delay_ms,
            u64::from(self.jitter_ms) * 2,
            pct(self.loss_ppm),
            pct(self.reorder_ppm),
            pct(self.duplicate_ppm)
        )
    }
}

/// A percentage as parts per million, clamped to 0..=100 % (NaN counts as 0).
pub fn percent_to_ppm(percent: f64) -> u32 {
    let ppm = (percent * 10_000.0).round();
    if ppm.is_nan() { 0 } else { ppm.clamp(0.0, f64::from(PPM)) as u32 }
}

/// True with chance `ppm` parts per million.
fn chance(rng: &mut SplitMix64, ppm: u32) -> bool {
    rng.next_u64() % u64::from(PPM) < u64::from(ppm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_rtt_halves_the_round_trip_and_converts_percent() {
        let c = Conditions::from_rtt(101, 7, 2.5);
        assert_eq!((c.delay_ms, c.jitter_ms, c.loss_ppm), (50, 7, 25_000));
        assert_eq!(c.mean_delay(), Duration::from_millis(57));
        assert_eq!(percent_to_ppm(150.0), PPM);
        assert_eq!(percent_to_ppm(-1.0), 0);
        assert_eq!(percent_to_ppm(f64::NAN), 0);
        assert!(Conditions::none().is_none());
    }

    #[test]
    fn fates_stay_within_the_delay_band_and_the_loss_stream_ignores_other_knobs() {
        let plain = Conditions::from_rtt(60, 10, 5.0);
        let busy = plain.with_reorder_percent(20.0).with_duplicate_percent(20.0);
        let (mut a, mut b) = (SplitMix64::new(3), SplitMix64::new(3));
        let mut sum = Duration::ZERO;
        for _ in 0..10_000 {
            let (fa, fb) = (plain.fate(&mut a), busy.fate(&mut b));
            assert_eq!(fa.lost, fb.lost);
            assert!(fa.delay >= Duration::from_millis(30) && fa.delay <= Duration::from_millis(50));
            sum += fa.delay;
        }
        let mean = sum / 10_000;
        assert!(mean > Duration::from_millis(39) && mean < Duration::from_millis(41), "{mean:?}");
    }
}
