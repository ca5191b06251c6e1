'use strict';
// The per-generation exactness check's Node half (scripts/calc_gens_check.py runs it).
//
//   node scripts/calc_gens.js cases GEN COUNT SEED > cases.json
//     COUNT calc cases for generation GEN: random pairs of Pokémon from real genNrandombattle
//     teams of the pinned pokemon-showdown (their levels, items, abilities, natures, EVs, IVs or
//     DVs and stat experience), with a move of the attacker's set, boosts, status, HP, critical
//     hits, weather, terrain, screens and hazards that exist in that generation, Dynamax and Max
//     Moves in gen 8, Z-moves in gen 7, terastallization in gen 9; half the names as Showdown IDs.
//   node scripts/calc_gens.js direct GEN < cases.json
//     The reference: @smogon/calc's calculate(Generations.get(GEN), ...) called directly on each
//     case, names translated with Showdown's own Dex (not the bridge's code). One JSON line:
//     [{damage, maxHP, chance, n, desc}, ...] in the order of the cases.

const fs = require('fs');
const path = require('path');
const modules = process.env.RANDBOT_NODE_MODULES || path.join(__dirname, '..', 'node_modules');
const {Teams, Dex, toID} = require(path.join(modules, 'pokemon-showdown'));
const calc = require(path.join(modules, '@smogon/calc'));
console.log = console.error; // kochance() prints on zero damage; stdout carries the answer

const TEAMS = 40; // teams generated per generation: 240 Pokémon to draw pairs from

// mulberry32: a tiny seeded PRNG, so a seed gives the same cases again.
function prng(seed) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6D2B79F5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// What of the field each generation has (the move or ability that makes it exists there).
function fieldChoices(num) {
  const weathers = [];
  if (num >= 2) weathers.push('sunnyday', 'raindance', 'sandstorm');
  if (num >= 3 && num <= 8) weathers.push('hail');
  if (num >= 9) weathers.push('snow');
  const terrains = num >= 6 ? ['electricterrain', 'grassyterrain', 'mistyterrain'] : [];
  if (num >= 7) terrains.push('psychicterrain');
  const screens = ['reflect', 'lightscreen'];
  if (num >= 7) screens.push('auroraveil');
  return {weathers, terrains, screens, stealthRock: num >= 4, spikes: num >= 2};
}

function makeCases(num, count, seed) {
  const random = prng(seed);
  const pick = list => list[Math.floor(random() * list.length)];
  const chance = p => random() < p;
  const gen = calc.Generations.get(num);
  const dex = Dex.forGen(num);
  const format = `gen${num}randombattle`;
  const mons = [];
  for (let i = 0; i < TEAMS; i++) {
    const s = seed * 1000 + i;
    mons.push(...Teams.generate(format, {seed: [s, s + 1, s + 2, s + 3]}));
  }
  const calcSpecies = set => gen.species.get(toID(set.species)) ||
    gen.species.get(toID(dex.species.get(set.species).baseSpecies));
  const usable = mons.filter(calcSpecies);
  const choices = fieldChoices(num);

  function maxHP(set) {
    return new calc.Pokemon(gen, calcSpecies(set).name,
      {level: set.level, evs: set.evs, ivs: set.ivs}).maxHP();
  }

  function withState(set, role, asIds) {
    const mon = {species: set.species, level: set.level, evs: set.evs, ivs: set.ivs, moves: set.moves};
    for (const key of ['item', 'ability', 'nature', 'teraType', 'gender']) {
      if (set[key]) mon[key] = asIds && key !== 'gender' ? toID(set[key]) : set[key];
    }
    if (num === 9 && chance(0.3)) mon.terastallized = true;
    if (num === 8 && chance(0.2)) mon.isDynamaxed = true;
    if (chance(0.3)) {
      mon.boosts = {};
      const stat = pick(role === 'attacker' ? ['atk', 'spa', 'spe'] : ['def', 'spd']);
      mon.boosts[stat] = pick([-2, -1, 1, 2, 4, 6]);
      // Gen 1 has one Special stat: its boosts raise both halves.
      if (num === 1 && (stat === 'spa' || stat === 'spd')) mon.boosts.spa = mon.boosts.spd = mon.boosts[stat];
    }
    if (chance(0.15)) mon.status = pick(['brn', 'par', 'psn', 'tox', 'slp', 'frz']);
    if (chance(0.25)) mon.curHP = 1 + Math.floor(random() * maxHP(set));
    return mon;
  }

  function field() {
    const out = {};
    if (choices.weathers.length && chance(0.15)) out.weather = pick(choices.weathers);
    if (choices.terrains.length && chance(0.15)) out.terrain = pick(choices.terrains);
    if (chance(0.1)) out.defenderSide = {[pick(choices.screens)]: true};
    if (chance(0.1)) {
      const hazards = {};
      if (choices.stealthRock) hazards.stealthrock = true;
      if (choices.spikes) hazards.spikes = num === 2 ? 1 : 1 + Math.floor(random() * 3);
      if (Object.keys(hazards).length) out.defenderSide = Object.assign(out.defenderSide || {}, hazards);
    }
    return Object.keys(out).length ? out : null;
  }

  const known = id => gen.moves.get(toID(dex.moves.get(id).name));
  // A Z-crystal's move: one of its type, or the move a signature crystal upgrades.
  const zMoveFor = (set, id) => {
    const item = dex.items.get(set.item || '');
    const move = dex.moves.get(id);
    return !!item.zMove && move.category !== 'Status' &&
      (item.zMoveFrom ? item.zMoveFrom === move.name : item.zMoveType === move.type);
  };
  const zHolders = usable.filter(set => set.moves.some(id => known(id) && zMoveFor(set, id)));
  const cases = [];
  while (cases.length < count) {
    // Z-crystals are rare in random battles: every tenth gen 7 case draws a holder.
    const zCase = num === 7 && zHolders.length && cases.length % 10 === 0;
    const attacker = zCase ? pick(zHolders) : pick(usable);
    const defender = pick(usable);
    const moves = attacker.moves.filter(known);
    const damaging = moves.filter(id => dex.moves.get(id).category !== 'Status');
    if (!moves.length) continue;
    const zMoves = moves.filter(id => zMoveFor(attacker, id));
    const moveId = zCase ? pick(zMoves) : pick(damaging.length && chance(0.95) ? damaging : moves);
    const asIds = cases.length % 2 === 1;
    const c = {
      attacker: withState(attacker, 'attacker', asIds),
      defender: withState(defender, 'defender', asIds),
      move: {name: asIds ? moveId : dex.moves.get(moveId).name},
      field: field(),
    };
    if (chance(0.1)) c.move.isCrit = true;
    if (c.attacker.isDynamaxed) c.move.useMax = true;
    if (num === 7 && zMoveFor(attacker, moveId) && (zCase || chance(0.7))) c.move.useZ = true;
    cases.push(c);
  }
  return cases;
}

