//! What an NPC will say and do for the party, as data ([`Social`]: its topics, the gifts it
//! wants, the requests it may grant, how hard it is to read), what the party has already had of
//! it ([`SocialProgress`]), and the DCs of the rules' conversation reaction table
//! ([`request_dc`], [`win_over_dc`]). `tools::social` plays it; [`Change::NpcSocial`] records
//! it.
//!
//! # The reaction table
//!
//! The DC a Persuasion, Deception or Intimidation check must reach for a request, by the NPC's
//! attitude and what the request costs it (the SRD game master's conversation table: friendly
//! 0/10/20; indifferent one band up; hostile two; unfriendly between them; helpful one band
//! down). A dash is a request the NPC refuses at that attitude, whatever the roll:
//!
//! | attitude | none | minor | significant | win over (no request) |
//! |---|---|---|---|---|
//! | helpful | 0 | 0 | 10 | — |
//! | friendly | 0 | 10 | 20 | 20 |
//! | indifferent | 10 | 20 | 30 | 15 |
//! | unfriendly | 15 | 25 | — | 15 |
//! | hostile | 20 | — | — | 20 |
//!
//! DC 0 needs no roll. "Win over" is a Persuasion or Deception with no request: on a success
//! the attitude moves one step up.
//!
//! [`Change::NpcSocial`]: super::Change::NpcSocial

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::change::ChangeError;
use super::{Disposition, GameState, StoryEffect};

/// How much a request costs the NPC who grants it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum RequestSize {
    /// No risk or sacrifice ("tell us the way").
    #[default]
    None,
    /// A minor risk or sacrifice ("lend us your lantern").
    Minor,
    /// A significant one ("stand aside from the stair you swore to guard").
    Significant,
}

/// Something an NPC knows and will tell, at an attitude.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Topic {
    /// Stable id, unique for the NPC ("the-oath").
    pub id: String,
    /// The words that raise it ("oath", "ring"); at least one.
    pub keywords: Vec<String>,
    /// What the NPC says.
    pub says: String,
    /// The least attitude at which it speaks of it (default: indifferent).
    #[serde(default = "indifferent")]
    pub needs: Disposition,
    /// Whether what it says is a lie (Insight can tell).
    #[serde(default, skip_serializing_if = "is_false")]
    pub lie: bool,
    /// What happens the first time it is told.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<StoryEffect>,
    /// What happens the first time an Insight check sees through it (a `lie` only): the liar
    /// caught out, a hidden way shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exposed: Vec<StoryEffect>,
}

/// A gift an NPC wants: given, it leaves the giver's pack and its effects happen (once).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Want {
    /// The item's name.
    pub item: String,
    /// What happens when it is given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<StoryEffect>,
}

/// Something the party may ask of an NPC, granted on a successful check (once).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// Stable id, unique for the NPC.
    pub id: String,
    /// The words that name it in what the party asks ("pass", "stair"); at least one.
    pub keywords: Vec<String>,
    /// What it costs the NPC.
    pub size: RequestSize,
    /// What happens when it is granted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<StoryEffect>,
}

/// An NPC's social data and what the party has had of it, kept in [`super::Story::social`] by
/// the NPC's id (never in the snapshot: the topics' contents, the lies and the insight DC are
/// the adventure's secrets).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Social {
    /// The DC of an Insight check to read it (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insight_dc: Option<i32>,
    /// What it knows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics: Vec<Topic>,
    /// The gifts it wants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wants: Vec<Want>,
    /// What it may be asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requests: Vec<Request>,
    /// What has happened between it and the party.
    #[serde(default, skip_serializing_if = "SocialProgress::is_empty")]
    pub progress: SocialProgress,
}

