//! A character's progress: experience, milestones, and levelling up, with how the changes
//! that move them apply ([`Change::XpGained`], [`Change::MilestoneReached`],
//! [`Change::LevelledUp`]). What a level brings is decided by `character::levelling`; this
//! module checks that the result is one the sheet may take (the next level only, earned by XP
//! or a milestone, scores at most 20, spells not known twice) and writes it.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::GameState;
use super::change::{Change, ChangeError};
use super::lookup::character_mut;
use crate::rules::experience::{MAX_LEVEL, xp_for_level};
use crate::rules::{Ability, AbilityScores};

/// How the characters of a campaign gain levels (the adventure's `levelling`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Levelling {
    /// A level once the SRD's XP table says so.
    #[default]
    Xp,
    /// A level at each milestone the adventure names; XP is still recorded but never gates.
    Milestone {
        /// The milestones, in the adventure's order.
        milestones: Vec<Milestone>,
    },
}

impl Levelling {
    /// Whether it is [`Levelling::Xp`] (for serde's `skip_serializing_if`).
    pub fn is_xp(&self) -> bool {
        *self == Levelling::Xp
    }
}

/// A moment of the story that grants every living character a level (milestone levelling): a
/// flag becoming set, or the party entering a room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Milestone {
    /// Its id, unique in the adventure ("harpy-slain").
    pub id: String,
    /// The world flag whose setting reaches it (true, a non-zero number or a non-empty text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// The room whose entering reaches it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    /// Whether it was reached (each milestone grants its level once).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reached: bool,
}

/// One ability score raised by an Ability Score Improvement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbilityIncrease {
    /// The ability.
    pub ability: Ability,
    /// By how much (1 or 2).
    pub by: u8,
}

/// A warlock's pact slots at a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PactSlots {
    /// How many.
    pub count: u8,
    /// The spell level of each.
    pub level: u8,
}

/// What one level up writes on a sheet ([`Change::LevelledUp`]): built by
/// `character::levelling::level_up` from the class data and the player's choices.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelUp {
    /// The character.
    pub character: String,
    /// The new level: exactly one more than the sheet's.
    pub level: u8,
    /// Hit points added to the maximum (and to the current, above 0): the level's die or fixed value
    /// with the Constitution modifier, at least 1, plus 1 a level when an improvement raised
    /// the modifier.
    pub hp_gained: u32,
    /// Slots of spell levels 1 to 5 at the new level (the class table), for a caster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots: Option<[u8; 5]>,
    /// Pact slots at the new level, for a warlock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pact_slots: Option<PactSlots>,
    /// Spells added to the sheet (known, or written in the spellbook).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spells_learned: Vec<String>,
    /// The subclass chosen at this level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subclass: Option<String>,
    /// An Ability Score Improvement: +2 to one score or +1 to two.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ability_increases: Vec<AbilityIncrease>,
    /// A feat taken in place of the improvement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feat: Option<String>,
    /// What was chosen for the class features with a choice this level brings (a fighting
    /// style, Hunter's Prey), by feature slug, added to `Character::choices`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub choices: std::collections::BTreeMap<String, Vec<String>>,
    /// Skills the character is proficient in that become expertise (Expertise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expertise: Vec<crate::rules::Skill>,
    /// Spells written in the spellbook, not prepared (a wizard's new spells).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub written: Vec<String>,
    /// Picks appended to a feature's earlier ones in `Character::choices`, by feature slug (a
    /// warlock's third invocation at 5th level).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub added: std::collections::BTreeMap<String, Vec<String>>,
    /// Skills the character becomes proficient in (Bonus Proficiencies, Beguiling Influence).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills_gained: Vec<crate::rules::Skill>,
    /// Feet added to the speed (Fast Movement).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub speed_gained: u32,
    /// Added to the Armor Class (the Defense fighting style, taken in armour).
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub armor_class_gained: i32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_i32(n: &i32) -> bool {
    *n == 0
}

/// A character's experience in words, for the snapshot and the sheet: "1,200 XP (level 4 at
/// 2,700)", "355,000 XP" at 20; with milestones, the levels granted and not taken too.
pub fn progress_text(c: &super::Character, levelling: &Levelling) -> String {
    let mut text = match crate::rules::experience::xp_for_next_level(c.level) {
        Some(need) if levelling.is_xp() => {
            format!("{} XP (level {} at {need})", c.xp, c.level + 1)
        }
        _ => format!("{} XP", c.xp),
    };
    if !levelling.is_xp() {
        text.push_str(&match c.milestone_levels {
            0 => "; levels come at milestones".to_owned(),
            n => format!("; {n} milestone level(s) to take"),
        });
    }
    text
}

