//! Cantrips and spells: picked from the class's list, as many as its table allows at the
//! level, none above the highest slot; the subclass's always-prepared spells added; and the
//! slots.

use super::build_error::{Problem, Problems};
use super::builder::{CharacterChoices, Settled};
use super::choices::RacePicks;
use crate::rules::{Ability, SpellSlots};
use crate::srd::{Preparation, Spell, Srd, slugify};

/// The sheet's spell list (cantrips, the race's, the subclass's, then those picked) and slots.
pub(crate) fn spells(
    choices: &CharacterChoices,
    srd: &Srd,
    settled: &Settled<'_>,
    race: &RacePicks,
    feature_picks: &[String],
    problems: &mut Problems,
) -> (Vec<String>, SpellSlots) {
    let class = settled.class;
    let casting = class.spellcasting.as_ref();
    let table = class.level(settled.level).and_then(|l| l.spells);
    let mut list: Vec<String> = Vec::new();
    let (Some(casting), Some(table)) = (casting.filter(|c| c.from_level <= settled.level), table)
    else {
        for (field, given) in [("cantrips", &choices.cantrips), ("spells", &choices.spells)] {
            if !given.is_empty() {
                let needed = casting.map_or(0, |c| c.from_level);
                let what = format!("{} spellcasting", class.name);
                let problem = if needed > 0 {
                    Problem::TooEarly {
                        what,
                        needed,
                        level: settled.level,
                    }
                } else {
                    Problem::TooMany {
                        what: format!("a {} (no spellcasting)", class.name),
                        given: given.len(),
                        most: 0,
                    }
                };
                problems.add(field, problem);
            }
        }
        list.extend(race.cantrips.iter().cloned());
        return (list, SpellSlots::default());
    };
    let slots = table.slots;
    let highest = slots
        .iter()
        .rposition(|n| *n > 0)
        .map_or(0, |i| i as u8 + 1);
    let on_list = |name: &str| {
        srd.spells
            .iter()
            .filter(|s| s.classes.iter().any(|c| slugify(c) == class.slug))
            .find(|s| slugify(&s.name) == slugify(name))
    };
    // The subclass's spells: always prepared for a preparing class; for a known-spells class
    // (the warlock's expanded list) they are added to what may be picked.
    let bonus: Vec<String> = if settled.subclass {
        class
            .subclass
            .bonus_spells
            .iter()
            .filter(|b| b.level <= settled.level)
            .filter(|b| {
                b.requires
                    .as_ref()
                    .is_none_or(|r| feature_picks.contains(r))
            })
            .map(|b| b.spell.clone())
            .collect()
    } else {
        Vec::new()
    };
    let preparing = casting.preparation == Preparation::Prepared;
    // A subclass may add one (the Land druid's Bonus Cantrip).
    let sub = settled.subclass.then_some(class.subclass.name.as_str());
    let bonus_cantrips = (1..=settled.level)
        .map(|l| super::level_spells::bonus_cantrips(&class.features_at(l, sub)))
        .sum::<usize>();
    let cantrips_allowed = usize::from(table.cantrips_known.unwrap_or(0)) + bonus_cantrips;
    if choices.cantrips.len() != cantrips_allowed {
        problems.add(
            "cantrips",
            Problem::WrongCount {
                what: format!("a level-{} {}'s cantrips", settled.level, class.name),
                given: choices.cantrips.len(),
                expected: cantrips_allowed,
            },
        );
    }
    let mut picked_cantrips = Vec::new();
    for (i, name) in choices.cantrips.iter().enumerate() {
        let field = format!("cantrips[{i}]");
        match on_list(name).filter(|s| s.level == 0) {
            Some(s) if picked_cantrips.contains(&s.name) || race.cantrips.contains(&s.name) => {
                problems.add(
                    field,
                    Problem::Duplicate {
                        given: s.name.clone(),
                        by: "another pick".into(),
                    },
                )
            }
            Some(s) => picked_cantrips.push(s.name.clone()),
            None => {
                let allowed = srd
                    .spells
                    .iter()
                    .filter(|s| s.level == 0 && s.classes.iter().any(|c| slugify(c) == class.slug))
                    .map(|s| s.name.clone());
                problems.not_allowed(field, format!("{} cantrip", class.name), name, allowed);
            }
        }
    }
    let most = if preparing {
        let ability = choices_modifier(settled, casting.ability);
        let divisor = i32::from(casting.prepared_level_divisor.unwrap_or(1).max(1));
        (ability + i32::from(settled.level) / divisor).max(1) as usize
    } else {
        usize::from(table.spells_known.unwrap_or(0))
    };
    let what = if preparing {
        "prepared spells"
    } else {
        "spells known"
    };
    if preparing && choices.spells.len() > most {
        problems.add(
            "spells",
            Problem::TooMany {
                what: format!("a level-{} {}'s {what}", settled.level, class.name),
                given: choices.spells.len(),
                most,
            },
        );
    } else if !preparing && choices.spells.len() != most {
        problems.add(
            "spells",
            Problem::WrongCount {
                what: format!("a level-{} {}'s {what}", settled.level, class.name),
                given: choices.spells.len(),
                expected: most,
            },
        );
    }
    let mut picked = Vec::new();
    for (i, name) in choices.spells.iter().enumerate() {
        let field = format!("spells[{i}]");
        let expanded = !preparing && bonus.iter().any(|b| slugify(b) == slugify(name));
        let spell = on_list(name)
            .or_else(|| expanded.then(|| srd.spell(name).ok()).flatten())
            .filter(|s| s.level > 0);
        let taken = |s: &Spell| {
            if picked.contains(&s.name) {
                Some("another pick".to_owned())
            } else if preparing && bonus.contains(&s.name) {
                Some(format!("the {} (always prepared)", class.subclass.name))
            } else {
                None
            }
        };
        let extra = |s: &Spell| !preparing && bonus.contains(&s.name);
        let pick = LevelledPick { class, highest };
        if let Some(name) = pick.check(srd, &field, name, spell, taken, extra, problems) {
            picked.push(name);
        }
    }
    list.extend(picked_cantrips);
    list.extend(race.cantrips.iter().cloned());
    if preparing {
        list.extend(bonus);
    }
    list.extend(picked);
    let mut sheet = SpellSlots::default();
    if casting.pact_magic {
        sheet.pact_level = highest;
        sheet.pact_max = slots
            .get(usize::from(highest.max(1) - 1))
            .copied()
            .unwrap_or(0);
    } else {
        sheet.max[..5].copy_from_slice(&slots);
    }
    (list, sheet)
}

