//! The action phase: 2 to 5 suggested actions computed from the world after the turn.
//!
//! Best first: fight what is hostile, drink when hurt, talk to who is here, take what lies in
//! view, unlock a locked way with a carried key, strike a thing that can be broken, search a
//! room not searched yet, then each way on. An attack and a search carry their mechanic (the tool call that resolves them), so the
//! engine attaches exact odds from the sheet and rolls it first when the player picks it.

use serde_json::{Value, json};

use super::intent::TAKE_EVERYTHING;
use super::plan::SEARCH_DC;
use super::view::{Turn, World};
use super::ways::back_exit;
use super::words::{lower_article, mentions, slug, way};
use crate::tools::names::{ROLL_ATTACK, ROLL_SKILL_CHECK};

/// One suggestion as the `action_list` schema wants it.
struct Suggestion {
    id: String,
    description: String,
    reason: Option<String>,
    /// The tool and its arguments that resolve it.
    mechanic: Option<(&'static str, Value)>,
}

fn plain(id: impl Into<String>, description: impl Into<String>, reason: &str) -> Suggestion {
    Suggestion {
        id: id.into(),
        description: description.into(),
        reason: Some(reason.to_owned()),
        mechanic: None,
    }
}

/// The `{"actions": [...]}` answer for the world after this turn.
pub(crate) fn suggestions(turn: &Turn) -> Value {
    let w: &World = &turn.now;
    let hero_id = turn.hero.clone().unwrap_or_default();
    let hero = w.hero(&hero_id);
    let mut out: Vec<Suggestion> = Vec::new();
    if hero.is_some_and(|h| !h.down) {
        for m in w.foes() {
            out.push(Suggestion {
                id: format!("attack-{}", slug(&m.name)),
                description: format!("Attack the {}", m.name.trim_start_matches("The ")),
                reason: Some("it is hostile and will not let you pass".into()),
                mechanic: Some((
                    ROLL_ATTACK,
                    json!({"attacker": hero_id, "target": m.id, "attack": null, "advantage": null}),
                )),
            });
        }
        let hurt = hero.is_some_and(|h| h.hp.0 * 2 < h.hp.1);
        if let Some(potion) = hero
            .filter(|_| hurt)
            .and_then(|h| h.items.iter().find(|i| mentions(&i.name, "potion")))
        {
            out.push(plain(
                "drink-potion",
                format!("Drink a {}", potion.name),
                "you are badly hurt",
            ));
        }
        if w.encounter.is_some() && !w.foes().is_empty() {
            out.push(plain(
                "flee",
                "Try to break away and flee",
                "live to fight again",
            ));
        } else {
            if hurt {
                out.push(plain(
                    "rest",
                    "Take a short rest",
                    "recover before going on",
                ));
            }
            for n in &w.npcs {
                out.push(plain(
                    format!("talk-{}", slug(&n.name)),
                    format!("Speak with {}", n.name),
                    "they may know something",
                ));
            }
            let loot = w.loot();
            if let Some((_, item)) = loot.first() {
                out.push(if loot.len() > 1 {
                    plain("take-all", TAKE_EVERYTHING, "it may prove useful")
                } else {
                    plain(
                        format!("take-{}", slug(&item.name)),
                        format!("Take the {}", item.name),
                        "it may prove useful",
                    )
                });
            }
            let key = hero.and_then(|h| h.items.iter().find(|i| mentions(&i.name, "key")));
            for e in w.room.exits.iter().filter(|e| e.locked) {
                if let Some(key) = key {
                    out.push(plain(
                        format!("unlock-{}", slug(&e.direction)),
                        format!("Unlock the {} with the {}", e.direction, key.name),
                        "a key you carry may fit",
                    ));
                }
            }
            // Something that can be broken, still whole enough to take a blow.
            for f in w.room.features.iter().filter(|f| {
                f.hit_points
                    .as_deref()
                    .is_some_and(|hp| !hp.starts_with("0/"))
            }) {
                out.push(plain(
                    format!("break-{}", slug(&f.name)),
                    format!("Strike {}", lower_article(&f.name)),
                    "it looks as if it could be broken",
                ));
            }
            if !w.searched.contains(&w.room.id) {
                out.push(Suggestion {
                    id: "search".into(),
                    description: "Search the area carefully".into(),
                    reason: Some("there may be more here than meets the eye".into()),
                    mechanic: Some((
                        ROLL_SKILL_CHECK,
                        json!({"creature": hero_id, "skill": "perception", "dc": SEARCH_DC, "advantage": null, "reason": "a careful search", "subject": null}),
                    )),
                });
            }
            let back = back_exit(w).map(|e| e.direction.clone());
            for e in w.room.exits.iter().filter(|e| !e.locked) {
                let place = w.rooms.get(&e.to).map(|r| r.title.clone());
                let how = way(&e.direction);
                let description = match (&place, back.as_deref() == Some(e.direction.as_str())) {
                    (Some(title), true) => format!("Go back {how} to {title}"),
                    (_, true) => format!("Go back {how}"),
                    (Some(title), false) => format!("Go {how} to {title}"),
                    (None, false) => format!("Go {how}"),
                };
                out.push(plain(
                    format!("go-{}", slug(&e.direction)),
                    description,
                    "see what lies that way",
                ));
            }
        }
    }
    for (id, description) in [
        ("look-around", "Look around"),
        ("check-inventory", "Check your pack"),
    ] {
        if out.len() < 2 {
            out.push(plain(id, description, "take stock"));
        }
    }
    let mut seen = Vec::new();
    out.retain(|s| {
        let fresh = !seen.contains(&s.id);
        seen.push(s.id.clone());
        fresh
    });
    out.truncate(5);
    json!({
        "actions": out
            .iter()
            .map(|s| {
                let mechanic = s
                    .mechanic
                    .as_ref()
                    .map(|(tool, args)| json!({"tool": tool, "arguments": args.to_string()}));
                json!({"id": s.id, "description": s.description, "reason": s.reason, "mechanic": mechanic})
            })
            .collect::<Vec<_>>()
    })
}
