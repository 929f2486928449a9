//! `roll_attack`, `start_encounter`, `next_turn`, `end_encounter`: attacks through the rules,
//! and initiative with monsters taking their own turns through the same code.

use rand::RngExt;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::checks::add_situation;
use super::creature::{self, CreatureInfo};
use super::{ToolContext, ToolError};
use crate::dice::Advantage;
use crate::rules::conditions::{attack_modifiers, effective_defenses};
use crate::rules::initiative::{InitiativeEntry, roll_initiative};
use crate::rules::{AttackProfile, AttackTarget, DamageDice, roll_attack as rules_attack};
use crate::state::{Change, InitiativeSlot, StoryEvent, StoryKind, Target};

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
    attack(
        ctx,
        &args.attacker,
        &args.target,
        args.attack.as_deref(),
        args.advantage,
    )
}

/// Resolves every swing of an attack (all of a multiattack), applying damage as it lands.
fn attack(
    ctx: &mut ToolContext<'_>,
    attacker: &str,
    target: &str,
    attack_name: Option<&str>,
    advantage: Option<Advantage>,
) -> Result<Value, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, attacker)?;
    if !who.standing || !who.conditions.can_act() {
        return Err(ToolError::new(format!(
            "{} cannot attack: it is down or incapacitated",
            who.name
        )));
    }
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

/// Arguments of `start_encounter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartEncounterArgs {
    /// The monsters that fight, by id; null for every hostile monster where the party is.
    pub monsters: Option<Vec<String>>,
}

