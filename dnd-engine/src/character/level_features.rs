//! What a level's class features write on the sheet when it is gained: the choices the new
//! features ask for (a paladin's or ranger's fighting style at 2nd level, a Hunter's prey at
//! 3rd, a bard's Expertise), checked by the builder's code (`choices::feature_picks`, one
//! path) and refused with the options when missing or wrong; the skills Expertise doubles;
//! Fast Movement's speed; the Defense style's +1 AC in armour.

use std::collections::BTreeMap;

use super::build_error::Problems;
use super::invocations_gained;
use super::levelling::{FeaturePick, LevelUpError, choice};
use super::warlock::INVOCATIONS;
use crate::rules::Skill;
use crate::srd::{ArmorCategory, Class, ClassFeature, Srd};
use crate::state::Character;

/// What the new level's features write on the sheet (`state::LevelUp`'s fields of the same
/// names).
#[derive(Debug, Default)]
pub(super) struct FeatureGains {
    /// Picks by feature slug.
    pub(super) choices: BTreeMap<String, Vec<String>>,
    /// Skills that become expertise.
    pub(super) expertise: Vec<Skill>,
    /// Skills the character becomes proficient in (Bonus Proficiencies, Beguiling Influence).
    pub(super) proficiencies: Vec<Skill>,
    /// Picks appended to a feature's earlier ones (a warlock's third invocation).
    pub(super) added: BTreeMap<String, Vec<String>>,
    /// Feet of speed added.
    pub(super) speed_gained: u32,
    /// Armor Class added.
    pub(super) armor_class_gained: i32,
}

/// The features with a choice among `gained` (an Ability Score Improvement is chosen through
/// the level's improvement, not here).
fn with_choice<'a>(gained: &[&'a ClassFeature]) -> Vec<&'a ClassFeature> {
    gained
        .iter()
        .copied()
        .filter(|f| f.options.is_some() && f.parent.is_none())
        .filter(|f| !f.slug.contains("ability-score-improvement"))
        .collect()
}

/// Every option of the features with a choice, as "feature-slug: Option Name", for a refusal.
fn options(class: &Class, open: &[&ClassFeature]) -> Vec<String> {
    open.iter()
        .flat_map(|f| {
            let from = f.options.as_ref().map_or(&[][..], |o| o.from.as_slice());
            from.iter().map(move |o| {
                let name = class.feature(o).map_or(o.as_str(), |x| x.name.as_str());
                format!("{}: {name}", f.slug)
            })
        })
        .collect()
}

/// The gains of the features `gained` at `level` by `c`, with the player's `picks` (by feature
/// slug or name), or why the picks are refused.
pub(super) fn gains(
    c: &Character,
    srd: &Srd,
    class: &Class,
    level: u8,
    gained: &[&ClassFeature],
    picks: &BTreeMap<String, Vec<String>>,
) -> Result<FeatureGains, LevelUpError> {
    let open = with_choice(gained);
    // A warlock's invocation on a later level is asked apart (`invocations_gained`).
    let later = invocations_gained::count(class, level) > 0;
    let for_features: BTreeMap<String, Vec<String>> = picks
        .iter()
        .filter(|(k, _)| !(later && invocations_gained::is_key(k)))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut problems = Problems::default();
    let mut chosen =
        super::choices::feature_picks(class, &open, level, &for_features, &c.skills, &mut problems);
    if let Some(first) = problems.0.first() {
        return Err(choice("features", first.to_string(), options(class, &open)));
    }
    let invoked = invocations_gained::learned(class, c, level, picks)?;
    for skill in super::granted::skills_from(INVOCATIONS, &invoked) {
        if !c.skills.contains_key(&skill) && !chosen.proficiencies.contains(&skill) {
            chosen.proficiencies.push(skill);
        }
    }
    chosen.chosen.extend(invoked.iter().cloned());
    // The Book of Shadows' cantrips and rituals, asked with the boon or invocation chosen now.
    let had: Vec<String> = c.choices.values().flatten().cloned().collect();
    let book = super::tome::book_picks(srd, &chosen.chosen, &had, picks, &c.spells, &mut problems);
    if let Some(first) = problems.0.first() {
        let key = [super::tome::ANCIENT_SECRETS, super::tome::TOME]
            .into_iter()
            .find(|k| first.field.contains(k));
        let offer = key.map_or_else(Vec::new, |k| super::tome::offer_names(srd, k));
        return Err(choice("features", first.to_string(), offer));
    }
    chosen.by_feature.extend(book);
    let had_fast = super::barbarian::fast_movement_ft(srd, &class.slug, c.level, &c.inventory);
    let fast = super::barbarian::fast_movement_ft(srd, &class.slug, level, &c.inventory);
    let in_armour = c.inventory.iter().any(|s| {
        srd.armor(&s.name)
            .is_ok_and(|a| a.category != ArmorCategory::Shield)
    });
    let defense = chosen
        .chosen
        .iter()
        .any(|p| p.ends_with("fighting-style-defense"));
    Ok(FeatureGains {
        choices: chosen.by_feature,
        expertise: chosen.expertise,
        proficiencies: chosen.proficiencies,
        added: if invoked.is_empty() {
            BTreeMap::new()
        } else {
            BTreeMap::from([(INVOCATIONS.to_owned(), invoked)])
        },
        speed_gained: fast - had_fast,
        armor_class_gained: i32::from(defense && in_armour),
    })
}

/// The picks the offline game master makes for the features with a choice at `level`: each
/// feature's first options (for Hunter's Prey, Colossus Slayer, the one the engine plays; for
/// Expertise, the first skills the character is proficient in).
pub(super) fn default_picks(c: &Character, gained: &[&ClassFeature]) -> Vec<FeaturePick> {
    with_choice(gained)
        .into_iter()
        .filter_map(|f| {
            let offer = f.options.as_ref()?;
            let n = usize::from(offer.choose);
            let picks: Vec<String> = if super::granted::picks_skills(&f.slug) {
                // Skills it is not proficient in yet, in the offer's order.
                from_skills(&offer.from)
                    .filter(|s| !c.skills.contains_key(s))
                    .map(|s| s.name().to_owned())
                    .take(n)
                    .collect()
            } else if f.slug.contains("expertise") {
                c.skills
                    .iter()
                    .filter(|(_, p)| **p != crate::rules::Proficiency::Expertise)
                    .map(|(s, _)| s.name().to_owned())
                    .take(n)
                    .collect()
            } else {
                let mut from = offer.from.clone();
                // The option the engine plays goes first.
                from.sort_by_key(|o| !o.ends_with("colossus-slayer"));
                from.into_iter().take(n).collect()
            };
            Some(FeaturePick {
                feature: f.slug.clone(),
                picks,
            })
        })
        .collect()
}

/// The skills among a feature's options (skill names or slugs).
fn from_skills(from: &[String]) -> impl Iterator<Item = Skill> + '_ {
    from.iter().filter_map(|o| super::choices::skill_named(o))
}
