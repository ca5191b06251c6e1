'use strict';
// The simulator worker: Showdown's own battle simulator driven over newline-delimited JSON.
//
// One request line in, one answer line out, each carrying the request's "id":
//   {"id", "op": "ping"}                         -> {"id", "ok": true, "pid"}
//   {"id", "op": "build", "spec"}                -> {"id", "ok": true, "state": summary}
//   {"id", "op": "search", "worlds": [{"spec", "weight", "theirs"?}], "ours": [choice...],
//    "samples", "deadline_ms", "deadline_at"?, "seed", "luck"?, "by_reply"?, "max_turns"?, "doom"?,
//    "switch_doom"?, "enemy_model"?, "script_only"?, "enemy_repeat"?, "roll_coin"?, "win_curve"?}
//     -> {"id", "ok": true, "worlds": [...], "turns", "ms"}
//     ("deadline_at", in epoch ms, caps the time a request waited in the queue behind another
//     battle's: a search answered after its caller gave up is wasted work; "by_reply" plays the
//     enemy's likelier replies first, each against all our choices; "max_turns" stops after that
//     many simulated turns, whatever the clock; "doom" values an active the foe knocks out first
//     as a sack, see doomChance(), and "switch_doom" does so for our switch-in alone, in the rows
//     where our choice is a switch; "enemy_model": "power" plays the enemy's choice as
//     MaxBasePowerPlayer's, see maxPowerMix(), "heuristic" as SimpleHeuristicsPlayer's, see
//     heuristicMix(), and "script_only" plays only the replies that script would click;
//     "enemy_repeat": {"move", "share"} gives the move the enemy chose last against the same foe
//     that share of its mix, see withRepeat(); "roll_coin" makes a damage roll that knocks out on
//     some rolls and not on others a coin of the likely luck, see rollCoin(); "win_curve": k
//     values each played turn by winChance(score, k) in place of its score)
//   {"id", "op": "solve", "matrices": [matrix...]} -> {"id", "ok": true, "solutions": [...]}
//   anything that fails                          -> {"id", "ok": false, "error": "what failed"}
//
// A spec is the battle as our side knows it (randbot/lookahead/state.py writes it): both teams as
// Showdown sets plus their state (HP, status and its counters, boosts, volatiles, PP), side conditions,
// weather, terrain and pseudo-weather. Our side is always p1 in the simulated battle.
// The search plays every pair (our choice, their choice) for one turn from each sampled world,
// resolves the switches a faint or a pivot forces, and scores where the turn leads (evaluate()).
const path = require('path');

const root = process.env.RANDBOT_NODE_MODULES || path.join(__dirname, '..', '..', 'node_modules');
const ps = path.join(root, 'pokemon-showdown');
const {Battle} = require(path.join(ps, 'dist', 'sim', 'battle'));
const {PRNG} = require(path.join(ps, 'dist', 'sim', 'prng'));
const {Dex, toID} = require(path.join(ps, 'dist', 'sim', 'dex'));

const NOOP = () => {};
const BOOSTS = ['atk', 'def', 'spa', 'spd', 'spe', 'accuracy', 'evasion'];
const MAX_FORCED_SWITCHES = 4; // switch requests resolved after one turn (faints, pivots)

// ---------------------------------------------------------------- building a battle from a spec

// Each set is named by its spec index ("0".."5"): Showdown reorders side.pokemon on switches, and
// the leaves of a search report HP per spec slot.
function toSet(p, index) {
  return {
    name: String(index),
    species: p.species,
    level: p.level || 100,
    moves: p.moves,
    item: p.item || '',
    ability: p.ability || '',
    teraType: p.tera_type || undefined,
    evs: p.evs || {hp: 85, atk: 85, def: 85, spa: 85, spd: 85, spe: 85},
    ivs: p.ivs || {hp: 31, atk: 31, def: 31, spa: 31, spd: 31, spe: 31},
    nature: '',
    gender: p.gender || '',
  };
}

function effectState(battle, id, target, fields) {
  return battle.initEffectState({id, target, ...fields});
}

function applyPokemon(battle, mon, p, foeActive) {
  if (p.fainted || p.hp <= 0) {
    mon.hp = 0;
    mon.fainted = true;
    mon.status = 'fnt';
    mon.side.pokemonLeft--;
    mon.side.totalFainted++;
    return;
  }
  if (typeof p.hp === 'number') mon.hp = Math.max(1, Math.min(mon.maxhp, Math.round(p.hp)));
  else if (typeof p.hp_fraction === 'number') mon.hp = Math.max(1, Math.round(mon.maxhp * p.hp_fraction));
  mon.status = p.status || '';
  const statusFields = {};
  if (p.status === 'slp') {
    statusFields.startTime = 3;
    statusFields.time = Math.max(1, p.sleep_turns ?? 2);
  } else if (p.status === 'tox') {
    statusFields.stage = p.toxic_stage ?? 0;
  }
  mon.statusState = effectState(battle, mon.status, mon, statusFields);
  if (p.item !== undefined) {
    mon.item = toID(p.item);
    mon.itemState = effectState(battle, mon.item, mon, {});
  }
  if (p.item_knocked_off) mon.itemKnockedOff = true;
  if (p.last_item) mon.lastItem = toID(p.last_item);
  if (p.ability) {
    mon.baseAbility = mon.ability = toID(p.ability);
    mon.abilityState = effectState(battle, mon.ability, mon, {...(p.ability_state || {})});
  }
  if (p.pp) {
    for (const slot of mon.moveSlots) {
      if (p.pp[slot.id] !== undefined) slot.pp = Math.max(0, Math.min(slot.maxpp, p.pp[slot.id]));
    }
  }
  if (p.terastallized) mon.terastallized = p.terastallized;
  // Intrepid Sword and Dauntless Shield raise a stat once a battle (Gen 9): spent already
  if (p.entry_boost_spent) mon.swordBoost = mon.shieldBoost = true;
  if (!mon.isActive) return;
  mon.clearVolatile(false); // (boosts too: they are set after it)
  mon.boosts = Object.fromEntries(BOOSTS.map((b) => [b, (p.boosts && p.boosts[b]) || 0]));
  mon.activeTurns = p.active_turns ?? 1;
  mon.activeMoveActions = p.active_move_actions ?? mon.activeTurns;
  // an ActiveMove, as in a real battle: toJSON keeps a plain Move only as a string
  if (p.last_move) mon.lastMove = battle.dex.getActiveMove(p.last_move);
  for (const [id, fields] of Object.entries(p.volatiles || {})) addVolatile(battle, mon, id, fields, foeActive);
  // Gens 1 and 2 count toxic's stage in a volatile, which their toxic reads on every move
  if (battle.gen <= 2 && mon.status === 'tox' && !mon.volatiles['residualdmg']) {
    mon.volatiles['residualdmg'] = effectState(battle, 'residualdmg', mon, {counter: p.toxic_stage ?? 0});
  }
}

