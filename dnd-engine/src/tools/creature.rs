//! One view of "a creature" for the tools: a player character or a monster instance with its
//! SRD template, whichever name the model used.

use crate::combat::targeting::SpellTarget;
use crate::effects::Subject;
use crate::rules::{Ability, ConditionSet, Defenses, Skill};
use crate::srd::{Monster, Srd};
use crate::state::{GameState, Target};

use super::ToolError;

/// What the tools need to know about a creature, copied out of the state so that changes can
/// be built while it is held.
#[derive(Debug, Clone)]
pub(super) struct CreatureInfo<'s> {
    /// The change target.
    pub target: Target,
    /// Name as shown.
    pub name: String,
    /// Armor Class now (timed effects such as Mage Armor and Shield counted).
    pub armor_class: i32,
    /// Current and maximum HP.
    pub hp: (u32, u32),
    /// Conditions.
    pub conditions: ConditionSet,
    /// Resistances and the like.
    pub defenses: Defenses,
    /// Its SRD stat block, for monsters.
    pub template: Option<&'s Monster>,
    /// Its saves, in [`Ability::ALL`] order.
    pub saves: [i32; 6],
    /// Skill modifiers it knows of (characters: all; monsters: listed ones, else the ability).
    skills: Vec<(Skill, i32)>,
    ability_mods: [i32; 6],
    /// Alive and above 0 HP.
    pub standing: bool,
}

impl CreatureInfo<'_> {
    /// The modifier of a skill check.
    pub fn skill(&self, skill: Skill) -> i32 {
        self.skills
            .iter()
            .find(|(s, _)| *s == skill)
            .map_or(self.ability_mods[skill.ability() as usize], |(_, m)| *m)
    }

    /// The modifier of a save.
    pub fn save(&self, ability: Ability) -> i32 {
        self.saves[ability as usize]
    }

    /// An ability's modifier.
    pub fn ability_modifier(&self, ability: Ability) -> i32 {
        self.ability_mods[ability as usize]
    }

    /// Whether it is a player character.
    pub fn is_character(&self) -> bool {
        matches!(self.target, Target::Character(_))
    }

    /// It as the effects engine takes a creature, standing `at` from the caster or user.
    pub fn subject(&self, at: SpellTarget) -> Subject {
        Subject {
            target: self.target.clone(),
            name: self.name.clone(),
            armor_class: self.armor_class,
            defenses: self.defenses,
            conditions: self.conditions,
            condition_immunities: self
                .template
                .map(|m| m.condition_immunities.clone())
                .unwrap_or_default(),
            saves: self.saves,
            dexterity: self.ability_modifier(Ability::Dexterity),
            hp: self.hp.0,
            creature_type: self.template.map(|m| m.kind.clone()),
            at,
            spared: false,
            careful: false,
        }
    }
}

/// Finds a character or monster by id or name (case-insensitive). Monsters the party has not
/// seen are not found: the model cannot act on what it should not know.
pub(super) fn find<'s>(
    state: &GameState,
    srd: &'s Srd,
    name: &str,
) -> Result<CreatureInfo<'s>, ToolError> {
    if let Some(c) = state.character(name) {
        let mods = Ability::ALL.map(|a| c.abilities.modifier(a));
        return Ok(CreatureInfo {
            target: Target::Character(c.id.clone()),
            name: c.name.clone(),
            armor_class: c.armor_class_now(),
            hp: (c.hp.current, c.hp.max),
            conditions: c.conditions,
            defenses: c.defenses_now(srd),
            template: None,
            saves: Ability::ALL.map(|a| c.save_modifier(a)),
            skills: Skill::ALL
                .iter()
                .map(|s| (*s, c.skill_modifier(*s)))
                .collect(),
            ability_mods: mods,
            standing: !c.dead && c.hp.current > 0,
        });
    }
    if let Some(m) = state.monster(name).filter(|m| m.revealed) {
        let template = srd
            .monster(&m.template)
            .map_err(|e| ToolError::new(format!("{} has no stat block ({e})", m.name)))?;
        let mods = Ability::ALL.map(|a| template.abilities.modifier(a));
        return Ok(CreatureInfo {
            target: Target::Monster(m.id.clone()),
            name: m.name.clone(),
            armor_class: m.armor_class_now(),
            hp: (m.hp.current, m.hp.max),
            conditions: m.conditions,
            defenses: m.defenses_now(template.defenses),
            template: Some(template),
            saves: Ability::ALL.map(|a| {
                template
                    .saving_throws
                    .get(&a)
                    .copied()
                    .unwrap_or(mods[a as usize])
            }),
            skills: template.skills.iter().map(|(s, m)| (*s, *m)).collect(),
            ability_mods: mods,
            standing: m.is_alive(),
        });
    }
    Err(ToolError::new(format!(
        "no character or visible monster named {name:?}; valid: {}",
        known_names(state).join(", ")
    )))
}

/// The ids the model may name: every character and every monster it has seen where the party is.
pub(super) fn known_names(state: &GameState) -> Vec<String> {
    let here = state
        .party_location()
        .map(|l| l.id.clone())
        .unwrap_or_default();
    state
        .characters
        .iter()
        .map(|c| c.id.clone())
        .chain(
            state
                .monsters
                .iter()
                .filter(|m| m.revealed && m.location == here)
                .map(|m| m.id.clone()),
        )
        .collect()
}
