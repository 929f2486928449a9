//! Narration of the story tools' results: what an NPC said or took (`talk_to`), how a social
//! check went (`social_check`), a trap disarmed or set off (`disarm_trap`) and a blow at an
//! object (`attack_object`), each followed by what the story did, scrubbed of numbers.

use super::words::{capital, lower_article, sanitize, the};
use crate::tools::results::{Talked, ToolOutput};

/// The sentences for one story tool's result; none for any other tool.
pub(crate) fn story(output: &ToolOutput) -> Vec<String> {
    match output {
        ToolOutput::Talk(talked) => talk(talked),
        ToolOutput::Social(checked) => {
            let mut out = vec![sanitize(&checked.outcome)];
            out.extend(checked.learned.iter().map(|l| sanitize(l)));
            out.extend(checked.happened.iter().map(|l| sanitize(l)));
            out
        }
        ToolOutput::TrapDisarm(attempt) => {
            let mut out = vec![match (attempt.disarmed, attempt.set_off) {
                (true, _) => format!(
                    "{} works carefully: {} can harm no one now.",
                    attempt.character,
                    lower_article(&attempt.feature)
                ),
                (false, true) => format!("A slip: {} goes off!", lower_article(&attempt.feature)),
                (false, false) => format!(
                    "{} cannot make {} safe, not this time.",
                    attempt.character,
                    lower_article(&attempt.feature)
                ),
            }];
            out.extend(attempt.what_happened.iter().map(|l| sanitize(l)));
            out
        }
        ToolOutput::ObjectAttacked(hit) => {
            let what = lower_article(&hit.object);
            let mut out = vec![match (hit.hit, hit.broken, hit.damage) {
                (_, true, _) => format!("{} breaks apart under the blow!", capital(&what)),
                (true, false, 0) => format!("The blow lands, but {what} takes no harm from it."),
                (true, false, _) => format!("The blow bites into {what}; it cracks but holds."),
                (false, ..) => format!("The blow glances off {what}."),
            }];
            out.extend(hit.what_happened.iter().map(|l| sanitize(l)));
            out
        }
        _ => Vec::new(),
    }
}

/// What an NPC said: its topics when none was asked, or what it told, and a gift taken.
fn talk(talked: &Talked) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(item) = &talked.gave {
        out.push(format!("{} takes {}.", talked.npc, the(item)));
    }
    match &talked.says {
        Some(says) => out.push(format!("{} says: \"{}\"", talked.npc, sanitize(says))),
        None if talked.gave.is_none() => out.push(match talked.topics.as_slice() {
            [] => format!("{} has nothing to say to you yet.", talked.npc),
            topics => format!(
                "{} will speak of {}.",
                talked.npc,
                topics
                    .iter()
                    .map(|t| t.replace('/', " or "))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        }),
        None => {}
    }
    if talked.says.is_none() && talked.locked > 0 {
        out.push(format!(
            "There is more {} might say, were {} friendlier.",
            talked.npc, talked.npc
        ));
    }
    out.extend(talked.happened.iter().map(|l| sanitize(l)));
    out
}
