//! `social_check`: Persuasion, Deception and Intimidation against an NPC's attitude, and
//! Insight against its `insight_dc`. The engine finds the DC (the reaction table in
//! `state::social`), rolls with the hero's conditions and effects, decides, and plays what a
//! granted request does; the model only says who speaks, to whom, and what is asked.
//!
//! Only an NPC where the party is can be spoken to, and a refusal names only those NPCs.

use schemars::JsonSchema;
use serde::Deserialize;

use super::results::SocialChecked;
use super::{ToolContext, ToolError, checks, creature};
use crate::dice::Advantage;
use crate::rules::Skill;
use crate::rules::check::roll_check_with;
use crate::rules::conditions::check_modifiers;
use crate::state::social::{
    Request, RequestSize, SocialEvent, attitude_word, colder, request_dc, warmer, win_over_dc,
};
use crate::state::{Change, GameState, Npc, Social};
use crate::store::RollDetail;

/// The Insight DC of an NPC whose adventure gives none.
const DEFAULT_INSIGHT_DC: i32 = 10;

/// How far below the DC a failure turns the NPC one step colder.
const BAD_FAILURE: i32 = 5;

/// The skill of a social check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SocialSkill {
    /// Ask, plead, reason: a granted request, or (with no request) a warmer attitude.
    Persuasion,
    /// Lie: as persuasion, but the lie is believed only until a later check fails.
    Deception,
    /// Threaten: a request granted, and the NPC one step colder after.
    Intimidation,
    /// Read the NPC: its goal, or whether its last claim was a lie.
    Insight,
}

impl SocialSkill {
    fn skill(self) -> Skill {
        match self {
            SocialSkill::Persuasion => Skill::Persuasion,
            SocialSkill::Deception => Skill::Deception,
            SocialSkill::Intimidation => Skill::Intimidation,
            SocialSkill::Insight => Skill::Insight,
        }
    }
}

/// Arguments of `social_check`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SocialCheckArgs {
    /// The hero who speaks: id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// An NPC where the party is: id or name.
    #[schemars(extend("description" = ""))]
    pub npc: String,
    /// persuasion, deception, intimidation or insight.
    #[schemars(extend("description" = ""))]
    pub skill: SocialSkill,
    /// What is asked, in the player's words; null to win the NPC over (persuasion, deception)
    /// or to read it (insight).
    #[schemars(description = "In the player's words; null: win it over, or read it.")]
    pub request: Option<String>,
    /// What the request costs the NPC (none, minor, significant); a request the NPC itself
    /// knows keeps its own size. Null with no request.
    #[schemars(description = "Its cost to the NPC.")]
    pub size: Option<RequestSize>,
    /// From the situation; the engine adds what conditions give.
    #[schemars(extend("description" = ""))]
    pub advantage: Option<Advantage>,
}

/// What a persuasion, deception or intimidation aims at.
enum Aim {
    /// One of the NPC's own requests.
    Known(Request),
    /// Something else asked, at the size the model gave: granted in words only.
    Other(String, RequestSize),
    /// A warmer attitude.
    WinOver,
}

