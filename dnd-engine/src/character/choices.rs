//! The choices of racial traits (a high elf's cantrip, a half-elf's skills, a dwarf's tool, a
//! dragonborn's ancestry) and of class features (a fighting style, Expertise, a druid's land),
//! checked against what the trait or feature offers.

use std::collections::BTreeMap;

use super::build_error::{Problem, Problems};
use super::builder::{CharacterChoices, Settled};
use crate::rules::{Proficiency, Skill};
use crate::srd::{Class, ClassFeature, Race, Selection, slugify};

/// What the race's choices gave.
#[derive(Debug, Default)]
pub(crate) struct RacePicks {
    /// Skills picked (Skill Versatility), with the trait's name.
    pub(crate) skills: Vec<(Skill, String)>,
    /// Cantrips picked (the high elf's), by SRD name.
    pub(crate) cantrips: Vec<String>,
    /// Every trait's picks by trait slug, as the sheet keeps them (`Character::choices`).
    pub(crate) by_trait: BTreeMap<String, Vec<String>>,
}

/// A skill by name or slug ("Animal Handling", "animal_handling").
pub(crate) fn skill_named(name: &str) -> Option<Skill> {
    let wanted = slugify(name);
    Skill::ALL.into_iter().find(|s| slugify(s.name()) == wanted)
}

/// Checks `picks` against a selection: the right count, each allowed, none twice. Returns the
/// allowed entries matched, in the order picked.
pub(crate) fn pick(
    field: &str,
    what: &str,
    picks: &[String],
    offer: &Selection,
    label: impl Fn(&str) -> String,
    problems: &mut Problems,
) -> Vec<String> {
    if picks.len() != usize::from(offer.choose) {
        problems.add(
            field,
            Problem::WrongCount {
                what: what.to_owned(),
                given: picks.len(),
                expected: offer.choose.into(),
            },
        );
    }
    let mut chosen: Vec<String> = Vec::new();
    for (i, p) in picks.iter().enumerate() {
        let wanted = slugify(p);
        let exact = offer
            .from
            .iter()
            .find(|o| slugify(o) == wanted || slugify(&label(o)) == wanted);
        // Else a short name that fits one option only ("Defense", "Red").
        let part = |o: &&String| {
            let slug = slugify(o);
            slug.ends_with(&format!("-{wanted}")) || slug.contains(&format!("-{wanted}-"))
        };
        let partial: Vec<&String> = offer.from.iter().filter(part).collect();
        let found = exact.or(match partial.as_slice() {
            [one] => Some(*one),
            _ => None,
        });
        match found {
            Some(o) if chosen.contains(o) => problems.add(
                format!("{field}[{i}]"),
                Problem::Duplicate {
                    given: p.clone(),
                    by: "another pick".into(),
                },
            ),
            Some(o) => chosen.push(o.clone()),
            None => {
                let allowed = offer.from.iter().map(|o| label(o));
                problems.not_allowed(format!("{field}[{i}]"), what, p, allowed);
            }
        }
    }
    chosen
}

/// Checks the race's choices and returns what they give.
pub(crate) fn race_picks(
    choices: &CharacterChoices,
    race: Race<'_>,
    problems: &mut Problems,
) -> RacePicks {
    let mut out = RacePicks::default();
    let traits = race.traits();
    let choosing: Vec<_> = traits
        .iter()
        .filter(|t| {
            t.options.is_some()
                || t.skill_choices.is_some()
                || t.spell_choices.is_some()
                || t.proficiency_choices.is_some()
        })
        .collect();
    for key in choices.race_traits.keys() {
        if !choosing.iter().any(|t| t.slug == slugify(key)) {
            let allowed = choosing.iter().map(|t| t.slug.clone());
            let what = format!("{} trait with a choice", race.name());
            problems.not_allowed(format!("race_traits.{key}"), what, key, allowed);
        }
    }
    for t in choosing {
        let field = format!("race_traits.{}", t.slug);
        let given = choices
            .race_traits
            .iter()
            .find(|(k, _)| slugify(k) == t.slug)
            .map_or(&[][..], |(_, v)| v.as_slice());
        let what = format!("{} ({})", t.name, race.name());
        if let Some(offer) = &t.skill_choices {
            let offer = Selection {
                choose: offer.choose,
                from: offer.from.iter().map(|s| s.name().to_owned()).collect(),
            };
            let picked = pick(&field, &what, given, &offer, str::to_owned, problems);
            out.skills.extend(
                picked
                    .iter()
                    .filter_map(|s| skill_named(s))
                    .map(|s| (s, t.name.clone())),
            );
        }
        if let Some(offer) = &t.spell_choices {
            out.cantrips
                .extend(pick(&field, &what, given, offer, str::to_owned, problems));
        }
        for offer in [&t.proficiency_choices, &t.options].into_iter().flatten() {
            let picked = pick(&field, &what, given, offer, str::to_owned, problems);
            out.by_trait
                .entry(t.slug.clone())
                .or_default()
                .extend(picked);
        }
    }
    out
}

/// The class features with a choice that this character has reached.
fn choosing<'a>(settled: &Settled<'a>) -> Vec<&'a ClassFeature> {
    settled
        .class
        .features
        .iter()
        .filter(|f| f.options.is_some() && f.parent.is_none())
        .filter(|f| f.subclass.is_none() || settled.subclass)
        .filter(|f| f.level <= settled.level)
        .filter(|f| !f.slug.contains("ability-score-improvement"))
        .collect()
}

