//! Typing the kitchen's name or hint with a gamepad alone: an arcade letter wheel. The d-pad's
//! Up / Down turn the last character through [`WHEEL`], Right adds an `A` to turn, Left takes
//! the last character away. The panel (`settings_panel`) starts it with South on a text row and ends it with South
//! (keep, one edit) or East (drop).

/// The characters the wheel turns through, in order: a space, letters, digits, the punctuation
/// a kitchen's name or hint uses.
pub const WHEEL: &str = " ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.,!?'-:&()";

/// One press on the wheel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WheelPress {
    /// Turn the last character one place along the wheel (d-pad Down).
    Next,
    /// Turn it one place back (d-pad Up).
    Previous,
    /// Add a character at the end (d-pad Right).
    Add,
    /// Take the last character away (d-pad Left).
    Remove,
}

/// The text after one press. A last character not on the wheel (typed from a keyboard: `é`)
/// turns to the wheel's first letter, so a press always changes something the player sees.
pub fn turn_wheel(text: &mut String, press: WheelPress) {
    let wheel: Vec<char> = WHEEL.chars().collect();
    match press {
        WheelPress::Add => text.push('A'),
        WheelPress::Remove => drop(text.pop()),
        WheelPress::Next | WheelPress::Previous => {
            let Some(last) = text.pop() else {
                text.push('A');
                return;
            };
            let n = wheel.len();
            let turned = match wheel.iter().position(|&c| c == last) {
                Some(i) if press == WheelPress::Next => wheel[(i + 1) % n],
                Some(i) => wheel[(i + n - 1) % n],
                None => 'A',
            };
            text.push(turned);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pressed(start: &str, presses: &[WheelPress]) -> String {
        let mut text = start.to_string();
        for p in presses {
            turn_wheel(&mut text, *p);
        }
        text
    }

    #[test]
    fn the_wheel_spells_a_name_and_wraps_both_ways() {
        use WheelPress::*;
        // "Bo": add A, one on to B; add A, on through the rest of the capitals and 14
        // lower-case letters to o.
        let mut presses = vec![Add, Next];
        presses.push(Add);
        presses.extend(std::iter::repeat_n(Next, 26 + 14));
        assert_eq!(pressed("", &presses), "Bo");
        // Back from the space wraps to the wheel's last character, on again comes back.
        assert_eq!(pressed(" ", &[Previous]), ")");
        assert_eq!(pressed(" ", &[Previous, Next]), " ");
        assert_eq!(pressed("Bo", &[Remove, Remove, Remove]), "");
        assert_eq!(pressed("", &[Next]), "A", "turning nothing starts a letter");
        assert_eq!(pressed("caf\u{e9}", &[Next]), "cafA", "a key-typed letter turns to A");
    }
}
