//! The client's look in one place: every colour by name (the kitchen's meshes, the HUD, the
//! menus), the font, and the small UI widgets the screens share.
//!
//! Colours are constants so a palette change is one edit and two screens can never drift
//! apart by a digit; the values are the ones the screenshots were taken with.

use super::settings::palette;
use crate::sim::kinds::{Form, Ingredient};
use crate::sim::units::MAX_COOKS;
use bevy::prelude::*;
use bevy::text::FontSize;

// ---------------------------------------------------------------------------------------------
// The kitchen: tiles and fixtures.

/// The background: what a void tile shows.
pub const VOID: Color = Color::srgb(0.05, 0.06, 0.1);
/// Floor tiles alternate between these two, like a checkerboard.
pub const FLOOR_LIGHT: Color = Color::srgb(0.86, 0.82, 0.72);
pub const FLOOR_DARK: Color = Color::srgb(0.8, 0.76, 0.66);
pub const WALL: Color = Color::srgb(0.32, 0.36, 0.46);
/// A hole inside the kitchen (a river, a drawbridge's gap) is water, in two tones like the
/// floor so its cells read; the outside stays the background.
pub const WATER_LIGHT: Color = Color::srgb(0.2, 0.45, 0.68);
pub const WATER_DARK: Color = Color::srgb(0.18, 0.42, 0.65);
/// Counter, board and rack bodies, and their lighter tops.
pub const WOOD: Color = Color::srgb(0.55, 0.4, 0.28);
pub const WOOD_TOP: Color = Color::srgb(0.74, 0.57, 0.4);
/// Sinks and pots.
pub const STEEL: Color = Color::srgb(0.55, 0.58, 0.62);
/// A shelf's crate.
pub const SHELF_WOOD: Color = Color::srgb(0.42, 0.3, 0.2);
pub const CHOP_BOARD: Color = Color::srgb(0.93, 0.88, 0.72);
pub const KNIFE: Color = Color::srgb(0.8, 0.82, 0.86);
pub const STOVE: Color = Color::srgb(0.25, 0.25, 0.28);
pub const BURNER: Color = Color::srgb(0.95, 0.35, 0.1);
/// A pan and its handle.
pub const PAN: Color = Color::srgb(0.12, 0.12, 0.14);
pub const PREP: Color = Color::srgb(0.6, 0.66, 0.74);
pub const PREP_TOP: Color = Color::srgb(0.85, 0.92, 0.98);
pub const SERVE: Color = Color::srgb(0.15, 0.55, 0.25);
/// The serve window's hatch.
pub const SERVE_HATCH: Color = Color::srgb(1.0, 0.85, 0.2);
pub const SINK_WATER: Color = Color::srgb(0.3, 0.6, 0.95);
pub const TRASH_BIN: Color = Color::srgb(0.15, 0.3, 0.18);
pub const TRASH_MOUTH: Color = Color::srgb(0.05, 0.08, 0.05);
/// The extinguisher stand's post and bracket, and its foot.
pub const STAND_RED: Color = Color::srgb(0.85, 0.1, 0.08);
pub const STAND_FOOT: Color = Color::srgb(0.35, 0.35, 0.38);
/// A counter's kick plate, a crate's slats.
pub const WOOD_DARK: Color = Color::srgb(0.36, 0.25, 0.17);
pub const CRATE_SLAT: Color = Color::srgb(0.5, 0.36, 0.24);
/// The cleaver's handle.
pub const KNIFE_HANDLE: Color = Color::srgb(0.2, 0.12, 0.08);
/// The stove's hob plate, the ring round its burner and its knobs.
pub const STOVE_TOP: Color = Color::srgb(0.15, 0.15, 0.17);
pub const BURNER_RING: Color = Color::srgb(0.4, 0.12, 0.05);
pub const KNOB: Color = Color::srgb(0.85, 0.85, 0.88);
/// The inside of a pan or pot; a pot's rim and handles (and a tap).
pub const PAN_INSIDE: Color = Color::srgb(0.22, 0.22, 0.25);
pub const STEEL_DARK: Color = Color::srgb(0.38, 0.4, 0.44);
/// Soap suds in the sink.
pub const FOAM: Color = Color::srgb(0.95, 0.97, 1.0);
/// The serve window's frame and its bell.
pub const SERVE_FRAME: Color = Color::srgb(0.1, 0.35, 0.15);
pub const GOLD_BELL: Color = Color::srgb(1.0, 0.78, 0.2);
/// The bin's rim.
pub const TRASH_RIM: Color = Color::srgb(0.5, 0.52, 0.55);
/// The plates stacked on a rack.
pub const RACK_PLATE: Color = Color::srgb(0.97, 0.97, 1.0);

