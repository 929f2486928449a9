//! What a sheet's race gives it, read from the bundled race table by the sheet's `race` name
//! ("hill dwarf") and its `choices` (a dragonborn's ancestry): the racial traits, the damage
//! types they resist (inside [`Character::defenses_now`], every tool's view of a hero's
//! defenses), the range of its darkvision, and Relentless Endurance, which the damage change
//! applies itself so that every source of damage meets it.
//!
//! The race table is the game's SRD ([`GameState::srd`](super::GameState::srd)), passed to each
//! read: races are rules data, so a game on another SRD reads its own traits.

use serde::{Deserialize, Serialize};

use super::Character;
use super::feature_uses::FeatureUses;
use crate::rules::{DamageOutcome, DamageType, DamageTypes};
use crate::srd::{Race, RacialTrait, Rest, Srd, slugify};

/// The trait slug of Relentless Endurance, also its key in `Character::feature_uses`.
pub const RELENTLESS_ENDURANCE: &str = "relentless-endurance";

impl Character {
    /// Its race's traits and its subrace's in `srd` (none for a race the table does not know).
    pub fn racial_traits<'s>(&self, srd: &'s Srd) -> Vec<&'s RacialTrait> {
        race_of(srd, &self.race)
            .map(|r| r.traits())
            .unwrap_or_default()
    }

    /// Whether its race or subrace has the trait `slug` ("lucky", "darkvision") in `srd`.
    pub fn has_racial_trait(&self, srd: &Srd, slug: &str) -> bool {
        race_of(srd, &self.race).is_some_and(|r| {
            let sub = r.subrace.map(|s| s.traits.as_slice()).unwrap_or_default();
            r.race.traits.iter().chain(sub).any(|t| t == slug)
        })
    }

    /// A dragonborn's ancestry, the option of `draconic-ancestry` it chose.
    pub fn draconic_ancestry<'s>(&self, srd: &'s Srd) -> Option<&'s RacialTrait> {
        let chosen = self.choices.get("draconic-ancestry")?.first()?;
        srd.races.traits.iter().find(|t| &t.slug == chosen)
    }

    /// The damage types its race resists: poison (Dwarven Resilience), fire (Hellish
    /// Resistance), its ancestry's type (a dragonborn's Damage Resistance).
    pub fn racial_resistances(&self, srd: &Srd) -> DamageTypes {
        let mut out = DamageTypes::default();
        for t in self.racial_traits(srd) {
            match t.slug.as_str() {
                "dwarven-resilience" => out.insert(DamageType::Poison),
                "hellish-resistance" => out.insert(DamageType::Fire),
                "damage-resistance" => {
                    if let Some(kind) = self.draconic_ancestry(srd).and_then(|a| a.damage_type) {
                        out.insert(kind);
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// How far it sees in the dark, in feet (0 without Darkvision).
    pub fn darkvision_feet(&self, srd: &Srd) -> u32 {
        self.racial_traits(srd)
            .iter()
            .find(|t| t.slug == "darkvision")
            .map_or(0, |t| t.range_feet.unwrap_or(60))
    }
}

/// The race or subrace `name` names in `srd`: its name or slug exactly first (traits are read
/// on every attack, save and hit, where the lookup that forgives spelling would make its
/// comparisons and allocations each time), then that lookup ("Hill Dwarves").
fn race_of<'s>(srd: &'s Srd, name: &str) -> Option<Race<'s>> {
    let slug = slugify(name);
    let traits = &srd.races.traits;
    for race in &srd.races.races {
        if race.slug == slug {
            return Some(Race::new(race, None, traits));
        }
        if let Some(sub) = race.subraces.iter().find(|s| s.slug == slug) {
            return Some(Race::new(race, Some(sub), traits));
        }
    }
    srd.race(name).ok()
}

/// Relentless Endurance (half-orc): damage that drops `c` to 0 hit points without killing it
/// outright leaves it at 1 instead, once per long rest (spent in `feature_uses`). Returns
/// whether it held; `outcome` is then corrected (not dropped, 1 hit point).
pub(super) fn relentless_endurance(
    srd: &Srd,
    c: &mut Character,
    outcome: &mut DamageOutcome,
) -> bool {
    if !outcome.dropped_to_zero || outcome.killed || !c.has_racial_trait(srd, RELENTLESS_ENDURANCE)
    {
        return false;
    }
    let used = c.feature_uses.get(RELENTLESS_ENDURANCE).copied();
    if used.is_some_and(|u| u.left() == 0) {
        return false;
    }
    c.feature_uses.insert(
        RELENTLESS_ENDURANCE.to_owned(),
        FeatureUses {
            spent: 1,
            of: 1,
            restores: Rest::LongRest,
        },
    );
    c.hp.current = 1;
    outcome.hp_after = 1;
    outcome.dropped_to_zero = false;
    true
}

/// How lit a place is. Bright light lets everyone see; dim light (lightly obscured) gives
/// disadvantage on Perception checks that rely on sight; darkness (heavily obscured) leaves a
/// creature without darkvision effectively blinded. Darkvision sees dim light within its range
/// as bright and darkness as dim.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Light {
    /// Daylight, torches, lamps.
    #[default]
    Bright,
    /// Twilight, a shadowy room.
    Dim,
    /// No light at all.
    Dark,
}

impl Light {
    /// Whether it is bright (the default, left out of a saved room).
    pub fn is_bright(&self) -> bool {
        *self == Light::Bright
    }
}