// Transform copies the foe it was used on (spec index "into", else the foe's active): done once
// both sides are built, then the transformed Pokémon's own boosts and PP (5 a copied move) are put
// back.
function applyTransform(battle, mon, p) {
  const into = p.volatiles.transform.into;
  const target = (into !== undefined && mon.side.foe.pokemon[into]) || mon.side.foe.active[0];
  // (a foe that fainted since was still copied: Showdown refuses a fainted target)
  const fainted = target.fainted;
  target.fainted = false;
  const done = mon.transformInto(target, null);
  target.fainted = fainted;
  if (!done) return;
  // The copy has the moves its spec lists (ours: the request's), not only the ones the foe's spec
  // knows: a foe that fainted with one move revealed left a one-move copy, whose state then failed
  // to restore (Showdown pairs each of the copier's own move slots with a copied one).
  const copied = (p.moves || []).map((id) => battle.dex.moves.get(id)).filter((move) => move.exists);
  if (copied.length > mon.moveSlots.length) {
    mon.moveSlots = copied.map((move) => {
      const pp = Math.min(5, move.pp);
      return {move: move.name, id: move.id, pp, maxpp: battle.gen >= 5 ? pp : battle.calculatePP(move, 0),
        target: move.target, disabled: false, used: false, virtual: true};
    });
  }
  mon.boosts = Object.fromEntries(BOOSTS.map((b) => [b, (p.boosts && p.boosts[b]) || 0]));
  for (const slot of mon.moveSlots) {
    if (p.pp && p.pp[slot.id] !== undefined) slot.pp = Math.max(0, Math.min(slot.maxpp, p.pp[slot.id]));
  }
}

// Volatiles a foe's move put there: their source is the foe's active. Any other's is the Pokémon
// itself, as in Showdown's addVolatile (Imprison's and Snatch's handlers read it).
const FOE_SOURCED = new Set(['leechseed', 'partiallytrapped', 'trapped', 'attract', 'octolock', 'syrupbomb', 'yawn', 'lockon']);

// A volatile is placed, not started: what Showdown's addVolatile and the effect's onStart would
// have left in its state is filled in here.
function addVolatile(battle, mon, id, fields, foeActive) {
  const {source_move: sourceMove, ...extra} = fields;
  const source = (FOE_SOURCED.has(id) && foeActive) || mon;
  extra.source = source;
  extra.sourceSlot = source.getSlot();
  if (id === 'partiallytrapped') {
    // the binding move (its residual and trap handlers read its id) and the residual's share
    const move = battle.dex.moves.get(sourceMove || '');
    extra.sourceEffect = move.exists ? move : battle.dex.conditions.get('partiallytrapped');
    extra.boundDivisor = source.hasItem('bindingband') ? 6 : 8;
  }
  if (id === 'stall') extra.duration = extra.duration ?? 2;
  if (id === 'mustrecharge') extra.duration = extra.duration ?? 2;
  if (id === 'twoturnmove') {
    extra.duration = extra.duration ?? 2;
    if (extra.move) mon.volatiles[extra.move] = effectState(battle, extra.move, mon, {duration: 2});
  }
  if (id === 'transform') return; // (applyTransform, once the foe is built)
  if (id === 'typechange') {
    // Protean, Soak...: Showdown changes the types and keeps no volatile. A Protean or Libero
    // holder whose type has changed has spent the ability for this entry (Gen 9's flag; older
    // generations' handlers read none): unspent, every searched move got its type and STAB.
    if (extra.types) mon.setType(extra.types, true);
    if (mon.ability === 'protean' || mon.ability === 'libero') mon.abilityState[mon.ability] = true;
    return;
  }
  mon.volatiles[id] = effectState(battle, id, mon, extra);
}

function applySide(battle, side, s) {
  side.sideConditions = {};
  for (const [id, fields] of Object.entries(s.conditions || {})) {
    side.sideConditions[id] = effectState(battle, id, side, {...fields});
  }
  if (s.tera_used) for (const mon of side.pokemon) mon.canTerastallize = null;
}

function applyField(battle, f) {
  const field = battle.field;
  field.weather = toID(f.weather || '');
  field.weatherState = effectState(battle, field.weather, null, f.weather ? {duration: f.weather_turns ?? 0} : {});
  field.terrain = toID(f.terrain || '');
  field.terrainState = effectState(battle, field.terrain, null, f.terrain ? {duration: f.terrain_turns ?? 0} : {});
  // the format's own rules (Sleep Clause Mod) live here too: kept
  field.pseudoWeather = Object.fromEntries(Object.entries(field.pseudoWeather).filter(([id]) => id.endsWith('mod')));
  for (const [id, fields] of Object.entries(f.pseudo || {})) {
    field.pseudoWeather[id] = effectState(battle, id, null, {...fields});
  }
}

function buildBattle(spec) {
  const battle = new Battle({formatid: spec.format || 'gen9randombattle', seed: '1,2,3,4', send: NOOP});
  try {
    placeSpec(battle, spec);
  } catch (err) {
    throw explained(err, battle, 'building the battle');
  }
  return battle;
}

function placeSpec(battle, spec) {
  for (const id of ['p1', 'p2']) {
    battle.setPlayer(id, {name: id, team: spec.sides[id].pokemon.map((p, i) => toSet(p, i))});
  }
  // The leads (each list's first) switched in at start; what their entry did is overwritten below.
  for (const id of ['p1', 'p2']) {
    const side = battle.getSide(id);
    const foeActive = side.foe.active[0];
    spec.sides[id].pokemon.forEach((p, i) => applyPokemon(battle, side.pokemon[i], p, foeActive));
    applySide(battle, side, spec.sides[id]);
  }
  for (const id of ['p1', 'p2']) {
    const p = spec.sides[id].pokemon[0];
    const mon = battle.getSide(id).pokemon[0];
    if (p && mon.isActive && p.volatiles && p.volatiles.transform) applyTransform(battle, mon, p);
  }
  applyField(battle, spec.field || {});
  battle.turn = spec.turn || 1;
  battle.log = [];
  battle.sentLogPos = 0;
  battle.makeRequest(spec.request || 'move');
}

// ---------------------------------------------------------------- errors that name their cause

// The simulator's error with what it was doing: the effect and event Showdown was running (a throw
// leaves them set: "reading 'id'" alone does not say which effect's state lacked it), our step, and
// the frame that threw.
function explained(err, battle, doing) {
  const context = [];
  const effect = battle && battle.effect;
  if (effect && effect.id) {
    const holder = battle.effectState && battle.effectState.target;
    const on = holder && holder.species && holder.side ? ` on ${holder.side.id} ${holder.species.name}` : '';
    const kind = effect.effectType ? `${effect.effectType.toLowerCase()} ` : '';
    context.push(`in the ${kind}${effect.id}'s ${(battle.event && battle.event.id) || '?'} handler${on}`);
  }
  context.push(doing);
  const frame = String((err && err.stack) || '').split('\n').find((line) => line.trim().startsWith('at '));
  if (frame) context.push(frame.trim().replace(/\((?:.*[\\/])?([^\\/]+)\)$/, '($1)'));
  const error = new Error(`${err && err.message ? err.message : err} (${context.join('; ')})`);
  error.stack = err && err.stack;
  return error;
}

