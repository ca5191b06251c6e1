'use strict';
// One long-lived @smogon/calc process speaking newline-delimited JSON on stdin/stdout.
//
// Every request is one line: {"id": n, "op": "...", ...}; every answer is one line {"id": n, ...}
// or {"id": n, "error": "..."}. Pokémon, moves and fields are defined once under small integer
// handles ("defs") and then referenced by handle, so a batch of thousands of calcs is one short
// line and the calc objects are built once. The Python client (client.py) owns the handles.
//
// Usage: node bridge.js [--gen 9] [--warmup 3000] [--spin-us 500] [--lean 1]

const fs = require('fs');
const path = require('path');

// console.log inside the calc (kochance on zero damage prints to it) must never reach stdout,
// which carries the protocol.
console.log = console.error;
console.info = console.error;
console.warn = console.error;

function requireFromModules(name) {
  const dirs = [process.env.RANDBOT_NODE_MODULES, path.join(__dirname, '..', 'node_modules')];
  for (const dir of dirs) {
    if (!dir) continue;
    try {
      return require(path.join(dir, name));
    } catch (error) {
      if (error.code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  return require(name); // NODE_PATH, or a global install
}

const calc = requireFromModules('@smogon/calc');
const mechanics = requireFromModules('@smogon/calc/dist/mechanics/util');

function argument(flag, fallback) {
  const at = process.argv.indexOf(flag);
  return at >= 0 && at + 1 < process.argv.length ? Number(process.argv[at + 1]) : fallback;
}

const GEN_NUM = argument('--gen', 9);
const WARMUP = argument('--warmup', 3000);
const SPIN_US = argument('--spin-us', 500); // see RequestReader
const LEAN = argument('--lean', 1) !== 0; // see leanCalculate
const gen = calc.Generations.get(GEN_NUM);
const STAT_IDS = ['hp', 'atk', 'def', 'spa', 'spd', 'spe'];

// Handles -> built calc objects. Cleared by the "reset" op (the client bounds its own tables).
const mons = new Map(); // handle -> calc.Pokemon
const moveSpecs = new Map(); // handle -> {name, options}
const fields = new Map(); // handle -> calc.Field
const moves = new Map(); // move handle -> attacker handle -> calc.Move (hits depend on the attacker)
fields.set(0, new calc.Field());

class InputError extends Error {
  constructor(field, value, message) {
    super(message);
    this.field = field;
    this.value = value;
  }
}

function buildMon(spec) {
  const species = gen.species.get(calc.toID(spec.name));
  if (!species) throw new InputError('species', spec.name, `unknown species '${spec.name}'`);
  const mon = new calc.Pokemon(gen, species.name, spec);
  if (spec.hpPercent !== undefined) {
    // Showdown shows the opponent's HP in percent; round like the client does, never to 0.
    const hp = Math.round((mon.maxHP() * spec.hpPercent) / 100);
    mon.originalCurHP = Math.min(mon.maxHP(), Math.max(spec.hpPercent > 0 ? 1 : 0, hp));
  }
  return mon;
}

function buildField(spec) {
  return new calc.Field(spec);
}

function define(defs) {
  if (!defs) return;
  if (defs.m) for (const [handle, spec] of defs.m) mons.set(handle, buildMon(spec));
  if (defs.v) {
    for (const [handle, spec] of defs.v) {
      if (!gen.moves.get(calc.toID(spec.name))) {
        throw new InputError('move', spec.name, `unknown move '${spec.name}'`);
      }
      moveSpecs.set(handle, spec);
    }
  }
  if (defs.f) for (const [handle, spec] of defs.f) fields.set(handle, buildField(spec));
}

function lookup(map, handle, what) {
  const value = map.get(handle);
  if (value === undefined) throw new Error(`${what} handle ${handle} is not defined`);
  return value;
}

// calculate(gen, a, d, m, f) is MECHANICS[gen](gen, a.clone(), d.clone(), m.clone(), f.clone()),
// and a clone() re-runs the constructor (the species deep-copied by a generic extend(), six stats
// computed, the move's data looked up and copied...): more than half of a calc's time. The objects
// handed to calculate() here never change, so every clone() of one of them builds the same
// structure. leanCalculate() builds that structure once per object, with the calc's own clone(),
// and then copies it per calc: a plain structural copy (same prototypes, same keys in the same
// order, the same aliasing inside), sharing by reference exactly what two clone() results share
// with each other (found by comparing two of them), so the mechanics get objects they cannot
// tell from clone()'s. An object whose clones do not compare (a getter, a frozen or non-plain
// part, anything unexpected) keeps the calc's own clone(). The calc runs unchanged. The
// cross-check test compares both on real teams, and `--lean 0` turns this off.
const LEAN_MECHANICS = (() => {
  if (GEN_NUM < 7 || GEN_NUM > 9) return null;
  try {
    return requireFromModules('@smogon/calc/dist/mechanics/gen789').calculateSMSSSV || null;
  } catch (error) {
    return null;
  }
})();
const plans = new WeakMap(); // source object -> copy plan (or false: use its clone())

// Two clone() results, walked together: the copy plan, or null if they differ in any way a
// structural copy could not reproduce.
function makePlan(a, b) {
  const nodes = []; // {proto, array, keys, slots}: one per object the copy must build anew
  const indexOf = new Map(); // object of a -> node index
  const partner = new Map(); // object of a -> object of b at the same place
  const partnerOf = new Map(); // and back
  function slot(x, y) {
    if (x === y) return {node: -1, value: x}; // a primitive, or shared by both clones
    if (typeof x === 'number' && Number.isNaN(x) && Number.isNaN(y)) return {node: -1, value: x};
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) return null;
    if (partner.has(x) || partnerOf.has(y)) {
      return partner.get(x) === y && partnerOf.get(y) === x ? {node: indexOf.get(x)} : null;
    }
    partner.set(x, y);
    partnerOf.set(y, x);
    const proto = Object.getPrototypeOf(x);
    if (proto !== Object.getPrototypeOf(y) || !Object.isExtensible(x) || !Object.isExtensible(y)) {
      return null;
    }
    if (Object.getOwnPropertySymbols(x).length || Object.getOwnPropertySymbols(y).length) {
      return null;
    }
    const array = Array.isArray(x);
    if (array !== Array.isArray(y) || (array && proto !== Array.prototype)) return null;
    const keys = Object.keys(x);
    const others = Object.keys(y);
    const names = Object.getOwnPropertyNames(x);
    if (names.length !== keys.length + (array ? 1 : 0) || keys.length !== others.length) return null;
    if (Object.getOwnPropertyNames(y).length !== names.length) return null;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] !== others[i]) return null;
      if (array && keys[i] !== String(i)) return null; // no holes, no extra properties
      for (const [object, key] of [[x, keys[i]], [y, keys[i]]]) {
        const d = Object.getOwnPropertyDescriptor(object, key);
        if (!('value' in d) || !d.writable || !d.enumerable || !d.configurable) return null;
      }
    }
    const index = nodes.length;
    const node = {proto, array, keys, slots: null};
    nodes.push(node);
    indexOf.set(x, index);
    const slots = [];
    for (const key of keys) {
      const s = slot(x[key], y[key]);
      if (s === null) return null;
      slots.push(s);
    }
    node.slots = slots;
    return {node: index};
  }
  const top = slot(a, b);
  if (top === null || top.node !== 0) return null;
  // Flat arrays for the copy loop: per node, its keys and for each either a value or a node.
  return nodes.map(({proto, array, keys, slots}) => ({
    array,
    maker: array || proto === Object.prototype ? null : makerFor(proto),
    keys,
    refs: slots.map(s => s.node),
    values: slots.map(s => (s.node === -1 ? s.value : undefined)),
  }));
}

