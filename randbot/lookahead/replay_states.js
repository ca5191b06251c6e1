'use strict';
// The real simulator's state at each of one side's decisions in a recorded battle.
//
//   node replay_states.js SIDE < inputLog.json   ->  one JSON line per choice SIDE made:
//     {"index": k, "force_switch": bool, "state": summarize(battle) just before that choice}
//   node replay_states.js end < inputLog.json   ->  {"turn": n, "winner": name}: where it leads
//
// The input log (the server's `inputLog`: start options with the seed, both players, every
// choice) is played again by Showdown's own Battle, as BattleStream would, so the battle and its
// states are exactly the recorded ones (with its dice per turn, where the log says so). Used by the fidelity check (randbot/lookahead/fidelity.py).

const crypto = require('crypto');
const path = require('path');
const {summarize} = require('./sim_worker');

const root = process.env.RANDBOT_NODE_MODULES || path.join(__dirname, '..', '..', 'node_modules');
const {Battle} = require(path.join(root, 'pokemon-showdown', 'dist', 'sim', 'battle'));

// A battle played with dice per turn (the server's `>randbot turndice`, see showdown_config.js)
// draws each turn's dice afresh from its seed and the turn's number: so does its replay.
const TURN_DICE = '>randbot turndice';

function turnSeed(battle) {
  const digest = crypto.createHash('sha256').update(`${battle.prngSeed}:turn:${battle.turn}`).digest();
  return [0, 2, 4, 6].map((i) => digest.readUInt16BE(i)).join(',');
}

function withTurnDice(battle) {
  const endTurn = battle.endTurn;
  battle.endTurn = function (...args) {
    const result = endTurn.apply(this, args);
    this.prng.setSeed(turnSeed(this));
    return result;
  };
  return battle;
}

function replay(inputLog, ourSide, emit, onStart = () => {}) {
  const turnDice = inputLog.includes(TURN_DICE);
  let battle = null;
  let index = 0;
  for (const line of inputLog) {
    const space = line.indexOf(' ');
    const type = line.slice(1, space < 0 ? undefined : space);
    const rest = space < 0 ? '' : line.slice(space + 1);
    if (type === 'start') {
      battle = new Battle({...JSON.parse(rest), send: () => {}});
      if (turnDice) withTurnDice(battle);
      onStart(battle);
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

// Where the whole input log leads: the turn reached and the winner's name ("" while none), to
// check that a replay is the recorded battle (`node replay_states.js end < inputLog.json`).
function replayToEnd(inputLog) {
  let battle = null;
  replay(inputLog, 'none', () => {}, (b) => { battle = b; });
  return {turn: battle ? battle.turn : 0, winner: battle && battle.winner ? battle.winner : ''};
}

if (require.main === module) {
  const inputLog = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const side = process.argv[2] || 'p1';
  if (side === 'end') process.stdout.write(JSON.stringify(replayToEnd(inputLog)) + '\n');
  else replay(inputLog, side, (x) => process.stdout.write(JSON.stringify(x) + '\n'));
}

module.exports = {replay, replayToEnd};
