//! `start_encounter`, `next_turn`, `end_encounter`, the monsters' turns, and [`act`]: the one
//! call through which every acting tool spends from its creature's turn (`combat::may_act`).

use schemars::JsonSchema;
use serde::Deserialize;

use super::results::{FightEnded, FightStarted, InitiativePlace, TurnEvent, TurnNow, TurnsPassed};
use super::{ToolContext, ToolError};
use crate::combat::{self, CombatError};
use crate::rules::Spend;
use crate::state::{Change, GameState, MonsterInstance, Target};
use crate::store::RollDetail;

impl From<CombatError> for ToolError {
    fn from(error: CombatError) -> ToolError {
        ToolError::new(error.to_string())
    }
}

/// Spends `spend` from `creature`'s turn through the gate (`combat::may_act`), or refuses
/// saying whose turn it is and what is left. Outside a fight it only checks the creature can
/// act. Every tool that acts for a creature calls this (or [`act_casting`]) first.
pub(super) fn act(
    ctx: &mut ToolContext<'_>,
    creature: &str,
    spend: Spend,
) -> Result<(), ToolError> {
    // A turned monster's own actions (an attack, a breath) are refused here; its Dash and Dodge
    // are the standard actions' (`combat::actions`), which do not come this way.
    if let Some(why) = combat::turned::action_refusal(ctx.state, creature, spend) {
        return Err(ToolError::new(why));
    }
    if let Some(change) = combat::may_act(ctx.state, creature, spend)? {
        ctx.commit(vec![change])?;
    }
    Ok(())
}

/// [`act`] for casting a spell: what it spends comes from the spell's casting time. A spell
/// not in the SRD is left to the caller to refuse.
pub(super) fn act_casting(
    ctx: &mut ToolContext<'_>,
    caster: &str,
    spell: &str,
) -> Result<(), ToolError> {
    let Ok(spell) = ctx.srd.spell(spell) else {
        return Ok(());
    };
    let spend = combat::spell_spend(ctx.state, spell)?;
    act(ctx, caster, spend)
}

/// Leaving the place during a fight: the party breaks away on a hero's turn, which spends that
/// hero's action, unless it took Disengage or Dash this turn (that was the action). The fight stays open,
/// but foes left behind no longer act on the party, and `end_encounter` may then end it.
pub(super) fn leave_fight(ctx: &mut ToolContext<'_>) -> Result<(), ToolError> {
    let Some(current) = turn_of(ctx.state) else {
        return Ok(());
    };
    if ctx.state.character(&current).is_none() {
        return Err(ToolError::new(format!(
            "it is {current}'s turn: the party can leave a fight only on a hero's turn (use next_turn)"
        )));
    }
    // A hero who took Disengage or Dash this turn has already spent the action on the retreat.
    let budget = ctx.state.encounter.as_ref().map(|e| e.budget);
    if budget.is_some_and(|b| b.disengaged || b.extra_movement_ft > 0) {
        return Ok(());
    }
    act(ctx, &current, Spend::Action).map_err(|e| {
        ToolError::new(format!(
            "the party is in a fight and leaves it on a hero's turn, with that hero's action (or after Disengage or Dash): {}",
            e.message
        ))
    })
}

