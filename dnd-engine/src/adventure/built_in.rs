//! The adventures compiled into the crate, found by name: "The Wailing Glacier" (the default,
//! [`Adventure::built_in`]) and "The Quiet Nights of Wendle Hollow"; and what a command line's
//! `--adventure NAME|FILE` means ([`Adventure::named_or_file`]).

use std::collections::BTreeMap;
use std::path::Path;

use super::{Adventure, AdventureError, LevellingMode};

/// The built-in adventure's file, compiled in.
const WAILING_GLACIER_JSON: &str = include_str!("wailing_glacier.json");

/// The adventures compiled in, each (name, file name, text): the names of
/// [`Adventure::BUILT_IN`], in its order.
const COMPILED: &[(&str, &str, &str)] = &[
    (
        "wailing-glacier",
        "wailing_glacier.json",
        WAILING_GLACIER_JSON,
    ),
    (
        "wendle-hollow",
        "wendle_hollow.json",
        include_str!("wendle_hollow.json"),
    ),
];

/// A compiled-in adventure. The crate's tests prove each file valid, so the error is
/// unreachable in a release; an empty adventure still beats taking the game down.
fn compiled(name: &str, file: &str, json: &str) -> Adventure {
    Adventure::from_json(json, file).unwrap_or_else(|error| {
        tracing::error!(%error, adventure = name, "a built-in adventure did not validate");
        Adventure {
            title: name.to_owned(),
            summary: String::new(),
            start: String::new(),
            rooms: Vec::new(),
            npcs: Vec::new(),
            flags: BTreeMap::new(),
            characters: Vec::new(),
            levelling: LevellingMode::Xp,
            milestones: Vec::new(),
            endings: Vec::new(),
            puzzles: Vec::new(),
            schema: None,
        }
    })
}

impl Adventure {
    /// The names of the adventures compiled in, for [`Adventure::built_in_named`] and the
    /// command lines' `--adventure NAME`: "The Wailing Glacier" (a dungeon crawl) and "The
    /// Quiet Nights of Wendle Hollow" (a village mystery for a party of four).
    pub const BUILT_IN: &'static [&'static str] = &["wailing-glacier", "wendle-hollow"];

    /// "The Wailing Glacier": five rooms under a glacier for one 3rd-level character, with
    /// four pregenerated heroes (`kraven`, the default, a fighter; `isolde`, a wizard;
    /// `hedda`, a cleric; `wren`, a rogue).
    pub fn built_in() -> Adventure {
        compiled(
            "wailing-glacier",
            "wailing_glacier.json",
            WAILING_GLACIER_JSON,
        )
    }

    /// The built-in adventure `name` (one of [`Adventure::BUILT_IN`], in any case), or `None`.
    /// "wendle-hollow" is a social mystery in a village of six places for four 2nd-level
    /// heroes built from their players' choices (`bram`, the default, a fighter; `nessa`, a
    /// cleric; `tamsin`, a rogue; `lio`, a bard).
    pub fn built_in_named(name: &str) -> Option<Adventure> {
        let (name, file, json) = COMPILED
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name.trim()))?;
        Some(compiled(name, file, json))
    }

    /// What a command line's `--adventure NAME|FILE` names: a built-in adventure (one of
    /// [`Adventure::BUILT_IN`]), else the adventure file at that path. A word that is neither
    /// is refused with the built-in names.
    pub fn named_or_file(name_or_path: &str) -> Result<Adventure, AdventureError> {
        if let Some(adventure) = Adventure::built_in_named(name_or_path) {
            return Ok(adventure);
        }
        let path = Path::new(name_or_path);
        let looks_like_a_name = !name_or_path.contains(['/', '\\', '.']);
        if looks_like_a_name && !path.exists() {
            return Err(AdventureError::one(
                name_or_path,
                "",
                format!(
                    "no built-in adventure of that name and no such file; the built-in adventures are: {}",
                    Adventure::BUILT_IN.join(", ")
                ),
            ));
        }
        Adventure::load(path)
    }

    /// The built-in adventure's JSON text, as a template for writing new ones.
    pub fn built_in_json() -> &'static str {
        WAILING_GLACIER_JSON
    }

    /// The JSON text of the built-in adventure `name` (see [`Adventure::BUILT_IN`]).
    pub fn built_in_json_named(name: &str) -> Option<&'static str> {
        COMPILED
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name.trim()))
            .map(|(_, _, json)| *json)
    }
}
