// How the lead changes a species' random-battle set: Showdown's gen9 generator builds the team's
// first Pokémon (the one that starts the battle) with isLead = true (teams.ts randomSet / getItem:
// no Fast Bulky Setup role for Paradox leads, no Booster Energy, Focus Sash for some hazard or
// Sticky Web leads, Eviolite for a lead Scyther without U-turn...).
//
// For each species, pairs of sets from the same PRNG seed, once as lead and once not: a species whose
// first DETECT pairs never differ has no lead effect and is left out; the others go on to N pairs and
// keep the item counts of both sides.
//
// Usage: node lead_sets.js FORMAT N SEED [DETECT [SPECIES,...]]  -> one JSON document on stdout
// (randbot/inference/lead_items.json: node lead_sets.js gen9randombattle 4000 1 300)
'use strict';

const path = require('path');
const showdownDir = process.env.RANDBOT_SHOWDOWN_DIR ||
  path.join(__dirname, '..', '..', 'node_modules', 'pokemon-showdown');
const {Teams, Dex, toID} = require(showdownDir);
const {PRNG} = require(path.join(showdownDir, 'dist', 'sim', 'prng'));
const version = require(path.join(showdownDir, 'package.json')).version;

const [formatName, nArg, seedArg] = process.argv.slice(2);
const format = Dex.formats.get(formatName || 'gen9randombattle');
const n = Number(nArg || 1000);
const baseSeed = Number(seedArg || 1);
const detect = Number(process.argv[5] || 300);
const only = process.argv[6] ? new Set(process.argv[6].split(',')) : null;
const generator = Teams.getGenerator(format, PRNG.generateSeed());
const dex = Dex.forFormat(format);
const NO_LEAD = new Set(['Zacian', 'Zamazenta']);  // teams.ts NO_LEAD_POKEMON (singles)

function fold(name) {
  const species = dex.species.get(name);
  if (species.isCosmeticForme) return dex.species.get(species.baseSpecies).id;
  const base = dex.species.get(species.baseSpecies);
  const stats = s => Object.values(s.baseStats).join();
  if (base.id !== species.id && !generator.randomSets[species.id] && generator.randomSets[base.id] &&
      stats(base) === stats(species)) return base.id;
  return species.id;
}

const out = {};
let index = 0;
for (const id of Object.keys(generator.randomSets)) {
  const species = dex.species.get(id);
  if (!species.exists || NO_LEAD.has(species.baseSpecies) || (only && !only.has(id))) {
    index++;
    continue;
  }
  const lead = {};
  const other = {};
  let differ = 0;
  let key = null;
  let pairs = 0;
  for (let i = 0; i < n; i++) {
    if (i === detect && !differ) break;
    pairs++;
    const seed = `sodium,${(baseSeed * 1000003 + index * 7919 + i).toString(16).padStart(64, '0')}`;
    generator.setSeed(seed);
    const a = generator.randomSet(species, {}, true);
    generator.setSeed(seed);
    const b = generator.randomSet(species, {}, false);
    key = key || fold(a.species);
    lead[a.item] = (lead[a.item] || 0) + 1;
    other[b.item] = (other[b.item] || 0) + 1;
    const sig = s => [s.item, s.ability, s.teraType, [...s.moves].map(toID).sort().join()].join('|');
    if (sig(a) !== sig(b)) differ++;
  }
  index++;
  if (differ) out[key] = {pairs, differ, lead, other};
}
process.stdout.write(JSON.stringify({format: format.id, version, pairs: n, detect, seed: baseSeed, species: out}) + '\n');