/// Starts a fight with these monsters (the heroes in `sneaking` crept up on them): surprise and
/// initiative (recorded), the changes, then the monsters that come first in the order act.
/// Returns what the tool reports.
pub(super) fn begin_fight(
    ctx: &mut ToolContext<'_>,
    fighting: &[MonsterInstance],
    sneaking: &[String],
) -> Result<FightStarted, ToolError> {
    let refs: Vec<&MonsterInstance> = fighting.iter().collect();
    let start = combat::begin(ctx.state, ctx.srd, &refs, sneaking, ctx.rng);
    for roll in &start.surprise.rolls {
        ctx.record_roll(
            format!("{} Stealth (surprise)", ctx.state.name_of(&roll.id)),
            i64::from(roll.result.total),
            Some(crate::combat::monster_plan::target_of(ctx.state, &roll.id)),
            RollDetail::Check(roll.result.clone()),
        );
    }
    for roll in &start.rolls {
        ctx.record_roll(
            format!("{} initiative", roll.id),
            i64::from(roll.total),
            Some(crate::combat::monster_plan::target_of(ctx.state, &roll.id)),
            RollDetail::Initiative(roll.clone()),
        );
    }
    ctx.commit(start.changes)?;
    let monster_turns = run_monster_turns(ctx)?;
    Ok(FightStarted {
        order: start
            .rolls
            .iter()
            .map(|r| InitiativePlace {
                id: r.id.clone(),
                initiative: r.total,
            })
            .collect(),
        surprised: start
            .surprise
            .surprised
            .iter()
            .map(|id| ctx.state.name_of(id))
            .collect(),
        monster_turns,
        now: current_turn(ctx),
    })
}

/// Arguments of `start_encounter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StartEncounterArgs {
    /// The monsters that fight, by id; null for every hostile monster where the party is.
    #[schemars(description = "Null: every hostile monster here.")]
    pub monsters: Option<Vec<String>>,
    /// The heroes who crept up unseen, by id; null when the party comes openly. They roll
    /// Stealth against the foes' passive Perception: a foe that notices none of the party
    /// (every hero must be sneaking) is surprised and loses its first turn.
    #[schemars(description = "Heroes who crept up unseen; null: none.")]
    pub sneaking: Option<Vec<String>>,
}

pub(super) fn start_encounter(
    args: StartEncounterArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<FightStarted, ToolError> {
    if ctx.state.encounter.is_some() {
        return Err(ToolError::new(
            "a fight is already running: use next_turn, or end_encounter first",
        ));
    }
    let here = party_location(ctx.state);
    let present: Vec<MonsterInstance> = ctx
        .state
        .monsters
        .iter()
        .filter(|m| m.location == here && m.is_alive())
        .cloned()
        .collect();
    let fighting: Vec<MonsterInstance> = match &args.monsters {
        None => present.iter().filter(|m| m.hostile).cloned().collect(),
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
                chosen.push(m.clone());
            }
            chosen
        }
    };
    if fighting.is_empty() {
        return Err(ToolError::new("there is no hostile monster here to fight"));
    }
    let sneaking = args.sneaking.unwrap_or_default();
    for hero in &sneaking {
        if ctx.state.character(hero).is_none_or(|c| c.dead) {
            return Err(ToolError::new(format!(
                "sneaking names the heroes who crept up: {hero:?} is not a living hero (heroes: {})",
                ctx.state.character_ids().join(", ")
            )));
        }
    }
    begin_fight(ctx, &fighting, &sneaking)
}

