//! The shape of a proof: rounds won, how many at each star count, and the share of the clock
//! the wins took. `bot prove` ends with it; docs/LEVELS.md quotes the campaign's, and
//! tests/levels.rs keeps the quote true.

/// What a set of proved rounds came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    rounds: u32,
    won: u32,
    /// Won rounds by stars (index 1..=3; a won round has at least one).
    stars: [u32; 4],
    /// The quickest and the slowest win, in whole percent of the clock (floored).
    quickest: Option<u32>,
    slowest: Option<u32>,
}

impl Shape {
    /// Counts one round: `ticks` to its verdict of a `clock` of ticks.
    pub fn add(&mut self, won: bool, stars: u8, ticks: u32, clock: u32) {
        self.rounds += 1;
        if !won {
            return;
        }
        self.won += 1;
        self.stars[usize::from(stars.min(3))] += 1;
        let share = (u64::from(ticks) * 100 / u64::from(clock.max(1))) as u32;
        self.quickest = Some(self.quickest.map_or(share, |q| q.min(share)));
        self.slowest = Some(self.slowest.map_or(share, |s| s.max(share)));
    }

    /// `won 75/75 rounds: 47 three-star, 25 two-star, 3 one-star; wins took 23–85 % of the clock`.
    pub fn line(&self) -> String {
        let [_, one, two, three] = self.stars;
        let took = match (self.quickest, self.slowest) {
            (Some(q), Some(s)) => format!("; wins took {q}–{s} % of the clock"),
            _ => String::new(),
        };
        format!(
            "won {}/{} rounds: {three} three-star, {two} two-star, {one} one-star{took}",
            self.won, self.rounds
        )
    }
}
