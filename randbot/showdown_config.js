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

// Tests log in to registered names through a local stand-in login server
// (randbot/online/fakelogin.py); its public key lets this server verify the assertions it signs.
if (process.env.RANDBOT_SHOWDOWN_LOGIN_PUBLIC_KEY) {
	exports.loginserverkeyalgo = 'RSA-SHA1';
	exports.loginserverpublickey = process.env.RANDBOT_SHOWDOWN_LOGIN_PUBLIC_KEY;
}
