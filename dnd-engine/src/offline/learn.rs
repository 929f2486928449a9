//! Learning from tool results: each result moves the [`World`] on (a move changes the room, an
//! attack changes hit points, a loot grab empties a feature) and teaches lasting facts (which
//! monsters are hostile, an attack bonus, an AC, a room's feature loot).

use serde_json::Value;

use super::snapshot::{number, parse_hp, text};
use super::view::{Exit, Feature, Hero, Item, Monster, Npc, Room, Step, World};
use crate::tools::names as tool;

fn items_of(v: Option<&Value>) -> Vec<Item> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|i| Item {
                    name: text(i, "name"),
                    quantity: number(i, "quantity").unwrap_or(1).max(0) as u32,
                })
                .collect()
        })
        .unwrap_or_default()
}

fn take_from(stacks: &mut Vec<Item>, name: &str, quantity: u32) -> bool {
    let Some(i) = stacks
        .iter()
        .position(|s| s.name.eq_ignore_ascii_case(name))
    else {
        return false;
    };
    stacks[i].quantity = stacks[i].quantity.saturating_sub(quantity);
    if stacks[i].quantity == 0 {
        stacks.remove(i);
    }
    true
}

impl World {
    fn hero_mut(&mut self, who: &str) -> Option<&mut Hero> {
        self.party
            .iter_mut()
            .find(|h| h.id.eq_ignore_ascii_case(who) || h.name.eq_ignore_ascii_case(who))
    }

    fn monster_mut(&mut self, who: &str) -> Option<&mut Monster> {
        self.monsters
            .iter_mut()
            .find(|m| m.id.eq_ignore_ascii_case(who) || m.name.eq_ignore_ascii_case(who))
    }

    /// Learns from one tool result.
    pub fn apply(&mut self, step: &Step) {
        if !step.ok {
            return;
        }
        let r = &step.result;
        let args = &step.call.arguments;
        match step.call.name.as_str() {
            tool::GET_ROOM_DETAILS | tool::MOVE_TO => {
                if step.call.name == tool::MOVE_TO {
                    self.came_from = Some((self.room.id.clone(), text(args, "exit")));
                    self.monsters.clear();
                    self.encounter = None;
                    self.turn_of = None;
                }
                self.describe_room(r);
            }
            tool::ROLL_ATTACK => self.attack(r),
            tool::START_ENCOUNTER => {
                let order: Vec<String> = r["order"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|s| text(s, "id"))
                    .collect();
                for id in &order {
                    if self.monster(id).is_some() {
                        self.hostile.insert(id.clone(), true);
                    }
                }
                self.encounter = Some(order);
                self.monster_turns(r);
            }
            tool::NEXT_TURN => self.monster_turns(r),
            tool::END_ENCOUNTER => {
                self.encounter = None;
                self.turn_of = None;
            }
            tool::ADD_INVENTORY => {
                let (item, quantity) = (text(r, "took"), number(r, "quantity").unwrap_or(1));
                let quantity = quantity.max(0) as u32;
                let from = text(r, "from");
                let room = &mut self.room;
                let taken = match room
                    .features
                    .iter_mut()
                    .find(|f| f.id.as_deref() == Some(&from))
                {
                    Some(f) => take_from(&mut f.loot, &item, quantity),
                    None => take_from(&mut room.floor, &item, quantity),
                };
                if !taken {
                    for f in &mut room.features {
                        if take_from(&mut f.loot, &item, quantity) {
                            break;
                        }
                    }
                }
                self.rooms.insert(self.room.id.clone(), self.room.clone());
                if let Some(h) = self.hero_mut(&text(r, "character")) {
                    h.gold = number(r, "gold").unwrap_or(i64::from(h.gold)).max(0) as u32;
                    let now = number(r, "now_has").unwrap_or(0).max(0) as u32;
                    h.items.retain(|i| !i.name.eq_ignore_ascii_case(&item));
                    if now > 0 {
                        h.items.push(Item {
                            name: item,
                            quantity: now,
                        });
                    }
                }
            }
            tool::OPEN_LOCK if r["unlocked"] == true => {
                let direction = text(r, "exit");
                for e in &mut self.room.exits {
                    if e.direction == direction {
                        e.locked = false;
                    }
                }
            }
            tool::UPDATE_INVENTORY => {
                if let Some(h) = self.hero_mut(&text(r, "character")) {
                    let quantity = number(r, "quantity").unwrap_or(1).max(0) as u32;
                    take_from(&mut h.items, &text(r, "removed"), quantity);
                }
            }
            tool::USE_ITEM => {
                if r.get("healed_up_to").is_some() {
                    if let Some(h) = self.hero_mut(&text(args, "character")) {
                        take_from(&mut h.items, &text(r, "used"), 1);
                    }
                    if let (Some(h), Some(hp)) =
                        (self.hero_mut(&text(r, "on")), parse_hp(&text(r, "hp")))
                    {
                        h.hp = hp;
                        h.down = hp.0 == 0;
                    }
                }
                if let Some(direction) = r.get("unlocked_exit").and_then(Value::as_str) {
                    for e in &mut self.room.exits {
                        if e.direction == direction {
                            e.locked = false;
                        }
                    }
                }
            }
            tool::UPDATE_CHARACTER | tool::GET_CHARACTER_STATS => {
                let (current, max) = (number(&r["hp"], "current"), number(&r["hp"], "max"));
                let who = if r.get("id").is_some() {
                    text(r, "id")
                } else {
                    text(r, "character")
                };
                if let (Some(h), Some(c), Some(m)) = (self.hero_mut(&who), current, max) {
                    h.hp = (c.max(0) as u32, m.max(0) as u32);
                    h.down = c == 0;
                }
                if let Some(bonus) = r["attacks"][0]["to_hit"].as_i64() {
                    self.to_hit.insert(who.clone(), bonus as i32);
                }
                for (skill, modifier) in r["skills"].as_object().into_iter().flatten() {
                    if let Some(m) = modifier.as_i64() {
                        let skill = skill.to_lowercase().replace(' ', "_");
                        self.skills.insert((who.clone(), skill), m as i32);
                    }
                }
            }
            tool::CHECK_INVENTORY => {
                if let Some(h) = self.hero_mut(&text(r, "character")) {
                    h.items = items_of(r.get("items"));
                    h.gold = number(r, "gold").unwrap_or(0).max(0) as u32;
                }
            }
            tool::SET_GAME_FLAG => {
                self.flags.insert(text(r, "set"), r["value"].clone());
            }
            tool::ADVANCE_NPC_GOALS => {
                for a in r["advanced"].as_array().into_iter().flatten() {
                    let name = text(a, "npc");
                    if let Some(n) = self.npcs.iter_mut().find(|n| n.name == name) {
                        n.doing = a.get("now").and_then(Value::as_str).map(str::to_owned);
                    }
                }
            }
            tool::ROLL_SKILL_CHECK => {
                if matches!(text(args, "skill").as_str(), "perception" | "investigation") {
                    self.searched.insert(self.room.id.clone());
                }
            }
            tool::CAST_SPELL => {
                for e in r["effects"].as_array().into_iter().flatten() {
                    let damage = number(e, "damage")
                        .or_else(|| number(&e["attack"], "total_damage"))
                        .unwrap_or(0)
                        .max(0) as u32;
                    if let Some(m) = self.monster_mut(&text(e, "target"))
                        && let Some((current, max)) = m.hp
                    {
                        let left = current.saturating_sub(damage);
                        m.hp = Some((left, max));
                        m.alive = left > 0;
                    }
                }
            }
            _ => {}
        }
    }

