'use strict';
// The real simulator's state at each of one side's decisions in a recorded battle.
//
//   node replay_states.js SIDE < inputLog.json   ->  one JSON line per choice SIDE made:
//     {"index": k, "force_switch": bool, "state": summarize(battle) just before that choice}
//
// The input log (the server's `inputLog`: start options with the seed, both players, every
// choice) is played again by Showdown's own Battle, as BattleStream would, so the battle and its
// states are exactly the recorded ones. Used by the fidelity check (randbot/lookahead/fidelity.py).

const path = require('path');
const {summarize} = require('./sim_worker');

const root = process.env.RANDBOT_NODE_MODULES || path.join(__dirname, '..', '..', 'node_modules');
const {Battle} = require(path.join(root, 'pokemon-showdown', 'dist', 'sim', 'battle'));

function replay(inputLog, ourSide, emit) {
  let battle = null;
  let index = 0;
  for (const line of inputLog) {
    const space = line.indexOf(' ');
    const type = line.slice(1, space < 0 ? undefined : space);
    const rest = space < 0 ? '' : line.slice(space + 1);
    if (type === 'start') {
      battle = new Battle({...JSON.parse(rest), send: () => {}});
    } else if (type === 'player') {
      const slot = rest.slice(0, 2);
      battle.setPlayer(slot, JSON.parse(rest.slice(3)));
    } else if (type === 'p1' || type === 'p2') {
      if (type === ourSide) {
        const req = battle.getSide(type).activeRequest;
        const state = summarize(battle);
        // an active in disguise (Illusion): what the protocol showed of it was the disguise
        for (const side of battle.sides) {
          const active = side.active[0];
          if (active && active.illusion) state.sides[side.id].illusion = active.illusion.species.name;
        }
        emit({index, force_switch: !!(req && req.forceSwitch), state});
        index++;
      }
      battle.choose(type, rest);
    }
    if (battle) battle.log = [];
  }
}

if (require.main === module) {
  const inputLog = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  replay(inputLog, process.argv[2] || 'p1', (x) => process.stdout.write(JSON.stringify(x) + '\n'));
}

module.exports = {replay};