/// The modifier of an ability after racial increases.
fn choices_modifier(settled: &Settled<'_>, ability: Ability) -> i32 {
    settled.abilities.modifier(ability)
}

/// A wizard's spellbook beyond its prepared spells (`CharacterChoices::spellbook`): wizard
/// spells of levels its slots cast, none twice nor already prepared, six at 1st level and two
/// more each level in all (prepared ones counted). Only a class that casts rituals from a
/// spellbook keeps one.
pub(crate) fn spellbook(
    choices: &CharacterChoices,
    srd: &Srd,
    settled: &Settled<'_>,
    sheet_spells: &[String],
    problems: &mut Problems,
) -> Vec<String> {
    if choices.spellbook.is_empty() {
        return Vec::new();
    }
    let class = settled.class;
    let has_book = class
        .spellcasting
        .as_ref()
        .is_some_and(|c| c.ritual_casting == crate::srd::RitualCasting::Spellbook);
    if !has_book {
        problems.add(
            "spellbook",
            Problem::TooMany {
                what: format!("a {}'s spellbook (only a wizard keeps one)", class.name),
                given: choices.spellbook.len(),
                most: 0,
            },
        );
        return Vec::new();
    }
    let highest = class
        .level(settled.level)
        .and_then(|l| l.spells)
        .and_then(|t| t.slots.iter().rposition(|n| *n > 0))
        .map_or(0, |i| i as u8 + 1);
    let prepared = sheet_spells
        .iter()
        .filter(|s| srd.spell(s).is_ok_and(|s| s.level > 0))
        .count();
    let most = (6 + 2 * usize::from(settled.level.saturating_sub(1))).saturating_sub(prepared);
    if choices.spellbook.len() > most {
        problems.add(
            "spellbook",
            Problem::TooMany {
                what: format!(
                    "a level-{} {}'s spellbook besides the {prepared} prepared",
                    settled.level, class.name
                ),
                given: choices.spellbook.len(),
                most,
            },
        );
    }
    let mut book: Vec<String> = Vec::new();
    for (i, name) in choices.spellbook.iter().enumerate() {
        let field = format!("spellbook[{i}]");
        let spell = srd
            .spell(name)
            .ok()
            .filter(|s| s.level > 0 && on_list(s, class));
        let taken = |s: &Spell| {
            (book.contains(&s.name) || sheet_spells.contains(&s.name))
                .then(|| "another pick or a prepared spell".to_owned())
        };
        let pick = LevelledPick { class, highest };
        if let Some(name) = pick.check(srd, &field, name, spell, taken, |_| false, problems) {
            book.push(name);
        }
    }
    book
}

fn on_list(spell: &Spell, class: &crate::srd::Class) -> bool {
    spell.classes.iter().any(|c| slugify(c) == class.slug)
}

/// Picks of spells of 1st level or higher for a class whose slots cast up to `highest`.
struct LevelledPick<'a> {
    class: &'a crate::srd::Class,
    highest: u8,
}

impl LevelledPick<'_> {
    /// Checks the pick `name` at `field`: `found` is the SRD spell when the class may pick it
    /// (else what it may pick is listed, with the spells `extra` allows beside its list); too
    /// high for its slots, or `taken` already (by what), is a problem. The spell's name when
    /// the pick stands.
    #[allow(clippy::too_many_arguments)]
    fn check(
        &self,
        srd: &Srd,
        field: &str,
        name: &str,
        found: Option<&Spell>,
        taken: impl Fn(&Spell) -> Option<String>,
        extra: impl Fn(&Spell) -> bool,
        problems: &mut Problems,
    ) -> Option<String> {
        let (class, highest) = (self.class, self.highest);
        match found {
            Some(s) if s.level > highest => problems.add(
                field,
                Problem::AboveSlots {
                    spell: s.name.clone(),
                    spell_level: s.level,
                    highest,
                },
            ),
            Some(s) => match taken(s) {
                Some(by) => problems.add(
                    field,
                    Problem::Duplicate {
                        given: s.name.clone(),
                        by,
                    },
                ),
                None => return Some(s.name.clone()),
            },
            None => {
                let allowed = srd
                    .spells
                    .iter()
                    .filter(|s| (1..=highest).contains(&s.level))
                    .filter(|s| on_list(s, class) || extra(s))
                    .map(|s| s.name.clone());
                let what = format!("{} spell of level 1 to {highest}", class.name);
                problems.not_allowed(field, what, name, allowed);
            }
        }
        None
    }
}