// ---------------------------------------------------------------------------------------------
// The kitchen: what a station shows about its state.

pub const BAR_BACK: Color = Color::srgb(0.1, 0.1, 0.1);
/// Progress bars: chopping (and any other work), washing, cooking.
pub const BAR_FILL: Color = Color::srgb(0.3, 0.95, 0.35);
pub const BAR_WASH: Color = Color::srgb(0.3, 0.7, 1.0);
pub const BAR_COOK: Color = Color::srgb(1.0, 0.6, 0.15);
/// The flashing glow round a burn warning.
pub const BURN_HALO: Color = Color::srgba(1.0, 0.9, 0.2, 0.45);
/// The blinking ball over food about to burn.
pub const BURN_WARNING: Color = Color::srgb(1.0, 0.15, 0.05);
/// A burning fixture's flame cubes take these in turn.
pub const FLAMES: [Color; 3] =
    [Color::srgb(1.0, 0.45, 0.05), Color::srgb(1.0, 0.75, 0.1), Color::srgb(0.95, 0.2, 0.05)];
/// Particles: steam off a stove, smoke (light: food about to burn or burnt; dark: a fire),
/// suds off a sink, and a chopped chip whose food is not known.
pub const STEAM: Color = Color::srgba(0.97, 0.97, 1.0, 0.55);
pub const SMOKE_LIGHT: Color = Color::srgba(0.45, 0.45, 0.47, 0.6);
pub const SMOKE_DARK: Color = Color::srgba(0.12, 0.11, 0.11, 0.7);
pub const SUDS: Color = Color::srgba(0.9, 0.95, 1.0, 0.7);
pub const CHIP_FALLBACK: Color = Color::srgb(0.9, 0.85, 0.7);
/// Burnt leftovers on a dirty fixture.
pub const DIRT: Color = Color::srgb(0.35, 0.25, 0.1);

// ---------------------------------------------------------------------------------------------
// The kitchen: cooks, items and hazards.

/// Seat colours: red, blue, green, yellow.
pub const SEAT_COLORS: [Color; MAX_COOKS] = [
    Color::srgb(0.9, 0.25, 0.2),
    Color::srgb(0.2, 0.45, 0.95),
    Color::srgb(0.25, 0.8, 0.3),
    Color::srgb(0.95, 0.8, 0.15),
];
/// A cook's face.
pub const SKIN: Color = Color::srgb(1.0, 0.8, 0.65);
pub const CHEEK: Color = Color::srgb(1.0, 0.55, 0.5);
pub const MOUTH: Color = Color::srgb(0.45, 0.1, 0.1);
/// The ring over a stunned cook.
pub const STUN_STARS: Color = Color::srgb(1.0, 0.9, 0.1);
/// The well of a plate (its rim is white).
pub const PLATE_WELL: Color = Color::srgb(0.85, 0.88, 0.95);
pub const EXTINGUISHER: Color = Color::srgb(0.9, 0.08, 0.06);
/// The extinguisher's cap and nozzle.
pub const EXTINGUISHER_CAP: Color = Color::srgb(0.08, 0.08, 0.08);
/// Raw rice comes in a sack.
pub const RICE_SACK: Color = Color::srgb(0.85, 0.8, 0.65);
pub const MUSHROOM_STEM: Color = Color::srgb(0.92, 0.9, 0.85);
/// The string round a rice sack's neck.
pub const SACK_TIE: Color = Color::srgb(0.55, 0.4, 0.25);
/// Dark leaves: a lettuce's outer leaves, a tomato's stalk.
pub const LEAF_DARK: Color = Color::srgb(0.15, 0.5, 0.15);
/// A bun's flat base and the seeds on its top.
pub const BUN_BASE: Color = Color::srgb(0.85, 0.62, 0.3);
pub const SESAME: Color = Color::srgb(0.98, 0.95, 0.85);
/// The pale specks of a raw patty.
pub const PATTY_FAT: Color = Color::srgb(0.98, 0.8, 0.8);
/// An onion's papery sprout.
pub const ONION_SKIN: Color = Color::srgb(0.75, 0.6, 0.35);
/// The inside of a tomato slice and of a fish fillet.
pub const TOMATO_FLESH: Color = Color::srgb(1.0, 0.55, 0.45);
pub const FISH_FLESH: Color = Color::srgb(0.98, 0.7, 0.6);
/// The stripes a pan leaves on cooked food.
pub const GRILL_MARK: Color = Color::srgb(0.2, 0.1, 0.05);
/// The cracked crust on a burnt lump.
pub const BURNT_CRUST: Color = Color::srgb(0.2, 0.12, 0.08);
/// The bowl boiled food is served in.
pub const SOUP_BOWL: Color = Color::srgb(0.95, 0.95, 0.95);
/// Any ingredient burnt, and the puff of smoke over it.
pub const BURNT: Color = Color::srgb(0.08, 0.07, 0.07);
pub const SMOKE: Color = Color::srgb(0.3, 0.3, 0.3);
pub const CART: Color = Color::srgb(0.75, 0.35, 0.12);
pub const CART_RIM: Color = Color::srgb(0.6, 0.62, 0.68);
pub const CART_WHEEL: Color = Color::srgb(0.1, 0.1, 0.12);
/// Translucent decals: a spill, ice, and a shifting floor's warning flash.
pub const OIL: Color = Color::srgba(0.55, 0.45, 0.1, 0.55);
pub const ICE: Color = Color::srgba(0.7, 0.9, 1.0, 0.6);
pub const SHIFT_FLASH: Color = Color::srgba(1.0, 0.2, 0.1, 0.6);

