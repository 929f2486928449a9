//! The monk's features in play (the rules are `character::monk`'s): Martial Arts' bonus
//! unarmed strike, and the ki features played through `use_feature` (Flurry of Blows with the
//! Open Hand Technique, Patient Defense, Step of the Wind, Stunning Strike readied), each
//! spending from the ki pool (`character::uses::spend_many`); and what the attack path asks
//! of a monk's swing (Martial Arts opened, a readied Stunning Strike spent on a melee weapon
//! hit) and of a ranged weapon hit on one (Deflect Missiles).

use super::creature::{self, CreatureInfo};
use super::features::{FeatureUse, Played, refused, takes};
use super::results::{AttackReport, OnHitSave, ReactionCast};
use super::{ToolContext, ToolError};
use crate::character::monk::{self, KI, UNARMED_STRIKE};
use crate::character::uses;
use crate::combat::may_act;
use crate::dice::DiceExpr;
use crate::rules::check::roll_check_with;
use crate::rules::conditions::save_modifiers;
use crate::rules::{Ability, AttackResult, CheckResult, Condition, Spend};
use crate::state::{
    Change, Character, Effect, EffectKind, MonkStep, RollKind, Target, TimedEffect, TimedKind,
};
use crate::store::RollDetail;

/// The Open Hand Technique's options, as `use_feature`'s `option` names them.
const TECHNIQUES: &str = "\"prone\" (Dexterity save or knocked prone), \"push\" (Strength save or pushed 15 ft away), \"no-reactions\" (no reactions until the end of your next turn)";

/// The change that spends `count` ki points of `c`, or why it may not.
fn spend_ki(ctx: &ToolContext<'_>, c: &Character, count: u8) -> Result<Change, ToolError> {
    let (class, ki) = uses::feature_of(ctx.srd, c, KI).map_err(refused)?;
    uses::spend_many(class, ki, c, count).map_err(refused)
}

/// The bonus action spent through the turn gate (`None` outside a fight).
fn bonus_action(ctx: &ToolContext<'_>, c: &Character) -> Result<Option<Change>, ToolError> {
    may_act(ctx.state, &c.id, Spend::BonusAction).map_err(|e| ToolError::new(e.to_string()))
}

/// The running fight's budget, or a refusal naming what the feature needs a fight for.
fn in_fight(ctx: &ToolContext<'_>, what: &str) -> Result<crate::rules::TurnBudget, ToolError> {
    ctx.state
        .encounter
        .as_ref()
        .map(|e| e.budget)
        .ok_or_else(|| {
            ToolError::new(format!(
                "{what} is used on a turn of a fight; no fight is running"
            ))
        })
}

/// The target named in the call, refused when missing or the monk itself.
fn foe<'s>(ctx: &ToolContext<'s>, using: &FeatureUse<'_>) -> Result<CreatureInfo<'s>, ToolError> {
    let Some(name) = &using.args.target else {
        return Err(ToolError::new(format!(
            "{} needs a target: the creature to strike (a visible monster, id or name)",
            using.feature.name
        )));
    };
    let victim = creature::find(ctx.state, ctx.srd, name)?;
    if victim.target.id().eq_ignore_ascii_case(&using.c.id) {
        return Err(ToolError::new(format!(
            "{} cannot strike itself",
            using.c.name
        )));
    }
    Ok(victim)
}

/// Martial Arts (monk 1): after an Attack action made with an unarmed strike or a monk weapon,
/// without armour or shield, one unarmed strike as a bonus action.
pub(super) fn martial_arts(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    takes(using, true, false)?;
    let c = &using.c;
    let victim = foe(ctx, using)?;
    let budget = in_fight(ctx, "Martial Arts' bonus strike")?;
    let cost = bonus_action(ctx, c)?;
    if !monk::unarmoured(ctx.srd, c) {
        return Err(ToolError::new(format!(
            "{} carries armour or a shield: Martial Arts works only without them",
            c.name
        )));
    }
    if !budget.martial_arts {
        return Err(ToolError::new(format!(
            "Martial Arts' bonus strike follows the Attack action made with an unarmed strike or a monk weapon: {} has not made one this turn; attack first (roll_attack)",
            c.name
        )));
    }
    ctx.commit(cost.into_iter().collect())?;
    let strike = strike(ctx, c, &victim)?;
    Ok(Played {
        effect: format!("{} follows up with an unarmed strike", c.name),
        strikes: vec![strike],
        ..Played::default()
    })
}

