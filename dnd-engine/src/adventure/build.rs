//! From an [`Adventure`] to the [`GameState`] a campaign starts from.

use super::{Adventure, AdventureError, Problem};
use crate::rules::HitPoints;
use crate::srd::Srd;
use crate::state::{GameState, GameTime, ItemStack, Location, Mode, MonsterInstance, Npc, Story};
use std::sync::Arc;

use rand::RngExt;

/// 08:00, in minutes since midnight.
const START_MINUTE: u32 = 8 * 60;

pub(super) fn new_game(
    adventure: &Adventure,
    srd: Arc<Srd>,
    party: &[&str],
) -> Result<GameState, AdventureError> {
    let source = format!("adventure {:?}", adventure.title);
    adventure.validate_on(&srd, &source)?;

    let mut problems = Vec::new();
    let characters = if party.is_empty() {
        adventure.characters.clone()
    } else {
        let mut chosen = Vec::with_capacity(party.len());
        for (i, id) in party.iter().enumerate() {
            let Some(found) = adventure
                .characters
                .iter()
                .find(|c| c.id.eq_ignore_ascii_case(id))
            else {
                problems.push(Problem::new(
                    format!("party[{i}]"),
                    format!(
                        "no pregenerated character {id:?}; the characters are: {}",
                        adventure.character_ids().join(", ")
                    ),
                ));
                continue;
            };
            if chosen
                .iter()
                .any(|c: &crate::state::Character| c.id == found.id)
            {
                problems.push(Problem::new(
                    format!("party[{i}]"),
                    format!("{:?} is in the party twice", found.id),
                ));
                continue;
            }
            chosen.push(found.clone());
        }
        chosen
    };
    if characters.is_empty() && problems.is_empty() {
        problems.push(Problem::new(
            "characters",
            "the adventure has no pregenerated characters, and a game needs at least one",
        ));
    }
    if !problems.is_empty() {
        return Err(AdventureError {
            source_name: source,
            problems,
        });
    }
    let characters: Vec<_> = characters
        .into_iter()
        .map(|mut c| {
            c.location = adventure.start.clone();
            c.inventory = Arc::new(with_carried_magic(&srd, &c.inventory));
            // A hero of level N has earned at least level N's XP: the next level is counted
            // from there, not from nothing.
            let floor = crate::rules::experience::xp_for_level(c.level).unwrap_or(0);
            c.xp = c.xp.max(floor);
            c
        })
        .collect();

    let mut monsters = Vec::new();
    for room in &adventure.rooms {
        for spawn in &room.monsters {
            // Validation above proved the lookup succeeds.
            let template = srd.monster(&spawn.srd).map_err(|e| {
                AdventureError::one(
                    &source,
                    format!("rooms[{}].monsters[{}].srd", room.id, spawn.id),
                    e.to_string(),
                )
            })?;
            monsters.push(MonsterInstance {
                id: spawn.id.clone(),
                name: spawn.name.clone().unwrap_or_else(|| template.name.clone()),
                template: template.slug.clone(),
                hp: HitPoints::full(spawn.hit_points.unwrap_or(template.hit_points)),
                armor_class: spawn.armor_class.unwrap_or(template.armor_class),
                conditions: Default::default(),
                location: room.id.clone(),
                hostile: spawn.hostile,
                revealed: false,
                area: spawn.area.clone(),
                morale: Default::default(),
                spent_actions: Vec::new(),
                uses_spent: Default::default(),
                legendary_resistance: template.legendary_resistance.unwrap_or(0),
                concentration: None,
                holds: Vec::new(),
                timed_effects: Vec::new(),
                summoned: None,
                kind: template.kind.clone(),
            });
        }
    }

    let locations: Vec<_> = adventure
        .rooms
        .iter()
        .map(|room| Location {
            id: room.id.clone(),
            title: room.title.clone(),
            short_description: room.short_description.clone(),
            description: room.description.clone(),
            exits: room.exits.clone(),
            features: room
                .features
                .iter()
                .map(|f| {
                    let mut f = f.clone();
                    f.loot = with_carried_magic(&srd, &f.loot);
                    f
                })
                .collect(),
            loot: with_carried_magic(&srd, &room.loot),
            visited: room.id == adventure.start,
            areas: room.areas.clone(),
            light: room.light,
        })
        .collect();

    let npcs: Vec<_> = adventure
        .npcs
        .iter()
        .map(|npc| Npc {
            id: npc.id.clone(),
            name: npc.name.clone(),
            description: npc.description.clone(),
            disposition: npc.disposition,
            location: npc.room.clone(),
            goal: npc.goal.clone(),
            goal_revealed: npc.goal_revealed,
            goal_steps: npc.goal_steps.clone(),
            current_step: npc.current_step,
        })
        .collect();

    let mut state = GameState {
        title: adventure.title.clone(),
        characters: Arc::new(characters),
        monsters: Arc::new(monsters),
        locations: Arc::new(locations),
        npcs: Arc::new(npcs),
        encounter: None,
        flags: Arc::new(adventure.flags.clone()),
        time: GameTime {
            day: 1,
            minute: START_MINUTE,
        },
        mode: Mode::Exploration,
        summary: adventure.summary.as_str().into(),
        memory: Default::default(),
        turn: 0,
        // A fresh secret per campaign: see `GameState::dice_seed`.
        dice_seed: crate::state::DiceSeed(crate::dice::game_rng().random()),
        fair: Default::default(),
        levelling: adventure.levelling(),
        story: Arc::new(Story {
            endings: adventure.endings.clone(),
            ended: None,
            on_defeat: adventure
                .rooms
                .iter()
                .flat_map(|r| &r.monsters)
                .filter(|m| !m.on_defeat.is_empty())
                .map(|m| (m.id.clone(), m.on_defeat.clone()))
                .collect(),
            // Every NPC's first step starts with the campaign's clock.
            step_reached_at: adventure
                .npcs
                .iter()
                .map(|n| (n.id.clone(), u64::from(START_MINUTE)))
                .collect(),
            puzzles: adventure.puzzles.clone(),
            puzzle_tries: Default::default(),
            social: adventure
                .npcs
                .iter()
                .filter(|n| {
                    n.insight_dc.is_some()
                        || !n.topics.is_empty()
                        || !n.wants.is_empty()
                        || !n.requests.is_empty()
                })
                .map(|n| {
                    let social = crate::state::Social {
                        insight_dc: n.insight_dc,
                        topics: n.topics.clone(),
                        wants: n.wants.clone(),
                        requests: n.requests.clone(),
                        progress: Default::default(),
                    };
                    (n.id.clone(), social)
                })
                .collect(),
            flags_set_by_story: Default::default(),
        }),
        srd: crate::state::GameSrd::new(Arc::clone(&srd)),
    };
    // Recorded now, while every defeat's effects are still waiting to be played.
    let flags = state.flags_story_sets();
    Arc::make_mut(&mut state.story).flags_set_by_story = flags;
    Ok(state)
}

/// The stacks with the SRD's data on each magic item that does something while carried (a
/// "+1 Longsword", "Chain Mail +2") and has no data of the adventure's own, so that the
/// sheet's reads (`Character::armor_class_now`, its attack bonus) need no SRD. Items only used
/// (a potion, a scroll) are looked up by name when used.
fn with_carried_magic(srd: &Srd, stacks: &[ItemStack]) -> Vec<ItemStack> {
    stacks
        .iter()
        .map(|s| {
            let mut s = s.clone();
            if s.magic.is_none() {
                s.magic = srd.magic_item(&s.name).filter(|d| !d.carried.is_empty());
            }
            s
        })
        .collect()
}