function directResults(num, cases) {
  const gen = calc.Generations.get(num);
  const dex = Dex.forGen(num);
  const WEATHER = {sunnyday: 'Sun', raindance: 'Rain', sandstorm: 'Sand', hail: 'Hail', snow: 'Snow'};
  const TERRAIN = {electricterrain: 'Electric', grassyterrain: 'Grassy', psychicterrain: 'Psychic',
    mistyterrain: 'Misty'};
  const SIDE = {reflect: 'isReflect', lightscreen: 'isLightScreen', auroraveil: 'isAuroraVeil',
    stealthrock: 'isSR', spikes: 'spikes'};

  function speciesName(name) {
    const known = gen.species.get(calc.toID(name));
    return known ? known.name : dex.species.get(name).baseSpecies; // cosmetic formes: the base
  }

  function pokemon(m) {
    let name = speciesName(m.species);
    let ability = num >= 3 && m.ability ? dex.abilities.get(m.ability).name : undefined;
    const options = {
      level: m.level,
      item: m.item ? dex.items.get(m.item).name : undefined,
      nature: num >= 3 && m.nature ? dex.natures.get(m.nature).name : undefined,
      evs: m.evs, ivs: m.ivs, boosts: m.boosts, status: m.status, curHP: m.curHP,
      gender: m.gender || undefined,
    };
    if (m.isDynamaxed) options.isDynamaxed = true;
    if (m.terastallized) {
      options.teraType = dex.types.get(m.teraType).name;
      const species = dex.species.get(name);
      const candidates = [name + '-Tera', `${name}-${species.baseForme}-Tera`];
      if (species.baseSpecies === 'Terapagos') candidates.push('Terapagos-Stellar');
      for (const candidate of candidates) {
        const tera = gen.species.get(calc.toID(candidate));
        if (tera) {
          name = tera.name;
          ability = tera.abilities[0];
          break;
        }
      }
    }
    options.ability = ability;
    if (ability === 'Protosynthesis' || ability === 'Quark Drive') options.boostedStat = 'auto';
    return new calc.Pokemon(gen, name, options);
  }

  function fieldOf(f) {
    if (!f) return new calc.Field();
    const side = s => {
      const out = {};
      for (const [key, value] of Object.entries(s || {})) out[SIDE[key]] = value;
      return out;
    };
    return new calc.Field({
      weather: WEATHER[f.weather], terrain: TERRAIN[f.terrain],
      attackerSide: side(f.attackerSide), defenderSide: side(f.defenderSide),
    });
  }

  return cases.map(c => {
    const attacker = pokemon(c.attacker);
    const defender = pokemon(c.defender);
    const {name, ...options} = c.move;
    const move = new calc.Move(gen, dex.moves.get(name).name,
      {...options, ability: attacker.ability, item: attacker.item, species: attacker.name});
    const result = calc.calculate(gen, attacker, defender, move, fieldOf(c.field));
    const damage = result.damage;
    const flat = typeof damage === 'number' ? [damage] : damage.flat();
    let chance = 0;
    let n = 0;
    let desc;
    if (Math.max(...flat) > 0) {
      const ko = result.kochance(false);
      chance = ko.chance === undefined ? null : ko.chance;
      n = ko.n;
      desc = result.desc();
    } else {
      desc = result.fullDesc('%', false);
    }
    return {damage, maxHP: defender.maxHP(), chance, n, desc};
  });
}

function main() {
  const [mode, genText, countText, seedText] = process.argv.slice(2);
  const num = Number(genText);
  if (!(num >= 1 && num <= 9) || !['cases', 'direct'].includes(mode)) {
    process.stderr.write('usage: calc_gens.js cases GEN COUNT SEED | direct GEN < cases.json\n');
    process.exit(2);
  }
  if (mode === 'cases') {
    const cases = makeCases(num, Number(countText) || 300, Number(seedText) || 1);
    process.stdout.write(JSON.stringify(cases) + '\n');
  } else {
    const cases = JSON.parse(fs.readFileSync(0, 'utf8'));
    process.stdout.write(JSON.stringify(directResults(num, cases)) + '\n');
  }
}

module.exports = {directResults, makeCases};

if (require.main === module) main();
