//! Preparing spells (the SRD's "Preparing and Casting Spells" for clerics, druids, paladins
//! and wizards): a preparing class chooses its prepared spells of 1st level or higher from its
//! class's whole list (the wizard: from its spellbook), as many as its spellcasting ability
//! modifier plus its level (half its level, rounded down, for a paladin), at least one, none of
//! a level its slots cannot cast. It changes them when it finishes a long rest: once after each
//! long rest, and once before its first rest of the game. Cantrips, a subclass's
//! always-prepared spells and spells from anything but the class stay on the sheet and do not
//! count.
//!
//! [`options`] says what a character may prepare now; [`prepare`] checks a choice and returns
//! the [`Change::SpellsPrepared`] that makes it, or a [`PrepareError`] saying what is allowed.
//! `state` checks the timing again when the change applies.

use crate::srd::{Class, Preparation, RitualCasting, Spell, Srd, slugify};
use crate::state::{Change, Character};

/// What a character may prepare now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrepareOptions {
    /// How many spells of 1st level or higher it may prepare.
    pub most: usize,
    /// The spells it may choose from, by SRD name, lowest level first.
    pub allowed: Vec<String>,
    /// Its prepared spells now.
    pub prepared: Vec<String>,
    /// What stays whatever it prepares: cantrips, always-prepared and other spells.
    pub kept: Vec<String>,
}

/// Why a character may not prepare these spells. Each message says what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrepareError {
    /// Its class knows its spells, or casts none.
    #[error(
        "{name} is a {class}, which {why}; only clerics, druids, paladins and wizards prepare spells"
    )]
    NotPreparing {
        /// The character.
        name: String,
        /// Its class.
        class: String,
        /// What its class does instead.
        why: &'static str,
    },
    /// It prepared since its last long rest.
    #[error(
        "{name} has prepared spells since its last long rest; the list changes again when it finishes the next long rest"
    )]
    NotRested {
        /// The character.
        name: String,
    },
    /// More spells than it may prepare.
    #[error("{name} may prepare at most {most} spells ({ability} modifier + level), not {given}")]
    TooMany {
        /// The character.
        name: String,
        /// How many were given.
        given: usize,
        /// How many it may prepare.
        most: usize,
        /// The spellcasting ability.
        ability: &'static str,
    },
    /// A spell it may not prepare.
    #[error("{name} cannot prepare {spell:?} ({why}); it may prepare: {}", .allowed.join(", "))]
    NotAllowed {
        /// The character.
        name: String,
        /// The spell asked.
        spell: String,
        /// Why not.
        why: String,
        /// What it may prepare.
        allowed: Vec<String>,
    },
    /// The same spell twice.
    #[error("{spell} is listed twice: each spell is prepared once")]
    Twice {
        /// The spell.
        spell: String,
    },
}

/// Whether `c` may change its prepared spells now: never yet, or not since its last long rest
/// began (a rest that began the minute it prepared came after: a long rest advances the clock
/// by its eight hours, so preparing at its end is later).
pub fn rested_since_preparing(c: &Character) -> bool {
    match (c.prepared_at, c.last_long_rest) {
        (None, _) => true,
        (Some(prepared), Some(rest)) => rest >= prepared,
        (Some(_), None) => false,
    }
}

/// The class's spells `c` may prepare, its limit, and how its sheet splits into prepared and
/// kept spells.
pub fn options(srd: &Srd, c: &Character) -> Result<PrepareOptions, PrepareError> {
    let class = preparing_class(srd, c)?;
    let casting = class
        .spellcasting
        .as_ref()
        .expect("a preparing class casts");
    let highest = c
        .spell_slots
        .max
        .iter()
        .rposition(|n| *n > 0)
        .map_or(0, |i| i as u8 + 1);
    let (prepared, kept) = split(srd, class, c);
    let spellbook = casting.ritual_casting == RitualCasting::Spellbook;
    let mut allowed: Vec<&Spell> = if spellbook {
        // The wizard's book: what it wrote in, and what it has prepared (its own book's).
        spellbook_of(c)
            .iter()
            .filter_map(|name| srd.spell(name).ok())
            .filter(|s| s.level > 0)
            .collect()
    } else {
        srd.spells
            .iter()
            .filter(|s| on_class_list(s, class))
            .filter(|s| s.level > 0)
            .collect()
    };
    allowed.retain(|s| s.level <= highest && !kept.contains(&s.name));
    allowed.sort_by(|a, b| (a.level, &a.name).cmp(&(b.level, &b.name)));
    allowed.dedup_by(|a, b| a.name == b.name);
    let divisor = i32::from(casting.prepared_level_divisor.unwrap_or(1).max(1));
    let most = (c.abilities.modifier(casting.ability) + i32::from(c.level) / divisor).max(1);
    Ok(PrepareOptions {
        most: most as usize,
        allowed: allowed.into_iter().map(|s| s.name.clone()).collect(),
        prepared,
        kept,
    })
}

