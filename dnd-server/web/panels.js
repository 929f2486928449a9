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

function renderSheets(view) {
  const mine = view.seat && view.seat.hero;
  const cards = (view.heroes || []).map((h) => {
    const hp = Number(h.hp), max = Number(h.max_hp) || 1;
    const rows = [
      ['HP', el('span', { class: 'hp', 'data-testid': 'hp', 'data-hero': h.name }, `${h.hp}/${h.max_hp}`,
        h.temp_hp ? ` (+${h.temp_hp} temporary)` : '')],
      ['AC', el('span', { 'data-testid': 'ac' }, h.ac)],
    ];
    if (h.conditions && h.conditions.length) rows.push(['Conditions', describe(h.conditions)]);
    if (h.concentration) rows.push(['Concentrating', describe(h.concentration)]);
    const slots = describe(h.slots);
    if (slots) rows.push(['Spell slots', slots]);
    const items = Array.isArray(h.inventory) ? h.inventory.map(describe) : [];
    return el('article', { class: `sheet${h.name === mine ? ' mine' : ''}`, 'data-testid': 'sheet', 'data-hero': h.name },
      el('h3', {}, h.name, h.name === mine ? el('span', { class: 'you' }, ' (you)') : null),
      el('p', { class: 'class' }, `${h.class ?? ''} ${h.level ?? ''}`.trim()),
      el('div', { class: 'hp-bar', role: 'presentation' },
        el('div', { class: 'hp-fill', style: `width:${Math.max(0, Math.min(100, (100 * hp) / max))}%` })),
      el('dl', {}, rows.map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])),
      items.length ? el('details', { class: 'inventory' }, el('summary', {}, `Inventory (${items.length})`),
        el('ul', {}, items.map((i) => el('li', {}, i)))) : null);
  });
  $('sheets').replaceChildren(...cards);
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
  const box = $('suggestions');
  box.replaceChildren(...(view.suggestions || []).map((s) =>
    el('button', { type: 'button', class: 'suggestion', 'data-testid': 'suggestion', 'data-index': s.index,
      disabled: state.busy, onclick: () => chooseAction(s) },
    el('span', { class: 'label' }, s.label),
    s.odds ? el('span', { class: 'odds' }, ` ${s.odds}`) : null)));
}

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
  const W = 130, H = 70, BW = 110, BH = 44;
  const xs = rooms.map((r) => r.x), ys = rooms.map((r) => r.y);
  const minX = Math.min(...xs), minY = Math.min(...ys);
  const pos = new Map(rooms.map((r) => [r.id, { x: (r.x - minX) * W + 10, y: (r.y - minY) * H + 10 }]));
  const width = (Math.max(...xs) - minX) * W + BW + 20, height = (Math.max(...ys) - minY) * H + BH + 20;
  map.setAttribute('viewBox', `0 0 ${width} ${height}`);
  for (const exit of (view.map && view.map.exits) || []) {
    const a = pos.get(exit.from), b = pos.get(exit.to);
    if (!a || !b) continue;
    const line = svg('line', { x1: a.x + BW / 2, y1: a.y + BH / 2, x2: b.x + BW / 2, y2: b.y + BH / 2, class: 'exit' });
    line.append(svg('title', {}, `${exit.direction}`));
    map.append(line);
  }
  for (const room of rooms) {
    const p = pos.get(room.id);
    const g = svg('g', { class: `room${room.here ? ' here' : ''}`, 'data-testid': 'map-room', 'data-room': room.id });
    g.append(svg('title', {}, room.here ? `${room.title} (the party is here)` : room.title));
    g.append(svg('rect', { x: p.x, y: p.y, width: BW, height: BH, rx: 6 }));
    const title = room.title.length > 18 ? room.title.slice(0, 17) + '…' : room.title;
    g.append(svg('text', { x: p.x + BW / 2, y: p.y + 20, 'text-anchor': 'middle' }, title));
    if (room.here) g.append(svg('text', { x: p.x + BW / 2, y: p.y + 36, 'text-anchor': 'middle', class: 'here-mark' }, '★ you are here'));
    map.append(g);
  }
  map.setAttribute('aria-label', `Map of ${rooms.length} rooms found; the party is in ${rooms.find((r) => r.here)?.title ?? 'an unknown place'}`);
}

/** In a fight: the initiative order (whose turn marked) and everyone's positions. */
function renderCombat(view) {
  const panel = $('combat-panel');
  const combat = view.combat;
  panel.hidden = !combat;
  if (!combat) return;
  $('initiative').replaceChildren(...(combat.order || []).map((c) =>
    el('li', { class: c.current ? 'current' : '', 'aria-current': c.current ? 'true' : null, 'data-testid': 'initiative-entry' },
      el('span', { class: 'init' }, c.initiative), ' ', c.name,
      c.hp !== undefined && c.hp !== null ? el('span', { class: 'init-hp' }, ` HP ${c.hp}`) : null)));
  const field = $('positions');
  field.replaceChildren();
  const positions = combat.positions || [];
  if (!positions.length) {
    field.hidden = true;
    return;
  }
  field.hidden = false;
  const xs = positions.map((p) => p.x), ys = positions.map((p) => p.y);
  const minX = Math.min(...xs), minY = Math.min(...ys);
  const spanX = Math.max(...xs) - minX || 1, spanY = Math.max(...ys) - minY || 1;
  const scale = Math.min(240 / spanX, 120 / spanY, 40);
  field.setAttribute('viewBox', `0 0 ${spanX * scale + 80} ${spanY * scale + 50}`);
  const heroes = new Set((view.heroes || []).map((h) => h.name));
  for (const p of positions) {
    const cx = (p.x - minX) * scale + 40, cy = (p.y - minY) * scale + 20;
    const g = svg('g', { class: heroes.has(p.name) ? 'token hero' : 'token foe' });
    g.append(svg('title', {}, `${p.name} at ${p.x}, ${p.y}`));
    g.append(svg('circle', { cx, cy, r: 10 }));
    g.append(svg('text', { x: cx, y: cy + 24, 'text-anchor': 'middle' }, p.name));
    field.append(g);
  }
}

function renderSeats(view) {
  const saved = loadSaved().find((c) => c.id === state.id);
  const links = new Map(((saved && saved.seats) || []).map((s) => [s.hero, s.link]));
  $('seats').replaceChildren(...(view.seats || []).map((seat) => {
    const name = typeof seat === 'string' ? seat : seat.hero ?? seat.name;
    const ai = typeof seat === 'object' && (seat.ai || seat.companion);
    const link = links.get(name);
    const mine = view.seat && view.seat.hero === name;
    return el('li', { 'data-testid': 'seat', 'data-hero': name },
      el('span', {}, name, mine ? ' (you)' : '', ai ? ' (AI companion)' : ''),
      link && !mine ? el('a', { href: link, class: 'seat-link', 'data-testid': 'seat-link', 'data-hero': name },
        `Seat link for ${name}`) : null);
  }));
}

function renderStatus(view) {
  const whose = view.whose_turn;
  const mine = view.seat && view.seat.hero;
  $('status').textContent = `${view.adventure ?? 'Campaign'} · turn ${view.turn}${mine ? ` · you play ${mine}` : ''}`;
  const banner = $('whose-turn');
  banner.hidden = !whose;
  if (whose) {
    banner.textContent = whose === mine ? `Your turn, ${whose}.` : `${whose}'s turn: wait for them, or your action will be refused.`;
    banner.classList.toggle('yours', whose === mine);
  }
}

/** Shows a view; the story is redrawn unless it already shows this turn as it streamed. */
