//! `roll_attack`: attacks through the rules, each spending from the attacker's turn (one attack
//! of a character's Attack action; a monster's whole action). An attack outside a fight starts
//! one first (`combat::fight_on_attack`).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::checks::add_situation;
use super::creature::{self, CreatureInfo};
use super::{ToolContext, ToolError};
use crate::dice::Advantage;
use crate::rules::conditions::{attack_modifiers, effective_defenses};
use crate::rules::{AttackProfile, AttackTarget, DamageDice, Spend, roll_attack as rules_attack};
use crate::state::{Change, MonsterInstance, StoryEvent, StoryKind, Target};

/// Arguments of `roll_attack`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackArgs {
    /// Who attacks: a character or visible monster, id or name.
    pub attacker: String,
    /// Who is attacked: a character or visible monster, id or name.
    pub target: String,
    /// The weapon or action by name ("Longsword", "Claws", "Multiattack"); null for the first
    /// one on the sheet (a monster's multiattack when it has one).
    pub attack: Option<String>,
    /// Advantage or disadvantage the situation gives (conditions are added by the engine).
    pub advantage: Option<Advantage>,
}

/// One attack to make: its name, bonus, damage and whether it is melee.
struct Swing {
    name: String,
    bonus: i32,
    damage: Vec<DamageDice>,
    melee: bool,
    /// A magic weapon or a spell attack; otherwise defenses against nonmagical attacks count.
    magical: bool,
}

pub(super) fn roll_attack(args: AttackArgs, ctx: &mut ToolContext<'_>) -> Result<Value, ToolError> {
    let started = start_if_attacked(ctx, &args.attacker, &args.target)?;
    if let Some(start) = &started {
        let spend = spend_of(ctx, &args.attacker)?;
        // The fight stays started (that is the result), and the attack waits for its turn.
        if let Err(refused) = crate::combat::may_act(ctx.state, &args.attacker, spend) {
            return Ok(json!({
                "attack_made": false,
                "why": refused.to_string(),
                "encounter_started": start,
            }));
        }
    }
    let mut result = attack(
        ctx,
        &args.attacker,
        &args.target,
        args.attack.as_deref(),
        args.advantage,
    )?;
    if let (Some(start), Some(map)) = (started, result.as_object_mut()) {
        map.insert("encounter_started".into(), start);
    }
    Ok(result)
}

/// An attack outside a fight that involves a monster starts the fight first (the same code as
/// `start_encounter`): what starting it reported, or `None` when no fight was started.
fn start_if_attacked(
    ctx: &mut ToolContext<'_>,
    attacker: &str,
    target: &str,
) -> Result<Option<Value>, ToolError> {
    if ctx.state.encounter.is_some() {
        return Ok(None);
    }
    let who = creature::find(ctx.state, ctx.srd, attacker)?.target;
    let victim = creature::find(ctx.state, ctx.srd, target)?.target;
    let fighting: Vec<MonsterInstance> = crate::combat::fight_on_attack(ctx.state, &who, &victim)
        .into_iter()
        .cloned()
        .collect();
    if fighting.is_empty() {
        return Ok(None);
    }
    super::encounter::begin_fight(ctx, &fighting).map(Some)
}

/// What one `roll_attack` spends: one attack of a character's Attack action, or a monster's
/// action (a Multiattack is one action of several swings).
fn spend_of(ctx: &ToolContext<'_>, attacker: &str) -> Result<Spend, ToolError> {
    Ok(match creature::find(ctx.state, ctx.srd, attacker)?.target {
        Target::Character(_) => Spend::Attack,
        Target::Monster(_) => Spend::Action,
    })
}