pub(super) fn next_turn(
    _args: super::registry::NoArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<TurnsPassed, ToolError> {
    if ctx.state.encounter.is_none() {
        return Err(ToolError::new("no fight is running: use start_encounter"));
    }
    let mut monster_turns = end_turn(ctx)?;
    monster_turns.extend(run_monster_turns(ctx)?);
    Ok(TurnsPassed {
        monster_turns,
        now: current_turn(ctx),
    })
}

pub(super) fn end_encounter(
    _args: super::registry::NoArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<FightEnded, ToolError> {
    let Some(encounter) = ctx.state.encounter.clone() else {
        return Err(ToolError::new("no fight is running"));
    };
    combat::may_end(ctx.state)?;
    // A foe defeated is slain, routed or taken prisoner: each gives its XP (a summon on the
    // party's side gives none).
    let mut xp = 0;
    for slot in &encounter.order {
        if let Some(m) = ctx
            .state
            .monsters
            .iter()
            .find(|m| m.id == slot.id && !m.is_fighting() && m.summoned.is_none())
        {
            xp += ctx.srd.monster(&m.template).map(|t| t.xp).unwrap_or(0);
        }
    }
    // The SRD splits it evenly among the party members who took part; the dead get none.
    let party: Vec<String> = encounter
        .order
        .iter()
        .filter_map(|slot| ctx.state.character(&slot.id))
        .filter(|c| !c.dead)
        .map(|c| c.id.clone())
        .collect();
    let each = crate::rules::experience::share_xp(xp, party.len());
    let mut changes = vec![Change::EncounterEnded];
    if each > 0 {
        changes.extend(party.iter().map(|id| Change::XpGained {
            character: id.clone(),
            amount: each,
        }));
    }
    ctx.commit(changes)?;
    let shared_by = party.iter().map(|id| ctx.state.name_of(id)).collect();
    let may_level_up = party
        .iter()
        .filter_map(|id| ctx.state.character(id))
        .filter_map(|c| level_ready(ctx, c))
        .collect();
    Ok(FightEnded {
        ended_after_rounds: encounter.round,
        xp_from_defeated: xp,
        xp_each: each,
        shared_by,
        may_level_up,
    })
}

/// The next level of `c` with its first legal choices, when it may be taken now.
pub(super) fn level_ready(
    ctx: &ToolContext<'_>,
    c: &crate::state::Character,
) -> Option<super::results::LevelReady> {
    let first_choices = crate::character::first_legal_choices(c, ctx.srd, &ctx.state.levelling)?;
    Some(super::results::LevelReady {
        character: c.id.clone(),
        level: c.level + 1,
        first_choices,
    })
}

/// Where the party is (its location's id), or "" if nowhere.
fn party_location(state: &GameState) -> String {
    state
        .party_location()
        .map(|l| l.id.clone())
        .unwrap_or_default()
}

/// Whose turn it is, in a fight.
fn turn_of(state: &GameState) -> Option<String> {
    state.turn_now().map(str::to_owned)
}

/// Whether a hostile monster where the party is still fights (neither down, fled nor
/// surrendered).
fn foes_left(state: &GameState) -> bool {
    let here = party_location(state);
    state
        .monsters
        .iter()
        .any(|m| m.location == here && m.hostile && m.is_fighting())
}

/// Whether a hero stands: alive, above 0 HP.
fn hero_standing(state: &GameState) -> bool {
    state.characters.iter().any(|c| !c.dead && c.hp.current > 0)
}

/// Whose turn it is now, what they have left, and whether the fight is decided.
pub(super) fn current_turn(ctx: &ToolContext<'_>) -> TurnNow {
    TurnNow {
        turn_of: turn_of(ctx.state),
        round: ctx.state.encounter.as_ref().map(|e| e.round),
        left: combat::budget_left(ctx.state),
        all_foes_down: !foes_left(ctx.state),
        party_down: !hero_standing(ctx.state),
    }
}

/// The end of the current creature's turn: the saves a hold on it allows (a harpy's song),
/// then the next turn.
fn end_turn(ctx: &mut ToolContext<'_>) -> Result<Vec<TurnEvent>, ToolError> {
    let mut log = match turn_of(ctx.state) {
        Some(id) => {
            let mut log = super::monster_turn::end_of_turn_saves(ctx, &id)?;
            log.extend(super::zone_turns::turn_ended(ctx, &id)?);
            log.extend(timed_effect_saves(ctx, &id)?);
            log.extend(super::monster_legendary::after_turn(ctx, &id)?);
            super::wards::blink_at_turn_end(ctx, &id)?;
            log
        }
        None => Vec::new(),
    };
    ctx.commit(vec![Change::TurnAdvanced])?;
    log.extend(super::zone_turns::turn_started(ctx)?);
    // A blinking creature comes back as its turn starts.
    if let Some(id) = turn_of(ctx.state) {
        ctx.commit(crate::effects::returned(ctx.state, &id))?;
    }
    log.extend(super::monster_turn::end_stale_holds(ctx)?);
    Ok(log)
}

/// At the end of `creature`'s turn: its saves against timed effects that allow one (Hold
/// Person), through the effects engine; a success ends the effect and lifts its condition.
fn timed_effect_saves(
    ctx: &mut ToolContext<'_>,
    creature: &str,
) -> Result<Vec<TurnEvent>, ToolError> {
    if crate::state::timed_effects(ctx.state, creature).is_empty() {
        return Ok(Vec::new());
    }
    // The tools' view of creatures leaves out monsters the party has not seen: those roll
    // no save here (their effects still end with their duration or concentration).
    let Ok(who) = super::creature::find(ctx.state, ctx.srd, creature) else {
        return Ok(Vec::new());
    };
    if !who.standing {
        return Ok(Vec::new());
    }
    let (changes, rolls, saves) = crate::effects::end_of_turn_saves(
        ctx.state,
        who.target.id(),
        who.saves,
        who.conditions,
        ctx.rng,
    );
    ctx.commit(changes)?;
    ctx.log.rolls.extend(rolls);
    Ok(saves
        .into_iter()
        .map(|s| {
            TurnEvent::RepeatSave(super::results::HoldSave {
                repeat_save: s.against,
                by: s.by,
                result: s.result,
            })
        })
        .collect())
}

/// While it is a monster's turn (or a downed or held character's), plays it and moves on;
/// stops at the turn of a character who can act, or when one side is down. A monster's turn
/// is `monster_turn::play` (the plan of `combat::monster_plan`); a fled or surrendered monster
/// takes none.
fn run_monster_turns(ctx: &mut ToolContext<'_>) -> Result<Vec<TurnEvent>, ToolError> {
    let mut log = Vec::new();
    log.extend(super::monster_turn::end_stale_holds(ctx)?);
    // Bounded, so a hero held for good cannot spin this forever: at most this many rounds pass
    // before the tool answers (and a later next_turn goes on).
    const ROUNDS_AT_MOST: usize = 20;
    let limit = ctx
        .state
        .encounter
        .as_ref()
        .map_or(0, |e| e.order.len() * ROUNDS_AT_MOST);
    for _ in 0..limit {
        let Some(id) = turn_of(ctx.state) else {
            break;
        };
        // With nobody standing, the fight goes on while someone is dying: their death saves
        // decide it (a lone hero at 0 HP must still live or die).
        let dying = ctx
            .state
            .characters
            .iter()
            .any(|c| !c.dead && c.hp.current == 0 && !c.death_saves.stable);
        let standing = hero_standing(ctx.state);
        if !foes_left(ctx.state) || (!standing && !dying) {
            break;
        }
        if crate::state::is_surprised(ctx.state, &id) {
            // Caught unaware: its first turn passes with nothing done.
            log.push(TurnEvent::Surprised {
                surprised: ctx.state.name_of(&id),
            });
        } else if let Some(c) = ctx.state.character(&id) {
            if c.can_act() {
                break; // a character who can act: the player decides
            }
            if !c.dead && c.hp.current > 0 {
                // Held (charmed by a song, paralysed): the turn passes, with its saves.
                log.push(TurnEvent::CannotAct {
                    cannot_act: c.name.clone(),
                    conditions: c.conditions,
                });
            } else if !c.dead && !c.death_saves.stable {
                let mut saves = c.death_saves;
                let roll = saves.roll(ctx.rng);
                let regains = roll.outcome == crate::rules::DeathSaveOutcome::RegainsOneHitPoint;
                let name = c.name.clone();
                ctx.record_roll(
                    format!("{name} death save"),
                    i64::from(roll.natural),
                    Some(Target::Character(id.clone())),
                    RollDetail::DeathSave(roll),
                );
                ctx.commit(vec![Change::DeathSaves {
                    character: id.clone(),
                    saves: roll.saves,
                    regains_one_hp: regains,
                }])?;
                log.push(TurnEvent::DeathSave {
                    death_save: name,
                    roll,
                });
                if regains {
                    break; // back on their feet: their turn
                }
            }
        } else if standing
            && ctx.state.monster(&id).is_some_and(|m| {
                m.is_fighting() && m.conditions.can_act() && m.location == party_location(ctx.state)
            })
        {
            log.extend(super::monster_turn::play(ctx, &id)?);
        }
        log.extend(end_turn(ctx)?);
    }
    Ok(log)
}