/// What the party has already had of an NPC: each topic's effects, gift and request happens
/// once, and a failed attempt is not tried again at the same attitude.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SocialProgress {
    /// The topics told.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub told: BTreeSet<String>,
    /// The wanted items given.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub given: BTreeSet<String>,
    /// The requests granted.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub granted: BTreeSet<String>,
    /// The lies an Insight check has seen through (topic ids).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub exposed: BTreeSet<String>,
    /// The attempts that failed, each "what@attitude".
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub failed: BTreeSet<String>,
    /// The topic it spoke of last (what Insight judges).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_claim: Option<String>,
    /// Whether it believes a lie the party told it (found out on the next failed check).
    #[serde(default, skip_serializing_if = "is_false")]
    pub deceived: bool,
}

impl SocialProgress {
    /// Whether nothing has happened yet (for serde's `skip_serializing_if`).
    pub fn is_empty(&self) -> bool {
        *self == SocialProgress::default()
    }
}

/// One thing that happened between the party and an NPC ([`super::Change::NpcSocial`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SocialEvent {
    /// It told this topic.
    Told {
        /// The topic's id.
        topic: String,
    },
    /// It was given this wanted item.
    Given {
        /// The item's name, as the NPC's `wants` writes it.
        item: String,
    },
    /// It granted this request.
    Granted {
        /// The request's id.
        request: String,
    },
    /// An Insight check saw through this topic, a lie.
    Exposed {
        /// The topic's id.
        topic: String,
    },
    /// An attempt failed ("request-id@indifferent"): not tried again at that attitude.
    Failed {
        /// The attempt.
        attempt: String,
    },
    /// It now believes a lie (true) or has found it out (false).
    Deceived {
        /// Whether it believes one.
        believes: bool,
    },
}

fn indifferent() -> Disposition {
    Disposition::Indifferent
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The DC of a request of this size at this attitude, or `None` when the NPC refuses it at
/// that attitude whatever the roll (the table in the module docs).
pub fn request_dc(attitude: Disposition, size: RequestSize) -> Option<i32> {
    use Disposition::*;
    use RequestSize::{Minor, None as Free, Significant};
    match (attitude, size) {
        (Helpful, Free | Minor) | (Friendly, Free) => Some(0),
        (Helpful, Significant) | (Friendly, Minor) | (Indifferent, Free) => Some(10),
        (Unfriendly, Free) => Some(15),
        (Friendly, Significant) | (Indifferent, Minor) | (Hostile, Free) => Some(20),
        (Unfriendly, Minor) => Some(25),
        (Indifferent, Significant) => Some(30),
        (Unfriendly, Significant) | (Hostile, Minor | Significant) => None,
    }
}

/// The DC to move an NPC's attitude one step up with no request, or `None` at helpful.
pub fn win_over_dc(attitude: Disposition) -> Option<i32> {
    match attitude {
        Disposition::Helpful => None,
        Disposition::Friendly | Disposition::Hostile => Some(20),
        Disposition::Indifferent | Disposition::Unfriendly => Some(15),
    }
}

/// The attitude one step friendlier (helpful stays helpful).
pub fn warmer(attitude: Disposition) -> Disposition {
    match attitude {
        Disposition::Hostile => Disposition::Unfriendly,
        Disposition::Unfriendly => Disposition::Indifferent,
        Disposition::Indifferent => Disposition::Friendly,
        Disposition::Friendly | Disposition::Helpful => Disposition::Helpful,
    }
}

/// The attitude one step worse (hostile stays hostile).
pub fn colder(attitude: Disposition) -> Disposition {
    match attitude {
        Disposition::Helpful => Disposition::Friendly,
        Disposition::Friendly => Disposition::Indifferent,
        Disposition::Indifferent => Disposition::Unfriendly,
        Disposition::Unfriendly | Disposition::Hostile => Disposition::Hostile,
    }
}

/// An attitude as a word ("indifferent").
pub fn attitude_word(attitude: Disposition) -> &'static str {
    match attitude {
        Disposition::Hostile => "hostile",
        Disposition::Unfriendly => "unfriendly",
        Disposition::Indifferent => "indifferent",
        Disposition::Friendly => "friendly",
        Disposition::Helpful => "helpful",
    }
}

