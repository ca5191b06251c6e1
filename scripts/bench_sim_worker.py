"""Simulated turns per second: through the worker from Python, against the same loop run in Node.

    python scripts/bench_sim_worker.py [--searches 40] [--deadline-ms 250] [--rollout-turns 0]

Both sides run the worker's own `search()` on the same specs (teams from the generator, seeded);
the direct run calls it inside one Node process, the worker run sends each search as a request
from Python and counts the wall time until its answer is parsed. The ratio is the worker's
overhead (JSON both ways, the pipe, Python's side). Run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from randbot.lookahead.worker import WORKER_SCRIPT, SimWorker
from randbot.nodejs import node_executable, node_modules_dir

# Writes the specs (one JSON line each) and, with "direct", times search() on them in-process.
SPECS_JS = r"""
const path = require('path');
const [script, root, n, mode, deadline, rollout] = process.argv.slice(1);
const {Teams} = require(path.join(root, 'pokemon-showdown', 'dist', 'sim', 'teams'));
const {toID} = require(path.join(root, 'pokemon-showdown', 'dist', 'sim', 'dex'));
const worker = require(script);
const team = (seed) => Teams.generate('gen9randombattle', {seed}).map((s) => ({
  species: s.species, level: s.level, moves: s.moves.map(toID), item: s.item, ability: s.ability,
  tera_type: s.teraType, evs: s.evs, ivs: s.ivs,
}));
const specs = [];
for (let i = 0; i < +n; i++) {
  specs.push({turn: 2, sides: {p1: {pokemon: team(`1,2,3,${i}`)}, p2: {pokemon: team(`4,5,6,${i}`)}}, field: {}});
}
if (mode === 'specs') {
  for (const spec of specs) process.stdout.write(JSON.stringify(spec) + '\n');
} else {
  for (const spec of specs.slice(0, 3)) worker.search({worlds: [{spec}], deadline_ms: 100});  // warm
  let turns = 0;
  const t0 = process.hrtime.bigint();
  for (const spec of specs) turns += worker.search({worlds: [{spec}], deadline_ms: +deadline, rollout_turns: +rollout}).turns;
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(JSON.stringify({turns, seconds: s}) + '\n');
}
"""


def node(mode: str, args: argparse.Namespace) -> str:
    command = [node_executable(), "-e", SPECS_JS, str(WORKER_SCRIPT), str(node_modules_dir())]
    command += [str(args.searches), mode, str(args.deadline_ms), str(args.rollout_turns)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"bench_sim_worker: node failed: {done.stderr.strip()[-300:]}")
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=40)
    parser.add_argument("--deadline-ms", type=float, default=250.0)
    parser.add_argument("--rollout-turns", type=int, default=0)
    args = parser.parse_args()
    specs = [json.loads(line) for line in node("specs", args).splitlines()]
    direct = json.loads(node("direct", args))
    with SimWorker() as worker:
        for spec in specs[:3]:  # warm, as the direct run does
            worker.request("search", worlds=[{"spec": spec}], deadline_ms=100)
        turns = 0
        started = time.perf_counter()
        for spec in specs:
            answer = worker.request(
                "search",
                timeout_s=30,
                worlds=[{"spec": spec}],
                deadline_ms=args.deadline_ms,
                rollout_turns=args.rollout_turns,
            )
            turns += answer["turns"]
        seconds = time.perf_counter() - started
    direct_rate = direct["turns"] / direct["seconds"]
    worker_rate = turns / seconds
    print(
        f"direct in Node: {direct['turns']} turns in {direct['seconds']:.2f} s = {direct_rate:.0f}/s"
    )
    print(f"through the worker: {turns} turns in {seconds:.2f} s = {worker_rate:.0f}/s")
    print(f"worker / direct: {worker_rate / direct_rate:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
