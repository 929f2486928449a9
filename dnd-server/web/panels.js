// The table's panels, drawn from a View (see /api/openapi.json): the character sheets, the
// mechanics panel, the suggested actions, the map of found rooms, the fight, the seats and the
// status line; and the small DOM helpers app.js shares. Loaded before app.js; plain script.
'use strict';

// ---------- small helpers ----------

/** An element with attributes and children (strings become text, never HTML). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Any JSON value as short readable text (slots, inventory and conditions vary in shape). */
function describe(value) {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(describe).filter(Boolean).join(', ');
  if (typeof value === 'object') {
    if ('name' in value) {
      const n = value.quantity ?? value.count;
      return n && n !== 1 ? `${value.name} ×${n}` : String(value.name);
    }
    if ('level' in value && ('left' in value || 'remaining' in value)) {
      const max = value.max ?? value.total;
      return `level ${value.level}: ${value.left ?? value.remaining}${max !== undefined ? '/' + max : ''}`;
    }
    return Object.entries(value).map(([k, v]) => `${k}: ${describe(v)}`).join(', ');
  }
  return String(value);
}

// ---------- the panels ----------

const signed = (n) => (Number(n) >= 0 ? `+${n}` : String(n));

/** One hero's sheet: HP (with a bar), AC and the numbers a player looks up in play. */
function sheetCard(h, mine) {
  const hp = Number(h.hp), max = Number(h.max_hp) || 1;
  let hpText = `${h.hp}/${h.max_hp}`;
  if (h.temp_hp) hpText += ` (+${h.temp_hp} temporary)`;
  if (h.dead) hpText += ' · dead';
  else if (h.down) hpText += ` · down (death saves ${h.down[0]} ✓ ${h.down[1]} ✗)`;
  const rows = [
    ['HP', el('span', { class: 'hp', 'data-testid': 'hp', 'data-hero': h.name }, hpText)],
    ['AC', el('span', { 'data-testid': 'ac' }, h.ac)],
  ];
  if (h.speed) rows.push(['Speed', `${h.speed} ft`]);
  // The server says "Conditions: none" and "none" in words; only real entries are shown.
  const conditions = (h.conditions || []).filter((c) => !/^conditions: none$/i.test(c));
  if (conditions.length) rows.push(['Conditions', el('ul', { class: 'conditions' }, conditions.map((c) => el('li', {}, c)))]);
  if (h.concentration) rows.push(['Concentrating on', describe(h.concentration)]);
  if (h.slots && h.slots !== 'none') rows.push(['Spell slots', describe(h.slots)]);
  if (h.spellcasting) rows.push(['Spellcasting', `attack ${signed(h.spellcasting[0])}, save DC ${h.spellcasting[1]}`]);
  if (h.spells && h.spells.length) rows.push(['Spells', h.spells.join(', ')]);
  if (h.attacks && h.attacks.length) {
    rows.push(['Attacks', h.attacks.map(([name, bonus, damage]) => `${name} ${signed(bonus)} (${damage})`).join('; ')]);
  }
  const abilities = (h.abilities || []).map(([name, score, mod]) =>
    el('li', {}, el('abbr', { title: name }, name.slice(0, 3).toUpperCase()), ` ${score} (${signed(mod)})`));
  const items = (h.inventory || []).map((i) => el('li', {}, describe(i), i.note ? el('span', { class: 'note' }, ` — ${i.note}`) : null));
  if (h.gold) items.push(el('li', {}, `${h.gold} gp`));
  const kind = [h.race, h.class, h.level].filter((x) => x !== undefined && x !== '').join(' ');
  // HP and AC always show; the rest of another seat's sheet folds away to keep the panel short.
  const rest = [
    el('dl', {}, rows.slice(2).map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])),
    abilities.length ? el('ul', { class: 'abilities', 'aria-label': 'Ability scores' }, abilities) : null,
    items.length ? el('details', { class: 'inventory' }, el('summary', {}, `Inventory (${items.length})`), el('ul', {}, items)) : null,
    h.progress ? el('p', { class: 'progress' }, h.progress) : null,
  ];
  return el('article', { class: `sheet${mine ? ' mine' : ''}`, 'data-testid': 'sheet', 'data-hero': h.name },
    el('h3', {}, h.name, mine ? el('span', { class: 'you' }, ' (you)') : null),
    el('p', { class: 'class' }, kind),
    el('div', { class: 'hp-bar', 'aria-hidden': 'true' },
      el('div', { class: `hp-fill${hp * 2 <= max ? ' low' : ''}`, style: `width:${Math.max(0, Math.min(100, (100 * hp) / max))}%` })),
    el('dl', {}, rows.slice(0, 2).map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])),
    mine ? rest : el('details', { class: 'more' }, el('summary', {}, `More of ${h.name}'s sheet`), rest));
}