/// Applies [`super::Change::NpcSocial`]: refused for an unknown NPC, a topic,
/// item or request it does not have, or one already told, given or granted.
pub(super) fn apply(
    state: &mut GameState,
    npc: &str,
    event: &SocialEvent,
) -> Result<(), ChangeError> {
    if state.npc(npc).is_none() {
        return Err(ChangeError::Invalid(format!("no NPC {npc:?}")));
    }
    // An NPC with no social data of its own still has progress: a failed attempt, a lie.
    let story = std::sync::Arc::make_mut(&mut state.story);
    let social = story.social.entry(npc.to_owned()).or_default();
    let fresh = |done: &mut BTreeSet<String>, what: &str, known: bool| {
        if !known {
            return Err(ChangeError::Invalid(format!("{npc} has no {what:?}")));
        }
        if !done.insert(what.to_owned()) {
            return Err(ChangeError::Invalid(format!(
                "{npc}: {what:?} happened already"
            )));
        }
        Ok(())
    };
    let progress = &mut social.progress;
    match event {
        SocialEvent::Told { topic } => {
            let known = social.topics.iter().any(|t| &t.id == topic);
            // A topic may be told again (its effects only once): only the first is recorded.
            if known && progress.told.contains(topic) {
                progress.last_claim = Some(topic.clone());
                return Ok(());
            }
            fresh(&mut progress.told, topic, known)?;
            progress.last_claim = Some(topic.clone());
        }
        SocialEvent::Given { item } => {
            let known = social.wants.iter().any(|w| &w.item == item);
            fresh(&mut progress.given, item, known)?;
        }
        SocialEvent::Granted { request } => {
            let known = social.requests.iter().any(|r| &r.id == request);
            fresh(&mut progress.granted, request, known)?;
        }
        SocialEvent::Exposed { topic } => {
            let known = social.topics.iter().any(|t| &t.id == topic && t.lie);
            fresh(&mut progress.exposed, topic, known)?;
        }
        SocialEvent::Failed { attempt } => {
            progress.failed.insert(attempt.clone());
        }
        SocialEvent::Deceived { believes } => progress.deceived = *believes,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use Disposition::*;

    #[test]
    fn the_reaction_table_reads_as_the_rules_write_it() {
        // The SRD's friendly row: no risk DC 0, a minor one DC 10, a significant one DC 20.
        let row = |a| {
            [
                RequestSize::None,
                RequestSize::Minor,
                RequestSize::Significant,
            ]
            .map(|s| request_dc(a, s))
        };
        assert_eq!(row(Friendly), [Some(0), Some(10), Some(20)]);
        assert_eq!(row(Helpful), [Some(0), Some(0), Some(10)]);
        assert_eq!(row(Indifferent), [Some(10), Some(20), Some(30)]);
        assert_eq!(row(Unfriendly), [Some(15), Some(25), None]);
        assert_eq!(row(Hostile), [Some(20), None, None]);
        // Each DC is one the rules allow (0 needs no roll).
        for a in [Hostile, Unfriendly, Indifferent, Friendly, Helpful] {
            for dc in row(a).into_iter().flatten().chain(win_over_dc(a)) {
                assert!((0..=30).contains(&dc), "{a:?}: {dc}");
            }
        }
        assert_eq!(win_over_dc(Helpful), None);
        assert_eq!(win_over_dc(Unfriendly), Some(15));
    }

    #[test]
    fn attitudes_step_one_at_a_time_and_stop_at_the_ends() {
        assert_eq!(warmer(Hostile), Unfriendly);
        assert_eq!(warmer(Friendly), Helpful);
        assert_eq!(warmer(Helpful), Helpful);
        assert_eq!(colder(Helpful), Friendly);
        assert_eq!(colder(Indifferent), Unfriendly);
        assert_eq!(colder(Hostile), Hostile);
        for a in [Unfriendly, Indifferent, Friendly] {
            assert_eq!(colder(warmer(a)), a);
            assert_eq!(attitude_word(a), format!("{a:?}").to_lowercase());
        }
    }
}
