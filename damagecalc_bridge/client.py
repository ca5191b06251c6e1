"""`DamageCalc`: the Python side of the bridge (see DESIGN.md, "Damage calc (Python)").

Speed matters more than anywhere else here: the bot asks for thousands of calcs per decision.
So every Pokémon, move and field is translated once and given a small integer handle that Node
also keeps (its calc object is built once); a request is then four integers, the cache key is a
tuple of them, and one batch is one line each way.
"""

from __future__ import annotations

import collections
import itertools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

import orjson

from damagecalc_bridge.errors import BridgeError, CalcError
from damagecalc_bridge.pressure import CpuPressure
from damagecalc_bridge.process import NodeCrash, NodeProcess
from damagecalc_bridge.result import DamageResult
from damagecalc_bridge.translate import Translator

log = logging.getLogger(__name__)

_SORTED = orjson.OPT_SORT_KEYS
KO_FLAG = 1
DESC_FLAG = 2
GEN_SHIFT = 2  # a cache key's last element: the flags, and the generation above them
GENERATIONS = range(1, 10)
SMALL_REQUEST = 4  # calcs in a request worth polling for (about 40-150 us of Node time each)
CHUNK = 32  # while a CPU is spare, larger batches stream to Node in chunks of this many calcs
DEPTH = 3  # chunks in flight at once (their answers stay far below a pipe's 64 kB)
POLL_PER_CALC = 100e-6  # poll for a chunk's answer this long per calc (and per ko/describe)...
POLL_CHUNK_MAX = 0.004  # ...at most, then block


class Mon:
    """A Pokémon translated once (see `DamageCalc.prepare`): reuse it across calls for speed."""

    __slots__ = ("handle", "spec")

    def __init__(self, handle: int, spec: dict[str, Any]) -> None:
        self.handle = handle
        self.spec = spec

    @property
    def species(self) -> str:
        return self.spec["name"]

    def __repr__(self) -> str:
        return f"Mon({self.handle}, {self.spec})"


class _Interned:
    """Canonical spec -> handle, and the raw inputs already seen -> handle.

    Handles are never reused, so a cache entry keyed on old handles can only go stale by being
    unreachable; `clear()` bounds memory without invalidating anything.
    """

    def __init__(self, counter: itertools.count) -> None:
        self._counter = counter
        self.by_canonical: dict[bytes, int] = {}
        self.by_raw: dict[Any, int] = {}
        self.specs: dict[int, dict[str, Any]] = {}

    def intern(self, spec: dict[str, Any]) -> int:
        canonical = orjson.dumps(spec)
        handle = self.by_canonical.get(canonical)
        if handle is None:
            handle = next(self._counter)
            self.by_canonical[canonical] = handle
            self.specs[handle] = spec
        return handle

    def __len__(self) -> int:
        return len(self.specs)

    def clear(self) -> None:
        self.by_canonical.clear()
        self.by_raw.clear()
        self.specs.clear()