/// One unarmed strike of `c` at `victim`, its cost already spent.
fn strike(
    ctx: &mut ToolContext<'_>,
    c: &Character,
    victim: &CreatureInfo<'_>,
) -> Result<AttackReport, ToolError> {
    super::combat::attack_spent(ctx, &c.id, victim.target.id(), Some(UNARMED_STRIKE), None)
}

/// The Open Hand Technique chosen by `option`, or why it may not be.
fn technique(
    using: &FeatureUse<'_>,
    ctx: &ToolContext<'_>,
) -> Result<Option<Technique>, ToolError> {
    let Some(option) = &using.args.option else {
        return Ok(None);
    };
    if uses::feature_of(ctx.srd, &using.c, "open-hand-technique").is_err() {
        return Err(ToolError::new(format!(
            "{} has no Open Hand Technique (Way of the Open Hand, monk 3): leave option null",
            using.c.name
        )));
    }
    let t = match crate::srd::slugify(option).as_str() {
        "prone" | "knocked-prone" => Technique::Prone,
        "push" | "pushed" => Technique::Push,
        "no-reactions" | "no-reaction" | "reactions" => Technique::NoReactions,
        _ => {
            return Err(ToolError::new(format!(
                "Open Hand Technique has no option {option:?}; choose {TECHNIQUES}"
            )));
        }
    };
    Ok(Some(t))
}

/// One of the Open Hand Technique's three effects.
#[derive(Clone, Copy)]
enum Technique {
    Prone,
    Push,
    NoReactions,
}

/// Flurry of Blows (monk 2): 1 ki, right after the Attack action, two unarmed strikes as a
/// bonus action; with the Open Hand Technique each hit also imposes the option chosen.
pub(super) fn flurry_of_blows(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    takes(using, true, true)?;
    let c = &using.c;
    let victim = foe(ctx, using)?;
    let technique = technique(using, ctx)?;
    let ki = spend_ki(ctx, c, 1)?;
    let budget = in_fight(ctx, "Flurry of Blows")?;
    let cost = bonus_action(ctx, c)?;
    if !budget.attack_action {
        return Err(ToolError::new(format!(
            "Flurry of Blows follows the Attack action: {} has not taken it this turn; attack first (roll_attack)",
            c.name
        )));
    }
    ctx.commit(cost.into_iter().chain([ki]).collect())?;
    let (mut strikes, mut notes) = (Vec::new(), Vec::new());
    for _ in 0..2 {
        let now = creature::find(ctx.state, ctx.srd, victim.target.id())?;
        if !now.standing {
            break; // the first blow dropped it
        }
        let mut report = strike(ctx, c, &now)?;
        if let (Some(t), Some(swing)) = (technique, report.attacks.first_mut())
            && swing.result.hit
            && swing.duplicate.is_none()
        {
            let (save, note) = open_hand(ctx, c, &now, t)?;
            swing.on_hit_save = save;
            notes.extend(note);
        }
        strikes.push(report);
    }
    let mut effect = format!("{} unleashes a flurry of blows", c.name);
    for note in notes {
        effect.push_str("; ");
        effect.push_str(&note);
    }
    Ok(Played {
        effect,
        strikes,
        pool: Some(KI),
        ..Played::default()
    })
}