/// A seat's colour (the palette repeats past four seats), in the palette chosen in Settings.
pub fn seat_color(seat: u8) -> Color {
    palette::active().seat(seat).unwrap_or(SEAT_COLORS[seat as usize % SEAT_COLORS.len()])
}

/// An ingredient's colour (the match is the table: one ingredient, one colour), in the
/// palette chosen in Settings.
pub fn ingredient_color(i: Ingredient) -> Color {
    if let Some(c) = palette::active().ingredient(i) {
        return c;
    }
    match i {
        Ingredient::Onion => Color::srgb(0.78, 0.6, 0.75),
        Ingredient::Tomato => Color::srgb(0.9, 0.15, 0.1),
        Ingredient::Lettuce => Color::srgb(0.35, 0.8, 0.25),
        Ingredient::Mushroom => Color::srgb(0.72, 0.6, 0.48),
        Ingredient::Bun => Color::srgb(0.92, 0.7, 0.35),
        Ingredient::Patty => Color::srgb(0.88, 0.45, 0.45),
        Ingredient::Fish => Color::srgb(0.6, 0.75, 0.88),
        Ingredient::Rice => Color::srgb(0.97, 0.97, 0.92),
    }
}

/// An ingredient's colour in a form: cooking browns it, boiling makes it soup, burning blackens.
pub fn part_color(i: Ingredient, f: Form) -> Color {
    let c = ingredient_color(i).to_srgba();
    match f {
        Form::Raw | Form::Chopped => c.into(),
        Form::Cooked => Color::srgb(c.red * 0.62, c.green * 0.45, c.blue * 0.3),
        Form::Boiled => Color::srgb(c.red * 0.85 + 0.1, c.green * 0.7 + 0.1, c.blue * 0.35),
        Form::Burnt => BURNT,
    }
}

// ---------------------------------------------------------------------------------------------
// The screens: menus, loading and the HUD.