class _Pipeline:
    """One batch streaming to Node in chunks, up to DEPTH in flight; answers in order.

    Used only while a CPU is spare (see `DamageCalc._compute`): Node computes one chunk while
    this side builds, sends and decodes the others, and with both sides polling neither sleeps.
    `results` holds the results of every chunk answered so far, in the order submitted. A crash
    or hang restarts Node once and resends what was not answered yet (with the definitions the
    new process lacks), as `_call` does for one request; any other error drains what is still
    in flight, so the next request is in step.
    """

    def __init__(self, owner: DamageCalc, ko: bool, describe: bool) -> None:
        self.owner = owner
        self.ko = ko
        self.describe = describe
        self.kinds = 1 + ko + describe  # kochance() and desc() cost about a calc each
        self.chunks: list[list[tuple]] = []
        self.sent = 0  # chunks sent to the current process
        self.done = 0  # chunks answered
        self.in_flight: collections.deque[tuple[int, int, list[int]]] = collections.deque()
        self.results: list[DamageResult] = []
        self.failure: Exception | None = None  # the crash already retried once

    def submit(self, chunk: list[tuple]) -> None:
        self.chunks.append(chunk)
        self._run(until_done=False)

    def finish(self) -> list[DamageResult]:
        self._run(until_done=True)
        return self.results

    def abandon(self) -> None:
        """Read and drop the answers still owed (after an error outside the pipeline)."""
        owner = self.owner
        process = owner._process
        if process is None or not self.in_flight:
            return
        try:
            for _index, request_id, new in self.in_flight:
                answer = orjson.loads(process.receive(owner.timeout))
                if not isinstance(answer, dict) or answer.get("id") != request_id:
                    raise NodeCrash("answer out of step")
                if "error" in answer:
                    owner._known.difference_update(new)
        except (NodeCrash, orjson.JSONDecodeError):
            process.kill()
        self.in_flight.clear()

    def _run(self, until_done: bool) -> None:
        while True:
            try:
                while self.sent < len(self.chunks) and len(self.in_flight) < DEPTH:
                    self._send()
                if not self.in_flight or (not until_done and self.sent == len(self.chunks)):
                    return
                self._receive()
            except (NodeCrash, orjson.JSONDecodeError) as error:
                self._recover(error)
            except BaseException:
                self.abandon()
                raise

    def _send(self) -> None:
        owner = self.owner
        process = owner._process
        if process is None or not process.alive():
            raise NodeCrash("node is not running")
        message, new = owner._calc_message(self.chunks[self.sent], self.ko, self.describe, True)
        process.send(orjson.dumps(message), owner.timeout)
        owner._known.update(new)  # Node handles requests in order: later chunks may use them
        self.in_flight.append((self.sent, message["id"], new))
        self.sent += 1

    def _receive(self) -> None:
        owner = self.owner
        process = owner._process
        assert process is not None
        index, request_id, new = self.in_flight[0]
        chunk = self.chunks[index]
        calcs = len(chunk) * self.kinds
        line = process.receive(
            owner.timeout + calcs * owner.per_calc_timeout,
            min(POLL_CHUNK_MAX, calcs * POLL_PER_CALC),
        )
        answer = orjson.loads(line)
        if type(answer) is not dict or answer.get("id") != request_id:
            raise NodeCrash(f"answer out of step: {line[:200]!r}")
        self.in_flight.popleft()
        if "error" in answer:
            owner._known.difference_update(new)  # the definitions may have failed
            raise CalcError(
                f"calc: {answer['error']}", field=answer.get("field"), value=answer.get("value")
            )
        self.results += owner._store_rows(chunk, answer)
        self.done += 1

    def _recover(self, error: Exception) -> None:
        owner = self.owner
        process = owner._process
        stderr = ""
        if process is not None:
            process.kill()
            stderr = process.stderr_text()
        if self.failure is not None:
            raise BridgeError(f"the calc bridge failed twice: {error}", stderr)
        self.failure = error
        self.in_flight.clear()
        owner._restart(str(error))  # a fresh process knows no handles: resend with definitions
        self.sent = self.done