/// The Open Hand Technique on one hit of a Flurry: the save and what its failure did, or,
/// for the reactions (no save), a sentence.
fn open_hand(
    ctx: &mut ToolContext<'_>,
    c: &Character,
    victim: &CreatureInfo<'_>,
    t: Technique,
) -> Result<(Option<OnHitSave>, Option<String>), ToolError> {
    let now = creature::find(ctx.state, ctx.srd, victim.target.id())?;
    if !now.standing {
        return Ok((None, None));
    }
    let id = now.target.id().to_owned();
    let dc = monk::ki_save_dc(c);
    let ability = match t {
        Technique::NoReactions => {
            let effect = lasting(c, &id, "Open Hand Technique", TimedKind::NoReactions);
            ctx.commit(vec![effect])?;
            let text = format!(
                "{} can take no reactions until the end of {}'s next turn",
                now.name, c.name
            );
            return Ok((None, Some(text)));
        }
        Technique::Prone => Ability::Dexterity,
        Technique::Push => Ability::Strength,
    };
    let save = forced_save(ctx, &now, ability, dc, "Open Hand Technique")?;
    let effect: Vec<Change> = match t {
        _ if save.success => Vec::new(),
        Technique::Prone if !now.conditions.has(Condition::Prone) => vec![Change::ConditionAdded {
            target: now.target.clone(),
            condition: Condition::Prone,
        }],
        Technique::Push => pushed(ctx, &c.id, &id, 15).into_iter().collect(),
        _ => Vec::new(),
    };
    ctx.commit(effect.clone())?;
    Ok((Some(OnHitSave { save, effect }), None))
}

/// A push of `feet` straight away from `from`, along the floor and cut short at the room's
/// edge (`combat::geometry::push_away`, the rule shoves and Thunderwave use); `None` where the
/// fight keeps no positions or the room leaves no step.
fn pushed(ctx: &ToolContext<'_>, from: &str, target: &str, feet: u32) -> Option<Change> {
    use crate::combat::positions::{position_of, room_areas};
    let (by, at) = (
        position_of(ctx.state, from)?,
        position_of(ctx.state, target)?,
    );
    let areas = room_areas(ctx.state);
    if areas.is_empty() {
        return None;
    }
    let to = crate::combat::geometry::push_away(by, at, feet, |p| crate::state::inside(areas, p));
    let id = ctx.state.encounter.as_ref()?.slot(target)?.id.clone();
    (to != at).then_some(Change::Moved { creature: id, to })
}

/// A timed effect from monk `c` on `target` lasting until the end of the monk's next turn.
fn lasting(c: &Character, target: &str, what: &str, kind: TimedKind) -> Change {
    Change::TimedEffectStarted {
        effect: TimedEffect {
            source: c.id.clone(),
            spell: what.to_owned(),
            target: target.to_owned(),
            concentration: false,
            rounds_left: Some(2),
            ends_on_damage: false,
            level: 0,
            at_turn_end: true,
            kind,
        },
    }
}

/// A save `victim` makes against a monk's `dc`, with its conditions, situation and effects
/// (Bless), rolled and recorded.
fn forced_save(
    ctx: &mut ToolContext<'_>,
    victim: &CreatureInfo<'_>,
    ability: Ability,
    dc: i32,
    what: &str,
) -> Result<CheckResult, ToolError> {
    let (mut sources, auto_fail) = save_modifiers(&victim.conditions, ability);
    sources.extend(crate::combat::save_situation(
        ctx.state,
        victim.target.id(),
        ability,
    ));
    let bonus = ctx.roll_bonus(victim.target.id(), RollKind::Save);
    let mut save = roll_check_with(
        victim.save(ability) + bonus.total,
        dc,
        &sources,
        auto_fail,
        ctx.rng,
    );
    super::feature_bard::inspired_check(ctx, victim.target.id(), &mut save); // Bardic Inspiration
    ctx.record_roll(
        format!("{} {ability} save against {what}", victim.name),
        i64::from(save.total),
        Some(victim.target.clone()),
        RollDetail::Save(save.clone()),
    );
    Ok(save)
}

/// Patient Defense (monk 2): 1 ki, the Dodge action as a bonus action.
pub(super) fn patient_defense(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    takes(using, false, false)?;
    let c = &using.c;
    let ki = spend_ki(ctx, c, 1)?;
    in_fight(ctx, "Patient Defense")?;
    let cost = bonus_action(ctx, c)?;
    let round = ctx.state.encounter.as_ref().map_or(1, |e| e.round);
    let dodge = Change::EffectStarted {
        effect: Effect {
            creature: c.id.clone(),
            round,
            kind: EffectKind::Dodging,
        },
    };
    ctx.commit(cost.into_iter().chain([ki, dodge]).collect())?;
    Ok(Played {
        effect: format!(
            "{} takes a patient guard (Dodge): attacks against it have disadvantage and it has advantage on Dexterity saves until its next turn",
            c.name
        ),
        pool: Some(KI),
        ..Played::default()
    })
}

