// Streams random-battle builds from the pinned pokemon-showdown team generator to Python.
//
// Usage: node generator.js FORMAT SEED TEAMS [BATCH]
//   TEAMS = 0 streams forever (the Python side stops us). One JSON line per batch of teams:
//   {"teams": k, "sets": [[speciesid, level, [moveids sorted], item, ability, tera, evs, ivs, nature], ...],
//    "species": {id: {"name", "base_stats", "level_hint"}},   (species: only ids seen for the first time)
//    "resume_seed": seed}   (SEED that continues the stream exactly after this batch)
// The first line is a header: {"header": {format, version, seed, format_data}} or {"error": ...}
// (format_data: see formatdata.js).
// Teams come as a battle deals them: a fresh generator per battle of two teams, seeded from a stream
// PRNG. Generators keep state between teams (Gen 1-3 deal at most one Ditto and one Wobbuffet per
// battle), so one generator for a whole harvest would deal those species almost never.
// Cosmetic formes fold into their base species here, where the Dex knows which formes are cosmetic.
// A field the generation lacks comes out empty: Gen 1-2's "No Ability" is no ability.
'use strict';

const path = require('path');
const showdownDir = process.env.RANDBOT_SHOWDOWN_DIR ||
  path.join(__dirname, '..', 'node_modules', 'pokemon-showdown');
const {Teams, Dex, PRNG, toID} = require(showdownDir);
const {formatData, folder, version} = require('./formatdata.js');

const [formatName, seed, teamsArg, batchArg] = process.argv.slice(2);
const wanted = Number(teamsArg || 0);
const batchSize = 2 * Math.ceil(Number(batchArg || 50) / 2);  // whole battles

process.stdout.on('error', () => process.exit(0));  // Python closed the pipe: we are done

function fail(message) {
  process.stdout.write(JSON.stringify({error: message}) + '\n');
  process.exit(2);
}

const format = Dex.formats.get(formatName);
if (!format.exists || format.effectType !== 'Format') fail(`unknown format ${JSON.stringify(formatName)}`);
let stream;
let generator;
try {
  stream = new PRNG(seed);
  generator = Teams.getGenerator(format, seed);
  generator.getTeam();  // fail early on formats whose generator cannot run here
} catch (error) {
  fail(`no team generator for ${format.id}: ${error.message}`);
}

/** The next battle's generator, seeded from the stream. */
function battleGenerator() {
  const words = Array.from({length: 8}, () => stream.random(2 ** 32).toString(16).padStart(8, '0'));
  return Teams.getGenerator(format, `sodium,${words.join('')}`);
}
const dex = Dex.forFormat(format);

function statsArray(table, fallback) {
  if (!table) return null;
  return ['hp', 'atk', 'def', 'spa', 'spd', 'spe'].map(s => (table[s] ?? fallback));
}

const known = new Set();
const speciesCache = new Map();
const fold = folder(format, generator);
function foldedSpecies(name) {
  let entry = speciesCache.get(name);
  if (entry) return entry;
  // Cosmetic formes (Gastrodon-East) and the generator's random formes of one sets entry
  // (Pikachu-Alola) have the base's stats and sets: they count as the base.
  const species = fold(name);
  entry = {id: species.id, name: species.name, baseStats: statsArray(species.baseStats, 0)};
  speciesCache.set(name, entry);
  return entry;
}

const header = {format: format.id, name: format.name, version, seed, format_data: formatData(format, generator)};
process.stdout.write(JSON.stringify({header}) + '\n');

const NO_ABILITY = 'noability';
let produced = 0;
function writeBatch() {
  const sets = [];
  const newSpecies = {};
  let teams = 0;
  // Whole battles only, so that resume_seed always falls between two battles.
  while (teams < batchSize && (wanted === 0 || produced < wanted)) {
    if (produced % 2 === 0) generator = battleGenerator();
    for (const set of generator.getTeam()) {
      const species = foldedSpecies(set.species);
      if (!known.has(species.id)) {
        known.add(species.id);
        newSpecies[species.id] = {name: species.name, base_stats: species.baseStats};
      }
      sets.push([
        species.id, set.level || 100, set.moves.map(toID).sort(), set.item || '',
        toID(set.ability) === NO_ABILITY ? '' : (set.ability || ''),
        set.teraType || '', statsArray(set.evs, 0), statsArray(set.ivs, 31), set.nature || '',
      ]);
    }
    teams++;
    produced++;
  }
  const line = {teams, sets, resume_seed: stream.getSeed()};
  if (Object.keys(newSpecies).length) line.species = newSpecies;
  return process.stdout.write(JSON.stringify(line) + '\n');
}

function pump() {
  while (wanted === 0 || produced < wanted) {
    if (!writeBatch()) {
      process.stdout.once('drain', pump);  // back-pressure: Python reads slower than we generate
      return;
    }
  }
}
pump();