// Object.create(Pokemon.prototype) would give a dictionary-mode (slow) object: copies are built by
// one plain constructor per prototype instead, so all copies of one kind share V8's hidden classes.
const makers = new Map(); // prototype -> constructor
function makerFor(proto) {
  let maker = makers.get(proto);
  if (maker === undefined) {
    maker = function () {};
    maker.prototype = proto;
    makers.set(proto, maker);
  }
  return maker;
}

function copyPlan(plan) {
  const made = new Array(plan.length);
  for (let i = 0; i < plan.length; i++) {
    const {array, maker} = plan[i];
    made[i] = array ? [] : maker === null ? {} : new maker();
  }
  for (let i = 0; i < plan.length; i++) {
    const {array, keys, refs, values} = plan[i];
    const out = made[i];
    if (array) {
      for (let k = 0; k < refs.length; k++) out.push(refs[k] === -1 ? values[k] : made[refs[k]]);
    } else {
      for (let k = 0; k < keys.length; k++) out[keys[k]] = refs[k] === -1 ? values[k] : made[refs[k]];
    }
  }
  return made[0];
}

// copyPlan() stores by computed keys, which V8 cannot specialise, and objects built empty and
// filled keep most properties out of line. So plans of the same structure (same kinds of
// objects, keys and references: all Pokémon of species with the same data keys, all moves...)
// share one compiled copy function that builds each object in one expression, children first:
// object and array literals, and for a class instance (a Pokémon, a move, a side) a constructor
// assigning its keys in order (one per prototype and key list, so all copies of one kind share
// V8's hidden classes). The plan's values come in as an array.
const copiers = new Map(); // structure -> compiled copy function
const MAX_COPIERS = 2000; // then the generic copyPlan
const makerIds = new Map();
const builders = new Map(); // prototype and keys -> constructor