// ---------------------------------------------------------------- reading a battle

function summarize(battle) {
  const sides = {};
  for (const side of battle.sides) {
    sides[side.id] = {
      conditions: Object.fromEntries(Object.entries(side.sideConditions).map(([id, st]) => [id, {layers: st.layers, duration: st.duration}])),
      pokemon: side.pokemon.map((mon) => ({
        species: mon.species.name,
        base_species: mon.baseSpecies.name,
        active: mon.isActive,
        hp: mon.hp,
        maxhp: mon.maxhp,
        status: mon.status,
        sleep_turns: mon.status === 'slp' ? mon.statusState.time : undefined,
        toxic_stage: mon.status === 'tox' ? mon.statusState.stage : undefined,
        boosts: {...mon.boosts},
        item: mon.item,
        ability: mon.ability,
        terastallized: mon.terastallized || '',
        ability_counter: mon.abilityState.counter,
        pp: Object.fromEntries(mon.moveSlots.map((slot) => [slot.id, slot.pp])),
        volatiles: mon.isActive ? Object.fromEntries(Object.entries(mon.volatiles).map(([id, st]) => [id, volatileFields(st)])) : {},
      })),
    };
  }
  const f = battle.field;
  return {
    turn: battle.turn,
    sides,
    field: {
      weather: f.weather,
      weather_turns: f.weather ? f.weatherState.duration : undefined,
      terrain: f.terrain,
      terrain_turns: f.terrain ? f.terrainState.duration : undefined,
      pseudo: Object.fromEntries(Object.entries(f.pseudoWeather).map(([id, st]) => [id, {duration: st.duration}])),
    },
  };
}

function volatileFields(st) {
  const out = {};
  for (const key of ['duration', 'hp', 'move', 'time', 'counter', 'layers', 'bestStat']) {
    if (st[key] !== undefined && typeof st[key] !== 'object') out[key] = st[key];
  }
  return out;
}

// ---------------------------------------------------------------- scoring a position (for p1)

// Worth of one Pokémon's state, in units of "one healthy Pokémon" (1.0). Fainted is 0.
const ALIVE = 0.3;
const STATUS_COST = {brn: 0.2, par: 0.2, slp: 0.25, frz: 0.3, psn: 0.1, tox: 0.25};
const BOOST_WORTH = {atk: 0.08, spa: 0.08, spe: 0.07, def: 0.05, spd: 0.05, accuracy: 0.03, evasion: 0.06};
// Hazards cost each healthy Pokémon that will switch in over them.
const HAZARD_COST = {stealthrock: 0.08, spikes: 0.06, toxicspikes: 0.05, stickyweb: 0.05};
const SCREEN_WORTH = {reflect: 0.06, lightscreen: 0.06, auroraveil: 0.1, tailwind: 0.06, safeguard: 0.02};

function monWorth(mon) {
  if (mon.fainted || mon.hp <= 0) return 0;
  return Math.max(0.02, ALIVE + (1 - ALIVE) * (mon.hp / mon.maxhp) + monExtras(mon));
}

// What a Pokémon's state is worth beyond its HP: status, and for the active its boosts and volatiles.
function monExtras(mon) {
  if (mon.fainted || mon.hp <= 0) return 0;
  let worth = -(STATUS_COST[mon.status] || 0);
  if (mon.isActive) {
    for (const [stat, w] of Object.entries(BOOST_WORTH)) {
      const b = mon.boosts[stat] || 0;
      worth += w * (b > 0 ? Math.min(b, 4) : Math.max(b, -4));
    }
    if (mon.volatiles.substitute) worth += 0.08;
    if (mon.volatiles.leechseed) worth -= 0.06;
    if (mon.volatiles.confusion) worth -= 0.05;
  }
  return worth;
}

function sideWorth(side, doom = false) {
  let worth = 0;
  for (const mon of side.pokemon) {
    const own = monWorth(mon);
    const p = doom && mon.isActive ? doomChance(mon, side.foe.active[0]) : 0;
    worth += p > 0 ? (1 - p) * own + p * Math.min(DOOMED, own) : own;
  }
  return worth + fieldWorth(side);
}

// An active Pokémon the foe outspeeds (or outprioritises) and knocks out with its next attack is
// worth little more than the hit it can still absorb: its HP does not carry into the turns after.
const DOOMED = 0.1;

// The chance (the killing move's accuracy) that the foe knocks `mon` out before it moves.
function doomChance(mon, foe) {
  if (!foe || foe.fainted || foe.hp <= 0 || mon.fainted || mon.hp <= 0) return 0;
  if (mon.hp === mon.maxhp && (mon.item === 'focussash' || mon.ability === 'sturdy')) return 0;
  const foeFirst = Math.sign(foe.getActionSpeed() - mon.getActionSpeed());
  const locked = foe.volatiles.choicelock?.move || foe.volatiles.encore?.move;
  let p = 0;
  for (const slot of foe.moveSlots) {
    if (slot.disabled || slot.pp <= 0 || (locked && slot.id !== locked)) continue;
    const move = Dex.moves.get(slot.id);
    const ahead = move.priority > 0 || (move.priority === 0 && foeFirst > 0);
    if (!ahead || damageEstimate(foe, mon, move) < mon.hp) continue;
    p = Math.max(p, move.accuracy === true ? 1 : move.accuracy / 100);
  }
  return p;
}

// A move's middle-roll damage in HP by the game's formula from the stats and boosts as they
// stand, STAB, type effectiveness and a burn (no items, abilities, weather or crits).
function damageEstimate(source, target, move) {
  const hit = move.ohko || move.damage ? null : hitTerms(source, target, move);
  if (!hit) return 0;
  const {power, atk, def, stab, eff, physical} = hit;
  let damage = Math.floor(Math.floor((Math.floor((2 * source.level) / 5 + 2) * power * atk) / Math.max(1, def)) / 50) + 2;
  damage *= 0.925 * stab * eff;
  if (physical && source.status === 'brn' && source.ability !== 'guts') damage *= 0.5;
  return Math.floor(damage);
}

// Hazards on a side cost each Pokémon still to switch in over them; screens and Tailwind help it.
function fieldWorth(side) {
  let worth = 0;
  const benchAlive = side.pokemon.filter((mon) => !mon.fainted && !mon.isActive).length;
  for (const [id, st] of Object.entries(side.sideConditions)) {
    if (HAZARD_COST[id]) worth -= HAZARD_COST[id] * (st.layers || 1) * benchAlive;
    if (SCREEN_WORTH[id]) worth += SCREEN_WORTH[id];
  }
  return worth;
}