    fn describe_room(&mut self, r: &Value) {
        let id = text(r, "id");
        let old = self.rooms.get(&id).cloned().unwrap_or_default();
        let features = r["features"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| {
                let name = text(f, "name");
                let known = old.features.iter().find(|o| o.name == name);
                Feature {
                    id: Some(text(f, "id")),
                    description: f
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                        .or_else(|| known.and_then(|k| k.description.clone())),
                    loot: if f.get("loot").is_some() {
                        items_of(f.get("loot"))
                    } else {
                        known.map(|k| k.loot.clone()).unwrap_or_default()
                    },
                    name,
                }
            })
            .collect();
        let description = text(r, "description");
        let room = Room {
            id: id.clone(),
            title: text(r, "title"),
            // An overview carries the one-line description: keep a full one already known.
            description: if description.len() < old.description.len() {
                old.description
            } else {
                description
            },
            exits: r["exits"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| Exit {
                    direction: text(e, "direction"),
                    to: text(e, "to"),
                    locked: e["locked"].as_bool().unwrap_or(false),
                })
                .collect(),
            features,
            floor: items_of(r.get("loot")),
        };
        let mut monsters = Vec::new();
        for m in r["monsters"].as_array().into_iter().flatten() {
            let id = text(m, "id");
            if let Some(h) = m.get("hostile").and_then(Value::as_bool) {
                self.hostile.insert(id.clone(), h);
            }
            let alive = m["alive"].as_bool().unwrap_or(true);
            let hp = self.monster(&id).and_then(|x| x.hp);
            monsters.push(Monster {
                name: text(m, "name"),
                id,
                hp: if alive {
                    hp
                } else {
                    hp.map(|(_, max)| (0, max))
                },
                alive,
            });
        }
        self.monsters = monsters;
        self.npcs = r["npcs"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|n| {
                let id = text(n, "id");
                let doing = self
                    .npcs
                    .iter()
                    .find(|o| o.id == id)
                    .and_then(|o| o.doing.clone());
                Npc {
                    name: text(n, "name"),
                    description: n
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    doing,
                    id,
                }
            })
            .collect();
        self.rooms.insert(id, room.clone());
        self.room = room;
    }

    fn attack(&mut self, r: &Value) {
        let target = text(r, "target");
        let attacker = text(r, "attacker");
        for (i, swing) in r["attacks"].as_array().into_iter().flatten().enumerate() {
            let hp = parse_hp(&text(swing, "target_hp"));
            if i == 0 {
                let hero_id = self.hero(&attacker).map(|h| h.id.clone());
                if let (Some(id), Some(bonus)) = (hero_id, number(&swing["result"], "attack_bonus"))
                {
                    self.to_hit.insert(id, bonus as i32);
                }
                let monster_id = self.monster(&target).map(|m| m.id.clone());
                if let (Some(id), Some(ac)) = (monster_id, number(&swing["result"], "target_ac")) {
                    self.armor.insert(id, ac as i32);
                }
            }
            let Some(hp) = hp else { continue };
            if let Some(m) = self.monster_mut(&target) {
                m.hp = Some(hp);
                m.alive = hp.0 > 0;
            } else if let Some(h) = self.hero_mut(&target) {
                h.hp = hp;
                h.down = hp.0 == 0;
            }
        }
    }

    fn monster_turns(&mut self, r: &Value) {
        self.turn_of = r["now"]["turn_of"].as_str().map(str::to_owned);
        for turn in r["monster_turns"].as_array().into_iter().flatten() {
            if turn.get("attacks").is_some() {
                self.attack(turn);
            }
            // A monster that fled or surrendered is no longer a foe.
            if turn.get("morale").is_some()
                && let Some(m) = turn["monster"].as_str().and_then(|id| self.monster_mut(id))
            {
                m.alive = false;
            }
        }
    }
}