pub(super) fn social_check(
    args: SocialCheckArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<SocialChecked, ToolError> {
    let npc = present_npc(ctx.state, &args.npc)?.clone();
    let hero = speaker(ctx, &args.character)?;
    let social = social_of(ctx.state, &npc.id);
    if args.skill == SocialSkill::Insight {
        return insight(ctx, &args, &hero, &npc, &social);
    }
    let attitude = npc.disposition;
    let aim = aim(&args, &npc, &social)?;
    let (dc, attempt) = match &aim {
        Aim::Known(r) => (dc_for(&npc, r.size)?, r.id.clone()),
        Aim::Other(text, size) => (dc_for(&npc, *size)?, format!("ask:{text}")),
        Aim::WinOver => (
            win_over_dc(attitude).ok_or_else(|| {
                ToolError::new(format!(
                    "{} is already helpful; ask for something (request)",
                    npc.name
                ))
            })?,
            "win-over".to_owned(),
        ),
    };
    let attempt = format!("{attempt}@{}", attitude_word(attitude));
    if social.progress.failed.contains(&attempt) {
        return Err(ToolError::new(format!(
            "{} has already refused that while {}; ask something else, or change {}'s attitude first",
            npc.name,
            attitude_word(attitude),
            npc.name
        )));
    }
    let roll = if dc == 0 {
        None
    } else {
        Some(roll(ctx, &hero, args.skill.skill(), dc, args.advantage)?)
    };
    let success = roll.as_ref().is_none_or(|r| r.success);
    let mut happened = Vec::new();
    let mut changes = Vec::new();
    let mut now = attitude;
    let outcome = if success {
        let outcome = match &aim {
            Aim::Known(r) => {
                ctx.commit(vec![social_change(
                    &npc,
                    SocialEvent::Granted {
                        request: r.id.clone(),
                    },
                )])?;
                happened = super::story::play(ctx, &r.effects, Some(&hero))?;
                format!("{} grants it.", npc.name)
            }
            Aim::Other(..) => format!(
                "{} agrees, as far as words go (nothing the story holds changes).",
                npc.name
            ),
            Aim::WinOver => {
                now = warmer(attitude);
                format!("{} warms to the party.", npc.name)
            }
        };
        if args.skill == SocialSkill::Deception {
            changes.push(social_change(
                &npc,
                SocialEvent::Deceived { believes: true },
            ));
        }
        if args.skill == SocialSkill::Intimidation {
            now = colder(now);
            format!("{outcome} Cowed, {} resents it.", npc.name)
        } else {
            outcome
        }
    } else {
        changes.push(social_change(&npc, SocialEvent::Failed { attempt }));
        let mut outcome = format!("{} is not moved.", npc.name);
        if social.progress.deceived {
            changes.push(social_change(
                &npc,
                SocialEvent::Deceived { believes: false },
            ));
            now = colder(now);
            outcome.push_str(&format!(" {} sees through the earlier lie.", npc.name));
        }
        if roll.as_ref().is_some_and(|r| r.total <= dc - BAD_FAILURE) {
            now = colder(now);
            outcome.push_str(" It goes badly.");
        }
        outcome
    };
    // The attitude of now: the request's own effects may have changed it already.
    let current = ctx.state.npc(&npc.id).map_or(now, |n| n.disposition);
    if now != attitude && current == attitude {
        changes.push(Change::NpcDisposition {
            npc: npc.id.clone(),
            disposition: now,
        });
    }
    ctx.commit(changes)?;
    let attitude = ctx.state.npc(&npc.id).map_or(now, |n| n.disposition);
    Ok(SocialChecked {
        character: ctx.state.name_of(&hero),
        npc: npc.name.clone(),
        skill: args.skill.skill().name().to_owned(),
        rolled: roll.as_ref().map(|r| r.total),
        success,
        outcome,
        learned: None,
        attitude,
        happened,
    })
}

/// What is aimed at: an NPC's own request (its size counts), something else (the size
/// given), or the attitude itself.
fn aim(args: &SocialCheckArgs, npc: &Npc, social: &Social) -> Result<Aim, ToolError> {
    let asked = args
        .request
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty());
    let Some(asked) = asked else {
        if args.skill == SocialSkill::Intimidation {
            return Err(ToolError::new(
                "intimidation demands something: give the request (what is demanded) and its size",
            ));
        }
        return Ok(Aim::WinOver);
    };
    if let Some(r) = matching(&social.requests, asked, |r| (&r.id, &r.keywords)) {
        if social.progress.granted.contains(&r.id) {
            return Err(ToolError::new(format!(
                "{} has already granted that",
                npc.name
            )));
        }
        return Ok(Aim::Known(r.clone()));
    }
    let size = args.size.ok_or_else(|| {
        ToolError::new("say what the request costs the NPC: size none, minor or significant")
    })?;
    Ok(Aim::Other(asked.to_lowercase(), size))
}

