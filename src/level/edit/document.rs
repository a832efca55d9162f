//! The kitchen being edited: its level file, the comment lines kept from its top, its undo
//! and redo stacks, and the validator's problems as of the last change.

use std::sync::Arc;

use super::command::{Edit, EditError, grid_size};
use super::problems::{Problem, locate};
use super::write::{Written, write_level};
use crate::level::compile::parse_level;
use crate::level::error::LevelError;
use crate::level::limits::{MAX_GRID_SIDE, valid_id};
use crate::level::schema::{LevelFile, OrdersFile, PropsFile};
use crate::level::text::{decode_text, parse_ron};
use crate::sim::kitchen::Level;
use crate::sim::recipe_book::RecipeBook;

pub use super::command::MIN_NEW_SIDE;

/// Why `--new WxH` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NewKitchenError {
    #[error("`{0}` is not a size: write WIDTHxHEIGHT, e.g. 9x7")]
    NotASize(String),
    #[error(
        "a kitchen is {MIN_NEW_SIDE}×{MIN_NEW_SIDE} to {MAX_GRID_SIDE}×{MAX_GRID_SIDE} cells, not {0}×{1}"
    )]
    OutOfRange(usize, usize),
}

/// Reads `WxH` (`9x7`, `9×7`).
pub fn parse_size(s: &str) -> Result<(usize, usize), NewKitchenError> {
    let bad = || NewKitchenError::NotASize(s.to_string());
    let (w, h) = s.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let (w, h) = (w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?);
    if !(MIN_NEW_SIDE..=MAX_GRID_SIDE).contains(&w) || !(MIN_NEW_SIDE..=MAX_GRID_SIDE).contains(&h)
    {
        return Err(NewKitchenError::OutOfRange(w, h));
    }
    Ok((w, h))
}

/// One kitchen in the editor.
#[derive(Clone, Debug)]
pub struct KitchenDoc {
    file: LevelFile,
    header: Vec<String>,
    /// What the file said before each change, newest last.
    undo: Vec<LevelFile>,
    redo: Vec<LevelFile>,
    book: Arc<RecipeBook>,
    label: String,
    written: Written,
    problems: Vec<Problem>,
    level: Option<Level>,
}

impl KitchenDoc {
    /// A new `width`×`height` kitchen: walls round floor, a salad pool and the tutorial's
    /// clock, so the validator's first list is what a kitchen still lacks (spawn, window,
    /// the salad's stations).
    pub fn new_blank(
        id: &str,
        (width, height): (usize, usize),
        book: Arc<RecipeBook>,
        label: &str,
    ) -> Self {
        let grid = (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| {
                        if x == 0 || y == 0 || x + 1 == width || y + 1 == height {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        let id = if valid_id(id) { id.to_string() } else { "new_kitchen".to_string() };
        let file = LevelFile {
            name: "New Kitchen".into(),
            id,
            hint: String::new(),
            grid,
            legend: Default::default(),
            props: PropsFile { plates: 4, pots: 0 },
            orders: OrdersFile {
                pool: vec!["salad".into()],
                concurrent: 2,
                interval: (12.0, 18.0),
                deadline: 60.0,
                miss_penalty: 5,
            },
            time_limit: 180.0,
            target_score: 100,
            hazards: Vec::new(),
            teams: None,
        };
        Self::from_file(file, Vec::new(), book, label)
    }

    /// A level file's text, valid or not, as long as it is a `Level(…)` the schema reads;
    /// the comment lines at its top are kept.
    pub fn from_text(
        src: &[u8],
        label: &str,
        book: Arc<RecipeBook>,
    ) -> Result<Self, Vec<LevelError>> {
        let text = decode_text(src, label)?;
        let file: LevelFile = parse_ron(text, label, "Level")?;
        let header = text
            .lines()
            .take_while(|l| l.trim_start().starts_with("//") || l.trim().is_empty())
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        Ok(Self::from_file(file, header, book, label))
    }

    fn from_file(file: LevelFile, header: Vec<String>, book: Arc<RecipeBook>, label: &str) -> Self {
        let written = write_level(&file, &header);
        let mut doc = KitchenDoc {
            file,
            header,
            undo: Vec::new(),
            redo: Vec::new(),
            book,
            label: label.to_string(),
            written,
            problems: Vec::new(),
            level: None,
        };
        doc.revalidate();
        doc
    }

    /// Applies one edit; a change clears the redo stack and is validated at once.
    /// `Ok(false)`: it changed nothing and took no undo step.
    pub fn apply(&mut self, edit: &Edit) -> Result<bool, EditError> {
        let mut next = self.file.clone();
        if !edit.apply(&mut next)? {
            return Ok(false);
        }
        self.undo.push(std::mem::replace(&mut self.file, next));
        self.redo.clear();
        self.revalidate();
        Ok(true)
    }

    /// Back one change; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(prev) = self.undo.pop() else { return false };
        self.redo.push(std::mem::replace(&mut self.file, prev));
        self.revalidate();
        true
    }

    /// Forward one undone change; `false` when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(next) = self.redo.pop() else { return false };
        self.undo.push(std::mem::replace(&mut self.file, next));
        self.revalidate();
        true
    }

    fn revalidate(&mut self) {
        self.written = write_level(&self.file, &self.header);
        match parse_level(self.written.text.as_bytes(), &self.label, &self.book) {
            Ok(level) => {
                self.problems.clear();
                self.level = Some(level);
            }
            Err(errors) => {
                self.problems = locate(&errors, &self.written, grid_size(&self.file));
                self.level = None;
            }
        }
    }

    pub fn file(&self) -> &LevelFile {
        &self.file
    }

    /// The text a save writes.
    pub fn text(&self) -> &str {
        &self.written.text
    }

    /// The validator's problems with the kitchen as it is; empty when it is valid.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The compiled level when the kitchen is valid (what Playtest plays).
    pub fn level(&self) -> Option<&Level> {
        self.level.as_ref()
    }

    pub fn book(&self) -> &Arc<RecipeBook> {
        &self.book
    }

    /// Width and height of the grid.
    pub fn size(&self) -> (usize, usize) {
        grid_size(&self.file)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}