function builderFor(maker, keys) {
  if (!makerIds.has(maker)) makerIds.set(maker, makerIds.size);
  const id = JSON.stringify([makerIds.get(maker), keys]);
  let builder = builders.get(id);
  if (builder === undefined) {
    const params = keys.map((_, k) => `a${k}`);
    builder = new Function(...params, keys.map((key, k) => `this[${JSON.stringify(key)}] = a${k};`).join('\n'));
    builder.prototype = maker.prototype;
    builders.set(id, builder);
  }
  return builder;
}

function compileCopy(plan) {
  if (plan.some(node => node.keys.includes('__proto__'))) return null; // a literal would set it
  const order = []; // children before their parents; the root last
  const state = new Array(plan.length).fill(0);
  const visit = i => {
    if (state[i] !== 0) return state[i] === 2; // 1: on the path, a cycle
    state[i] = 1;
    for (const ref of plan[i].refs) if (ref !== -1 && !visit(ref)) return false;
    state[i] = 2;
    order.push(i);
    return true;
  };
  if (!visit(0)) return null;
  const values = [];
  const made = [];
  const structure = [];
  const lines = [];
  for (const i of order) {
    const node = plan[i];
    const parts = node.refs.map((ref, k) => {
      if (ref !== -1) return `n${ref}`;
      values.push(node.values[k]);
      return `v[${values.length - 1}]`;
    });
    let kind;
    let expression;
    if (node.array) {
      kind = 'A';
      expression = `[${parts.join(', ')}]`;
    } else if (node.maker === null) {
      kind = 'O';
      expression = `{${node.keys.map((key, k) => `${JSON.stringify(key)}: ${parts[k]}`).join(', ')}}`;
    } else {
      made.push(builderFor(node.maker, node.keys));
      kind = 'M' + makerIds.get(node.maker);
      expression = `new b[${made.length - 1}](${parts.join(', ')})`;
    }
    structure.push([i, kind, node.keys, node.refs]);
    lines.push(`const n${i} = ${expression};`);
  }
  const signature = JSON.stringify(structure);
  let copy = copiers.get(signature);
  if (copy === undefined) {
    if (copiers.size >= MAX_COPIERS) return null;
    copy = new Function('v', 'b', [...lines, 'return n0;'].join('\n'));
    copiers.set(signature, copy);
  }
  return {copy, values, makers: made};
}