/// Checks `wanted` (spell names) as `c`'s new prepared spells and returns the change that
/// prepares them, keeping its cantrips and always-prepared spells.
pub fn prepare(srd: &Srd, c: &Character, wanted: &[String]) -> Result<Change, PrepareError> {
    let class = preparing_class(srd, c)?;
    if !rested_since_preparing(c) {
        return Err(PrepareError::NotRested {
            name: c.name.clone(),
        });
    }
    let options = options(srd, c)?;
    if wanted.len() > options.most {
        let ability = class
            .spellcasting
            .as_ref()
            .map_or("spellcasting", |s| s.ability.name());
        return Err(PrepareError::TooMany {
            name: c.name.clone(),
            given: wanted.len(),
            most: options.most,
            ability,
        });
    }
    let mut chosen: Vec<String> = Vec::new();
    for name in wanted {
        let found = options.allowed.iter().find(|a| slugify(a) == slugify(name));
        let Some(spell) = found else {
            let why = match srd.spell(name) {
                Err(_) => "no SRD spell has that name".to_owned(),
                Ok(s) if s.level == 0 => "a cantrip is known, not prepared".to_owned(),
                Ok(s) if options.kept.contains(&s.name) => {
                    "it is always prepared or not a class spell, and stays on the sheet".to_owned()
                }
                Ok(s) => format!(
                    "a level-{} {} spell it has no slot for, or not in its {}",
                    s.level,
                    class.name,
                    if class.spellcasting.as_ref().map(|s| s.ritual_casting)
                        == Some(RitualCasting::Spellbook)
                    {
                        "spellbook"
                    } else {
                        "class's list"
                    }
                ),
            };
            return Err(PrepareError::NotAllowed {
                name: c.name.clone(),
                spell: name.clone(),
                why,
                allowed: options.allowed.clone(),
            });
        };
        if chosen.contains(spell) {
            return Err(PrepareError::Twice {
                spell: spell.clone(),
            });
        }
        chosen.push(spell.clone());
    }
    // A wizard's book keeps what it no longer prepares.
    let mut spellbook = c.spellbook.clone();
    if class.spellcasting.as_ref().map(|s| s.ritual_casting) == Some(RitualCasting::Spellbook) {
        for s in &options.prepared {
            if !spellbook.contains(s) {
                spellbook.push(s.clone());
            }
        }
    }
    let mut spells = options.kept;
    spells.extend(chosen);
    Ok(Change::SpellsPrepared {
        character: c.id.clone(),
        spells,
        spellbook,
    })
}

/// The spells in `c`'s spellbook: those written in it, and those it has on its sheet (a
/// wizard's prepared spells are from its book; older sheets list no book).
pub fn spellbook_of(c: &Character) -> Vec<String> {
    let mut book = c.spellbook.clone();
    for s in c.spells.iter() {
        if !book.contains(s) {
            book.push(s.clone());
        }
    }
    book
}

/// The character's class, if it prepares spells.
fn preparing_class<'a>(srd: &'a Srd, c: &Character) -> Result<&'a Class, PrepareError> {
    let refuse = |why| PrepareError::NotPreparing {
        name: c.name.clone(),
        class: c.class.clone(),
        why,
    };
    let class = srd
        .class(&c.class)
        .map_err(|_| refuse("the SRD does not list"))?;
    match &class.spellcasting {
        None => Err(refuse("casts no spells")),
        Some(s) if s.from_level > c.level => Err(refuse("casts no spells yet at this level")),
        Some(s) if s.preparation == Preparation::Known => {
            Err(refuse("knows its spells: they change when it levels up"))
        }
        Some(_) => Ok(class),
    }
}

fn on_class_list(spell: &Spell, class: &Class) -> bool {
    spell.classes.iter().any(|c| slugify(c) == class.slug)
}

/// The sheet's spells split into those prepared (1st level or higher, from the class, not
/// always prepared) and those kept.
fn split(srd: &Srd, class: &Class, c: &Character) -> (Vec<String>, Vec<String>) {
    let always: Vec<&str> = class
        .subclass
        .bonus_spells
        .iter()
        .filter(|b| c.subclass.is_some() && b.level <= c.level)
        .filter(|b| {
            b.requires
                .as_ref()
                .is_none_or(|r| super::features::chose(c, r))
        })
        .map(|b| b.spell.as_str())
        .collect();
    c.spells.iter().cloned().partition(|name| {
        srd.spell(name).is_ok_and(|s| {
            s.level > 0 && on_class_list(s, class) && !always.iter().any(|a| *a == s.name)
        })
    })
}