function renderSheets(view) {
  const mine = view.seat && view.seat.hero;
  // This seat's hero first: it is the sheet the player reads most.
  const heroes = [...(view.heroes || [])].sort((a, b) => (b.name === mine) - (a.name === mine));
  $('sheets').replaceChildren(...heroes.map((h) => sheetCard(h, h.name === mine)));
}

function renderRolls(view) {
  const rolls = [...(view.rolls || [])].reverse();
  $('rolls').replaceChildren(...rolls.map((r) =>
    el('li', { class: `roll${r.turn === view.turn ? ' new' : ''}`, 'data-testid': 'roll', 'data-turn': r.turn },
      el('span', { class: 'roll-turn' }, `T${r.turn}`), ' ',
      el('span', { class: 'what' }, r.what), ' ',
      el('code', { class: 'dice' }, describe(r.dice)), ' = ',
      el('strong', { class: 'total' }, r.total))));
  if (!rolls.length) $('rolls').append(el('li', { class: 'empty' }, 'No rolls yet.'));
}

function renderSuggestions(view) {
  const mine = view.seat && view.seat.hero;
  const list = view.suggestions || [];
  // Suggestions are made for the hero who played last; only that hero's seat may take one.
  const forOther = list.length && list[0].for && list[0].for !== mine ? list[0].for : null;
  const caption = forOther ? [el('p', { class: 'hint' }, `Suggested for ${forOther}:`)] : [];
  $('suggestions').replaceChildren(...caption,
    ...list.map((s) =>
      el('button', { type: 'button', class: 'suggestion', 'data-testid': 'suggestion', 'data-index': s.index,
        disabled: state.busy || Boolean(forOther), onclick: () => chooseAction(s),
        title: s.rolled ? `The engine rolls ${s.dice || 'it'} first, then the game master narrates` : null },
      el('span', { class: 'label' }, s.description || s.label),
      s.odds ? el('span', { class: 'odds' }, ` ${s.odds}`) : null,
      s.dice ? el('span', { class: 'dice' }, ` ${s.dice}`) : null)));
}

/** Where an unexplored way points from its room, for a short stub on the map. */
const STEPS = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0], up: [0.5, -0.5], down: [0.5, 0.5] };