/// Titles, the highlighted menu line, scores.
pub const GOLD: Color = Color::srgb(1.0, 0.8, 0.15);
/// Menu text and the loading bar's frame.
pub const PLAIN: Color = Color::srgb(0.85, 0.86, 0.9);
/// The HUD's text, warmer than the menus'.
pub const INK: Color = Color::srgb(0.96, 0.95, 0.9);
/// Quiet lines: the title's "press any key".
pub const DIM: Color = Color::srgb(0.6, 0.6, 0.65);
/// The round-end screen's key help.
pub const HINT: Color = Color::srgb(0.7, 0.7, 0.75);
/// The words of an order card's parts.
pub const CARD_TEXT: Color = Color::srgb(0.8, 0.82, 0.86);
/// Behind a full screen (menus, loading).
pub const SCREEN: Color = Color::srgb(0.07, 0.08, 0.13);
/// Behind the main menu and the title: see-through, over the live kitchen.
pub const OVER_KITCHEN: Color = Color::srgba(0.07, 0.08, 0.13, 0.72);
pub const OVER_KITCHEN_LIGHT: Color = Color::srgba(0.07, 0.08, 0.13, 0.3);
/// The title's words sit on this plate.
pub const TITLE_PLATE: Color = Color::srgba(0.07, 0.08, 0.13, 0.85);
/// A menu line, and the loading bar's empty track.
pub const BUTTON: Color = Color::srgb(0.13, 0.14, 0.2);
/// The menu line under the cursor.
pub const BUTTON_LIT: Color = Color::srgb(0.25, 0.22, 0.12);
/// HUD panels over the kitchen.
pub const PANEL: Color = Color::srgba(0.08, 0.09, 0.14, 0.88);
pub const ROUND_END_PANEL: Color = Color::srgba(0.06, 0.07, 0.12, 0.95);
/// A name tag's outline and its dark text (the plate is the seat's colour).
pub const NAME_TAG_EDGE: Color = Color::srgb(0.98, 0.98, 0.98);
pub const NAME_TAG_DARK: Color = Color::srgb(0.05, 0.05, 0.08);
/// An emote's speech bubble: cream, edged in the cook's seat colour, with `NAME_TAG_DARK` words.
pub const EMOTE_BUBBLE: Color = Color::srgb(1.0, 0.98, 0.9);
/// A refusal next to a cook: its words and its box.
pub const NUDGE_TEXT: Color = Color::srgb(1.0, 0.92, 0.75);
pub const NUDGE: Color = Color::srgba(0.45, 0.08, 0.05, 0.85);
/// Something failed (a host, the campaign).
pub const ERROR: Color = Color::srgb(1.0, 0.4, 0.3);
/// A softer problem: a refused config file, a join still trying.
pub const WARNING: Color = Color::srgb(1.0, 0.55, 0.35);
/// An order's deadline bar: plenty of time, running out, nearly gone; and its empty track.
pub const DEADLINE_OK: Color = Color::srgb(0.3, 0.85, 0.35);
pub const DEADLINE_SOON: Color = Color::srgb(0.95, 0.75, 0.15);
pub const DEADLINE_LATE: Color = Color::srgb(0.95, 0.25, 0.15);
pub const DEADLINE_TRACK: Color = Color::srgb(0.2, 0.2, 0.25);
/// A ticket leaving the rail: served (slides away), missed (flashes).
pub const TICKET_SERVED: Color = Color::srgba(0.15, 0.55, 0.25, 0.92);
pub const TICKET_MISSED: Color = Color::srgba(0.85, 0.12, 0.1, 0.95);
/// An ingredient icon's letters, a fried part's pan rim, the rim of a ticket's dish icon.
pub const ICON_TEXT: Color = Color::srgb(0.06, 0.06, 0.08);
pub const ICON_PAN_RIM: Color = Color::srgb(0.25, 0.15, 0.08);
pub const PLATE_ICON: Color = Color::srgb(0.7, 0.74, 0.82);
/// A "+points" pop's plate, and the cross over a refused serve.
pub const POP_PLATE: Color = Color::srgba(0.08, 0.09, 0.14, 0.85);
pub const REFUSED: Color = Color::srgb(0.9, 0.12, 0.1);
/// The round's verdict.
pub const WON: Color = Color::srgb(0.4, 0.95, 0.45);
/// Versus's two sides, A then B (`sim::versus::Team::index`): a warm and a cool colour that
/// stay apart for every common colour-vision deficiency (orange against blue), used for each
/// team's score, rail tag and round-end line.
pub const TEAM_COLORS: [Color; 2] = [Color::srgb(1.0, 0.62, 0.2), Color::srgb(0.35, 0.7, 1.0)];
pub const LOST: Color = Color::srgb(0.95, 0.4, 0.3);
/// A star not earned.
pub const STAR_UNLIT: Color = Color::srgb(0.25, 0.25, 0.3);

/// The game's font (Bevy's built-in one) at `px` pixels.
pub fn font(px: f32) -> TextFont {
    TextFont { font_size: FontSize::Px(px), ..default() }
}

/// A line of text at `px` pixels in `color`.
pub fn label(text: impl Into<String>, px: f32, color: Color) -> impl Bundle {
    (Text::new(text), font(px), TextColor(color))
}

/// A screen's heading: gold.
pub fn title(text: impl Into<String>, px: f32) -> impl Bundle {
    label(text, px, GOLD)
}

/// Text centred line by line (help, status and the host's details).
pub fn paragraph(text: impl Into<String>, px: f32, color: Color) -> impl Bundle {
    (label(text, px, color), TextLayout::justify(Justify::Center))
}

/// Pixels between the lines of a menu screen.
pub const MENU_GAP: f32 = 14.0;

/// A full-window screen of `state` (gone when the state ends): a centred column, `gap`
/// pixels between its lines.
pub fn screen<S: States>(state: S, gap: f32) -> impl Bundle {
    (
        DespawnOnExit(state),
        Node {
            width: percent(100),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            row_gap: px(gap),
            ..default()
        },
        BackgroundColor(SCREEN),
    )
}

/// The shadow a flying item casts on the floor under its arc.
pub const FLIGHT_SHADOW: Color = Color::srgba(0.05, 0.05, 0.08, 0.45);
/// The streak and afterimages behind a dashing cook.
pub const DASH_TRAIL: Color = Color::srgba(0.92, 0.96, 1.0, 0.45);
/// The ring at a cook's feet while its dash cools down.
pub const DASH_COOLDOWN: Color = Color::srgba(1.0, 0.78, 0.25, 0.7);
/// The pop in a cook's hands when it catches a throw.
pub const CATCH_POP: Color = Color::srgba(1.0, 1.0, 0.8, 0.6);
