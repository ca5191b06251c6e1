// Prints what the pinned generator knows about a random-battle format, for setdb's fallback:
// its sets data (level, movepools, abilities, tera types per species), base stats, and the
// aliases under which a species can appear in battle (cosmetic and battle-only formes).
//
// Usage: node formatdata.js FORMAT   -> one JSON document on stdout, or {"error": ...}
'use strict';

const path = require('path');
const showdownDir = process.env.RANDBOT_SHOWDOWN_DIR ||
  path.join(__dirname, '..', 'node_modules', 'pokemon-showdown');
const {Teams, Dex, toID} = require(showdownDir);
const version = require(path.join(showdownDir, 'package.json')).version;

function fail(message) {
  process.stdout.write(JSON.stringify({error: message}) + '\n');
  process.exit(2);
}

const format = Dex.formats.get(process.argv[2] || '');
if (!format.exists || format.effectType !== 'Format') fail(`unknown format ${JSON.stringify(process.argv[2])}`);
let generator;
try {
  generator = Teams.getGenerator(format, '1,2,3,4');
} catch (error) {
  fail(`no team generator for ${format.id}: ${error.message}`);
}
const dex = Dex.forFormat(format);
const stats = s => ['hp', 'atk', 'def', 'spa', 'spd', 'spe'].map(k => s.baseStats[k]);

const doubles = format.gameType === 'doubles' && generator.randomDoublesSets;
// Gen 1 and Let's Go keep their sets in randomData (gen 1 also inherits gen 2's randomSets).
const table = generator.randomData ||
  (doubles ? generator.randomDoublesSets : generator.randomSets) || {};
const species = {};
for (const [id, entry] of Object.entries(table)) {
  const s = dex.species.get(id);
  if (!s.exists) continue;
  const sets = (entry.sets || [entry]).map(set => ({
    role: set.role || '',
    movepool: [...new Set([
      ...(set.movepool || []), ...(set.moves || []), ...(set.essentialMoves || []),
      ...(set.exclusiveMoves || []), ...(set.comboMoves || []),
    ].map(toID))].sort(),
    abilities: (set.abilities || []).map(a => dex.abilities.get(a).name),
    tera_types: set.teraTypes || [],
  }));
  species[s.id] = {name: s.name, level: entry.level || null, base_stats: stats(s), sets};
}

const aliases = {};
for (const s of dex.species.all()) {
  for (const cosmetic of s.cosmeticFormes || []) aliases[toID(cosmetic)] = [s.id, null];
  if (typeof s.battleOnly === 'string') aliases[s.id] = [toID(s.battleOnly), s.requiredItem || null];
}

process.stdout.write(JSON.stringify({format: format.id, version, species, aliases}) + '\n');