// What calculate() would pass the mechanics for `source`: a copy of its clone(), or a clone().
function leanClone(source) {
  let plan = plans.get(source);
  if (plan === undefined) {
    const generic = makePlan(source.clone(), source.clone());
    plan = generic ? compileCopy(generic) || {generic} : false;
    plans.set(source, plan);
  }
  if (!plan) return source.clone();
  return plan.copy ? plan.copy(plan.values, plan.makers) : copyPlan(plan.generic);
}

function leanCalculate(attacker, defender, move, field) {
  if (!LEAN || LEAN_MECHANICS === null) return calc.calculate(gen, attacker, defender, move, field);
  return LEAN_MECHANICS(gen, leanClone(attacker), leanClone(defender), leanClone(move),
    leanClone(field));
}

let moveCount = 0;
function moveFor(moveHandle, attackerHandle, attacker) {
  let byAttacker = moves.get(moveHandle);
  if (byAttacker === undefined) {
    byAttacker = new Map();
    moves.set(moveHandle, byAttacker);
  }
  let move = byAttacker.get(attackerHandle);
  if (move === undefined) {
    const spec = lookup(moveSpecs, moveHandle, 'move');
    // The calc picks the number of hits (Skill Link, Loaded Dice...) and some move variants from
    // the user's ability, item and species: pass them as its own UI does.
    move = new calc.Move(gen, spec.name, {
      ...spec,
      ability: attacker.ability,
      item: attacker.item,
      species: attacker.name,
    });
    if (++moveCount > 200000) {
      moves.clear();
      moveCount = 1;
      moves.set(moveHandle, byAttacker = new Map());
    }
    byAttacker.set(attackerHandle, move);
  }
  return move;
}

function maxDamage(damage) {
  if (typeof damage === 'number') return damage;
  if (damage.length === 0) return 0;
  if (typeof damage[0] === 'number') return damage[damage.length - 1];
  let total = 0;
  for (const hit of damage) total += hit[hit.length - 1];
  return total;
}

// One result row: [damage, defender max HP, defender current HP, KO chance, KO hits, description].
function runOne(a, d, v, f, wantKO, wantDesc) {
  const attacker = lookup(mons, a, 'pokemon');
  const defender = lookup(mons, d, 'pokemon');
  const field = lookup(fields, f, 'field');
  const result = leanCalculate(attacker, defender, moveFor(v, a, attacker), field);
  const damage = result.damage;
  const row = [damage, defender.maxHP(), defender.curHP()];
  if (wantKO) {
    // kochance() throws (or prints) on zero damage: an immune target is never KOed.
    if (maxDamage(damage) > 0) {
      try {
        const ko = result.kochance(false);
        row.push(ko.chance === undefined ? null : ko.chance, ko.n);
      } catch (error) {
        row.push(null, 0);
      }
    } else {
      row.push(0, 0);
    }
  } else {
    row.push(null, 0);
  }
  if (wantDesc) {
    try {
      // desc() throws on zero damage; fullDesc without the error flag describes it ("0-0").
      row.push(maxDamage(damage) > 0 ? result.desc() : result.fullDesc('%', false));
    } catch (error) {
      row.push(null);
    }
  }
  return row;
}

function opCalc(request) {
  define(request.defs);
  const c = request.c;
  const wantKO = !!request.ko;
  const wantDesc = !!request.desc;
  const rows = new Array(c.length / 4);
  for (let i = 0, j = 0; i < c.length; i += 4, j++) {
    try {
      rows[j] = runOne(c[i], c[i + 1], c[i + 2], c[i + 3], wantKO, wantDesc);
    } catch (error) {
      rows[j] = {e: String(error && error.message ? error.message : error)};
    }
  }
  return {r: rows};
}

