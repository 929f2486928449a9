//! The odds of a tool call, before it is made: what the player sees beside a suggested action.
//!
//! Only the engine's own numbers count: the attacker's bonus from its sheet or stat block, the
//! target's armor class with its cover, a creature's skill modifier, advantage and disadvantage
//! from conditions, range, effects (Dodge, Help, Hide) and the call's stated situation, all from
//! the same setup the roll itself uses (`combat::attack_setup`). An attack that cannot reach
//! from where the attacker stands has no odds. The chance is exact, decided face by face by the same functions that
//! decide a real roll ([`crate::rules::check::chance_of`]). A call whose outcome those numbers
//! cannot tell (a search against hidden DCs, a spell, a move) has no odds.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::checks::{SkillCheckArgs, add_situation};
use super::combat::{AttackArgs, attack_setup, first_in_reach, swings_of};
use super::{ToolContext, ToolLimits, TurnLog, creature};
use crate::dice::seeded_rng;
use crate::rules::attack::attack_hits;
use crate::rules::check::{chance_of, check_from};
use crate::rules::conditions::check_modifiers;
use crate::srd::Srd;
use crate::state::GameState;

/// What a call would roll and its chance of success.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Odds {
    /// The roll, as dice notation with the real bonus ("1d20+5").
    pub dice: String,
    /// The number it must meet: the armor class or the DC.
    pub target: i32,
    /// The exact chance of success, from 0 to 1.
    pub chance: f64,
}

/// The odds of calling `tool` with `arguments` on `state`, or `None` when the engine's numbers
/// cannot tell them.
pub fn odds(state: &GameState, srd: &Srd, tool: &str, arguments: &Value) -> Option<Odds> {
    match tool {
        super::names::ROLL_ATTACK => attack_odds(state, srd, arguments),
        super::names::ROLL_SKILL_CHECK => check_odds(state, srd, arguments),
        _ => None,
    }
}

fn attack_odds(state: &GameState, srd: &Srd, arguments: &Value) -> Option<Odds> {
    // Read from the arguments in place: no copy of them.
    let args = AttackArgs::deserialize(arguments).ok()?;
    // The attack's setup needs a tool context; nothing is rolled or changed in it. The copy
    // of the state it holds is cheap: its parts are shared (`GameState`'s copy on write).
    let mut state = state.clone();
    let mut rng = seeded_rng(0);
    let mut log = TurnLog::default();
    let limits = ToolLimits::default();
    let ctx = ToolContext {
        state: &mut state,
        srd,
        rng: &mut rng,
        limits: &limits,
        log: &mut log,
    };
    let who = creature::find(ctx.state, srd, &args.attacker).ok()?;
    let victim = creature::find(ctx.state, srd, &args.target).ok()?;
    let chosen = args
        .attack
        .clone()
        .or_else(|| first_in_reach(&ctx, &args.attacker, &args.target));
    let swing = swings_of(&ctx, &who, chosen.as_deref())
        .ok()?
        .into_iter()
        .next()?;
    // Out of reach or range: the attack cannot be made from here, so it has no odds.
    let setup = attack_setup(&ctx, &who, &victim, &swing, args.advantage).ok()?;
    let armor_class = setup.armor_class;
    let chance = chance_of(setup.sources.resolve(), |d20| {
        attack_hits(d20, swing.bonus, armor_class, 20, false).0
    });
    Some(Odds {
        dice: d20_notation(swing.bonus),
        target: armor_class,
        chance,
    })
}

fn check_odds(state: &GameState, srd: &Srd, arguments: &Value) -> Option<Odds> {
    let args = SkillCheckArgs::deserialize(arguments).ok()?;
    let who = creature::find(state, srd, &args.creature).ok()?;
    if !who.standing {
        return None;
    }
    let needs_sight = matches!(
        args.skill,
        crate::rules::Skill::Perception | crate::rules::Skill::Investigation
    );
    let (mut sources, auto_fail) = check_modifiers(&who.conditions, needs_sight, false);
    add_situation(&mut sources, args.advantage);
    let modifier = who.skill(args.skill);
    let chance = if auto_fail.is_some() {
        0.0
    } else {
        chance_of(sources.resolve(), |d20| {
            check_from(d20, modifier, args.dc).success
        })
    };
    Some(Odds {
        dice: d20_notation(modifier),
        target: args.dc,
        chance,
    })
}

/// "1d20+5", "1d20-1", "1d20".
fn d20_notation(bonus: i32) -> String {
    match bonus {
        0 => "1d20".to_owned(),
        b if b < 0 => format!("1d20{b}"),
        b => format!("1d20+{b}"),
    }
}