// `unseen`: enemy Pokémon not in the spec (not yet revealed), counted as healthy: beating the
// ones we know is not a won battle while they remain.
// `doom`: an active the foe will knock out first is valued as a sack (doomChance()); `doomOurs`:
// ours alone.
function evaluate(battle, unseen = 0, doom = false, doomOurs = false) {
  if (battle.ended && !(unseen > 0 && battle.winner === 'p1')) {
    return battle.winner === 'p1' ? 1 : battle.winner === 'p2' ? -1 : 0;
  }
  const [p1, p2] = battle.sides;
  const diff = (sideWorth(p1, doom || doomOurs) - sideWorth(p2, doom) - unseen) / 6;
  return Math.max(-0.99, Math.min(0.99, diff));
}

// Where a turn led, for a leaf value computed elsewhere (the planner, in Python): each side's HP
// fractions by spec slot, the actives' slots (-1: none), the result if the battle ended, and the
// non-HP part of evaluate() (status, boosts, volatiles, hazards and screens), for us.
function leafRecord(battle) {
  const side = (s) => {
    const hp = new Array(s.pokemon.length).fill(0);
    let active = -1;
    for (const mon of s.pokemon) {
      const slot = +mon.name;
      hp[slot] = mon.fainted ? 0 : Math.round((1000 * mon.hp) / mon.maxhp) / 1000;
      if (mon.isActive && !mon.fainted) active = slot;
    }
    return {hp, active};
  };
  const extras = (s) => s.pokemon.reduce((acc, mon) => acc + monExtras(mon), 0) + fieldWorth(s);
  const [p1, p2] = battle.sides;
  const end = battle.ended ? (battle.winner === 'p1' ? 1 : battle.winner === 'p2' ? -1 : 0) : null;
  return {o: side(p1), t: side(p2), end, x: Math.round((1000 * (extras(p1) - extras(p2))) / 6) / 1000};
}

// ---------------------------------------------------------------- one simulated turn

// A switch the battle asks for mid-search: the healthiest Pokémon that resists the foe's types best.
function chooseSwitch(side) {
  const foe = side.foe.active[0];
  let best = null;
  let bestScore = -Infinity;
  side.pokemon.forEach((mon, i) => {
    if (mon.fainted || mon.isActive) return;
    let score = mon.hp / mon.maxhp;
    if (foe && !foe.fainted) {
      for (const t of foe.getTypes()) {
        const eff = Dex.getEffectiveness(t, mon.getTypes());
        if (!Dex.getImmunity(t, mon.getTypes())) score += 1;
        else score -= 0.25 * eff;
      }
    }
    if (score > bestScore) {
      bestScore = score;
      best = i + 1;
    }
  });
  return best === null ? 'pass' : `switch ${best}`;
}

// A SimpleHeuristicsPlayer's forced switch: its bench's best matchup against our active (the
// first of a tie, as its max() takes).
function heuristicSwitch(side) {
  const foe = side.foe.active[0];
  if (!foe || foe.fainted) return chooseSwitch(side);
  const bench = side.pokemon.map((mon, i) => [i + 1, mon]).filter(([, mon]) => !mon.fainted && !mon.isActive);
  if (!bench.length) return 'pass';
  const [best] = topOf(bench.map(([slot, mon]) => [slot, heuristicMatchup(mon, foe)]));
  return `switch ${best}`;
}

// `enemyModel` "heuristic": the enemy's forced switches are its script's (heuristicSwitch()).
function resolveSwitches(battle, enemyModel = '') {
  for (let n = 0; n < MAX_FORCED_SWITCHES && !battle.ended && battle.requestState === 'switch'; n++) {
    for (const side of battle.sides) {
      const req = side.activeRequest;
      if (!req || req.wait || side.isChoiceDone()) continue;
      battle.choose(side.id, side.id === 'p2' && enemyModel === 'heuristic' ? heuristicSwitch(side) : chooseSwitch(side));
    }
  }
}

// ---------------------------------------------------------------- rollouts

function boostFactor(stage) {
  return stage >= 0 ? (2 + stage) / 2 : 2 / (2 - stage);
}

// A cheap guess of a move's damage share against the foe: power, STAB, type effectiveness,
// accuracy and the stats as they stand (no rolls, no abilities beyond type immunities).
function damageGuess(mon, foe, moveId) {
  const move = Dex.moves.get(moveId);
  const hit = hitTerms(mon, foe, move);
  if (!hit) return 0;
  const {power, atk, def, stab, eff} = hit;
  const acc = move.accuracy === true ? 1 : move.accuracy / 100;
  return power * stab * eff * acc * atk / Math.max(1, def);
}

// What a damaging move's damage is made of, against `target` as it stands: power (multi-hit
// moves at their hits; 60 for a variable power), the attacking and defending stats with their
// boosts, STAB and type effectiveness. Null for a status move or one the target is immune to.
function hitTerms(source, target, move) {
  if (!move.exists || move.category === 'Status') return null;
  if (!target.runImmunity(move, false)) return null;
  let power = move.basePower || 60;
  if (move.multihit) power *= Array.isArray(move.multihit) ? 3 : move.multihit;
  const physical = move.category === 'Physical';
  const [a, d] = physical ? ['atk', 'def'] : ['spa', 'spd'];
  const atk = source.storedStats[a] * boostFactor(source.boosts[a]);
  const def = target.storedStats[d] * boostFactor(target.boosts[d]);
  const stab = source.hasType(move.type) ? 1.5 : 1;
  const eff = 2 ** Dex.getEffectiveness(move.type, target.getTypes());
  return {power, atk, def, stab, eff, physical};
}

// Both sides' rollout policy: the strongest-looking damaging move (what a plain attacker plays).
function greedyChoice(side) {
  const req = side.activeRequest;
  if (!req || req.wait || !req.active) return null;
  const mon = side.active[0];
  const foe = side.foe.active[0];
  let best = null;
  let bestScore = -1;
  for (const m of req.active[0].moves) {
    if (m.disabled) continue;
    const score = foe && !foe.fainted ? damageGuess(mon, foe, m.id) : 0;
    if (score > bestScore) {
      bestScore = score;
      best = m.id;
    }
  }
  return best ? `move ${best}` : null;
}

// The enemy's rollout choice when it is played as a script: the script's likeliest click.
function scriptedChoice(battle, model, unseen) {
  const theirs = legalChoices(battle, 'p2', false);
  const mix = scriptedMix(model, battle, theirs, unseen);
  if (!mix) return null;
  return theirs[mix.indexOf(Math.max(...mix))];
}