class DamageCalc:
    """@smogon/calc in one long-lived Node process.

    >>> with DamageCalc(gen=9) as calc:
    ...     r = calc.damage({"species": "Great Tusk", "level": 77}, {"species": "Gholdengo"},
    ...                     "Headlong Rush")
    ...     r.rolls, r.min_percent, r.max_percent, r.ko_chance, r.ko_hits

    `gen` (1-9) is `Generations.get(gen)` in the calc: names are checked against that
    generation's tables, and what it lacks (terastallization before 9, Dynamax outside 8,
    Z-moves outside 7, abilities and natures before 3, items in 1, later weathers, terrains and
    side conditions) raises `CalcError` naming the field. Gen 8 Pokémon take `isDynamaxed` (and
    the set's `dynamaxLevel`), gen 8 moves `{"useMax": True}`, gen 7 moves `{"useZ": True}`.
    """

    def __init__(
        self,
        gen: int = 9,
        *,
        cache_size: int = 50_000,
        timeout: float = 10.0,
        per_calc_timeout: float = 0.002,
        warmup: int = 3000,
        # ~4.5 KB an entry (a spec with its canonical bytes, or a raw input), ~100 entries a random
        # battle: 5,000 hold ~22 MB (at 50,000 they grew the process ~0.45 MB a battle to ~220 MB).
        max_handles: int = 5_000,
        poll_us: float = 300.0,
        node_poll_us: float = 500.0,
        lean: bool = True,
    ) -> None:
        if isinstance(gen, bool) or not isinstance(gen, int) or gen not in GENERATIONS:
            raise CalcError(f"gen: expected a generation 1-9, got {gen!r}", "gen", gen)
        self.gen = gen
        # Every cache key carries the generation (with the ko/describe flags), so a result can
        # never answer for another generation's calc, even if keys were ever shared.
        self._key_gen = gen << GEN_SHIFT
        self.cache_size = cache_size
        self.timeout = timeout
        self.per_calc_timeout = per_calc_timeout
        self.warmup = warmup
        self.max_handles = max_handles
        # Polling instead of sleeping, only while a CPU is spare (see pressure.py): here for a
        # short answer (small requests only: a batch that takes milliseconds never burns a CPU
        # waiting), in Node for the next request (bridge.js, RequestReader).
        self.poll_seconds = poll_us / 1e6
        self.node_poll_us = node_poll_us
        # Node copies one prebuilt clone per object instead of calling the calc's clone() per
        # calc (bridge.js, leanCalculate): same results, ~30% less Node time per calc.
        self.lean = lean
        self._pressure = CpuPressure()
        self._lock = threading.RLock()
        self._process: NodeProcess | None = None
        self._translator: Translator | None = None
        self._ids = itertools.count(1)
        counter = itertools.count(1)  # handle 0 is the empty field, predefined in Node
        self._mons = _Interned(counter)
        self._moves = _Interned(counter)
        self._fields = _Interned(counter)
        self._move_by_name: dict[str, int] = {}
        self._known: set[int] = {0}  # handles Node has built (cleared when it restarts)
        self._cache: OrderedDict[tuple, DamageResult] = OrderedDict()
        self._stats_cache: dict[tuple, dict[str, int]] = {}
        self._pipeline: _Pipeline | None = None  # a batch streaming to Node (damage_many)
        self.hits = 0
        self.misses = 0
        self.restarts = 0

    # -- life cycle ------------------------------------------------------------------------------

    def __enter__(self) -> DamageCalc:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        with self._lock:
            if self._process is None or not self._process.alive():
                self._spawn()

    def close(self) -> None:
        with self._lock:
            if self._process is not None:
                self._process.close()
                self._process = None

    @property
    def pid(self) -> int | None:
        """The Node process id (tests kill it to check the restart)."""
        return self._process.pid if self._process else None

    @property
    def start_seconds(self) -> float:
        """Node start-to-ready time of the current process, warm-up included."""
        return self._process.start_seconds if self._process else 0.0

    @property
    def warmup_seconds(self) -> float:
        """Time the current Node process spent on its warm-up calcs before it was ready."""
        return float(self._process.ready_info.get("warmupSeconds", 0.0)) if self._process else 0.0

    @property
    def translator(self) -> Translator:
        if self._translator is None:
            self.start()
        assert self._translator is not None
        return self._translator

    def _spawn(self) -> None:
        process = NodeProcess(
            gen=self.gen, warmup=self.warmup, spin_us=self.node_poll_us, lean=self.lean
        )
        process.start()
        self._process = process
        self._known = {0}
        if self._translator is None:
            names = self._simple_call({"op": "names"})
            self._translator = Translator(names, self._resolve)

    def _restart(self, reason: str) -> None:
        old = self._process
        if old is not None:
            old.kill()
        stderr = old.stderr_text() if old else ""
        self._process = None
        self.restarts += 1
        log.warning(
            '{"event": "calc_bridge_restart", "reason": %s, "stderr": %s}',
            orjson.dumps(reason).decode(),
            orjson.dumps(stderr[-500:]).decode(),
        )
        self._spawn()

    # -- round trips -----------------------------------------------------------------------------

    def _call(self, build, timeout: float, poll: float = 0.0, attempts: int = 2) -> dict[str, Any]:
        """One request; a crash or hang restarts Node and retries once (rebuilding the defs)."""
        if self._pipeline is not None:
            # A request while a batch streams (translating a new Pokémon may ask Node about its
            # forme): its answer would come after the chunks', so collect those first.
            self._pipeline.finish()
        last_error: Exception | None = None
        stderr = ""
        for _attempt in range(attempts):
            if self._process is None or not self._process.alive():
                if self._process is None and last_error is None:
                    self._spawn()
                else:
                    self._restart(str(last_error or "node is not running"))
            assert self._process is not None
            message, new_handles = build()
            message["id"] = request_id = next(self._ids)
            try:
                line = self._process.request(orjson.dumps(message), timeout, poll)
                answer = orjson.loads(line)
                if not isinstance(answer, dict) or answer.get("id") != request_id:
                    raise NodeCrash(f"answer out of step: {line[:200]!r}")
            except (NodeCrash, orjson.JSONDecodeError) as error:
                last_error = error
                self._process.kill()
                stderr = self._process.stderr_text()
                continue
            if "error" in answer:
                raise CalcError(
                    f"calc: {answer['error']}", field=answer.get("field"), value=answer.get("value")
                )
            self._known.update(new_handles)
            return answer
        raise BridgeError(f"the calc bridge failed twice: {last_error}", stderr)

    def _simple_call(
        self, message: dict[str, Any], timeout: float | None = None, poll: float = 0.0
    ) -> dict:
        return self._call(lambda: (dict(message), ()), timeout or self.timeout, poll)

    def _poll_small(self) -> float:
        return self.poll_seconds if self._pressure.quiet() else 0.0

    def _resolve(self, **query: list[str]) -> dict:
        return self._simple_call({"op": "resolve", **query})

    # -- translation to handles ------------------------------------------------------------------

    def prepare(self, pokemon: Mapping[str, Any] | Mon, role: str = "pokemon") -> Mon:
        """Translate a Pokémon once; pass the returned `Mon` instead of the dict for speed."""
        with self._lock:
            if isinstance(pokemon, Mon):
                return pokemon
            spec = self.translator.mon(pokemon, role)
            handle = self._mons.intern(spec)
            return Mon(handle, self._mons.specs[handle])

    def _mon_handle(self, value: Any, role: str, memo: dict[int, int] | None) -> int:
        if type(value) is Mon:
            if value.handle not in self._mons.specs:  # prepared before a table reset
                self._mons.specs[value.handle] = value.spec
            return value.handle
        if memo is not None:
            handle = memo.get(id(value))
            if handle is not None:
                return handle
        try:
            raw = orjson.dumps(value, option=_SORTED)
        except TypeError:
            raw = None
        handle = self._mons.by_raw.get(raw) if raw is not None else None
        if handle is None:
            handle = self._mons.intern(self.translator.mon(value, role))
            if raw is not None:
                self._mons.by_raw[raw] = handle
        if memo is not None:
            memo[id(value)] = handle
        return handle

    def _move_handle(self, move: Any) -> int:
        if type(move) is str:
            handle = self._move_by_name.get(move)
            if handle is None:
                handle = self._moves.intern(self.translator.move(move))
                self._move_by_name[move] = handle
            return handle
        if isinstance(move, Mapping):
            raw = orjson.dumps(move, option=_SORTED)
            handle = self._moves.by_raw.get(raw)
            if handle is None:
                handle = self._moves.intern(self.translator.move(move))
                self._moves.by_raw[raw] = handle
            return handle
        return self._moves.intern(self.translator.move(move))

    def _field_handle(self, field: Any) -> int:
        if not field:
            return 0
        try:
            raw = orjson.dumps(field, option=_SORTED)
        except TypeError:
            raw = None
        handle = self._fields.by_raw.get(raw) if raw is not None else None
        if handle is None:
            spec = self.translator.field(field)
            handle = self._fields.intern(spec) if spec else 0
            if raw is not None:
                self._fields.by_raw[raw] = handle
        return handle

    def _bound_tables(self) -> None:
        # Bounded memory for long runs: forget all handles at once (Node too) when too many. The
        # results cached under the old handles can no longer be asked for: they go too.
        tables = (self._mons, self._moves, self._fields)
        if sum(len(table.specs) + len(table.by_raw) for table in tables) > self.max_handles:
            self._cache.clear()
            self._mons.clear()
            self._moves.clear()
            self._fields.clear()
            self._move_by_name.clear()
            self._stats_cache.clear()
            self._known = {0}
            if self._process is not None and self._process.alive():
                self._simple_call({"op": "reset"})

    def _defs(self, flat: list[int]) -> tuple[dict, list[int]]:
        """Definitions of the handles in `flat` that the Node process has not built yet."""
        if self._known.issuperset(flat):  # the common case, without building a set
            return {}, []
        new = [handle for handle in set(flat) - self._known]
        if not new:
            return {}, new
        defs: dict[str, list] = {}
        for name, table in (("m", self._mons), ("v", self._moves), ("f", self._fields)):
            specs = table.specs
            found = [(handle, specs[handle]) for handle in new if handle in specs]
            if found:
                defs[name] = found
        return defs, new

    # -- damage ----------------------------------------------------------------------------------

    def damage(
        self,
        attacker: Mapping[str, Any] | Mon,
        defender: Mapping[str, Any] | Mon,
        move: Any,
        field: Mapping[str, Any] | None = None,
        *,
        ko: bool = True,
        describe: bool = False,
    ) -> DamageResult:
        """One calc. `describe=True` adds the calc's one-line description."""
        with self._lock:
            if self._translator is None:
                self.start()
            key = (
                self._mon_handle(attacker, "attacker", None),
                self._mon_handle(defender, "defender", None),
                self._move_handle(move),
                self._field_handle(field),
                (KO_FLAG if ko else 0) | (DESC_FLAG if describe else 0) | self._key_gen,
            )
            result = self._cache.get(key)
            if result is not None:
                self._cache.move_to_end(key)
                self.hits += 1
                return result
            self.misses += 1
            result = self._compute_one(key, ko, describe)
            self._bound_tables()
            return result

    def damage_many(
        self,
        requests: Iterable[Sequence[Any]],
        *,
        ko: bool = True,
        describe: bool = False,
    ) -> list[DamageResult]:
        """Many calcs in one round trip: requests are (attacker, defender, move[, field]).

        `ko=False` skips the calc's kochance() (about half the Node time) when only rolls and
        percentages are needed; results then have `ko_chance` None.
        """
        batch = requests if isinstance(requests, list | tuple) else list(requests)
        flags = (KO_FLAG if ko else 0) | (DESC_FLAG if describe else 0) | self._key_gen
        with self._lock:
            if self._translator is None:
                self.start()
            cache = self._cache
            out: list[Any] = [None] * len(batch)
            pending: dict[tuple, list[int]] = {}
            memo: dict[int, int] = {}  # id(dict) -> handle; safe: `batch` keeps the dicts alive
            # While a CPU is spare, a large batch streams: each CHUNK of new keys goes to Node as
            # soon as it is known, so Node computes while this loop still runs (see _Pipeline).
            pipeline = None
            if len(batch) > CHUNK and self._pressure.quiet():
                pipeline = self._pipeline = _Pipeline(self, ko, describe)
            fresh: list[tuple] = []
            # The loop below runs thousands of times per decision: locals and inlined fast
            # cases (a dict already seen in this batch, a move name already seen, no field).
            mon_handle = self._mon_handle
            move_handle = self._move_handle
            field_handle = self._field_handle
            move_by_name = self._move_by_name
            cache_get = cache.get
            started = time.perf_counter()
            try:
                for index, request in enumerate(batch):
                    try:
                        if len(request) == 4:
                            attacker, defender, move, field = request
                        else:
                            attacker, defender, move = request
                            field = None
                    except (TypeError, ValueError):
                        raise CalcError(
                            f"request {index}: expected (attacker, defender, move[, field]), "
                            f"got {request!r}",
                            "request",
                            request,
                        ) from None
                    a = memo.get(id(attacker))
                    if a is None:
                        a = mon_handle(attacker, "attacker", memo)
                    d = memo.get(id(defender))
                    if d is None:
                        d = mon_handle(defender, "defender", memo)
                    v = move_by_name.get(move) if type(move) is str else None
                    if v is None:
                        v = move_handle(move)
                    key = (a, d, v, 0 if field is None else field_handle(field), flags)
                    result = cache_get(key)
                    if result is not None:
                        cache.move_to_end(key)
                        out[index] = result
                        continue
                    waiting = pending.get(key)
                    if waiting is None:
                        pending[key] = [index]
                        if pipeline is not None:
                            fresh.append(key)
                            if len(fresh) == CHUNK:
                                pipeline.submit(fresh)
                                fresh = []
                    else:
                        waiting.append(index)
                if pipeline is not None:
                    if fresh:
                        pipeline.submit(fresh)
                    computed = pipeline.finish()
            except BaseException:
                if pipeline is not None:
                    pipeline.abandon()
                raise
            finally:
                self._pipeline = None
            self.hits += len(batch) - sum(len(v) for v in pending.values())
            if pending:
                self.misses += len(pending)
                if pipeline is None:
                    computed = self._compute(list(pending), ko, describe)
                for indices, result in zip(pending.values(), computed, strict=True):
                    for index in indices:
                        out[index] = result
                if log.isEnabledFor(logging.DEBUG):
                    log.debug(
                        '{"event": "calc_batch", "requests": %d, "computed": %d, "ms": %.2f}',
                        len(batch),
                        len(pending),
                        1000 * (time.perf_counter() - started),
                    )
            self._bound_tables()
            return out

    def _compute_one(self, key: tuple, ko: bool, describe: bool) -> DamageResult:
        """`_compute([key])` with fewer steps for the common case (Node running, every handle
        already defined): a single calc is a round trip of a few dozen microseconds, and each
        Python step on the way shows. Anything else takes the general path."""
        process = self._process
        known = self._known
        a, d, v, f, _flags = key
        if (
            process is None
            or not process.alive()
            or not (a in known and d in known and v in known and f in known)
        ):
            return self._compute([key], ko, describe)[0]
        spin = self._pressure.quiet()
        request_id = next(self._ids)
        payload = b'{"op":"calc","c":[%d,%d,%d,%d],"ko":%s,"desc":%s,%s"id":%d}' % (
            a,
            d,
            v,
            f,
            b"true" if ko else b"false",
            b"true" if describe else b"false",
            b'"s":1,' if spin else b"",
            request_id,
        )
        timeout = self.timeout + self.per_calc_timeout * (1 + ko + describe)
        try:
            line = process.request(payload, timeout, self.poll_seconds if spin else 0.0)
            answer = orjson.loads(line)
            if type(answer) is not dict or answer.get("id") != request_id:
                raise NodeCrash(f"answer out of step: {line[:200]!r}")
        except (NodeCrash, orjson.JSONDecodeError):
            process.kill()
            return self._compute([key], ko, describe, attempts=1)[0]  # restart, retry once
        rows = answer.get("r")
        if type(rows) is not list or len(rows) != 1 or type(rows[0]) is not list:
            self._raise_for([key], answer)
        result = tuple.__new__(DamageResult, rows[0])
        cache = self._cache
        cache[key] = result
        if len(cache) > self.cache_size:
            cache.popitem(last=False)
        return result

    def _raise_for(self, keys: list[tuple], answer: dict) -> NoReturn:
        """The error an answer that is not a plain list of result rows stands for."""
        if "error" in answer:
            raise CalcError(
                f"calc: {answer['error']}", field=answer.get("field"), value=answer.get("value")
            )
        rows = answer.get("r") or []
        if len(rows) != len(keys):
            raise BridgeError(f"the bridge answered {len(rows)} results for {len(keys)} calcs")
        for key, row in zip(keys, rows, strict=True):
            if type(row) is dict:
                raise CalcError(f"calc failed for {self._describe_key(key)}: {row.get('e')}")
        raise BridgeError(f"unexpected answer from the bridge: {str(answer)[:200]}")

    def _compute(
        self, keys: list[tuple], ko: bool, describe: bool, attempts: int = 2
    ) -> list[DamageResult]:
        """Ask Node for these (distinct, uncached) keys; cache and return the results.

        While a CPU is spare, a batch of more than CHUNK calcs streams to Node in chunks
        (`_Pipeline`): Node computes one chunk while this side turns the previous answer into
        results and sends the next, and both sides poll instead of sleeping. On a busy machine
        there is no second CPU to overlap on and each extra message costs a process switch, so
        a batch is one request (measured at load 4 on 2 CPUs: 5% more CPU per calc pipelined in
        4 chunks).
        """
        size = len(keys)
        spin = self._pressure.quiet()
        if size > CHUNK and spin:
            pipeline = _Pipeline(self, ko, describe)
            for start in range(0, size, CHUNK):
                pipeline.submit(keys[start : start + CHUNK])
            return pipeline.finish()
        # A few calcs are answered in well under a millisecond: poll for them (__init__).
        poll = self.poll_seconds if spin and size <= SMALL_REQUEST else 0.0
        timeout = self.timeout + size * self.per_calc_timeout * (1 + ko + describe)
        answer = self._call(
            lambda: self._calc_message(keys, ko, describe, spin), timeout, poll, attempts
        )
        return self._store_rows(keys, answer)

    def _store_rows(self, keys: list[tuple], answer: dict) -> list[DamageResult]:
        """The answer's result rows for `keys`, each cached (the cache kept to its bound)."""
        rows = answer.get("r")
        if type(rows) is not list or len(rows) != len(keys):
            self._raise_for(keys, answer)
        cache = self._cache
        make = tuple.__new__  # DamageResult.from_row, without the method call
        results = []
        for key, row in zip(keys, rows):  # noqa: B905 (lengths checked above)
            if type(row) is not list:
                self._raise_for(keys, answer)
            result = make(DamageResult, row)
            cache[key] = result
            results.append(result)
        while len(cache) > self.cache_size:
            cache.popitem(last=False)
        return results

    def _calc_message(
        self, chunk: list[tuple], ko: bool, describe: bool, spin: bool
    ) -> tuple[dict, list]:
        flat: list[int] = []
        extend = flat.extend
        for a, d, v, f, _flags in chunk:
            extend((a, d, v, f))
        defs, new = self._defs(flat)
        message: dict[str, Any] = {"op": "calc", "c": flat, "ko": ko, "desc": describe}
        if defs:
            message["defs"] = defs
        if spin:
            message["s"] = 1  # Node may poll for the next request (a CPU is spare)
        message["id"] = next(self._ids)
        return message, new

    def _describe_key(self, key: tuple) -> str:
        a, d, v, _f = key[:4]
        attacker = self._mons.specs.get(a, {}).get("name")
        defender = self._mons.specs.get(d, {}).get("name")
        move = self._moves.specs.get(v, {}).get("name")
        return f"{attacker} {move} vs. {defender}"

    # -- stats -----------------------------------------------------------------------------------

    def stats(
        self,
        pokemon: Mapping[str, Any] | Mon,
        field: Mapping[str, Any] | None = None,
        side: str = "attacker",
    ) -> dict[str, int]:
        """The calc's stats for one Pokémon: hp (max), boosted atk/def/spa/spd, final speed."""
        return self.stats_many([(pokemon, field, side)])[0]

    def stats_many(self, requests: Iterable[Sequence[Any]]) -> list[dict[str, int]]:
        """Batched `stats`: requests are (pokemon[, field[, side]]), side "attacker"/"defender".

        Speed includes boosts, Choice Scarf, paralysis, speed abilities in their weather or
        terrain, and Tailwind on that side of the field (the calc's getFinalSpeed).
        """
        batch = requests if isinstance(requests, list | tuple) else list(requests)
        with self._lock:
            if self._translator is None:
                self.start()
            self._bound_tables()
            memo: dict[int, int] = {}
            keys = []
            for request in batch:
                pokemon, field, side = (list(request) + [None, "attacker"])[:3]
                if side not in ("attacker", "defender"):
                    raise CalcError(f"stats: side must be attacker or defender, got {side!r}")
                keys.append(
                    (
                        self._mon_handle(pokemon, "pokemon", memo),
                        self._field_handle(field),
                        1 if side == "defender" else 0,
                    )
                )
            missing = [key for key in dict.fromkeys(keys) if key not in self._stats_cache]
            if missing:

                def build() -> tuple[dict, list[int]]:
                    defs, new = self._defs([h for m, f, _ in missing for h in (m, f)])
                    return {"op": "stats", "s": missing, "defs": defs}, new

                rows = self._call(build, self.timeout)["r"]
                if len(self._stats_cache) > 100_000:
                    self._stats_cache.clear()
                self._stats_cache.update(zip(missing, rows, strict=True))
            return [self._stats_cache[key] for key in keys]

    # -- introspection and benchmarking ----------------------------------------------------------

    def cache_clear(self) -> None:
        with self._lock:
            self._cache.clear()
            self._stats_cache.clear()

    def cache_info(self) -> dict[str, int]:
        return {"size": len(self._cache), "hits": self.hits, "misses": self.misses, "gen": self.gen}

    @staticmethod
    def key_gen(key: tuple) -> int:
        """The generation a cache key (an element of the result cache) was computed in."""
        return key[-1] >> GEN_SHIFT

    def node_cpu_seconds(self) -> float:
        """CPU time the Node process has used so far (for load-independent benchmarks)."""
        with self._lock:
            return float(self._simple_call({"op": "cpu"}, poll=self._poll_small())["cpuSeconds"])

    def raw_throughput(
        self, requests: Sequence[Sequence[Any]], seconds: float = 1.0, ko: bool = False
    ) -> tuple[float, float]:
        """calculate() calls per second inside the Node process, on the same prebuilt objects:
        (per wall-clock second, per CPU second)."""
        with self._lock:
            memo: dict[int, int] = {}
            flat = []
            quads = []
            for request in requests:
                attacker, defender, move, *rest = request
                quad = (
                    self._mon_handle(attacker, "attacker", memo),
                    self._mon_handle(defender, "defender", memo),
                    self._move_handle(move),
                    self._field_handle(rest[0] if rest else None),
                )
                quads.append(quad)
                flat.extend(quad)

            def build() -> tuple[dict, list[int]]:
                defs, new = self._defs(flat)
                return {"op": "raw", "c": flat, "seconds": seconds, "ko": ko, "defs": defs}, new

            answer = self._call(build, self.timeout + seconds * 3)
            return (
                answer["count"] / answer["seconds"],
                answer["count"] / max(answer["cpuSeconds"], 1e-9),
            )

    def ping(self) -> bool:
        with self._lock:
            return bool(self._simple_call({"op": "ping"}, poll=self._poll_small()).get("pong"))

    def _debug_sleep(self, ms: int, timeout: float) -> dict:
        """Make Node block for `ms` (tests of the hang handling)."""
        with self._lock:
            return self._call(lambda: ({"op": "sleep", "ms": ms}, ()), timeout)
