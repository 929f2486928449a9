//! The sorcerer's Font of Magic and Metamagic as rules over the sheet and the class data:
//! sorcery points are the uses of `font-of-magic` (`character::uses`: the level's
//! `sorcery_points`, back on a long rest); Flexible Casting's prices are the level's
//! `creating_spell_slots`; the Metamagic options known are the picks in
//! `Character::choices` (`metamagic-*`), and what each costs and which spells it fits are
//! here. The tools play them (`tools::feature_sorcerer`).

use crate::effects::Effect;
use crate::rules::Ability;
use crate::srd::{Class, Spell, SpellReach};
use crate::state::Character;

/// The highest slot Flexible Casting creates.
pub const HIGHEST_CREATED_SLOT: u8 = 5;

/// One Metamagic option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Metamagic {
    /// Chosen creatures succeed on the spell's save (1 point).
    Careful,
    /// Range doubled, or 30 ft for a touch (1 point).
    Distant,
    /// Damage dice rerolled, up to the Charisma modifier (1 point; with another option).
    Empowered,
    /// Duration doubled, to 24 hours at most (1 point).
    Extended,
    /// One target has disadvantage on its first save against the spell (3 points).
    Heightened,
    /// A spell of one action cast as a bonus action (2 points).
    Quickened,
    /// No verbal or somatic components (1 point).
    Subtle,
    /// A second creature for a spell of one target (the spell's level in points, 1 for a
    /// cantrip).
    Twinned,
}

impl Metamagic {
    /// Every option, in the SRD's order.
    pub const ALL: [Metamagic; 8] = [
        Metamagic::Careful,
        Metamagic::Distant,
        Metamagic::Empowered,
        Metamagic::Extended,
        Metamagic::Heightened,
        Metamagic::Quickened,
        Metamagic::Subtle,
        Metamagic::Twinned,
    ];

    /// Its name ("Quickened").
    pub fn name(self) -> &'static str {
        match self {
            Metamagic::Careful => "Careful",
            Metamagic::Distant => "Distant",
            Metamagic::Empowered => "Empowered",
            Metamagic::Extended => "Extended",
            Metamagic::Heightened => "Heightened",
            Metamagic::Quickened => "Quickened",
            Metamagic::Subtle => "Subtle",
            Metamagic::Twinned => "Twinned",
        }
    }

    /// Its option slug in the class data ("metamagic-quickened-spell").
    pub fn slug(self) -> String {
        format!("metamagic-{}-spell", self.name().to_ascii_lowercase())
    }

    /// By name, slug or "Quickened Spell".
    pub fn named(text: &str) -> Option<Metamagic> {
        let wanted = crate::srd::slugify(text);
        Metamagic::ALL.into_iter().find(|m| {
            let name = m.name().to_ascii_lowercase();
            wanted == name || wanted == format!("{name}-spell") || wanted == m.slug()
        })
    }

    /// Sorcery points it costs on a spell cast at `slot` (0 for a cantrip).
    pub fn cost(self, slot: u8) -> u8 {
        match self {
            Metamagic::Heightened => 3,
            Metamagic::Quickened => 2,
            Metamagic::Twinned => slot.max(1),
            _ => 1,
        }
    }
}

/// The Metamagic options `c` knows (its picks under any `metamagic-*` feature).
pub fn known(c: &Character) -> Vec<Metamagic> {
    let mut out: Vec<Metamagic> = Metamagic::ALL
        .into_iter()
        .filter(|m| super::features::chose(c, &m.slug()))
        .collect();
    out.dedup();
    out
}

/// The save a spell asks for first, if any.
pub fn spell_save(spell: &Spell) -> Option<Ability> {
    spell.effects.iter().find_map(|e| match e {
        Effect::Save { ability, .. } => Some(*ability),
        _ => None,
    })
}