/// The table's DC, or the refusal of a request too large for the NPC's attitude.
fn dc_for(npc: &Npc, size: RequestSize) -> Result<i32, ToolError> {
    request_dc(npc.disposition, size).ok_or_else(|| {
        let most = [RequestSize::Minor, RequestSize::None]
            .into_iter()
            .find(|s| request_dc(npc.disposition, *s).is_some());
        ToolError::new(format!(
            "{} is {}: no words win a request that costs it that much (at most {}); win it over first (persuasion with no request)",
            npc.name,
            attitude_word(npc.disposition),
            match most {
                Some(RequestSize::Minor) => "a minor one",
                _ => "one that costs it nothing",
            }
        ))
    })
}

/// Insight: the NPC's goal, or whether its last claim was a lie.
fn insight(
    ctx: &mut ToolContext<'_>,
    args: &SocialCheckArgs,
    hero: &str,
    npc: &Npc,
    social: &Social,
) -> Result<SocialChecked, ToolError> {
    if args.request.is_some() || args.size.is_some() {
        return Err(ToolError::new(
            "insight asks nothing: request and size are null",
        ));
    }
    let claim = social.progress.last_claim.clone();
    let attempt = format!("insight:{}", claim.as_deref().unwrap_or("-"));
    if social.progress.failed.contains(&attempt) {
        return Err(ToolError::new(format!(
            "{} has already been read and gave nothing away; talk with {} first",
            npc.name, npc.name
        )));
    }
    let dc = social.insight_dc.unwrap_or(DEFAULT_INSIGHT_DC);
    let result = roll(ctx, hero, Skill::Insight, dc, args.advantage)?;
    let mut learned = Vec::new();
    let mut changes = Vec::new();
    let mut exposed = None;
    if result.success {
        if !npc.goal_revealed && !npc.goal.trim().is_empty() {
            learned.push(format!("What {} wants: {}", npc.name, npc.goal));
            changes.push(Change::NpcGoalRevealed {
                npc: npc.id.clone(),
            });
        }
        let told = claim.and_then(|c| social.topics.iter().find(|t| t.id == c));
        if let Some(topic) = told {
            let about = topic.keywords.first().map_or(topic.id.as_str(), |k| k);
            if topic.lie && !social.progress.exposed.contains(&topic.id) {
                changes.push(social_change(
                    npc,
                    SocialEvent::Exposed {
                        topic: topic.id.clone(),
                    },
                ));
                exposed = Some(topic.exposed.clone());
            }
            learned.push(if topic.lie {
                format!("{} lied about {about}.", npc.name)
            } else {
                format!("{} spoke the truth about {about}.", npc.name)
            });
        }
        if learned.is_empty() {
            learned.push(format!("{} hides nothing more you can see.", npc.name));
        }
    } else {
        changes.push(social_change(npc, SocialEvent::Failed { attempt }));
    }
    ctx.commit(changes)?;
    // A lie seen through for the first time plays what the adventure says it does.
    let happened = match exposed {
        Some(effects) => super::story::play(ctx, &effects, Some(hero))?,
        None => Vec::new(),
    };
    Ok(SocialChecked {
        character: ctx.state.name_of(hero),
        npc: npc.name.clone(),
        skill: Skill::Insight.name().to_owned(),
        rolled: Some(result.total),
        success: result.success,
        outcome: if result.success {
            format!("{} reads {}.", ctx.state.name_of(hero), npc.name)
        } else {
            format!("{} gives nothing away.", npc.name)
        },
        learned: (!learned.is_empty()).then(|| learned.join(" ")),
        // The attitude of now: a lie seen through may have changed it.
        attitude: ctx
            .state
            .npc(&npc.id)
            .map_or(npc.disposition, |n| n.disposition),
        happened,
    })
}