/// Resolves every swing of an attack (all of a multiattack), applying damage as it lands,
/// after spending it from the attacker's turn (which also refuses the dead and the
/// incapacitated).
pub(super) fn attack(
    ctx: &mut ToolContext<'_>,
    attacker: &str,
    target: &str,
    attack_name: Option<&str>,
    advantage: Option<Advantage>,
) -> Result<Value, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, attacker)?;
    let spend = spend_of(ctx, attacker)?;
    super::encounter::act(ctx, attacker, spend)?;
    let swings = swings_of(ctx, &who, attack_name)?;
    let mut outcomes = Vec::new();
    for swing in swings {
        let victim = creature::find(ctx.state, ctx.srd, target)?;
        if victim.target == who.target {
            return Err(ToolError::new(format!("{} cannot attack itself", who.name)));
        }
        if !victim.standing && !victim.is_character() {
            if outcomes.is_empty() {
                return Err(ToolError::new(format!("{} is already dead", victim.name)));
            }
            break;
        }
        let modifiers = attack_modifiers(&who.conditions, &victim.conditions, swing.melee);
        let mut sources = modifiers.sources.clone();
        add_situation(&mut sources, advantage);
        let profile = AttackProfile {
            attack_bonus: swing.bonus,
            damage: &swing.damage,
            critical_range: 20,
        };
        let defense = AttackTarget {
            armor_class: victim.armor_class,
            defenses: effective_defenses(&victim.defenses, &victim.conditions)
                .against_attack(swing.magical),
            hits_are_critical: modifiers.hit_is_critical,
        };
        let result = rules_attack(&profile, &defense, sources.resolve(), ctx.rng);
        ctx.record_roll(
            format!("{} attacks {} ({})", who.name, victim.name, swing.name),
            i64::from(result.total),
            &result,
        );
        let mut changes = Vec::new();
        if result.hit {
            changes.push(Change::Damage {
                target: victim.target.clone(),
                amount: result.total_damage,
                critical: result.critical,
            });
        }
        ctx.commit(changes)?;
        let after = creature::find(ctx.state, ctx.srd, target)?;
        if victim.standing && !after.standing {
            let text = if after.is_character() {
                format!("{} fell to {}'s {}", after.name, who.name, swing.name)
            } else {
                format!(
                    "{} slew {} with its {}",
                    who.name,
                    after.name,
                    swing.name.to_lowercase()
                )
            };
            let event = StoryEvent {
                turn: ctx.state.turn + 1,
                kind: StoryKind::Death,
                text,
            };
            ctx.log.events.push(event);
        }
        outcomes.push(json!({
            "attack": swing.name,
            "result": result,
            "advantage_reasons": sources,
            "target_hp": format!("{}/{}", after.hp.0, after.hp.1),
            "target_down": !after.standing,
        }));
    }
    Ok(json!({ "attacker": who.name, "target": target, "attacks": outcomes }))
}

/// The swings an attack makes: a character's weapon; a monster's named action, or its
/// multiattack expanded into its steps.
fn swings_of(
    ctx: &ToolContext<'_>,
    who: &CreatureInfo<'_>,
    name: Option<&str>,
) -> Result<Vec<Swing>, ToolError> {
    if let Target::Character(id) = &who.target {
        let c = ctx
            .state
            .character(id)
            .ok_or_else(|| ToolError::new("character vanished"))?;
        let attack = match name {
            None => c.attacks.first(),
            Some(n) => c.attacks.iter().find(|a| a.name.eq_ignore_ascii_case(n)),
        }
        .ok_or_else(|| {
            let valid: Vec<&str> = c.attacks.iter().map(|a| a.name.as_str()).collect();
            ToolError::new(format!(
                "{} has no attack {:?}; valid: {}",
                c.name,
                name.unwrap_or(""),
                valid.join(", ")
            ))
        })?;
        return Ok(vec![Swing {
            name: attack.name.clone(),
            bonus: c.attack_bonus(attack),
            damage: std::iter::once(c.attack_damage(attack))
                .chain(attack.coating.as_ref().and_then(|coat| coat.extra))
                .collect(),
            melee: attack.range_ft <= 10,
            magical: attack.is_magical(),
        }]);
    }
    let template = who
        .template
        .ok_or_else(|| ToolError::new("monster without a stat block"))?;
    let attack_actions: Vec<&str> = template
        .actions
        .iter()
        .filter(|a| a.attack.is_some())
        .map(|a| a.name.as_str())
        .collect();
    let wants_multi = name.is_none_or(|n| n.eq_ignore_ascii_case("multiattack"));
    let multi = template
        .actions
        .iter()
        .find_map(|a| a.multiattack.first())
        .filter(|_| wants_multi);
    let steps: Vec<(String, u32)> = match (multi, name) {
        (Some(steps), _) => steps.iter().map(|s| (s.action.clone(), s.count)).collect(),
        (None, Some(n)) if !n.eq_ignore_ascii_case("multiattack") => vec![(n.to_owned(), 1)],
        _ => attack_actions
            .first()
            .map(|n| vec![((*n).to_owned(), 1)])
            .unwrap_or_default(),
    };
    let mut swings = Vec::new();
    for (action_name, count) in steps {
        let Some(action) = template
            .actions
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(&action_name))
        else {
            return Err(ToolError::new(format!(
                "{} has no action {action_name:?}; valid: {}",
                who.name,
                attack_actions.join(", ")
            )));
        };
        let Some(attack) = &action.attack else {
            continue; // a multiattack step without an attack roll (a frightening glare)
        };
        let damage = if action.damage.is_empty() {
            action.damage_options.iter().take(1).copied().collect()
        } else {
            action.damage.clone()
        };
        for _ in 0..count {
            swings.push(Swing {
                name: action.name.clone(),
                bonus: attack.to_hit,
                damage: damage.clone(),
                melee: attack.reach.is_some() && attack.range.is_none(),
                magical: template.attack_is_magical(attack),
            });
        }
    }
    if swings.is_empty() {
        return Err(ToolError::new(format!(
            "{} has no attack roll to make; valid: {}",
            who.name,
            attack_actions.join(", ")
        )));
    }
    Ok(swings)
}
