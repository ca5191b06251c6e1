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

const stats = s => ['hp', 'atk', 'def', 'spa', 'spd', 'spe'].map(k => s.baseStats[k]);

/** The generator's sets table for the format: species id -> {level, sets}. */
function setsTable(format, generator) {
  const doubles = format.gameType === 'doubles' && generator.randomDoublesSets;
  // Gen 1 and Let's Go keep their sets in randomData (gen 1 also inherits gen 2's randomSets).
  return generator.randomData ||
    (doubles ? generator.randomDoublesSets : generator.randomSets) || {};
}

/**
 * The species a generated set is counted under. Cosmetic formes fold into their base; so do the
 * formes the generator picks at random for one sets entry (Pikachu-Alola, Maushold-Four,
 * Polteageist-Antique...): formes without sets of their own whose base has sets and the same stats.
 */
function folder(format, generator) {
  const dex = Dex.forFormat(format);
  const table = setsTable(format, generator);
  return function fold(name) {
    const species = dex.species.get(name);
    if (species.isCosmeticForme) return dex.species.get(species.baseSpecies);
    const base = dex.species.get(species.baseSpecies);
    if (base.id !== species.id && !table[species.id] && table[base.id] &&
        stats(base).join() === stats(species).join()) {
      return base;
    }
    return species;
  };
}

/** The format's sets data, base stats and forme aliases, from a running generator. */
function formatData(format, generator) {
  const dex = Dex.forFormat(format);
  const table = setsTable(format, generator);
  const fold = folder(format, generator);
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
    if (typeof s.battleOnly === 'string') {
      aliases[s.id] = [toID(s.battleOnly), s.requiredItem || null];
    } else if (fold(s.name).id !== s.id) {
      aliases[s.id] = [fold(s.name).id, null];
    }
  }
  // Names for everything a battle request shows as an id, and every species' base stats, so
  // that builds read from battles and fallbacks for unknown species need no other data.
  const names = kind => Object.fromEntries(dex[kind].all().map(e => [e.id, e.name]));
  const dexSpecies = Object.fromEntries(dex.species.all().map(s => [s.id, [s.name, stats(s)]]));
  return {
    format: format.id, version, gen: dex.gen, species, aliases,
    items: names('items'), abilities: names('abilities'), dex_species: dexSpecies,
  };
}

module.exports = {formatData, folder, version};

if (require.main === module) {
  const format = Dex.formats.get(process.argv[2] || '');
  if (!format.exists || format.effectType !== 'Format') {
    fail(`unknown format ${JSON.stringify(process.argv[2])}`);
  }
  let generator;
  try {
    generator = Teams.getGenerator(format, '1,2,3,4');
  } catch (error) {
    fail(`no team generator for ${format.id}: ${error.message}`);
  }
  process.stdout.write(JSON.stringify(formatData(format, generator)) + '\n');
}