/// Whether a world flag counts as set ([`super::flag_holds`]); a flag never set does not.
pub(crate) fn flag_is_set(state: &GameState, flag: &str) -> bool {
    state.flags.get(flag).is_some_and(super::flag_holds)
}

/// The milestones reached now and not yet granted: one [`Change::MilestoneReached`] per
/// milestone whose flag is set or whose room the party stands in.
pub fn reached_milestones(state: &GameState) -> Vec<Change> {
    let Levelling::Milestone { milestones } = &state.levelling else {
        return Vec::new();
    };
    let here = state.party_location().map(|l| l.id.as_str());
    milestones
        .iter()
        .filter(|m| !m.reached)
        .filter(|m| {
            m.flag.as_deref().is_some_and(|f| flag_is_set(state, f))
                || m.room.is_some() && m.room.as_deref() == here
        })
        .map(|m| Change::MilestoneReached {
            milestone: m.id.clone(),
        })
        .collect()
}

/// Applies a progress change; `Ok(false)` for any other change.
pub(super) fn apply(state: &mut GameState, change: &Change) -> Result<bool, ChangeError> {
    match change {
        Change::XpGained { character, amount } => {
            let c = character_mut(state, character)?;
            if c.dead {
                return Err(ChangeError::Invalid(format!(
                    "{character} is dead: the dead earn no experience"
                )));
            }
            c.xp = c.xp.saturating_add(*amount);
        }
        Change::MilestoneReached { milestone } => reach(state, milestone)?,
        Change::LevelledUp(up) => level_up(state, up)?,
        _ => return Ok(false),
    }
    Ok(true)
}

fn reach(state: &mut GameState, id: &str) -> Result<(), ChangeError> {
    let Levelling::Milestone { milestones } = &mut state.levelling else {
        return Err(ChangeError::Invalid(
            "this adventure levels by XP: it has no milestones".into(),
        ));
    };
    let known: Vec<String> = milestones.iter().map(|m| m.id.clone()).collect();
    let m = milestones
        .iter_mut()
        .find(|m| m.id == id)
        .ok_or_else(|| ChangeError::Unknown {
            what: "milestone",
            id: id.into(),
            known,
        })?;
    if m.reached {
        return Err(ChangeError::Invalid(format!(
            "the milestone {id:?} was reached already: each grants its level once"
        )));
    }
    m.reached = true;
    for c in Arc::make_mut(&mut state.characters)
        .iter_mut()
        .filter(|c| !c.dead)
    {
        c.milestone_levels = c.milestone_levels.saturating_add(1);
    }
    Ok(())
}