/// Step of the Wind (monk 2): 1 ki, Dash or Disengage (the option) as a bonus action.
pub(super) fn step_of_the_wind(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    takes(using, false, true)?;
    let c = &using.c;
    let dash = match using.args.option.as_deref().map(crate::srd::slugify) {
        Some(o) if o == "dash" => true,
        Some(o) if o == "disengage" => false,
        _ => {
            return Err(ToolError::new(
                "Step of the Wind needs an option: \"dash\" or \"disengage\"",
            ));
        }
    };
    let ki = spend_ki(ctx, c, 1)?;
    in_fight(ctx, "Step of the Wind")?;
    let cost = bonus_action(ctx, c)?;
    let step = if dash {
        let base = ctx
            .state
            .encounter
            .as_ref()
            .and_then(|e| e.slot(&c.id))
            .map_or(c.speed, |s| s.speed);
        MonkStep::Dashed {
            speed: crate::state::speed_now(ctx.state, &c.id, base),
        }
    } else {
        MonkStep::Disengaged
    };
    let taken = Change::MonkTurn {
        character: c.id.clone(),
        step,
    };
    ctx.commit(cost.into_iter().chain([ki, taken]).collect())?;
    let effect = match step {
        MonkStep::Dashed { speed } => {
            format!("{} moves like the wind: {speed} ft more this turn", c.name)
        }
        _ => format!(
            "{} slips away like the wind: its movement provokes no opportunity attacks this turn",
            c.name
        ),
    };
    Ok(Played {
        effect,
        pool: Some(KI),
        ..Played::default()
    })
}

/// Stunning Strike (monk 5) readied: the monk's next melee weapon hit this turn spends 1 ki and
/// makes the target save (Constitution) or be stunned until the end of the monk's next turn.
/// Nothing is spent until a hit.
pub(super) fn stunning_strike(
    using: &FeatureUse<'_>,
    ctx: &mut ToolContext<'_>,
) -> Result<Played, ToolError> {
    takes(using, false, false)?;
    let c = &using.c;
    spend_ki(ctx, c, 1)?; // refused now when no ki is left; spent on the hit
    let budget = in_fight(ctx, "Stunning Strike")?;
    may_act(ctx.state, &c.id, Spend::Movement(0)).map_err(|e| ToolError::new(e.to_string()))?;
    if budget.stunning_strike {
        return Err(ToolError::new(format!(
            "{} has Stunning Strike ready already: its next melee weapon hit this turn spends the ki",
            c.name
        )));
    }
    ctx.commit(vec![Change::MonkTurn {
        character: c.id.clone(),
        step: MonkStep::StunningStrike,
    }])?;
    Ok(Played {
        effect: format!(
            "{} gathers ki for a stunning strike: the next melee weapon hit this turn spends 1 ki, Constitution save DC {} or stunned until the end of {}'s next turn",
            c.name,
            monk::ki_save_dc(c),
            c.name
        ),
        pool: Some(KI),
        ..Played::default()
    })
}