// `enemyModel`: a scripted enemy (see scriptedMix()) plays its script's click, not the greedy one.
function rollout(battle, turns, enemyModel = '', unseen = 0) {
  for (let t = 0; t < turns && !battle.ended; t++) {
    resolveSwitches(battle, enemyModel);
    if (battle.ended || battle.requestState !== 'move') return;
    for (const side of battle.sides) {
      if (battle.requestState !== 'move' || side.isChoiceDone()) continue;
      const choice = (side.id === 'p2' && enemyModel && scriptedChoice(battle, enemyModel, unseen)) || greedyChoice(side);
      if (!choice || !battle.choose(side.id, choice)) side.autoChoose();
    }
    if (battle.requestState === 'move' && battle.allChoicesDone()) battle.commitChoices();
  }
  resolveSwitches(battle, enemyModel);
}

// ---------------------------------------------------------------- chance

// Chance played by its likely outcome: the middle damage roll, no critical hit, no secondary
// effect short of a sure one, the likelier side of every coin (accuracy, a 30% paralysis).
// A one-sample turn with real dice ranks choices by their luck (a crit in one cell, a miss in
// another); here each cell is worth its likely outcome and, for the first coin that could go
// either way, the other outcome weighted by its probability (`flipAt` plays that one flipped).
const SURE = 0.9; // a coin at least this likely (or at most 1 - SURE) is not branched on

class LikelyPRNG {
  constructor(flipAt = -1) {
    this.flipAt = flipAt;
    this.coins = []; // probability of the outcome played, for each coin that could go either way
    this.startingSeed = '1,1,1,1';
  }
  random(from, to) {
    if (from === undefined) return 0.5;
    if (!to) return from === 100 ? 99 : Math.floor((from - 1) / 2); // random(100): secondaries
    return Math.floor((from + to - 1) / 2);
  }
  randomChance(numerator, denominator) {
    const p = numerator / denominator;
    if (p >= SURE) return true;
    if (p <= 1 - SURE) return false;
    const likely = p >= 0.5;
    const outcome = this.coins.length === this.flipAt ? !likely : likely;
    this.coins.push(outcome ? p : 1 - p);
    return outcome;
  }
  sample(items) {
    return items[Math.floor(items.length / 2)];
  }
  shuffle() {} // speed ties keep their order
  getSeed() {
    return this.startingSeed;
  }
  clone() {
    return new LikelyPRNG(this.flipAt);
  }
}

// A hit that knocks out on some of the sixteen damage rolls and not on others is a coin like
// accuracy: the middle roll alone takes a KO on 9 rolls of 16 as sure, and one on 7 of 16 as
// none. Its likelier side is played (the middle roll of that side), and as the first coin both
// sides are, weighted by their rolls. The damage of roll r is the middle roll's scaled by
// (100 - r) / 93: every modifier after the roll is a multiplier, so this is within a point or two.
const MIDDLE_ROLL = 7; // LikelyPRNG.random(16): the randomizer's 100 - 7 = 93%

function rollCoin(battle, prng) {
  const actions = battle.actions;
  const modify = actions.modifyDamage;
  actions.modifyDamage = function (baseDamage, pokemon, target, move, suppressMessages) {
    const damage = modify.call(this, baseDamage, pokemon, target, move, suppressMessages);
    // a Substitute takes the hit on its own HP
    if (!target || !target.hp || target.volatiles['substitute'] || typeof damage !== 'number') return damage;
    const rolls = [];
    for (let r = 0; r < 16; r++) rolls.push(Math.max(1, Math.floor((damage * (100 - r)) / (100 - MIDDLE_ROLL))));
    const kos = rolls.filter((d) => d >= target.hp).length;
    if (kos === 0 || kos === 16) return damage;
    const ko = prng.randomChance(kos, 16);
    const side = rolls.filter((d) => d >= target.hp === ko);
    return side[Math.floor(side.length / 2)];
  };
}

// A played turn valued by the chance of winning it leaves, not by its score: tanh(k * score / 2),
// scaled to the score's slope at an even position. A side well ahead gains little from a bigger
// lead and loses much from a coin going wrong, so a mix of outcomes (a coin played both ways,
// the enemy's mixed replies, the worlds) is worth less than its mean score: the search prefers
// the surer line when ahead, the bolder one when behind.
function winChance(score, k) {
  return k > 0 ? (2 / k) * Math.tanh((k * score) / 2) : score;
}

// The turn after the one searched, played exactly against a scripted enemy (its script's click is
// known): each of our choices but tera against that click, the best of them valued. One turn sees a
// set-up move's boosts, not the hit they make, and a switch-in's resisted hit, not what it does next.
function bestReply(battle, opts) {
  const {unseen = 0, doom = false, doomOurs = false, enemyModel, winCurve = 0} = opts;
  const theirs = scriptedChoice(battle, enemyModel, unseen);
  const json = JSON.stringify(battle.toJSON());
  let best = -Infinity;
  for (const ours of legalChoices(battle, 'p1', false)) {
    const next = Battle.fromJSON(json);
    next.send = NOOP;
    next.prng = new LikelyPRNG();
    if (!next.choose('p1', ours)) continue;
    if (!(theirs && next.choose('p2', theirs))) next.getSide('p2').autoChoose();
    if (next.requestState === 'move' && next.allChoicesDone()) next.commitChoices();
    resolveSwitches(next, enemyModel);
    best = Math.max(best, winChance(evaluate(next, unseen, doom, doomOurs), winCurve));
  }
  return best > -Infinity ? best : winChance(evaluate(battle, unseen, doom, doomOurs), winCurve);
}

// `opts`: {unseen, rolloutTurns, doom, doomOurs, enemyModel, rollCoin, winCurve, replyPly} (see
// evaluate(), rollout(), rollCoin(), winChance() and bestReply()).
function playTurn(rootJSON, ours, theirs, seed, prng = null, opts = {}) {
  const {unseen = 0, rolloutTurns = 0, doom = false, doomOurs = false, enemyModel = '', rollCoin: coinRolls = false, winCurve = 0} = opts;
  let battle;
  try {
    battle = Battle.fromJSON(rootJSON);
  } catch (err) {
    throw explained(err, null, `restoring the battle to play ${ours} against ${theirs}`);
  }
  battle.send = NOOP;
  battle.prng = prng || new PRNG(seed);
  if (coinRolls && prng instanceof LikelyPRNG) rollCoin(battle, prng);
  try {
    if (!battle.choose('p1', ours)) return {illegal: 'ours'};
    if (!battle.choose('p2', theirs)) return {illegal: 'theirs'};
    resolveSwitches(battle, enemyModel);
  } catch (err) {
    throw explained(err, battle, `playing ${ours} against ${theirs}`);
  }
  if (opts.replyPly && enemyModel && !battle.ended && battle.requestState === 'move') {
    try {
      return {value: bestReply(battle, opts), battle};
    } catch (err) {
      throw explained(err, battle, `playing the turn after ${ours} against ${theirs}`);
    }
  }
  if (rolloutTurns > 0) {
    try {
      rollout(battle, rolloutTurns, enemyModel, unseen);
    } catch (err) {
      // a rollout the simulator refuses ends where it stands; the turn searched still counts
    }
  }
  try {
    return {value: winChance(evaluate(battle, unseen, doom, doomOurs), winCurve), battle};
  } catch (err) {
    throw explained(err, battle, `scoring where ${ours} against ${theirs} led`);
  }
}