fn level_up(state: &mut GameState, up: &LevelUp) -> Result<(), ChangeError> {
    let by_milestone = !state.levelling.is_xp();
    let c = character_mut(state, &up.character)?;
    let name = c.name.clone();
    let invalid = |why: String| Err(ChangeError::Invalid(format!("{name}: {why}")));
    if c.dead {
        return invalid("the dead do not level up".into());
    }
    if up.level != c.level.saturating_add(1) || up.level > MAX_LEVEL {
        return invalid(format!(
            "is level {}: the only level to gain is {}",
            c.level,
            c.level.saturating_add(1).min(MAX_LEVEL)
        ));
    }
    if by_milestone {
        if c.milestone_levels == 0 {
            return invalid("no milestone has granted a level yet".into());
        }
    } else {
        let need = xp_for_level(up.level).unwrap_or(u32::MAX);
        if c.xp < need {
            return invalid(format!("has {} XP; level {} needs {need}", c.xp, up.level));
        }
    }
    // The largest a level can give: the die, a +5 modifier, and +1 a level for a raised one.
    let most = u32::from(c.hit_dice.sides) + 5 + u32::from(up.level);
    if up.hp_gained == 0 || up.hp_gained > most {
        return invalid(format!(
            "a level gives 1 to {most} hit points, not {}",
            up.hp_gained
        ));
    }
    let abilities =
        raised(c.abilities, up).map_err(|why| ChangeError::Invalid(format!("{name}: {why}")))?;
    if let Some(known) = up
        .spells_learned
        .iter()
        .find(|s| c.spells.iter().any(|k| k.eq_ignore_ascii_case(s)))
    {
        return invalid(format!("already knows {known}"));
    }
    if let Some(known) = up.written.iter().find(|s| {
        c.spells
            .iter()
            .chain(&c.spellbook)
            .any(|k| k.eq_ignore_ascii_case(s))
    }) {
        return invalid(format!("has {known} already"));
    }
    if let Some(skill) = up.skills_gained.iter().find(|s| c.skills.contains_key(s)) {
        return invalid(format!("is proficient in {} already", skill.name()));
    }
    let twice = up.added.iter().find_map(|(k, v)| {
        let had = c.choices.get(k)?;
        v.iter().find(|o| had.contains(o))
    });
    if let Some(option) = twice {
        return invalid(format!("chose {option} already"));
    }
    if let Some(chosen) = up.choices.keys().find(|k| c.choices.contains_key(*k)) {
        return invalid(format!("chose its {chosen} already"));
    }
    if let Some(skill) = up
        .expertise
        .iter()
        .find(|s| !c.skills.contains_key(s) && !up.skills_gained.contains(s))
    {
        return invalid(format!(
            "is not proficient in {}: expertise doubles a proficiency it has",
            skill.name()
        ));
    }
    if up.speed_gained > 10 || !(0..=1).contains(&up.armor_class_gained) {
        return invalid("a level adds at most 10 ft of speed and 1 AC".into());
    }
    for skill in &up.skills_gained {
        c.skills
            .insert(*skill, crate::rules::Proficiency::Proficient);
    }
    c.spellbook.extend(up.written.iter().cloned());
    for skill in &up.expertise {
        c.skills
            .insert(*skill, crate::rules::Proficiency::Expertise);
    }
    c.choices
        .extend(up.choices.iter().map(|(k, v)| (k.clone(), v.clone())));
    for (k, v) in &up.added {
        c.choices
            .entry(k.clone())
            .or_default()
            .extend(v.iter().cloned());
    }
    c.speed += up.speed_gained;
    c.armor_class += up.armor_class_gained;
    c.level = up.level;
    c.hp.max += up.hp_gained;
    // The new hit points are there at once, except for one down at 0: levelling wakes no one.
    if c.hp.current > 0 {
        c.hp.current += up.hp_gained;
    }
    c.hit_dice.total = c.hit_dice.total.saturating_add(1);
    c.abilities = abilities;
    if let Some(slots) = up.slots {
        for (i, n) in slots.iter().enumerate() {
            c.spell_slots.max[i] = *n;
            c.spell_slots.spent[i] = c.spell_slots.spent[i].min(*n);
        }
    }
    if let Some(pact) = up.pact_slots {
        c.spell_slots.pact_max = pact.count;
        c.spell_slots.pact_level = pact.level;
        c.spell_slots.pact_spent = c.spell_slots.pact_spent.min(pact.count);
    }
    if !up.spells_learned.is_empty() {
        Arc::make_mut(&mut c.spells).extend(up.spells_learned.iter().cloned());
    }
    if up.subclass.is_some() {
        c.subclass.clone_from(&up.subclass);
    }
    if let Some(feat) = &up.feat {
        c.feats.push(feat.clone());
    }
    if by_milestone {
        c.milestone_levels -= 1;
    }
    Ok(())
}

/// The scores after an improvement, or why it is not one: +2 to one score or +1 to two, none
/// above 20, and not with a feat.
fn raised(mut scores: AbilityScores, up: &LevelUp) -> Result<AbilityScores, String> {
    let total: u32 = up.ability_increases.iter().map(|i| u32::from(i.by)).sum();
    if total > 2 || up.ability_increases.iter().any(|i| i.by == 0) {
        return Err("an Ability Score Improvement is +2 to one score or +1 to two".into());
    }
    if total > 0 && up.feat.is_some() {
        return Err(
            "a feat is taken in place of the Ability Score Improvement, not with it".into(),
        );
    }
    for inc in &up.ability_increases {
        let score = scores.score(inc.ability) + i32::from(inc.by);
        if score > 20 {
            return Err(format!(
                "{} would be {score}: an improvement raises no score above 20",
                inc.ability.name()
            ));
        }
        *score_mut(&mut scores, inc.ability) = score;
    }
    Ok(scores)
}

/// The field of one ability's score.
pub(crate) fn score_mut(scores: &mut AbilityScores, ability: Ability) -> &mut i32 {
    match ability {
        Ability::Strength => &mut scores.strength,
        Ability::Dexterity => &mut scores.dexterity,
        Ability::Constitution => &mut scores.constitution,
        Ability::Intelligence => &mut scores.intelligence,
        Ability::Wisdom => &mut scores.wisdom,
        Ability::Charisma => &mut scores.charisma,
    }
}