/// What the class feature choices gave.
#[derive(Debug, Default)]
pub(crate) struct FeaturePicks {
    /// The option slugs (or skill names) chosen, all features together.
    pub(crate) chosen: Vec<String>,
    /// Skills picked for Expertise.
    pub(crate) expertise: Vec<Skill>,
    /// Skills the picks make the character proficient in (Bonus Proficiencies, Beguiling
    /// Influence: `granted`), none it was proficient in already.
    pub(crate) proficiencies: Vec<Skill>,
    /// The picks by feature slug, as the sheet keeps them (`Character::choices`).
    pub(crate) by_feature: BTreeMap<String, Vec<String>>,
}

/// Checks the class feature choices; returns the option slugs (or skill names) chosen.
/// Expertise picks must be skills (or tools) the character is proficient in.
pub(crate) fn features(
    choices: &CharacterChoices,
    settled: &Settled<'_>,
    skills: &BTreeMap<Skill, Proficiency>,
    problems: &mut Problems,
) -> FeaturePicks {
    let open = choosing(settled);
    let class = settled.class;
    feature_picks(
        class,
        &open,
        settled.level,
        &choices.features,
        skills,
        problems,
    )
}

/// Checks `given` (picks by feature slug or name) against the features with a choice that are
/// `open` to a character of `class` at `level`: one code path for the builder and for a level
/// gained (`level_features`). Every feature open needs its picks; a key naming no open
/// feature is refused with those that are.
pub(crate) fn feature_picks(
    class: &Class,
    open: &[&ClassFeature],
    level: u8,
    given: &BTreeMap<String, Vec<String>>,
    skills: &BTreeMap<Skill, Proficiency>,
    problems: &mut Problems,
) -> FeaturePicks {
    let same =
        |key: &str, f: &ClassFeature| slugify(key) == f.slug || slugify(key) == slugify(&f.name);
    // The Book of Shadows' picks are checked apart (`tome`), against the spell lists.
    for key in given.keys().filter(|k| !super::tome::is_book_key(k)) {
        let field = format!("features.{key}");
        match class.features.iter().find(|f| same(key, f)) {
            Some(f) if open.iter().any(|o| o.slug == f.slug) => {}
            Some(f) if f.level > level => problems.add(
                field,
                Problem::TooEarly {
                    what: format!("feature {}", f.name),
                    needed: f.level,
                    level,
                },
            ),
            _ => {
                let allowed = open.iter().map(|f| f.slug.clone());
                let what = format!("{} feature with a choice at this level", class.name);
                problems.not_allowed(field, what, key, allowed);
            }
        }
    }
    let mut out = FeaturePicks::default();
    // Expertise may double a skill another feature of the same level gives (a Lore bard's),
    // so its picks are checked once every feature's skills are known.
    let mut expertise = Vec::new();
    for f in open.iter().copied() {
        let field = format!("features.{}", f.slug);
        let Some(offer) = &f.options else { continue };
        // Invocations: as many as the level knows, of the levels reached (`warlock`).
        let at_level = super::warlock::offer_at(class, level, f);
        let offer = at_level.as_ref().unwrap_or(offer);
        let given = given
            .iter()
            .find(|(k, _)| same(k, f))
            .map_or(&[][..], |(_, v)| v.as_slice());
        let label = |o: &str| {
            class
                .feature(o)
                .map_or_else(|| o.to_owned(), |x| x.name.clone())
        };
        let picked = pick(&field, &f.name, given, offer, label, problems);
        if f.slug.contains("expertise") {
            expertise.push((field.clone(), picked.clone()));
        }
        for skill in super::granted::skills_from(&f.slug, &picked) {
            let had = skills.contains_key(&skill) || out.proficiencies.contains(&skill);
            if !had {
                out.proficiencies.push(skill);
            } else if super::granted::picks_skills(&f.slug) {
                // The index of the pick as given, as `pick`'s problems name it.
                let i = given
                    .iter()
                    .position(|g| skill_named(g) == Some(skill))
                    .unwrap_or_default();
                let allowed = Skill::ALL
                    .into_iter()
                    .filter(|s| !skills.contains_key(s) && !out.proficiencies.contains(s))
                    .map(|s| s.name());
                let what = "new skill (one the character is not proficient in)";
                problems.not_allowed(format!("{field}[{i}]"), what, skill.name(), allowed);
            }
            // A skill an invocation gives that the character has already adds nothing.
        }
        out.chosen.extend(picked.iter().cloned());
        out.by_feature.insert(f.slug.clone(), picked);
    }
    for (field, picked) in expertise {
        for (i, p) in picked.iter().enumerate() {
            let Some(skill) = skill_named(p) else {
                continue;
            };
            if skills.contains_key(&skill) || out.proficiencies.contains(&skill) {
                out.expertise.push(skill);
            } else {
                let allowed = skills
                    .keys()
                    .chain(&out.proficiencies)
                    .map(|s| s.name())
                    .collect::<Vec<_>>();
                let what = "skill the character is proficient in";
                problems.not_allowed(format!("{field}[{i}]"), what, p, allowed);
            }
        }
    }
    out
}
