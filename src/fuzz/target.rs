//! What a fuzz target is: something inputs are drawn for and fed to, and what feeding one met.

use crate::sim::rng::SplitMix64;

/// What one input did, when it did not panic.
pub type Outcome = String;

/// Something inputs can be fed to.
pub trait Target {
    /// The next input, drawn from `rng` (and from the target's own state, e.g. a live session).
    fn input(&mut self, rng: &mut SplitMix64) -> Vec<u8>;
    /// Feed one input: the kind of result it met (an error's kind, or an accepting one).
    fn feed(&mut self, input: &[u8]) -> Outcome;
    /// After the run: is the target still serving? (`Err` says how it is not.)
    fn still_serving(&mut self) -> Result<(), String> {
        Ok(())
    }
}
