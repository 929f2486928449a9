//! Learning from tool results: each result moves the [`World`] on (a move changes the room, an
//! attack changes hit points, a loot grab empties a feature) and teaches lasting facts (which
//! monsters are hostile, an attack bonus, an AC, a room's feature loot). Results come typed
//! ([`ToolOutput`]): nothing here reads JSON by key.

use serde_json::Value;

use super::snapshot::parse_hp;
use super::view::{Exit, Feature, Hero, Item, Monster, Npc, Room, Step, World};
use crate::effects::Outcome;
use crate::state::ItemStack;
use crate::tools::results::{
    AttackOutcome, AttackReport, InventoryChanged, ItemTaken, ItemUsed, MoveOutcome, RoomDetails,
    ToolOutput, TurnEvent, TurnNow,
};

fn items_of(stacks: &[ItemStack]) -> Vec<Item> {
    stacks
        .iter()
        .map(|i| Item {
            name: i.name.clone(),
            quantity: i.quantity,
        })
        .collect()
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
        let Some(output) = &step.output else {
            return;
        };
        let args = &step.call.arguments;
        match output {
            ToolOutput::Room(room) => self.describe_room(room),
            ToolOutput::MovedTo(room) => {
                let exit = args.get("exit").and_then(Value::as_str).unwrap_or_default();
                self.came_from = Some((self.room.id.clone(), exit.to_owned()));
                self.monsters.clear();
                self.encounter = None;
                self.turn_of = None;
                self.areas = false;
                self.distances.clear();
                self.describe_room(room);
            }
            ToolOutput::Attack(AttackOutcome::Made(report)) => self.attack(report),
            ToolOutput::Attack(AttackOutcome::Waiting(_)) => {}
            ToolOutput::FightStarted(started) => {
                let order: Vec<String> = started.order.iter().map(|p| p.id.clone()).collect();
                for id in &order {
                    if self.monster(id).is_some() {
                        self.hostile.insert(id.clone(), true);
                    }
                }
                self.encounter = Some(order);
                self.monster_turns(&started.monster_turns, &started.now);
            }
            ToolOutput::TurnsPassed(passed) => {
                self.monster_turns(&passed.monster_turns, &passed.now)
            }
            ToolOutput::FightEnded(_) => {
                self.encounter = None;
                self.turn_of = None;
                self.distances.clear();
            }
            ToolOutput::MoveInFight(moved) => self.moved(moved),
            ToolOutput::ItemAdded(taken) => self.take_loot(taken),
            ToolOutput::Lock(attempt) if attempt.unlocked => self.unlock(&attempt.exit),
            ToolOutput::InventoryChanged(InventoryChanged::Removed(removed)) => {
                if let Some(h) = self.hero_mut(&removed.character) {
                    take_from(&mut h.items, &removed.removed, removed.quantity);
                }
            }
            ToolOutput::ItemUsed(ItemUsed::Healed { used, on, hp, .. }) => {
                let user = args
                    .get("character")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if let Some(h) = self.hero_mut(user) {
                    take_from(&mut h.items, used, 1);
                }
                if let (Some(h), Some(hp)) = (self.hero_mut(on), parse_hp(hp)) {
                    h.hp = hp;
                    h.down = hp.0 == 0;
                }
            }
            ToolOutput::ItemUsed(ItemUsed::Unlocked { unlocked_exit, .. }) => {
                self.unlock(unlocked_exit);
            }
            ToolOutput::CharacterUpdated(updated) => {
                let hp = (updated.hp.current, updated.hp.max);
                if let Some(h) = self.hero_mut(&updated.character) {
                    h.hp = hp;
                    h.down = hp.0 == 0;
                }
            }
            ToolOutput::Sheet(sheet) => {
                if let Some(h) = self.hero_mut(&sheet.id) {
                    h.hp = (sheet.hp.current, sheet.hp.max);
                    h.down = sheet.hp.current == 0;
                }
                if let Some(first) = sheet.attacks.first() {
                    self.to_hit.insert(sheet.id.clone(), first.to_hit);
                }
                for (skill, modifier) in &sheet.skills {
                    let skill = skill.to_lowercase().replace(' ', "_");
                    self.skills.insert((sheet.id.clone(), skill), *modifier);
                }
            }
            ToolOutput::Inventory(inventory) => {
                if let Some(h) = self.hero_mut(&inventory.character) {
                    h.items = items_of(&inventory.items);
                    h.gold = inventory.gold;
                }
            }
            ToolOutput::FlagSet(set) => {
                self.flags.insert(set.set.clone(), set.value.clone());
            }
            ToolOutput::Goals(goals) => {
                for a in &goals.advanced {
                    if let Some(n) = self.npcs.iter_mut().find(|n| n.name == a.npc) {
                        n.doing = a.now.clone();
                    }
                }
            }
            ToolOutput::TrapDisarm(attempt) if attempt.disarmed || attempt.set_off => {
                if let Some(f) = self.feature_mut(&attempt.feature) {
                    f.trapped = false;
                }
            }
            ToolOutput::ObjectAttacked(hit) => {
                if let Some(f) = self.feature_mut(&hit.object) {
                    let whole = f
                        .hit_points
                        .as_deref()
                        .and_then(|h| h.split_once('/'))
                        .map_or("?", |(_, whole)| whole)
                        .to_owned();
                    f.hit_points = Some(format!("{}/{whole}", hit.hp_left));
                }
            }
            ToolOutput::Check(_) => {
                let skill = args.get("skill").and_then(Value::as_str);
                if matches!(skill, Some("perception" | "investigation")) {
                    self.searched.insert(self.room.id.clone());
                }
            }
            ToolOutput::Spell(cast) => {
                for effect in &cast.effects {
                    let (target, damage) = match effect {
                        Outcome::Attack { target, attack } => (target, attack.total_damage),
                        Outcome::Save { target, damage, .. }
                        | Outcome::Damage { target, damage, .. } => (target, *damage),
                        // Healing, and what lasts: no hit points lost.
                        _ => continue,
                    };
                    if let Some(m) = self.monster_mut(target)
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

    /// Items taken from where the party is: off a feature's loot or the floor.
    fn take_loot(&mut self, taken: &ItemTaken) {
        let room = &mut self.room;
        let took = match room
            .features
            .iter_mut()
            .find(|f| f.id.as_deref() == Some(&taken.from))
        {
            Some(f) => take_from(&mut f.loot, &taken.took, taken.quantity),
            None => take_from(&mut room.floor, &taken.took, taken.quantity),
        };
        if !took {
            for f in &mut room.features {
                if take_from(&mut f.loot, &taken.took, taken.quantity) {
                    break;
                }
            }
        }
        self.rooms.insert(self.room.id.clone(), self.room.clone());
        if let Some(h) = self.hero_mut(&taken.character) {
            h.gold = taken.gold;
            h.items
                .retain(|i| !i.name.eq_ignore_ascii_case(&taken.took));
            if taken.now_has > 0 {
                h.items.push(Item {
                    name: taken.took.clone(),
                    quantity: taken.now_has,
                });
            }
        }
    }

    /// A feature of the room here, by id or name.
    fn feature_mut(&mut self, name: &str) -> Option<&mut Feature> {
        self.room.features.iter_mut().find(|f| {
            f.name.eq_ignore_ascii_case(name) || f.id.as_deref().is_some_and(|i| i == name)
        })
    }

    fn unlock(&mut self, direction: &str) {
        for e in &mut self.room.exits {
            if e.direction == direction {
                e.locked = false;
            }
        }
    }

    fn describe_room(&mut self, r: &RoomDetails) {
        let old = self.rooms.get(&r.id).cloned().unwrap_or_default();
        let features = r
            .features
            .iter()
            .map(|f| {
                let known = old.features.iter().find(|o| o.name == f.name);
                Feature {
                    id: Some(f.id.clone()),
                    description: f
                        .description
                        .clone()
                        .or_else(|| known.and_then(|k| k.description.clone())),
                    loot: match &f.loot {
                        Some(loot) => items_of(loot),
                        None => known.map(|k| k.loot.clone()).unwrap_or_default(),
                    },
                    name: f.name.clone(),
                    trapped: f.trapped,
                    hit_points: f.hit_points.clone(),
                }
            })
            .collect();
        let room = Room {
            id: r.id.clone(),
            title: r.title.clone(),
            // An overview carries the one-line description: keep a full one already known.
            description: if r.description.len() < old.description.len() {
                old.description
            } else {
                r.description.clone()
            },
            exits: r
                .exits
                .iter()
                .map(|e| Exit {
                    direction: e.direction.clone(),
                    to: e.to.clone(),
                    locked: e.locked,
                })
                .collect(),
            features,
            floor: items_of(&r.loot),
        };
        let mut monsters = Vec::new();
        for m in &r.monsters {
            self.hostile.insert(m.id.clone(), m.hostile);
            let known = self.monster(&m.id);
            let hp = known.and_then(|x| x.hp);
            let kind = known.map(|x| x.kind.clone()).unwrap_or_default();
            monsters.push(Monster {
                kind,
                name: m.name.clone(),
                id: m.id.clone(),
                hp: if m.alive {
                    hp
                } else {
                    hp.map(|(_, max)| (0, max))
                },
                alive: m.alive,
            });
        }
        self.monsters = monsters;
        self.npcs = r
            .npcs
            .iter()
            .map(|n| {
                let doing = self
                    .npcs
                    .iter()
                    .find(|o| o.id == n.id)
                    .and_then(|o| o.doing.clone());
                Npc {
                    id: n.id.clone(),
                    name: n.name.clone(),
                    description: Some(n.description.clone()),
                    doing,
                }
            })
            .collect();
        self.rooms.insert(r.id.clone(), room.clone());
        self.room = room;
    }

    /// A creature moved: its distances are unknown again (and the opportunity attacks on it
    /// tell new ones).
    fn moved(&mut self, outcome: &MoveOutcome) {
        let (mover, attacks) = match outcome {
            MoveOutcome::Moved(m) => (Some(m.creature.as_str()), &m.opportunity_attacks),
            MoveOutcome::Dropped(d) => (None, &d.opportunity_attacks),
        };
        if let Some(mover) = mover {
            let mover = self.id_of(mover);
            self.distances
                .retain(|(a, b), _| *a != mover && *b != mover);
        }
        for attack in attacks {
            self.attack(attack);
        }
    }

    /// The id of a combatant named by id or name.
    fn id_of(&self, who: &str) -> String {
        self.hero(who)
            .map(|h| h.id.clone())
            .or_else(|| self.monster(who).map(|m| m.id.clone()))
            .unwrap_or_else(|| who.to_owned())
    }

    fn attack(&mut self, r: &AttackReport) {
        if let Some(swing) = r.attacks.first() {
            let pair = (self.id_of(&r.attacker), self.id_of(&r.target));
            self.distances.insert(pair, swing.distance_ft);
        }
        for (i, swing) in r.attacks.iter().enumerate() {
            if i == 0 {
                let hero_id = self.hero(&r.attacker).map(|h| h.id.clone());
                if let Some(id) = hero_id {
                    self.to_hit.insert(id, swing.result.attack_bonus);
                }
                let monster_id = self.monster(&r.target).map(|m| m.id.clone());
                if let Some(id) = monster_id {
                    self.armor.insert(id, swing.result.target_ac);
                }
            }
            let Some(hp) = parse_hp(&swing.target_hp) else {
                continue;
            };
            if let Some(m) = self.monster_mut(&r.target) {
                m.hp = Some(hp);
                m.alive = hp.0 > 0;
            } else if let Some(h) = self.hero_mut(&r.target) {
                h.hp = hp;
                h.down = hp.0 == 0;
            }
        }
    }

    fn monster_turns(&mut self, events: &[TurnEvent], now: &TurnNow) {
        self.turn_of.clone_from(&now.turn_of);
        for event in events {
            match event {
                TurnEvent::Attack(report) | TurnEvent::Legendary { attack: report, .. } => {
                    self.attack(report)
                }
                TurnEvent::Moves { moves, .. } => self.moved(moves),
                // A monster that fled or surrendered is no longer a foe.
                TurnEvent::Morale { monster, .. } => {
                    if let Some(m) = self.monster_mut(monster) {
                        m.alive = false;
                    }
                }
                _ => {}
            }
        }
    }
}
