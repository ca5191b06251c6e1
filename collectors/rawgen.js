// The raw team generator alone, for comparison: getTeam() in a loop, timed inside Node.
// Usage: node rawgen.js FORMAT SEED TEAMS -> {"teams": N, "seconds": s}
'use strict';

const path = require('path');
const showdownDir = process.env.RANDBOT_SHOWDOWN_DIR ||
  path.join(__dirname, '..', 'node_modules', 'pokemon-showdown');
const {Teams} = require(showdownDir);

const [format, seed, teams] = process.argv.slice(2);
const generator = Teams.getGenerator(format, seed);
const started = process.hrtime.bigint();
for (let i = 0; i < Number(teams); i++) generator.getTeam();
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(JSON.stringify({teams: Number(teams), seconds}) + '\n');
