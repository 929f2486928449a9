//! Combat by the rules, between the state and the tools: whose turn it is, what a creature may
//! still spend of its turn, how a fight starts and when it may end.
//!
//! Every tool that acts for a creature (an attack, a spell, an item) asks one gate first,
//! [`may_act`], and commits the [`Change::Spent`](crate::state::Change::Spent) it gives back;
//! the state checks the same spend again when it applies, so nothing overspends even without
//! the gate. Outside a fight nothing is spent, but the dead, the dying and the incapacitated
//! still cannot act.
//!
//! | file | owns |
//! |---|---|
//! | `economy.rs` | [`may_act`] (the gate), [`spell_spend`] (casting time to a spend), [`budget_left`], [`CombatError`] |
//! | `areas.rs` | areas of effect as pure functions: which points a sphere, cylinder, cube, cone or line covers, centred on a point or aimed from the caster ([`areas::covers`]) |
//! | `geometry.rs` | the arithmetic of positions as pure functions over numbers, shared with the encounter simulator: [`geometry::shot`] (reach and range), [`geometry::provokes`] (opportunity attacks), [`geometry::step_toward`] (a straight move), [`geometry::movement`] (close in, keep at range, stay) |
//! | `positions.rs` | distance, reach and range ([`positions::attack_range`]), cover, movement ([`positions::plan_move`], [`positions::approach`]) and the opportunity attacks a move provokes |
//! | `targeting.rs` | whether a spell reaches a creature ([`targeting::spell_target`]: its range, a spell attack through [`positions::attack_range`], cover) and cover on Dexterity saves ([`targeting::save_cover`]: half +2, three-quarters +5, total: no target) |
//! | `actions/` | the standard actions as rules (`rolled.rs`: those decided by a roll): [`actions::dash`], `disengage`, `dodge`, `help`, `hide`, `ready` and `trigger_readied`, `search`, `use_object`, `grapple`, `shove`, `escape_grapple`, `stand_up` (each through [`may_act`]; changes, rolls and a typed report, nothing committed) |
//! | `effects.rs` | what the lasting effects (`state::Effect`: Dodging, Helped, Hidden, Readied, Grappling) do to a roll: [`attack_situation`], [`check_situation`], [`save_situation`], the ONE place attacks, checks and saves ask |
//! | `encounter.rs` | [`begin`] (initiative and the changes that start a fight), [`fight_on_attack`] (an attack outside a fight starts one), [`may_end`] (no fight ends while a foe stands) |
//! | `surprise.rs` | who is surprised as a fight starts (Stealth against passive Perception), for [`begin`] |
//! | `summon_plan.rs` | a summoned creature's turn on the party's side ([`summon_plan::plan`]: the foe its caster commanded, or the target rule among hostile monsters), and the summons that join a fight as it starts |
//! | `turned.rs` | Turn Undead and Turn the Unholy in a fight: whom a turning reaches ([`turned::turnable`]), what a turned creature may not spend ([`turned::refusal`], asked by [`may_act`]), where it flees ([`turned::flight`]) |
//! | `monster_plan.rs` | a monster's turn: the target rule, recharge rolls, the morale rule (flee or surrender; the pure [`monster_plan::breaks`], shared with the simulator), the plan for its action |
//!
//! The arithmetic of a turn's budget (action, bonus action, movement, Extra Attack, the
//! bonus-action spell rule) is `rules::economy`; whose turn it is and each creature's reaction
//! live in `state::Encounter`.
//!
//! An attack outside a fight starts one first: initiative is rolled by [`begin`], monsters
//! earlier in the order act, and the attack is made only if it is then the attacker's turn;
//! otherwise the attack is not made, the fight stays started, and the result says whose turn it
//! is. Surprise is decided as any fight begins (`surprise.rs`): a surprised creature loses its
//! first turn.

pub mod actions;
pub mod areas;
mod economy;
mod effects;
mod encounter;
pub mod geometry;
pub mod legendary;
pub mod monster_plan;
pub mod monster_spells;
pub mod positions;
pub mod summon_plan;
pub mod surprise;
pub mod targeting;
pub mod turned;

pub use crate::state::budget_left;
pub use economy::{CombatError, may_act, spell_spend};
pub use effects::{
    Situation, ability_check_situation, attack_situation, check_situation, is_hidden,
    save_situation,
};
pub use encounter::{Start, begin, fight_on_attack, foes_standing, may_end};