// The enemy's legal choices in this world: its moves (a choice lock, Encore, Taunt... filtered by the
// request itself) and its switches.
function legalChoices(battle, sideId, tera) {
  const side = battle.getSide(sideId);
  const req = side.activeRequest;
  const out = [];
  if (!req || req.wait) return out;
  if (req.forceSwitch) {
    side.pokemon.forEach((mon, i) => { if (!mon.fainted && !mon.isActive) out.push(`switch ${i + 1}`); });
    return out;
  }
  const active = req.active[0];
  for (const m of active.moves) {
    if (m.disabled) continue;
    out.push(`move ${m.id}`);
    if (tera && active.canTerastallize) out.push(`move ${m.id} terastallize`);
  }
  if (!active.trapped) {
    side.pokemon.forEach((mon, i) => { if (!mon.fainted && !mon.isActive) out.push(`switch ${i + 1}`); });
  }
  return out;
}

// ---------------------------------------------------------------- the simultaneous-move game

// Per row (our choice): its worst case (maximin), its mean over the enemy's choices, and its value
// against the enemy's equilibrium mix (regret matching, both sides; the averages converge to a Nash
// equilibrium of the zero-sum matrix game). Rows or columns without values are left out (null).
const RM_ITERATIONS = 3000;

// The enemy as a damage-minded player: each move weighted by the square of its damage guess
// against our active (status moves by a fifth of the best), `switchShare` (the request's
// switch_share, else SWITCH_SHARE) for its switches.
const SWITCH_SHARE = 0.15;

function predictedMix(battle, theirs, switchShare = SWITCH_SHARE) {
  const mon = battle.p2.active[0];
  const foe = battle.p1.active[0];
  const guesses = theirs.map((c) => (c.startsWith('move ') ? damageGuess(mon, foe, c.split(' ')[1]) : null));
  const best = Math.max(1, ...guesses.filter((g) => g !== null));
  const weights = guesses.map((g) => (g === null ? 0 : Math.max(g, best / 5) ** 2));
  const moveTotal = weights.reduce((x, y) => x + y, 0) || 1;
  const switches = theirs.filter((c) => c.startsWith('switch')).length;
  const moveShare = switches ? 1 - switchShare : 1;
  return theirs.map((c, b) => (c.startsWith('switch') ? switchShare / switches : (moveShare * weights[b]) / moveTotal));
}

// The enemy as poke-env's MaxBasePowerPlayer (the tracker's player model, once sure of it): the
// move with the highest base power, ties split evenly; it never switches by choice. Null when it
// has no move to click (the damage-minded mix stands).
function maxPowerMix(theirs) {
  const powers = theirs.map((c) => (c.startsWith('move ') && !c.includes('terastallize') ? Dex.moves.get(c.split(' ')[1]).basePower || 0 : null));
  const moves = powers.filter((p) => p !== null);
  if (!moves.length) return null;
  const top = Math.max(...moves);
  const ties = moves.filter((p) => p === top).length;
  return powers.map((p) => (p === top ? 1 / ties : 0));
}

// The enemy as poke-env's SimpleHeuristicsPlayer (the tracker's player model, once sure of it),
// read from poke_env/player/baselines.py as the inference's replay of its moves is
// (randbot/inference/scripted_players.py): it switches out when a benched Pokémon matches up
// better than even and its active is badly unboosted or matched up below -2, to the bench's best
// matchup; otherwise it lays an entry hazard the foe lacks (while the foe has 3 or more standing)
// or spins / defogs (while its own side has any condition), and else clicks the highest base
// power x STAB x stat estimate x accuracy x expected hits x type multiplier. Its setup and tera
// rules never fire. Ties split evenly (its order of moves is not ours to see). Benched Pokémon
// not yet seen are not in the world, so its switches are to the seen ones. Null when nothing fits.
const HEURISTIC_HAZARDS = new Set(['spikes', 'stealthrock', 'stickyweb', 'toxicspikes']);
const HEURISTIC_REMOVAL = new Set(['rapidspin', 'defog']);

function typeMultiplier(type, defenderTypes) {
  if (!Dex.getImmunity(type, defenderTypes)) return 0;
  return 2 ** Dex.getEffectiveness(type, defenderTypes);
}

// SimpleHeuristicsPlayer._estimate_matchup: type advantage both ways, the base Speed tier, HP.
function heuristicMatchup(mon, foe) {
  const ours = mon.getTypes();
  const theirs = foe.getTypes();
  let score = Math.max(...ours.map((t) => typeMultiplier(t, theirs)));
  score -= Math.max(...theirs.map((t) => typeMultiplier(t, ours)));
  const [speed, foeSpeed] = [mon.species.baseStats.spe, foe.species.baseStats.spe];
  if (speed > foeSpeed) score += 0.1;
  else if (foeSpeed > speed) score -= 0.1;
  return score + 0.4 * (mon.hp / mon.maxhp) - 0.4 * (foe.hp / foe.maxhp);
}

function heuristicSwitchesOut(mon, foe, matchups) {
  if (!matchups.some((m) => m > 0)) return false;
  const {boosts, storedStats: stats} = mon;
  if (boosts.def <= -3 || boosts.spd <= -3) return true;
  if (boosts.atk <= -3 && stats.atk >= stats.spa) return true;
  if (boosts.spa <= -3 && stats.atk <= stats.spa) return true;
  return heuristicMatchup(mon, foe) < -2;
}

// SimpleHeuristicsPlayer._stat_estimation, with its +1 counted as x2.
function heuristicStat(mon, stat) {
  const b = mon.boosts[stat] || 0;
  return (2 * mon.species.baseStats[stat] + 36) * (b > 1 ? (2 + b) / 2 : 2 / (2 - b));
}

function heuristicHits(move) {
  if (move.id === 'triplekick' || move.id === 'tripleaxel') return 1 + 2 * 0.9 + 3 * 0.81;
  if (Array.isArray(move.multihit)) return move.multihit[0] === move.multihit[1] ? move.multihit[0] : 5 / 3 + 9 / 6;
  return move.multihit || 1;
}

