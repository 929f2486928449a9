//! Spells a character casts beyond its spell list because a class feature or a racial trait
//! grants them (the data's `"casts"`, [`GrantedSpell`]): the warlock's Thief of Five Fates,
//! Mire the Mind and Sign of Ill Omen (Bane, Slow, Bestow Curse once a long rest, each with a
//! warlock spell slot) and the tiefling's Infernal Legacy (Thaumaturgy at will; Hellish
//! Rebuke from 3rd level and Darkness from 5th, once a long rest each as 2nd-level spells with
//! no slot, cast with Charisma). Which of them a character has comes from its class and
//! level, the invocations it chose (`Character::choices`) and its race; a daily casting is
//! kept in `Character::feature_uses` like any limited feature, so a long rest gives it back.
//! `tools::spell_granted` casts them through `cast_spell`.

use crate::srd::{GrantedCasting, GrantedSpell, Rest, Srd, slugify};
use crate::state::{Change, Character};

/// One spell a character is granted, with where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Granted {
    /// The grant as the data writes it.
    pub spell: GrantedSpell,
    /// The feature's or trait's name ("Eldritch Invocation: Thief of Five Fates").
    pub by: String,
    /// Where its daily use is kept in `Character::feature_uses`: the class feature's slug
    /// (its data's `uses`), or the trait's slug and the spell's ("infernal-legacy-darkness").
    pub key: String,
}

impl Granted {
    /// Whether it is cast once a long rest (not at will).
    pub fn daily(&self) -> bool {
        self.spell.cast != GrantedCasting::AtWill
    }
}

/// Every grant of `c`'s class features (those it has, an option only when chosen) and racial
/// traits, with the level it needs (the feature's and the spell's own).
fn all(srd: &Srd, c: &Character) -> Vec<(Granted, u8)> {
    let mut out = Vec::new();
    if let Ok(class) = srd.class(&c.class) {
        for f in class.features.iter().filter(|f| !f.casts.is_empty()) {
            if f.parent.is_some() && !super::features::chose(c, &f.slug) {
                continue;
            }
            match super::uses::feature_of(srd, c, &f.slug) {
                Ok(_) | Err(super::uses::FeatureError::TooLowLevel { .. }) => {}
                Err(_) => continue, // another subclass's
            }
            for spell in &f.casts {
                let granted = Granted {
                    spell: spell.clone(),
                    by: f.name.clone(),
                    key: f.slug.clone(),
                };
                out.push((granted, f.level.max(spell.from_level)));
            }
        }
    }
    for t in c.racial_traits(srd) {
        for spell in &t.casts {
            let granted = Granted {
                spell: spell.clone(),
                by: t.name.clone(),
                key: format!("{}-{}", t.slug, slugify(&spell.spell)),
            };
            out.push((granted, spell.from_level));
        }
    }
    out
}

/// The spells `c` is granted at its level.
pub fn granted_spells(srd: &Srd, c: &Character) -> Vec<Granted> {
    all(srd, c)
        .into_iter()
        .filter_map(|(g, needs)| (c.level >= needs).then_some(g))
        .collect()
}

/// The grant of the spell `slug` to `c`: `Ok(None)` when nothing grants it, `Err` saying at
/// which level it comes when `c` has the feature or trait but not yet that level.
pub fn grant_of(srd: &Srd, c: &Character, slug: &str) -> Result<Option<Granted>, String> {
    let mut early = None;
    for (g, needs) in all(srd, c) {
        if slugify(&g.spell.spell) != slug {
            continue;
        }
        if c.level >= needs {
            return Ok(Some(g));
        }
        early.get_or_insert((g, needs));
    }
    match early {
        None => Ok(None),
        Some((g, needs)) => Err(format!(
            "{} casts {} from level {needs}; {} is level {}",
            g.by, g.spell.spell, c.name, c.level
        )),
    }
}

/// Daily castings of `g` left to `c` (0 or 1); `None` for one at will.
pub fn uses_left(c: &Character, g: &Granted) -> Option<u8> {
    g.daily()
        .then(|| c.feature_uses.get(&g.key).map_or(1, |u| u.left()))
}

/// The change that spends `c`'s daily casting of `g` (`None` for one at will), or why not:
/// cast already since the last long rest.
pub fn spend(c: &Character, g: &Granted) -> Result<Option<Change>, String> {
    match uses_left(c, g) {
        None => Ok(None),
        Some(0) => Err(format!(
            "{} has cast {} with {} since its last long rest: once a long rest (it may still cast it from its own spells, with a slot, if it knows it)",
            c.name, g.spell.spell, g.by
        )),
        Some(_) => Ok(Some(Change::FeatureUsed {
            character: c.id.clone(),
            feature: g.key.clone(),
            of: 1,
            restores: Rest::LongRest,
            count: 1,
        })),
    }
}

/// `g` for `c`'s sheet: "Hellish Rebuke (Infernal Legacy: once a long rest as level 2, no
/// slot; 1 left)".
pub fn describe(c: &Character, g: &Granted) -> String {
    let how = match g.spell.cast {
        GrantedCasting::AtWill => "at will".to_owned(),
        GrantedCasting::DailyAs(level) => {
            format!("once a long rest as level {level}, no slot")
        }
        GrantedCasting::DailyWithWarlockSlot => "once a long rest with a warlock slot".to_owned(),
    };
    let left = uses_left(c, g).map_or(String::new(), |n| format!("; {n} left"));
    format!("{} ({}: {how}{left})", g.spell.spell, g.by)
}

/// `c` as it casts `g`: with the grant's ability (a tiefling's Charisma) in place of its
/// class's, for the spell's attack bonus, save DC and modifier.
pub fn caster_for(c: &Character, g: &Granted) -> Character {
    let mut caster = c.clone();
    if let Some(ability) = g.spell.ability {
        caster.spellcasting_ability = Some(ability);
    }
    caster
}

/// The level a warlock's spell slots are cast at (its pact slots'), `None` without them.
pub fn warlock_slot_level(c: &Character) -> Option<u8> {
    (c.spell_slots.pact_max > 0).then_some(c.spell_slots.pact_level)
}