/// After one swing of a character's attack (`tools::combat`): a monk's Attack action struck
/// with an unarmed strike or a monk weapon opens Martial Arts' bonus strike; a melee weapon
/// hit with Stunning Strike readied spends 1 ki and forces the save. What the hit forced.
pub(super) fn after_swing(
    ctx: &mut ToolContext<'_>,
    who: &CreatureInfo<'_>,
    victim: &Target,
    swing: &str,
    melee_weapon_hit: bool,
) -> Result<Option<OnHitSave>, ToolError> {
    let Some(c) = ctx
        .state
        .character(who.target.id())
        .filter(|c| monk::is_monk(c))
    else {
        return Ok(None);
    };
    let c = c.clone();
    let Some(encounter) = ctx.state.encounter.as_ref() else {
        return Ok(None);
    };
    if !encounter
        .current()
        .is_some_and(|id| id.eq_ignore_ascii_case(&c.id))
    {
        return Ok(None); // a reaction's attack, off its turn
    }
    let budget = encounter.budget;
    if budget.attack_action
        && !budget.martial_arts
        && monk::martial_arts_applies(ctx.srd, &c, swing)
        && ctx.srd.spell_named(swing).is_none()
    {
        ctx.commit(vec![Change::MonkTurn {
            character: c.id.clone(),
            step: MonkStep::MartialArts,
        }])?;
    }
    if !(budget.stunning_strike && melee_weapon_hit) {
        return Ok(None);
    }
    let target = creature::find(ctx.state, ctx.srd, victim.id())?;
    if !target.standing {
        return Ok(None); // kept for a hit on a foe still standing
    }
    let immune = target
        .template
        .is_some_and(|m| m.condition_immunities.contains(&Condition::Stunned));
    let Ok(ki) = spend_ki(ctx, &c, 1) else {
        // The ki ran out since it was readied (a Flurry): the strike is given up.
        return ctx
            .commit(vec![Change::MonkTurn {
                character: c.id.clone(),
                step: MonkStep::StunningStrikeSpent,
            }])
            .map(|()| None);
    };
    let done = Change::MonkTurn {
        character: c.id.clone(),
        step: MonkStep::StunningStrikeSpent,
    };
    if immune {
        // Not spent on a creature that cannot be stunned; the readied strike waits.
        return Ok(None);
    }
    ctx.commit(vec![ki, done])?;
    let save = forced_save(
        ctx,
        &target,
        Ability::Constitution,
        monk::ki_save_dc(&c),
        "Stunning Strike",
    )?;
    let mut effect = Vec::new();
    if !save.success {
        let stun = TimedKind::Condition {
            condition: Condition::Stunned,
            repeat_save: None,
        };
        effect.push(lasting(&c, target.target.id(), "Stunning Strike", stun));
        ctx.commit(effect.clone())?;
    }
    Ok(Some(OnHitSave { save, effect }))
}

/// Deflect Missiles (monk 3): a monk hit by a ranged weapon attack uses its reaction, when it
/// has one, to cut the damage by 1d10 + Dexterity modifier + monk level.
pub(super) fn deflect_missiles(
    ctx: &mut ToolContext<'_>,
    attacker: &str,
    victim: &str,
    result: &mut AttackResult,
) -> Result<Option<ReactionCast>, ToolError> {
    let Some(c) = ctx.state.character(victim) else {
        return Ok(None);
    };
    if !result.hit || result.total_damage == 0 || !monk::deflects_missiles(ctx.srd, c) {
        return Ok(None);
    }
    let c = c.clone();
    let Ok(Some(reaction)) = may_act(ctx.state, &c.id, Spend::Reaction) else {
        return Ok(None);
    };
    let expr = DiceExpr::parse(&format!("1d10+{}", monk::deflect_bonus(&c)))
        .map_err(|e| ToolError::new(e.to_string()))?;
    let roll = expr
        .roll(ctx.rng)
        .map_err(|e| ToolError::new(e.to_string()))?;
    let cut = u32::try_from(roll.total().max(0)).unwrap_or(0);
    ctx.record_roll(
        format!("{} Deflect Missiles", c.name),
        roll.total(),
        Some(Target::Character(c.id.clone())),
        RollDetail::Dice(roll),
    );
    ctx.commit(vec![reaction])?;
    let before = result.total_damage;
    result.total_damage = before.saturating_sub(cut);
    Ok(Some(ReactionCast {
        by: c.name.clone(),
        reaction: "Deflect Missiles".to_owned(),
        slot_level: None,
        outcome: format!(
            "{} knocks aside {attacker}'s missile: {before} damage cut by {cut} to {}",
            c.name, result.total_damage
        ),
        succeeded: true,
        check: None,
        slots_left: None,
    }))
}

/// Slow Fall (monk 4): a monk who falls uses its reaction (where a fight keeps one) to take
/// five times its monk level off the damage. How much less it takes.
pub(super) fn slow_fall(ctx: &mut ToolContext<'_>, id: &str, taken: u32) -> Result<u32, ToolError> {
    let Some(c) = ctx.state.character(id) else {
        return Ok(0);
    };
    let cut = monk::slow_fall(ctx.srd, c);
    if cut == 0 || taken == 0 {
        return Ok(0);
    }
    let Ok(reaction) = may_act(ctx.state, id, Spend::Reaction) else {
        return Ok(0); // its reaction is spent, or it cannot act
    };
    ctx.commit(reaction.into_iter().collect())?;
    Ok(cut.min(taken))
}
