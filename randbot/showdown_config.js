// randbot's config for a local Pokémon Showdown server (written to config/config.js by LocalShowdown).
// Per-instance settings come from the environment, so several servers can share this one file.
'use strict';

exports.port = 8000;
exports.bindaddress = '127.0.0.1';
exports.subprocesses = 0;
exports.nothrottle = true;
exports.noguestsecurity = true;
exports.noipchecks = true;
exports.repl = false;
exports.watchconfig = false;
exports.crashguard = true;
exports.reportbattles = false;
exports.reportbattlejoins = false;
exports.autolockdown = false;
exports.logsdir = process.env.RANDBOT_SHOWDOWN_LOGSDIR || 'logs';
exports.logchallenges = !!process.env.RANDBOT_SHOWDOWN_BATTLE_LOGS;

// Finished battle rooms otherwise live ten minutes after everyone leaves; over thousands of
// battles that is most of the server's memory. Expire each room shortly after its battle ends,
// once the battle log (if any) has been written.
const ROOM_EXPIRE_AFTER_END_MS = Number(process.env.RANDBOT_SHOWDOWN_EXPIRE_MS || 15000);
exports.handlers = {
	onBattleEnd(battle) {
		const room = battle.room;
		const timer = setTimeout(() => {
			try {
				if (Rooms.get(room.roomid) === room && room.battle?.ended) room.expire();
			} catch (e) { console.log('expire failed: ' + e.stack); }
			if (process.env.RANDBOT_SHOWDOWN_DEBUG) console.log(`expired ${room.roomid}; rooms ${Rooms.rooms.size}; users ${Users.users.size}`);
		}, ROOM_EXPIRE_AFTER_END_MS);
		if (timer.unref) timer.unref();
	},
};

// Seeded battles (`randbot play --seed`): the n-th battle this server creates gets a seed derived
// from the base seed and n, so two runs with the same seed deal the same teams in the same order.
// Paired comparisons of two players then differ only by their decisions, not by their luck of the draw.
// `/randbotseed KEY [N]` (any user: this server binds 127.0.0.1 only) makes KEY the base and counts
// on from N: `randbot evaluate` sends it before each chunk of battles, so a chunk's teams depend on the
// run's seed and the chunk, not on which of its servers plays the chunk, or after what.
if (process.env.RANDBOT_SHOWDOWN_BATTLE_SEED) {
	let base = String(process.env.RANDBOT_SHOWDOWN_BATTLE_SEED);
	const crypto = require('crypto');
	const seedOf = (text) => {
		const digest = crypto.createHash('sha256').update(text).digest();
		return [0, 2, 4, 6].map(i => digest.readUInt16BE(i)).join(',');
	};
	// Battles run in this process (subprocesses 0): each player's random team is drawn from a seed
	// derived from the battle's own seed and the player's slot, instead of a fresh random one.
	const {Battle} = require('../dist/sim/battle');
	const getTeam = Battle.prototype.getTeam;
	Battle.prototype.getTeam = function (options) {
		if (options && !options.team && !options.seed) {
			const slot = this.sides.filter(Boolean).length;
			options.seed = seedOf(`${this.prng.startingSeed}:team:${slot}`);
		}
		return getTeam.call(this, options);
	};
	let created = 0;
	const install = () => {
		if (typeof Rooms === 'undefined' || !Rooms.createBattle) return void setTimeout(install, 20);
		const createBattle = Rooms.createBattle;
		Rooms.createBattle = function (options, ...rest) {
			created++;
			if (options && !options.seed && !options.inputLog) options.seed = seedOf(`${base}:${created}`);
			return createBattle.call(this, options, ...rest);
		};
	};
	setTimeout(install, 0);
	exports.commands = {
		randbotseed(target) {
			const [key, after = '0'] = target.trim().split(/\s+/);
			if (!key || !/^\d+$/.test(after)) return this.errorReply('Usage: /randbotseed KEY [N]');
			base = key;
			created = Number(after); // no reply: poke-env would log it as an unhandled message
		},
	};
}

// Tests log in to registered names through a local stand-in login server
// (randbot/online/fakelogin.py); its public key lets this server verify the assertions it signs.
if (process.env.RANDBOT_SHOWDOWN_LOGIN_PUBLIC_KEY) {
	exports.loginserverkeyalgo = 'RSA-SHA1';
	exports.loginserverpublickey = process.env.RANDBOT_SHOWDOWN_LOGIN_PUBLIC_KEY;
}