/// Rolls the hero's check against `dc` with its conditions, effects (Guidance, Help) and
/// Bardic Inspiration, as `roll_skill_check` does, and records the roll.
fn roll(
    ctx: &mut ToolContext<'_>,
    hero: &str,
    skill: Skill,
    dc: i32,
    advantage: Option<Advantage>,
) -> Result<crate::rules::CheckResult, ToolError> {
    let who = creature::find(ctx.state, ctx.srd, hero)?;
    let (mut sources, auto_fail) = check_modifiers(&who.conditions, false, false);
    let effects = crate::combat::ability_check_situation(ctx.state, hero, Some(skill.ability()));
    sources.extend(effects.sources);
    checks::add_situation(&mut sources, advantage);
    let bonus = ctx.roll_bonus(hero, crate::state::RollKind::Check);
    let mut result = roll_check_with(
        who.skill(skill) + bonus.total,
        dc,
        &sources,
        auto_fail,
        ctx.rng,
    );
    super::feature_bard::inspired_check(ctx, hero, &mut result);
    ctx.record_roll(
        format!("{} {skill} check", who.name),
        i64::from(result.total),
        Some(who.target.clone()),
        RollDetail::Check(result.clone()),
    );
    ctx.commit(effects.ends)?;
    Ok(result)
}

/// The id of the hero who speaks: a character of the party, standing.
pub(super) fn speaker(ctx: &ToolContext<'_>, name: &str) -> Result<String, ToolError> {
    let hero = ctx.state.character(name).ok_or_else(|| {
        ToolError::new(format!(
            "no hero {name:?}; the heroes are: {}",
            ctx.state.character_ids().join(", ")
        ))
    })?;
    if hero.dead || hero.hp.current == 0 {
        return Err(ToolError::new(format!("{} cannot speak now", hero.name)));
    }
    Ok(hero.id.clone())
}

/// The NPC `name` (id or name) where the party is; a miss names only the NPCs there.
pub(super) fn present_npc<'s>(state: &'s GameState, name: &str) -> Result<&'s Npc, ToolError> {
    let here = state.party_location().map(|l| l.id.as_str());
    let present: Vec<&Npc> = state
        .npcs
        .iter()
        .filter(|n| Some(n.location.as_str()) == here)
        .collect();
    present
        .iter()
        .copied()
        .find(|n| n.id.eq_ignore_ascii_case(name) || n.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let ids: Vec<&str> = present.iter().map(|n| n.id.as_str()).collect();
            ToolError::new(format!(
                "no NPC {name:?} where the party is; here: {}",
                if ids.is_empty() {
                    "nobody".to_owned()
                } else {
                    ids.join(", ")
                }
            ))
        })
}

/// The NPC's social data (empty for one the adventure gives none).
pub(super) fn social_of(state: &GameState, npc: &str) -> Social {
    state.story.social.get(npc).cloned().unwrap_or_default()
}

pub(super) fn social_change(npc: &Npc, event: SocialEvent) -> Change {
    Change::NpcSocial {
        npc: npc.id.clone(),
        event,
    }
}

/// The first item whose id is `asked` or one of whose keywords `asked` contains (or is
/// contained in), case-insensitively: forgiving of the player's wording.
pub(super) fn matching<'a, T>(
    items: &'a [T],
    asked: &str,
    keys: impl Fn(&'a T) -> (&'a String, &'a Vec<String>),
) -> Option<&'a T> {
    let asked = asked.trim().to_lowercase();
    items.iter().find(|item| {
        let (id, keywords) = keys(item);
        id.eq_ignore_ascii_case(&asked)
            || keywords.iter().any(|k| {
                let k = k.trim().to_lowercase();
                // A short word ("a", "of") names nothing: only three letters or more are
                // looked for inside a keyword.
                !k.is_empty() && (asked.contains(&k) || (asked.len() >= 3 && k.contains(&asked)))
            })
    })
}
