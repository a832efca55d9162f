//! What the sidecar must be told so that its `rooms` List holds exactly the worlds' room codes:
//! the adds and removes from what it was last known to hold. Pure, so the link's bookkeeping is
//! tested without a sidecar.

use std::collections::BTreeSet;

/// One List change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListStep {
    Add(String),
    Remove(String),
}

/// The steps from `held` (the List as last known) to `want` (the rooms now): removes first, so
/// a full List makes room before it is added to, each in code order.
pub fn list_steps(held: &BTreeSet<String>, want: &[String]) -> Vec<ListStep> {
    let want: BTreeSet<&String> = want.iter().collect();
    let mut steps: Vec<ListStep> =
        held.iter().filter(|c| !want.contains(c)).map(|c| ListStep::Remove(c.clone())).collect();
    steps.extend(want.iter().filter(|c| !held.contains(**c)).map(|c| ListStep::Add((*c).clone())));
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(codes: &[&str]) -> BTreeSet<String> {
        codes.iter().map(|c| c.to_string()).collect()
    }

    fn codes(codes: &[&str]) -> Vec<String> {
        codes.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn steps_remove_what_closed_then_add_what_opened() {
        let steps = list_steps(&set(&["AAAAA", "BBBBB"]), &codes(&["CCCCC", "BBBBB"]));
        assert_eq!(steps, vec![ListStep::Remove("AAAAA".into()), ListStep::Add("CCCCC".into())]);
    }

    #[test]
    fn a_list_that_holds_the_rooms_needs_nothing() {
        assert!(list_steps(&set(&["AAAAA"]), &codes(&["AAAAA"])).is_empty());
        assert!(list_steps(&set(&[]), &[]).is_empty());
    }
}