/** The found rooms as boxes at the view's x/y, exits as lines, the party's room marked. */
function renderMap(view) {
  const map = $('map');
  const rooms = (view.map && view.map.rooms) || [];
  map.replaceChildren();
  if (!rooms.length) {
    map.setAttribute('viewBox', '0 0 200 40');
    map.append(svg('text', { x: 100, y: 24, 'text-anchor': 'middle', class: 'map-empty' }, 'No rooms found yet.'));
    return;
  }
  const W = 165, H = 90, BW = 138, BH = 46, PAD = 30;
  const xs = rooms.map((r) => r.x), ys = rooms.map((r) => r.y);
  const minX = Math.min(...xs), minY = Math.min(...ys);
  // At least two rooms wide and high, centred: one room found is not drawn huge.
  const width = Math.max((Math.max(...xs) - minX) * W + BW + 2 * PAD, 2 * W + PAD);
  const height = Math.max((Math.max(...ys) - minY) * H + BH + 2 * PAD, 2 * H);
  const offX = (width - ((Math.max(...xs) - minX) * W + BW)) / 2, offY = (height - ((Math.max(...ys) - minY) * H + BH)) / 2;
  const centre = new Map(rooms.map((r) => [r.id, { x: (r.x - minX) * W + offX + BW / 2, y: (r.y - minY) * H + offY + BH / 2 }]));
  map.setAttribute('viewBox', `0 0 ${width} ${height}`);
  for (const exit of (view.map && view.map.exits) || []) {
    const a = centre.get(exit.from), b = centre.get(exit.to);
    if (!a || !b) continue;
    const line = svg('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: 'exit' });
    line.append(svg('title', {}, exit.direction));
    map.append(line);
  }
  for (const room of rooms) {
    const c = centre.get(room.id);
    for (const way of room.ways || []) {
      if (way.to && centre.has(way.to)) continue; // drawn as a line above
      const [dx, dy] = STEPS[way.direction] || [0.45, 0];
      const stub = svg('line', { x1: c.x, y1: c.y, x2: c.x + dx * (BW / 2 + 22), y2: c.y + dy * (BH / 2 + 22), class: `way${way.locked ? ' locked' : ''}` });
      stub.append(svg('title', {}, `${way.direction}: not explored${way.locked ? ' (locked)' : ''}`));
      map.append(stub);
    }
  }
  for (const room of rooms) {
    const c = centre.get(room.id);
    const g = svg('g', { class: `room${room.here ? ' here' : ''}`, 'data-testid': 'map-room', 'data-room': room.id });
    g.append(svg('title', {}, room.here ? `${room.title} (the party is here)` : room.title));
    g.append(svg('rect', { x: c.x - BW / 2, y: c.y - BH / 2, width: BW, height: BH, rx: 6 }));
    const title = room.title.length > 19 ? room.title.slice(0, 18) + '…' : room.title;
    g.append(svg('text', { x: c.x, y: c.y - (room.here ? 3 : -4), 'text-anchor': 'middle' }, title));
    if (room.here) g.append(svg('text', { x: c.x, y: c.y + 14, 'text-anchor': 'middle', class: 'here-mark' }, '★ you are here'));
    map.append(g);
  }
  const here = rooms.find((r) => r.here);
  map.setAttribute('aria-label', `Map of ${rooms.length} rooms found; the party is in ${here ? here.title : 'an unknown place'}`);
}

/** In a fight: the round, the initiative order (whose turn marked) and everyone's positions. */
function renderCombat(view) {
  const combat = view.combat;
  $('combat-panel').hidden = !combat;
  if (!combat) return;
  $('combat-title').textContent = combat.round ? `Fight · round ${combat.round}` : 'Fight';
  $('initiative').replaceChildren(...(combat.order || []).map((c) =>
    el('li', { class: `${c.current ? 'current' : ''}${c.hero ? ' hero' : ' foe'}`, 'aria-current': c.current ? 'true' : null,
      'data-testid': 'initiative-entry' },
    el('span', { class: 'init' }, c.initiative), ' ', c.name,
    c.hp !== undefined && c.hp !== null ? el('span', { class: 'init-hp' }, ` · HP ${c.hp}`) : null,
    c.current ? el('span', { class: 'now' }, ' ◀ acting') : null)));
  const field = $('positions');
  field.replaceChildren();
  const positions = combat.positions || [];
  field.toggleAttribute('hidden', !positions.length); // an SVG element has no .hidden property
  if (!positions.length) return;
  // Feet east and north; north is up on the page. The field shows at least 20 by 10 feet, so
  // a few feet apart are not drawn as far apart.
  const xs = positions.map((p) => p.x), ys = positions.map((p) => p.y);
  const spanX = Math.max(Math.max(...xs) - Math.min(...xs), 20), spanY = Math.max(Math.max(...ys) - Math.min(...ys), 10);
  const minX = (Math.max(...xs) + Math.min(...xs) - spanX) / 2, maxY = (Math.max(...ys) + Math.min(...ys) + spanY) / 2;
  const scale = Math.min(300 / spanX, 150 / spanY);
  field.setAttribute('viewBox', `0 0 ${spanX * scale + 120} ${spanY * scale + 70}`);
  const heroes = new Set((combat.order || []).filter((c) => c.hero).map((c) => c.name));
  const current = (combat.order || []).find((c) => c.current);
  const labels = []; // placed label boxes, so names never print over each other
  for (const p of positions) {
    const cx = (p.x - minX) * scale + 60, cy = (maxY - p.y) * scale + 20;
    const g = svg('g', { class: `token ${heroes.has(p.name) ? 'hero' : 'foe'}${current && current.name === p.name ? ' current' : ''}` });
    g.append(svg('title', {}, `${p.name}: ${p.x} ft east, ${p.y} ft north`));
    g.append(svg('circle', { cx, cy, r: 8 }));
    let ly = cy + 20;
    const half = p.name.length * 3.2;
    while (labels.some((b) => Math.abs(b.y - ly) < 13 && Math.abs(b.x - cx) < b.half + half)) ly += 13;
    labels.push({ x: cx, y: ly, half });
    if (ly > cy + 20) g.append(svg('line', { x1: cx, y1: cy + 7, x2: cx, y2: ly - 10, class: 'leader' }));
    g.append(svg('text', { x: cx, y: ly, 'text-anchor': 'middle' }, p.name));
    field.append(g);
  }
}

function renderSeats(view) {
  const saved = loadSaved().find((c) => c.id === state.id);
  const links = (saved && saved.seats) || [];
  const mine = view.seat && view.seat.hero;
  $('seats').replaceChildren(...(view.seats || []).map((seat) => {
    const link = links.find((s) => s.hero === seat.hero || s.hero === seat.hero_id);
    return el('li', { 'data-testid': 'seat', 'data-hero': seat.hero },
      el('span', {}, seat.hero, seat.hero === mine ? ' (you)' : '', seat.ai ? ' (AI companion)' : ''),
      link && seat.hero !== mine ? el('a', { href: link.link, class: 'seat-link', 'data-testid': 'seat-link', 'data-hero': seat.hero },
        `Seat link for ${seat.hero}`) : null);
  }));
  if (!links.length) $('seats').append(el('li', { class: 'hint' }, 'The other seats\u2019 links are with the player who started the game.'));
}

function renderStatus(view) {
  const whose = view.whose_turn;
  const mine = view.seat && view.seat.hero;
  $('status').textContent = `${view.title || view.adventure || 'Campaign'} · turn ${view.turn}${mine ? ` · you play ${mine}` : ''}`;
  const banner = $('whose-turn');
  banner.hidden = !whose;
  if (whose) {
    banner.textContent = whose === mine ? `Your turn, ${whose}.` : `${whose}'s turn: wait for them, or your action will be refused.`;
    banner.classList.toggle('yours', whose === mine);
  }
}