// Final stats as the calc sees them at the start of a calc: boosts applied, speed with items,
// abilities, status and the side's Tailwind (getFinalSpeed).
function opStats(request) {
  define(request.defs);
  const out = [];
  for (const [m, f, side] of request.s) {
    const mon = lookup(mons, m, 'pokemon').clone();
    const field = lookup(fields, f, 'field');
    const stats = {hp: mon.maxHP()};
    for (const stat of STAT_IDS.slice(1, 5)) {
      stats[stat] = mechanics.getModifiedStat(mon.rawStats[stat], mon.boosts[stat], gen);
    }
    stats.spe = mechanics.getFinalSpeed(gen, mon, field, side ? field.defenderSide : field.attackerSide);
    out.push(stats);
  }
  return {r: out};
}

// Raw throughput of calculate() on the same prebuilt objects, for the benchmark's baseline.
function opRaw(request) {
  define(request.defs);
  const c = request.c;
  const jobs = [];
  for (let i = 0; i < c.length; i += 4) {
    const attacker = lookup(mons, c[i], 'pokemon');
    jobs.push([attacker, lookup(mons, c[i + 1], 'pokemon'), moveFor(c[i + 2], c[i], attacker),
      lookup(fields, c[i + 3], 'field')]);
  }
  const wantKO = !!request.ko;
  const seconds = request.seconds || 1;
  let count = 0;
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    for (const [attacker, defender, move, field] of jobs) {
      const result = calc.calculate(gen, attacker, defender, move, field);
      if (wantKO && maxDamage(result.damage) > 0) {
        try {
          result.kochance(false);
        } catch (error) {
          // same guard as runOne
        }
      }
      count++;
    }
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  } while (elapsed < seconds);
  const cpu = process.cpuUsage(cpuStart);
  return {count, seconds: elapsed, cpuSeconds: (cpu.user + cpu.system) / 1e6};
}

function table(iterable) {
  const out = {};
  for (const entry of iterable) out[entry.id] = entry.name;
  return out;
}

// The move or ability that brings each weather, terrain and field or side condition about, where
// it is not the condition's own name ("isGravity" -> gravity, "isFriendGuard" -> friendguard).
const WEATHER_SOURCES = {
  Sun: 'sunnyday', Rain: 'raindance', Sand: 'sandstorm', Hail: 'hail', Snow: 'snowscape',
  'Harsh Sunshine': 'desolateland', 'Heavy Rain': 'primordialsea', 'Strong Winds': 'deltastream',
};
const TERRAIN_SOURCES = {
  Electric: 'electricterrain', Grassy: 'grassyterrain', Psychic: 'psychicterrain',
  Misty: 'mistyterrain',
};
const KEY_SOURCES = {
  isSR: 'stealthrock', isSeeded: 'leechseed', isNightmared: 'nightmare', isProtected: 'protect',
  isSaltCured: 'saltcure',
  steelsurge: 'gmaxsteelsurge', vinelash: 'gmaxvinelash', wildfire: 'gmaxwildfire',
  cannonade: 'gmaxcannonade', volcalith: 'gmaxvolcalith',
};

function sourceIn(g, id) {
  return !!(g.moves.get(id) || g.abilities.get(id));
}

// What the calc would apply although this generation lacks it (it does not check): each weather,
// terrain and field or side key whose source move or ability exists in some generation but not
// in this one (Stealth Rock before gen 4, terrains before gen 6, Snow before gen 9...).
function absentFromGen() {
  const all = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(n => calc.Generations.get(n));
  const absent = source => all.some(g => sourceIn(g, source)) && !sourceIn(gen, source);
  const keySource = key => KEY_SOURCES[key] || calc.toID(key.replace(/^is/, ''));
  const missing = (names, sourceOf) => names.filter(name => absent(sourceOf(name)));
  return {
    weather: missing(Object.keys(WEATHER_SOURCES), name => WEATHER_SOURCES[name]),
    terrain: missing(Object.keys(TERRAIN_SOURCES), name => TERRAIN_SOURCES[name]),
    field: missing(Object.keys(new calc.Field()), keySource),
    side: missing(Object.keys(new calc.Side()), keySource),
  };
}