pub(super) fn start_encounter(
    args: StartEncounterArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<Value, ToolError> {
    if ctx.state.encounter.is_some() {
        return Err(ToolError::new(
            "a fight is already running: use next_turn, or end_encounter first",
        ));
    }
    let here = ctx
        .state
        .party_location()
        .map(|l| l.id.clone())
        .unwrap_or_default();
    let present: Vec<crate::state::MonsterInstance> = ctx
        .state
        .monsters
        .iter()
        .filter(|m| m.location == here && m.is_alive())
        .cloned()
        .collect();
    let fighting: Vec<_> = match &args.monsters {
        None => present.iter().filter(|m| m.hostile).collect(),
        Some(ids) => {
            let mut chosen = Vec::new();
            for id in ids {
                let m = present
                    .iter()
                    .find(|m| m.id.eq_ignore_ascii_case(id) || m.name.eq_ignore_ascii_case(id))
                    .ok_or_else(|| {
                        let valid: Vec<&str> = present.iter().map(|m| m.id.as_str()).collect();
                        ToolError::new(format!(
                            "no living monster {id:?} here; valid: {}",
                            valid.join(", ")
                        ))
                    })?;
                chosen.push(m);
            }
            chosen
        }
    };
    if fighting.is_empty() {
        return Err(ToolError::new("there is no hostile monster here to fight"));
    }
    let mut entries = Vec::new();
    for m in &fighting {
        let dex = ctx
            .srd
            .monster(&m.template)
            .map(|t| t.abilities.dexterity)
            .unwrap_or(10);
        entries.push(InitiativeEntry {
            id: m.id.clone(),
            bonus: crate::rules::ability_modifier(dex),
            dexterity: dex,
            advantage: Advantage::Normal,
        });
    }
    for c in ctx.state.characters.iter().filter(|c| !c.dead) {
        entries.push(InitiativeEntry {
            id: c.id.clone(),
            bonus: c.abilities.modifier(crate::rules::Ability::Dexterity),
            dexterity: c.abilities.dexterity,
            advantage: Advantage::Normal,
        });
    }
    let order = roll_initiative(&entries, ctx.rng);
    for roll in &order {
        ctx.record_roll(
            format!("{} initiative", roll.id),
            i64::from(roll.total),
            roll,
        );
    }
    let mut changes: Vec<Change> = fighting
        .iter()
        .map(|m| Change::MonsterRevealed {
            monster: m.id.clone(),
        })
        .collect();
    changes.push(Change::EncounterStarted {
        order: order
            .iter()
            .map(|r| InitiativeSlot {
                id: r.id.clone(),
                initiative: r.total,
            })
            .collect(),
    });
    ctx.commit(changes)?;
    let monster_turns = run_monster_turns(ctx)?;
    Ok(json!({
        "order": order.iter().map(|r| json!({"id": r.id, "initiative": r.total})).collect::<Vec<_>>(),
        "monster_turns": monster_turns,
        "now": current_turn(ctx),
    }))
}

pub(super) fn next_turn(
    _args: super::registry::NoArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<Value, ToolError> {
    if ctx.state.encounter.is_none() {
        return Err(ToolError::new("no fight is running: use start_encounter"));
    }
    ctx.commit(vec![Change::TurnAdvanced])?;
    let monster_turns = run_monster_turns(ctx)?;
    Ok(json!({ "monster_turns": monster_turns, "now": current_turn(ctx) }))
}

pub(super) fn end_encounter(
    _args: super::registry::NoArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<Value, ToolError> {
    let Some(encounter) = ctx.state.encounter.clone() else {
        return Err(ToolError::new("no fight is running"));
    };
    let mut xp = 0;
    for slot in &encounter.order {
        if let Some(m) = ctx
            .state
            .monsters
            .iter()
            .find(|m| m.id == slot.id && !m.is_alive())
        {
            xp += ctx.srd.monster(&m.template).map(|t| t.xp).unwrap_or(0);
        }
    }
    ctx.commit(vec![Change::EncounterEnded])?;
    Ok(json!({ "ended_after_rounds": encounter.round, "xp_from_defeated": xp }))
}

/// Whose turn it is now, and whether the fight is decided.
fn current_turn(ctx: &ToolContext<'_>) -> Value {
    let here = ctx
        .state
        .party_location()
        .map(|l| l.id.clone())
        .unwrap_or_default();
    let foes_left = ctx
        .state
        .monsters
        .iter()
        .any(|m| m.location == here && m.hostile && m.is_alive());
    let party_up = ctx
        .state
        .characters
        .iter()
        .any(|c| !c.dead && c.hp.current > 0);
    let turn = ctx
        .state
        .encounter
        .as_ref()
        .and_then(|e| e.current().map(str::to_owned));
    json!({
        "turn_of": turn,
        "round": ctx.state.encounter.as_ref().map(|e| e.round),
        "all_foes_down": !foes_left,
        "party_down": !party_up,
    })
}

/// While it is a monster's turn (or a downed character's), plays it and moves on; stops at a
/// standing character's turn, or when one side is down.
fn run_monster_turns(ctx: &mut ToolContext<'_>) -> Result<Vec<Value>, ToolError> {
    let mut log = Vec::new();
    let limit = ctx
        .state
        .encounter
        .as_ref()
        .map_or(0, |e| e.order.len() * 2);
    for _ in 0..limit {
        let Some(id) = ctx
            .state
            .encounter
            .as_ref()
            .and_then(|e| e.current().map(str::to_owned))
        else {
            break;
        };
        let here = ctx
            .state
            .party_location()
            .map(|l| l.id.clone())
            .unwrap_or_default();
        let foes_left = ctx
            .state
            .monsters
            .iter()
            .any(|m| m.location == here && m.hostile && m.is_alive());
        let standing: Vec<String> = ctx
            .state
            .characters
            .iter()
            .filter(|c| !c.dead && c.hp.current > 0)
            .map(|c| c.id.clone())
            .collect();
        // With nobody standing, the fight goes on while someone is dying: their death saves
        // decide it (a lone hero at 0 HP must still live or die).
        let dying = ctx
            .state
            .characters
            .iter()
            .any(|c| !c.dead && c.hp.current == 0 && !c.death_saves.stable);
        if !foes_left || (standing.is_empty() && !dying) {
            break;
        }
        if let Some(c) = ctx.state.character(&id) {
            if !c.dead && c.hp.current > 0 {
                break; // a standing character's turn: the player decides
            }
            if !c.dead && !c.death_saves.stable {
                let mut saves = c.death_saves;
                let roll = saves.roll(ctx.rng);
                let regains = roll.outcome == crate::rules::DeathSaveOutcome::RegainsOneHitPoint;
                let name = c.name.clone();
                ctx.record_roll(format!("{name} death save"), i64::from(roll.natural), &roll);
                ctx.commit(vec![Change::DeathSaves {
                    character: id.clone(),
                    saves: roll.saves,
                    regains_one_hp: regains,
                }])?;
                log.push(json!({ "death_save": name, "roll": roll }));
                if regains {
                    break; // back on their feet: their turn
                }
            }
        } else if !standing.is_empty()
            && ctx
                .state
                .monster(&id)
                .is_some_and(|m| m.is_alive() && m.conditions.can_act())
        {
            let target = standing[ctx.rng.random_range(0..standing.len())].clone();
            log.push(attack(ctx, &id, &target, None, None)?);
        }
        ctx.commit(vec![Change::TurnAdvanced])?;
    }
    Ok(log)
}