function heuristicScore(mon, foe, move) {
  const physical = move.category === 'Physical';
  const ratio = physical ? heuristicStat(mon, 'atk') / heuristicStat(foe, 'def') : heuristicStat(mon, 'spa') / heuristicStat(foe, 'spd');
  const accuracy = move.accuracy === true ? 1 : move.accuracy / 100;
  const stab = mon.getTypes().includes(move.type) ? 1.5 : 1;
  return (move.basePower || 0) * stab * ratio * accuracy * heuristicHits(move) * typeMultiplier(move.type, foe.getTypes());
}

function topOf(scores) {
  const top = Math.max(...scores.map(([, s]) => s));
  return scores.filter(([, s]) => s >= top - 1e-9 * Math.max(1, Math.abs(top))).map(([b]) => b);
}

function heuristicMix(battle, theirs, unseen = 0) {
  const side = battle.p2;
  const mon = side.active[0];
  const foe = battle.p1.active[0];
  if (!mon || !foe || mon.fainted || foe.fainted) return null;
  const moves = [];
  const switches = [];
  theirs.forEach((c, b) => {
    if (c.startsWith('move ') && !c.includes('terastallize')) moves.push(b);
    else if (c.startsWith('switch ')) switches.push(b);
  });
  const matchups = switches.map((b) => [b, heuristicMatchup(side.pokemon[+theirs[b].split(' ')[1] - 1], foe)]);
  let picks = [];
  if (moves.length && !(switches.length && heuristicSwitchesOut(mon, foe, matchups.map(([, m]) => m)))) {
    const foeStanding = 6 - battle.p1.pokemon.filter((p) => p.fainted).length;
    const ownStanding = side.pokemon.filter((p) => !p.fainted).length + unseen;
    const ownConditions = Object.keys(side.sideConditions).length > 0;
    picks = moves.filter((b) => {
      const id = theirs[b].split(' ')[1];
      if (HEURISTIC_HAZARDS.has(id)) return foeStanding >= 3 && !battle.p1.sideConditions[id];
      return HEURISTIC_REMOVAL.has(id) && ownConditions && ownStanding >= 2;
    });
    if (!picks.length) picks = topOf(moves.map((b) => [b, heuristicScore(mon, foe, Dex.moves.get(theirs[b].split(' ')[1]))]));
  } else if (switches.length) {
    picks = topOf(matchups);
  }
  if (!picks.length) return null;
  return theirs.map((_, b) => (picks.includes(b) ? 1 / picks.length : 0));
}

// The scripted player's mix the request names, null when none (or when it has nothing to click).
function scriptedMix(model, battle, theirs, unseen) {
  if (model === 'power') return maxPowerMix(theirs);
  if (model === 'heuristic') return heuristicMix(battle, theirs, unseen);
  return null;
}

// The move the enemy chose last against the same foe takes `share` of the mix (when it can
// click it again), the model's mix the rest.
function withRepeat(mix, theirs, {move, share}) {
  const b = theirs.indexOf(`move ${move}`);
  if (b < 0) return mix;
  return mix.map((p, i) => (1 - share) * p + (i === b ? share : 0));
}

function expected(matrix, mix) {
  return matrix.map((row) => {
    let total = 0;
    let weight = 0;
    row.forEach((v, b) => { if (v !== null) { total += mix[b] * v; weight += mix[b]; } });
    return weight > 0 ? total / weight : null;
  });
}

function solve(matrix) {
  const rows = matrix.map((r, a) => (r.some((v) => v !== null) ? a : -1)).filter((a) => a >= 0);
  const cols = [];
  if (rows.length) matrix[rows[0]].forEach((v, b) => { if (rows.every((a) => matrix[a][b] !== null)) cols.push(b); });
  const n = matrix.length;
  const maximin = new Array(n).fill(null);
  const mean = new Array(n).fill(null);
  const nash = new Array(n).fill(null);
  const mix = new Array(matrix[0] ? matrix[0].length : 0).fill(0);
  if (!rows.length || !cols.length) return {maximin, mean, nash, mix};
  for (const a of rows) {
    const vals = cols.map((b) => matrix[a][b]);
    maximin[a] = Math.min(...vals);
    mean[a] = vals.reduce((x, y) => x + y, 0) / vals.length;
  }
  const R = rows.length;
  const C = cols.length;
  const rowRegret = new Array(R).fill(0);
  const colRegret = new Array(C).fill(0);
  const colSum = new Array(C).fill(0);
  const strategy = (regret) => {
    const pos = regret.map((r) => Math.max(0, r));
    const total = pos.reduce((x, y) => x + y, 0);
    return total > 0 ? pos.map((r) => r / total) : regret.map(() => 1 / regret.length);
  };
  for (let it = 0; it < RM_ITERATIONS; it++) {
    const x = strategy(rowRegret);
    const y = strategy(colRegret);
    const rowValues = rows.map((a) => cols.reduce((acc, b, j) => acc + y[j] * matrix[a][b], 0));
    const colValues = cols.map((b) => rows.reduce((acc, a, i) => acc + x[i] * matrix[a][b], 0));
    const v = rowValues.reduce((acc, rv, i) => acc + x[i] * rv, 0);
    for (let i = 0; i < R; i++) rowRegret[i] += rowValues[i] - v;
    for (let j = 0; j < C; j++) colRegret[j] += v - colValues[j]; // the enemy minimises
    for (let j = 0; j < C; j++) colSum[j] += y[j];
  }
  cols.forEach((b, j) => { mix[b] = colSum[j] / RM_ITERATIONS; });
  for (const a of rows) nash[a] = cols.reduce((acc, b) => acc + mix[b] * matrix[a][b], 0);
  return {maximin, mean, nash, mix};
}

// ---------------------------------------------------------------- the search

// The enemy's replies, likeliest first by the model's mix.
function replyOrder(mix) {
  return mix.map((p, b) => [p, b]).sort((x, y) => y[0] - x[0] || x[1] - y[1]).map(([, b]) => b);
}

// A world the deadline cut short, kept to the replies played against every legal choice of ours
// (the other cells emptied, so every row is valued against the same replies), and the share of
// the model's mix those replies hold among the replies not found illegal.
function fullReplies(matrix, mix, badOurs, badTheirs) {
  const rows = matrix.map((_, a) => a).filter((a) => !badOurs.has(a));
  const full = new Set(mix.map((_, b) => b).filter((b) => !badTheirs.has(b) && rows.length && rows.every((a) => matrix[a][b] !== null)));
  const legal = mix.reduce((acc, p, b) => acc + (badTheirs.has(b) ? 0 : p), 0);
  const held = mix.reduce((acc, p, b) => acc + (full.has(b) ? p : 0), 0);
  return {
    matrix: matrix.map((row) => row.map((v, b) => (full.has(b) ? v : null))),
    covered: legal > 0 ? held / legal : 0,
  };
}