function opNames() {
  return {
    gen: GEN_NUM,
    species: table(gen.species),
    moves: table(gen.moves),
    items: table(gen.items),
    abilities: table(gen.abilities),
    natures: table(gen.natures),
    // natures that change no stat: the only ones that mean nothing lost before gen 3
    neutralNatures: [...gen.natures].filter(n => n.plus === n.minus).map(n => n.name),
    types: table(gen.types),
    fieldKeys: Object.keys(new calc.Field()),
    sideKeys: Object.keys(new calc.Side()),
    absent: absentFromGen(),
  };
}

// Showdown (not the calc) knows which formes are cosmetic and what a species' base forme is
// called; it is loaded only when a name misses the calc's table.
let showdownDex = null;
function dex() {
  if (showdownDex === null) {
    try {
      showdownDex = requireFromModules('pokemon-showdown').Dex.forGen(GEN_NUM);
    } catch (error) {
      showdownDex = false;
    }
  }
  return showdownDex;
}

function sameStats(a, b) {
  return STAT_IDS.every(stat => a.baseStats[stat] === b.baseStats[stat]) &&
    a.types.join('/') === b.types.join('/');
}

// A species the calc does not know: fold a cosmetic forme (same stats and types as its base,
// e.g. Vivillon-Sun, Alcremie-Rainbow-Swirl, Gastrodon-East) into the base species.
function resolveSpecies(name) {
  const known = gen.species.get(calc.toID(name));
  if (known) return [known.name, null];
  const sd = dex();
  if (!sd) return [null, 'unknown species (and pokemon-showdown is not installed to fold formes)'];
  const species = sd.species.get(name);
  if (!species || !species.exists) return [null, 'unknown species'];
  const base = gen.species.get(calc.toID(species.baseSpecies));
  if (!base) return [null, `unknown species (base ${species.baseSpecies} unknown to the calc)`];
  const baseSd = sd.species.get(species.baseSpecies);
  const cosmetic = (baseSd.cosmeticFormes || []).includes(species.name) ||
    species.isCosmeticForme || sameStats(species, base);
  if (!cosmetic) return [null, `forme ${species.name} is unknown to the calc and not cosmetic`];
  return [base.name, 'cosmetic forme folded into ' + base.name];
}

// The forme a species takes when it terastallizes (Ogerpon-Wellspring -> Ogerpon-Wellspring-Tera,
// Ogerpon -> Ogerpon-Teal-Tera, Terapagos(-Terastal) -> Terapagos-Stellar), with the ability
// that forme has, or null.
function teraForme(name) {
  const candidates = [name + '-Tera'];
  const sd = dex();
  if (sd) {
    const species = sd.species.get(name);
    if (species && species.exists) {
      if (species.baseForme) candidates.push(`${name}-${species.baseForme}-Tera`);
      const stellar = `${species.baseSpecies}-Stellar`;
      const base = sd.species.get(species.baseSpecies);
      if ((base.otherFormes || []).includes(stellar)) candidates.push(stellar);
    }
  }
  for (const candidate of candidates) {
    const species = gen.species.get(calc.toID(candidate));
    if (species) return [species.name, species.abilities[0]];
  }
  return null;
}

function opResolve(request) {
  return {
    species: (request.species || []).map(resolveSpecies),
    tera: (request.tera || []).map(teraForme),
  };
}

