//! `talk_to`: what an NPC where the party is will talk about at its attitude, what it says of
//! a topic (and what telling it does, the first time), and a gift from a hero's pack (what the
//! NPC wants plays its effects). A topic the NPC will not discuss yet is refused without its
//! contents, and the list of topics names only those it will discuss now.

use schemars::JsonSchema;
use serde::Deserialize;

use super::results::Talked;
use super::social::{matching, present_npc, social_change, social_of, speaker};
use super::{ToolContext, ToolError};
use crate::state::social::{SocialEvent, Topic, attitude_word};
use crate::state::{Change, Npc, Social};

/// Arguments of `talk_to`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TalkArgs {
    /// The hero who speaks: id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// An NPC where the party is: id or name.
    #[schemars(extend("description" = ""))]
    pub npc: String,
    /// What to ask about (a word such as "oath"); null to hear what the NPC will talk about.
    #[schemars(description = "A word (\"oath\"); null: its topics.")]
    pub topic: Option<String>,
    /// An item from the hero's pack to give the NPC; null for none.
    #[schemars(extend("description" = ""))]
    pub give: Option<String>,
}

pub(super) fn talk_to(args: TalkArgs, ctx: &mut ToolContext<'_>) -> Result<Talked, ToolError> {
    let npc = present_npc(ctx.state, &args.npc)?.clone();
    let hero = speaker(ctx, &args.character)?;
    let social = social_of(ctx.state, &npc.id);
    let mut happened = Vec::new();
    let gave = match args
        .give
        .as_deref()
        .map(str::trim)
        .filter(|g| !g.is_empty())
    {
        Some(item) => Some(give(ctx, &hero, &npc, &social, item, &mut happened)?),
        None => None,
    };
    // The attitude after the gift: what it did may have warmed the NPC.
    let attitude = ctx
        .state
        .npc(&npc.id)
        .map_or(npc.disposition, |n| n.disposition);
    let open = |t: &&Topic| t.needs <= attitude;
    let asked = args
        .topic
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let Some(asked) = asked else {
        let topics: Vec<String> = social
            .topics
            .iter()
            .filter(open)
            .map(|t| t.keywords.join("/"))
            .collect();
        let locked = social.topics.iter().filter(|t| !open(t)).count();
        return Ok(Talked {
            npc: npc.name.clone(),
            attitude,
            topics,
            locked,
            says: None,
            gave,
            happened,
        });
    };
    // An open topic wins over a locked one the same words would raise.
    let open_topics: Vec<Topic> = social.topics.iter().filter(open).cloned().collect();
    let locked_match = matching(&social.topics, asked, |t| (&t.id, &t.keywords)).is_some();
    let topic = match (
        matching(&open_topics, asked, |t| (&t.id, &t.keywords)).cloned(),
        locked_match,
    ) {
        (Some(t), _) => t,
        (None, true) => {
            return Err(ToolError::new(format!(
                "{} will not speak of that while {}: it needs a friendlier attitude",
                npc.name,
                attitude_word(attitude)
            )));
        }
        (None, false) => {
            let words: Vec<String> = social
                .topics
                .iter()
                .filter(open)
                .map(|t| t.keywords.join("/"))
                .collect();
            return Err(ToolError::new(format!(
                "{} has nothing to say about {asked:?}; {} will talk about: {}",
                npc.name,
                npc.name,
                if words.is_empty() {
                    "nothing yet".to_owned()
                } else {
                    words.join(", ")
                }
            )));
        }
    };
    let first = !social.progress.told.contains(&topic.id);
    ctx.commit(vec![social_change(
        &npc,
        SocialEvent::Told {
            topic: topic.id.clone(),
        },
    )])?;
    if first {
        happened.extend(super::story::play(ctx, &topic.effects, Some(&hero))?);
    }
    let attitude = ctx.state.npc(&npc.id).map_or(attitude, |n| n.disposition);
    Ok(Talked {
        npc: npc.name.clone(),
        attitude,
        topics: Vec::new(),
        locked: 0,
        says: Some(topic.says.clone()),
        gave,
        happened,
    })
}

/// Gives one `item` from the hero's pack to an NPC that wants it, and plays what the gift
/// does; an item the hero lacks, or the NPC does not want, is refused.
fn give(
    ctx: &mut ToolContext<'_>,
    hero: &str,
    npc: &Npc,
    social: &Social,
    item: &str,
    happened: &mut Vec<String>,
) -> Result<String, ToolError> {
    let character = ctx
        .state
        .character(hero)
        .ok_or_else(|| ToolError::new(format!("no hero {hero:?}")))?;
    let wanted = |name: &str| {
        social
            .wants
            .iter()
            .find(|w| w.item.eq_ignore_ascii_case(name))
    };
    let stack = character
        .inventory
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(item))
        .or_else(|| {
            // "locket" for "Silver Locket": a word of the name, when only one item has it.
            let lower = item.to_lowercase();
            let mut found = character
                .inventory
                .iter()
                .filter(|s| s.quantity > 0 && s.name.to_lowercase().contains(&lower));
            found.next().filter(|_| found.next().is_none())
        })
        .filter(|s| s.quantity > 0)
        .ok_or_else(|| ToolError::new(format!("{} carries no {item:?}", character.name)))?;
    let name = stack.name.clone();
    let Some(want) = wanted(&name) else {
        return Err(ToolError::new(format!(
            "{} does not take the {name}; keep it",
            npc.name
        )));
    };
    if social.progress.given.contains(&want.item) {
        return Err(ToolError::new(format!(
            "{} already has the {name}; keep it",
            npc.name
        )));
    }
    ctx.commit(vec![
        Change::ItemRemoved {
            character: hero.to_owned(),
            item: name.clone(),
            quantity: 1,
        },
        social_change(
            npc,
            SocialEvent::Given {
                item: want.item.clone(),
            },
        ),
    ])?;
    happened.extend(super::story::play(ctx, &want.effects, Some(hero))?);
    Ok(name)
}