function search(req) {
  const started = Date.now();
  const deadline = Math.min(started + (req.deadline_ms || 250), req.deadline_at || Infinity);
  const samples = Math.max(1, req.samples || 1);
  const baseSeed = req.seed || 1;
  let turns = 0;
  let timedOut = false;
  const worlds = [];
  for (const [w, world] of req.worlds.entries()) {
    if (Date.now() >= deadline) { timedOut = true; break; }
    if (req.max_turns && turns >= req.max_turns) break;
    const battle = buildBattle(world.spec);
    const unseen = world.spec.sides.p2.unseen || 0;
    let rootJSON, ours, theirs, modelMix, scripted;
    try {
      rootJSON = JSON.stringify(battle.toJSON());
      ours = req.ours && req.ours.length ? req.ours : legalChoices(battle, 'p1', true);
      theirs = world.theirs && world.theirs.length ? world.theirs : legalChoices(battle, 'p2', !!world.enemy_tera);
      scripted = scriptedMix(req.enemy_model, battle, theirs, unseen);
      modelMix = scripted || predictedMix(battle, theirs, req.switch_share ?? SWITCH_SHARE);
      if (req.enemy_repeat) modelMix = withRepeat(modelMix, theirs, req.enemy_repeat);
    } catch (err) {
      throw explained(err, battle, 'serialising the built battle and listing its choices');
    }
    const turnOpts = {unseen, rolloutTurns: req.rollout_turns || 0, doom: !!req.doom, enemyModel: scripted ? req.enemy_model : '', rollCoin: !!req.roll_coin, winCurve: req.win_curve || 0, replyPly: !!req.reply_ply};
    // "switch_doom": a switch-in the foe outspeeds and knocks out next is valued as a sack (a
    // one-turn value sees the resisted hit it takes, not that it falls before it acts)
    const rowOpts = ours.map((choice) => (req.switch_doom && choice.startsWith('switch') ? {...turnOpts, doomOurs: true} : turnOpts));
    const sums = ours.map(() => theirs.map(() => 0));
    const counts = ours.map(() => theirs.map(() => 0));
    const leaves = req.leaves ? ours.map(() => theirs.map(() => null)) : null;
    const badOurs = new Set();
    const badTheirs = new Set();
    // By reply: the enemy's likelier replies first, each against every choice of ours, so a deadline
    // leaves every choice valued against the same replies (the mass they cover is reported).
    // "script_only": a scripted enemy's replies alone are played (those its script would click).
    const replies = scripted && req.script_only ? theirs.map((_, b) => b).filter((b) => modelMix[b] > 0) : theirs.map((_, b) => b);
    const cells = req.by_reply ? replyOrder(modelMix).filter((b) => replies.includes(b)).flatMap((b) => ours.map((_, a) => [a, b]))
      : ours.flatMap((_, a) => replies.map((b) => [a, b]));
    let complete = true;
    outer: for (let s = 0; s < samples; s++) {
      const seed = [baseSeed, w + 1, s + 1, 7919].join(',');
      for (const [a, b] of cells) {
        if (badOurs.has(a) || badTheirs.has(b)) continue;
        if (Date.now() >= deadline) { timedOut = true; complete = false; break outer; }
        if (req.max_turns && turns >= req.max_turns) { complete = false; break outer; }
        const likely = req.luck === 'likely' ? new LikelyPRNG() : null;
        let res = playTurn(rootJSON, ours[a], theirs[b], seed, likely, rowOpts[a]);
        turns++;
        if (likely && likely.coins.length && res.value !== undefined && Date.now() < deadline) {
          const p = likely.coins[0];
          const other = playTurn(rootJSON, ours[a], theirs[b], seed, new LikelyPRNG(0), rowOpts[a]);
          turns++;
          if (other.value !== undefined) {
            const value = p * res.value + (1 - p) * other.value;
            // the leaf of the likelier outcome stands for the cell; its value is the mix
            if (leaves) leaves[a][b] = {...leafRecord(res.battle), mix: {p, other: leafRecord(other.battle)}};
            res = {value, battle: null};
          }
        }
        if (res.illegal === 'ours') { badOurs.add(a); continue; }
        if (res.illegal === 'theirs') { badTheirs.add(b); continue; }
        sums[a][b] += res.value;
        counts[a][b]++;
        if (leaves && res.battle) leaves[a][b] = leafRecord(res.battle);
      }
    }
    let matrix = sums.map((row, a) => row.map((v, b) => (counts[a][b] && !badOurs.has(a) && !badTheirs.has(b) ? v / counts[a][b] : null)));
    let covered = complete ? 1 : 0;
    if (!complete && req.by_reply) ({matrix, covered} = fullReplies(matrix, modelMix, badOurs, badTheirs));
    worlds.push({weight: world.weight ?? 1, ours, theirs, matrix, complete, covered, root_value: evaluate(battle, unseen, !!req.doom), ...solve(matrix), model: expected(matrix, modelMix), model_mix: modelMix, ...(leaves ? {leaves} : {})});
  }
  return {worlds, turns, timed_out: timedOut, ms: Date.now() - started};
}

// ---------------------------------------------------------------- the line protocol

function handle(req) {
  switch (req.op) {
    case 'ping': return {ok: true, pid: process.pid};
    case 'build': return {ok: true, state: summarize(buildBattle(req.spec))};
    case 'search': return {ok: true, ...search(req)};
    case 'solve': return {ok: true, solutions: req.matrices.map((m, i) => ({...solve(m), ...(req.mixes ? {model: expected(m, req.mixes[i])} : {})}))};
    default: return {ok: false, error: `unknown op ${JSON.stringify(req.op)}`};
  }
}

// Load the data and compile the hot paths before the first decision needs them.
function warmUp() {
  const {Teams} = require(path.join(ps, 'dist', 'sim', 'teams'));
  const mk = (seed) => Teams.generate('gen9randombattle', {seed}).map((s) => ({
    species: s.species, level: s.level, moves: s.moves.map(toID), item: s.item, ability: s.ability,
    tera_type: s.teraType, evs: s.evs, ivs: s.ivs,
  }));
  const spec = {sides: {p1: {pokemon: mk('1,2,3,4')}, p2: {pokemon: mk('5,6,7,8')}}, field: {}};
  search({worlds: [{spec}], samples: 1, deadline_ms: 400});
}

function main() {
  warmUp();
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let req;
      let answer;
      try {
        req = JSON.parse(line);
        answer = handle(req);
      } catch (err) {
        answer = {ok: false, error: `${err && err.message ? err.message : err}`.slice(0, 500)};
      }
      answer.id = req && req.id !== undefined ? req.id : null;
      process.stdout.write(JSON.stringify(answer) + '\n');
    }
  });
  process.stdin.on('end', () => process.exit(0));
  process.stdout.write(JSON.stringify({ready: true, pid: process.pid}) + '\n');
}

if (require.main === module) main();

module.exports = {buildBattle, summarize, evaluate, search, playTurn, legalChoices};