function warmUp(count) {
  // The first few thousand calcs run several times slower until V8 has optimised the calc's hot
  // paths: run them now, on varied Pokémon and moves, so the first real decision is fast.
  const names = ['Great Tusk', 'Iron Valiant', 'Gholdengo', 'Dragonite', 'Kingambit', 'Toxapex',
    'Garganacl', 'Rillaboom', 'Heatran', 'Volcarona', 'Dondozo', 'Zapdos'];
  const moveNames = ['Close Combat', 'Moonblast', 'Make It Rain', 'Extreme Speed', 'Kowtow Cleave',
    'Surf', 'Salt Cure', 'Grassy Glide', 'Magma Storm', 'Fiery Dance', 'Wave Crash', 'Hurricane',
    'Bullet Seed', 'Earthquake', 'Thunderbolt', 'Ice Spinner'];
  const built = names.filter(n => gen.species.get(calc.toID(n))).map(n => new calc.Pokemon(gen, n, {
    level: 80, evs: {hp: 84, atk: 84, def: 84, spa: 84, spd: 84, spe: 84},
  }));
  const builtMoves = moveNames.filter(n => gen.moves.get(calc.toID(n)))
    .map(n => new calc.Move(gen, n));
  // built once, like the bridge's own fields (a lean clone plans each object once)
  const builtFields = [undefined, 'Sun', 'Rain'].map(weather => new calc.Field({weather}));
  let done = 0;
  for (let i = 0; done < count && built.length > 1 && builtMoves.length; i++) {
    const field = builtFields[i % builtFields.length];
    // (the path real calcs take, so V8 optimises it for the objects they use)
    const result = leanCalculate(built[i % built.length], built[(i * 5 + 1) % built.length],
      builtMoves[i % builtMoves.length], field);
    if (i % 4 === 0 && maxDamage(result.damage) > 0) {
      try {
        result.kochance(false);
        result.desc();
      } catch (error) {
        // warm-up only
      }
    }
    done++;
  }
  return done;
}

function sleep(ms) {
  // For tests of the client's timeout: block this process like a hung calc would.
  const end = Date.now() + ms;
  while (Date.now() < end) { /* busy */ }
  return {slept: ms};
}

const OPS = {
  calc: opCalc,
  stats: opStats,
  raw: opRaw,
  names: opNames,
  resolve: opResolve,
  ping: () => ({pong: true}),
  cpu: () => {
    const cpu = process.cpuUsage();
    return {cpuSeconds: (cpu.user + cpu.system) / 1e6};
  },
  reset: () => {
    mons.clear(); moveSpecs.clear(); moves.clear(); fields.clear();
    moveCount = 0;
    fields.set(0, new calc.Field());
    return {reset: true};
  },
  sleep: request => sleep(request.ms || 0),
};

function handle(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    return {id: null, error: 'bad JSON: ' + error.message};
  }
  reader.allowed = request.s === 1;
  const op = OPS[request.op];
  if (!op) return {id: request.id, error: `unknown op '${request.op}'`};
  try {
    const answer = op(request);
    answer.id = request.id;
    return answer;
  } catch (error) {
    const answer = {id: request.id, error: String(error && error.message ? error.message : error)};
    if (error instanceof InputError) {
      answer.field = error.field;
      answer.value = error.value;
    }
    return answer;
  }
}