/// Why `option` does not fit `spell` cast at `slot` on `targets` named, or `None` when it
/// does. Each reason says what the option needs.
pub fn unfit(
    option: Metamagic,
    spell: &Spell,
    slot: u8,
    caster_level: u8,
    targets: usize,
) -> Option<String> {
    let name = &spell.name;
    match option {
        Metamagic::Quickened => (crate::rules::CastingTime::parse(&spell.casting_time)
            != Some(crate::rules::CastingTime::Action))
        .then(|| {
            format!(
                "Quickened Spell turns a casting time of 1 action into a bonus action; {name} takes {}",
                spell.casting_time
            )
        }),
        Metamagic::Twinned => {
            let one = spell.target_limit(slot.max(spell.level), caster_level).max == Some(1)
                && spell.area.is_none()
                && spell.reach() != SpellReach::CasterOnly;
            if !one {
                Some(format!(
                    "Twinned Spell needs a spell of one creature, not of self or an area, that cannot name more at this level; {name} does not qualify"
                ))
            } else if targets != 2 {
                Some(format!(
                    "Twinned Spell names exactly two creatures for {name}: {targets} were named"
                ))
            } else {
                None
            }
        }
        Metamagic::Subtle => (!spell.components.verbal && !spell.components.somatic).then(|| {
            format!("Subtle Spell drops verbal and somatic components; {name} has neither")
        }),
        Metamagic::Heightened => match spell_save(spell) {
            None => Some(format!(
                "Heightened Spell gives a target disadvantage on the spell's save; {name} asks for no save"
            )),
            Some(_) if targets == 0 => Some(
                "Heightened Spell needs the creature it targets named first in targets".to_owned(),
            ),
            Some(_) => None,
        },
        Metamagic::Extended => {
            let d = spell.duration.to_ascii_lowercase();
            let lasts = ["minute", "hour"].iter().any(|u| d.contains(u));
            (!lasts).then(|| {
                format!(
                    "Extended Spell doubles a duration of 1 minute or longer; {name} lasts {}",
                    spell.duration
                )
            })
        }
        Metamagic::Distant => distant(spell).is_none().then(|| {
            format!(
                "Distant Spell doubles a range of 5 feet or more (a touch becomes 30 feet); {name}'s range is {}",
                spell.range
            )
        }),
        Metamagic::Careful | Metamagic::Empowered
            if crate::effects::zone_rules(&spell.effects).is_some() =>
        {
            Some(format!(
                "{} Spell shapes what a spell does as it is cast; {name} lasts as an area that catches creatures later, which it does not reach: cast it without {}",
                option.name(),
                option.name()
            ))
        }
        Metamagic::Careful => spell_save(spell).is_none().then(|| {
            format!("Careful Spell spares creatures from a spell's save; {name} asks for no save")
        }),
        Metamagic::Empowered => (!deals_damage(&spell.effects)).then(|| {
            format!("Empowered Spell rerolls a spell's damage dice; {name} rolls no damage")
        }),
    }
}

/// Whether effects roll damage anywhere: on a hit, a failed save, darts, or a choice's option.
fn deals_damage(effects: &[Effect]) -> bool {
    effects.iter().any(|e| match e {
        Effect::Damage { .. } | Effect::Darts { .. } => true,
        Effect::SpellAttack { on_hit, .. } => deals_damage(on_hit),
        Effect::Save { on_fail, .. } => deals_damage(on_fail),
        Effect::OneOf { options } => options.iter().any(|o| deals_damage(&o.effects)),
        _ => false,
    })
}

/// How many creatures Careful Spell protects, and how many dice Empowered Spell rerolls: the
/// Charisma modifier, at least 1.
pub fn charisma_count(c: &Character) -> u8 {
    u8::try_from(c.abilities.modifier(Ability::Charisma).max(1)).unwrap_or(1)
}

/// The spell with Distant Spell's range: a range in feet or miles doubled, a touch 30 feet;
/// `None` for a range of self, sight or beyond measure.
pub fn distant(spell: &Spell) -> Option<Spell> {
    use crate::srd::SpellRange;
    let range = match spell.range {
        SpellRange::Touch => SpellRange::Feet(30),
        SpellRange::Feet(n) => SpellRange::Feet(n.saturating_mul(2)),
        SpellRange::Miles(n) => SpellRange::Miles(n.saturating_mul(2)),
        _ => return None,
    };
    let mut spell = spell.clone();
    spell.range = range;
    Some(spell)
}

/// The points Flexible Casting asks for a slot of `level` at `c`'s level (2/3/5/6/7 for 1st
/// to 5th), or `None` above 5th.
pub fn slot_price(class: &Class, c: &Character, level: u8) -> Option<u8> {
    class
        .level(c.level)?
        .numbers
        .creating_spell_slots
        .iter()
        .find(|s| s.spell_slot_level == level && level <= HIGHEST_CREATED_SLOT)
        .map(|s| s.sorcery_point_cost)
}

/// Rounds a timed effect of `rounds` lasts when extended: twice, 24 hours at most.
pub fn extended_rounds(rounds: u32) -> u32 {
    rounds.saturating_mul(2).min(24 * 600)
}
