//! The rules of 5e as pure functions: inputs in, a plain result out.
//!
//! Nothing here does I/O or knows about language models, stores or terminals. Randomness
//! comes only through a `&mut (impl DieSource + ?Sized)` argument, so a seeded generator replays any result; and
//! where a worked example needs exact dice, a `*_from` function decides from faces already
//! rolled. Every result is a serializable value that says what was rolled, against what, the
//! outcome and the change it implies, so a tool can hand it to the LLM as JSON and a UI can show
//! it.

pub mod ability;
pub mod attack;
pub mod check;
pub mod conditions;
pub mod damage;
pub mod death;
pub mod economy;
pub mod encounter;
pub mod experience;
pub mod initiative;
pub mod recharge;
pub mod rest;
pub mod situation;
pub mod spellcasting;

pub use ability::{
    Ability, AbilityScores, ChallengeRating, Proficiency, Skill, ability_modifier, passive_score,
    proficiency_bonus, skill_modifier,
};
pub use attack::{
    AttackProfile, AttackResult, AttackTarget, DamageDealt, DamageDice, DamageDiceError,
    roll_attack, roll_attack_for,
};
pub use check::{
    AdvantageSources, CheckResult, ContestResult, D20Roll, roll_check, roll_contest,
    roll_skill_check,
};
pub use conditions::{Condition, ConditionSet};
pub use damage::{
    AtZero, DamageOutcome, DamageType, DamageTypes, Defenses, HealOutcome, HitPoints, apply_damage,
    heal,
};
pub use death::{DeathSaveOutcome, DeathSaveRoll, DeathSaves};
pub use economy::{CastingTime, Overspent, Spend, TurnBudget};
pub use encounter::{Difficulty, EncounterDifficulty, encounter_difficulty};
pub use initiative::{InitiativeEntry, InitiativeRoll, roll_initiative};
pub use recharge::{RechargeRoll, roll_recharge};
pub use rest::{HitDice, LongRestResult, RestError, ShortRestResult, long_rest, short_rest};
pub use spellcasting::{
    CasterProgression, SlotError, SpellSlots, concentration_dc, roll_concentration_check,
    spell_attack_bonus, spell_save_dc,
};