function main() {
  const started = process.hrtime.bigint();
  const warmed = warmUp(WARMUP);
  const ready = {
    ready: true,
    gen: GEN_NUM,
    warmup: warmed,
    warmupSeconds: Number(process.hrtime.bigint() - started) / 1e9,
    lean: LEAN && LEAN_MECHANICS !== null,
    calcVersion: (() => {
      try {
        return requireFromModules('@smogon/calc/package.json').version;
      } catch (error) {
        return null;
      }
    })(),
  };
  writeAll(JSON.stringify(ready) + '\n');

  // Plain blocking reads and writes on fds 0 and 1: no event loop or stream machinery between
  // requests, which is most of the cost of a single round trip.
  const chunk = Buffer.allocUnsafe(1 << 20);
  let pending = [];
  for (;;) {
    const n = reader.read(chunk);
    if (n === 0) break; // the client closed stdin: exit
    const data = chunk.subarray(0, n); // never search stale bytes of an earlier, longer read
    let start = 0;
    for (let i = data.indexOf(10, 0); i >= 0; i = data.indexOf(10, i + 1)) {
      let line;
      if (pending.length) {
        pending.push(data.subarray(start, i));
        line = Buffer.concat(pending).toString('utf8');
        pending = [];
      } else {
        line = data.toString('utf8', start, i);
      }
      start = i + 1;
      // Each answer goes out as soon as it is ready: a client that sent several requests at once
      // reads the first while this process computes the next.
      if (line.trim()) writeAll(JSON.stringify(handle(line)) + '\n');
    }
    if (start < n) pending.push(Buffer.from(data.subarray(start, n)));
  }
  process.exit(0);
}

// Reads stdin, polling briefly before it blocks. On a virtual machine a read that sleeps is
// expensive: the idle vCPU halts, and waking it costs tens of microseconds of latency and CPU,
// more than a calc, and the caches come back cold. So when the client says a CPU is spare (the
// request's "s" flag, from the kernel's CPU pressure: see pressure.py), the next read first polls
// a non-blocking descriptor of the same pipe for up to `spinUs`. Polls that find nothing (a bot
// between decisions) are backed off exponentially, so an idle bridge wastes almost no CPU.
class RequestReader {
  constructor(spinUs) {
    this.spinNs = BigInt(Math.max(0, Math.round(spinUs * 1000)));
    this.allowed = false; // set per request by the client
    this.skip = 0; // polls left to skip
    this.backoff = 1; // polls to skip after the next one that finds nothing
    this.pollFd = -1;
    if (this.spinNs > 0n) {
      try {
        // A second open file description of the same pipe, so only it is non-blocking.
        if (fs.fstatSync(0).isFIFO()) {
          this.pollFd = fs.openSync('/proc/self/fd/0', fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
        }
      } catch (error) {
        this.pollFd = -1; // not Linux, or not a pipe: plain blocking reads
      }
    }
  }

  read(buffer) {
    if (this.allowed && this.pollFd >= 0) {
      if (this.skip > 0) {
        this.skip--;
      } else {
        const n = this.poll(buffer);
        if (n >= 0) {
          this.backoff = 1;
          return n;
        }
        this.skip = this.backoff;
        this.backoff = Math.min(this.backoff * 2, 1024);
      }
    }
    return blockingRead(buffer);
  }

  poll(buffer) {
    // Each try that finds nothing throws EAGAIN; without stack traces a try costs ~5 us.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      const until = process.hrtime.bigint() + this.spinNs;
      do {
        try {
          return fs.readSync(this.pollFd, buffer, 0, buffer.length, null);
        } catch (error) {
          if (error.code !== 'EAGAIN') throw error;
        }
      } while (process.hrtime.bigint() < until);
    } finally {
      Error.stackTraceLimit = limit;
    }
    return -1;
  }
}

function blockingRead(buffer) {
  for (;;) {
    try {
      return fs.readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      if (error.code === 'EAGAIN') {
        Atomics.wait(SLEEPER, 0, 0, 1); // stdin was handed over non-blocking
        continue;
      }
      if (error.code === 'EOF') return 0;
      throw error;
    }
  }
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));
const reader = new RequestReader(SPIN_US);

function writeAll(text) {
  const data = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < data.length) {
    try {
      offset += fs.writeSync(1, data, offset, data.length - offset);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      Atomics.wait(SLEEPER, 0, 0, 1);
    }
  }
}

if (require.main === module) main();
else module.exports = {handle, calc, gen, mons, fields, moveFor, runOne, makePlan, leanClone, leanCalculate}; // profiling
